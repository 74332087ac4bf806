/** The message of anything thrown, for a log line (the poller and the webhook receiver log failures this way). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
