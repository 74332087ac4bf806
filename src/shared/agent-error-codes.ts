/**
 * The stable codes of the errors the agent itself, its IPC and its web bridge (and the
 * clients on the other side of them) put in an AgentErrorPayload. The UI, tests and logs
 * switch on these values: change one only with its readers. Errors from deeper layers
 * keep their own registries (API_ERROR_CODES, JOB_ERROR_CODES, PRINT_ERROR_CODES, …) and
 * cross unchanged.
 */
export const AGENT_ERROR_CODES = {
  // The agent (src/main/agent)
  /** An uncoded failure: a bug, or an error nothing above it expected. */
  INTERNAL: 'INTERNAL',
  /** No API key (and no demo): connect the account first. */
  NOT_CONNECTED: 'NOT_CONNECTED',
  /** A new service address needs the API key entered again. */
  API_KEY_REQUIRED: 'API_KEY_REQUIRED',
  /** A printer URI that is not one of this station's printers. */
  UNKNOWN_PRINTER: 'UNKNOWN_PRINTER',
  /** AgentStatus.lastError: the last job failed (its reason is the message). */
  JOB_FAILED: 'JOB_FAILED',
  /** A site operation on a station that runs without `--site`, or while the site is out of reach. */
  SITE_UNAVAILABLE: 'SITE_UNAVAILABLE',

  // Any operation, over IPC or the bridge (src/main/agent/operation-dispatcher.ts)
  /** The input breaks the operation's schema in src/shared/agent-api.ts (or is not JSON). */
  INVALID_INPUT: 'INVALID_INPUT',

  // IPC (src/main/electron/ipc.ts)
  /** The invoke came from a window or frame that is not the app. */
  UNTRUSTED_SENDER: 'UNTRUSTED_SENDER',

  // The web bridge (src/main/web)
  /** The UI server was asked to listen on a non-loopback address. */
  UI_HOST_NOT_LOOPBACK: 'UI_HOST_NOT_LOOPBACK',
  /** A Host header that is not the bridge's own (DNS rebinding). */
  UI_FORBIDDEN_HOST: 'UI_FORBIDDEN_HOST',
  UI_UNAUTHORIZED: 'UI_UNAUTHORIZED',
  UI_UNKNOWN_OPERATION: 'UI_UNKNOWN_OPERATION',
  UI_METHOD_NOT_ALLOWED: 'UI_METHOD_NOT_ALLOWED',
  UI_BODY_TOO_LARGE: 'UI_BODY_TOO_LARGE',
  /** rotateUiAddress where there is no web UI to give a new address (the desktop app, an agent without --ui-port). */
  UI_ADDRESS_UNAVAILABLE: 'UI_ADDRESS_UNAVAILABLE',

  // The UI's side of the bridge (src/renderer/bridge)
  /** The bridge cannot be reached. */
  AGENT_OFFLINE: 'AGENT_OFFLINE',
  /** The bridge answered without an AgentResult. */
  AGENT_BAD_RESPONSE: 'AGENT_BAD_RESPONSE',
  /** Something was thrown in the UI that carries no code. */
  UI_ERROR: 'UI_ERROR',
} as const;

export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[keyof typeof AGENT_ERROR_CODES];
