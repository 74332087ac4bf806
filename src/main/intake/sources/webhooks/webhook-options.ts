/** The webhook source's options (IntakeParts.webhook). */
export interface WebhookSourceOptions {
  readonly port: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** Accepted signing secrets; at least one. */
  readonly secrets: readonly string[];
}
