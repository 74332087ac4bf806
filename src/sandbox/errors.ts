/**
 * The sandbox's own error base. The sandbox stands for an outside party (the service), so
 * it shares no code with the agent: a stable `code` to switch on and a message that says
 * what to fix, like the agent's errors, but defined here.
 */
export class SandboxError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}
