/**
 * Messages the agent composes for people (job reasons, printer readiness, alerts), as a code
 * with typed parameters. The English text is composed here from the code and parameters, and
 * only here: the ledger, logs, the CLI and `--json` keep that English (`JobView.reason`,
 * `PrinterInfo.detail`, `AgentErrorPayload.message`), and the UI words the same code in its
 * own language (src/renderer/agent-words.ts), so the two cannot drift.
 *
 * A message may hold another (a job waits because of what the printer said): `AgentMessage`
 * params are worded recursively. `text` carries words the agent has no code for (an
 * uncoded error's own message): the UI shows them as sent.
 */

/** Windows spooler printer states in which a label sent now would wait or be lost (Get-Printer's PrinterStatus). */
export const WINDOWS_NOT_READY_STATES = [
  'Paused',
  'Error',
  'PendingDeletion',
  'PaperJam',
  'PaperOut',
  'ManualFeed',
  'PaperProblem',
  'Offline',
  'OutputBinFull',
  'NotAvailable',
  'NoToner',
  'PagePunt',
  'UserIntervention',
  'OutOfMemory',
  'DoorOpen',
  'ServerUnknown',
] as const;
export type WindowsNotReadyState = (typeof WINDOWS_NOT_READY_STATES)[number];

/** What a ZPL printer's `~HS` can say stops it (src/main/printing/zpl/zpl-status.ts), in the order they are named. */
export const ZPL_CONDITIONS = ['paperOut', 'headOpen', 'ribbonOut', 'paused', 'bufferFull', 'overTemperature', 'corruptRam'] as const;
export type ZplCondition = (typeof ZPL_CONDITIONS)[number];

/** Job states in which a document still waits in line (the report's "waiting in the queue (queued)"). */
export const REPORT_WAITING_STATES = ['queued', 'fetching', 'spooling'] as const;
export type ReportWaitingState = (typeof REPORT_WAITING_STATES)[number];

/** Every code and its parameters: the one registry. */
export interface AgentMessageParams {
  /** Words without a code (an uncoded error): shown as sent, in English. */
  readonly text: { readonly text: string };

  // Jobs: why one waits or ended (src/main/jobs)
  readonly 'job.waitingForPrinter': { readonly advice: AgentMessage; readonly delayMs: number };
  readonly 'job.retrying': { readonly cause: AgentMessage; readonly delayMs: number };
  readonly 'job.heldRetry': { readonly cause: AgentMessage };
  readonly 'job.gaveUp': { readonly cause: AgentMessage; readonly attempts: number };
  readonly 'job.mayHavePrinted': { readonly cause: AgentMessage };
  readonly 'job.noDocument': { readonly documentType: string };
  readonly 'job.canceledByHand': Record<string, never>;
  /** Its shipment was canceled before the label was handed to the printer: never printed. */
  readonly 'job.shipmentCanceled': { readonly by: 'station' | 'service' };
  readonly 'job.handedBeforeRestart': Record<string, never>;
  readonly 'job.stoppedWhileSending': Record<string, never>;
  readonly 'job.resentAfterRestart': { readonly outcome: 'aborted' | 'canceled'; readonly spoolerJobId: string };
  readonly 'job.assumedPrinted': Record<string, never>;
  readonly 'job.abortedAtPrinter': { readonly spoolerJobId: string };
  readonly 'job.canceledAtPrinter': { readonly spoolerJobId: string };
  /** The printer refused or aborted the job and said why (`words`: its job-printer-state-message). */
  readonly 'job.refusedByPrinter': { readonly spoolerJobId: string; readonly words: string };
  /** The spooler ended the job without the printer saying it finished it (it restarted mid-job). */
  readonly 'job.lostAtPrinter': { readonly spoolerJobId: string };
  /** A job at the spooler whose printer holds it up; `words`: the printer's state in words. */
  readonly 'job.waitingAtPrinter': { readonly words: string };

  // The service, while a job waits for it (src/main/jobs/failure.ts)
  readonly 'service.unavailable': Record<string, never>;
  readonly 'service.unavailable503': Record<string, never>;
  readonly 'service.labelNotReady': Record<string, never>;
  readonly 'service.slowDown': Record<string, never>;
  readonly 'service.noAnswer': Record<string, never>;
  readonly 'service.unreachable': Record<string, never>;
  /**
   * A service error (ApiError). `text` is the API layer's English sentence; the UI frames the
   * service's own `serviceMessage` in its language and keeps the request id visible.
   */
  readonly 'service.error': {
    readonly apiCode: string;
    readonly status: number | null;
    readonly serviceMessage: string | null;
    readonly requestId: string | null;
    readonly text: string;
  };

  // Printers: readiness and why a hand-over cannot happen (src/main/printing)
  readonly 'printer.cupsDisabled': { readonly queue: string; readonly reason: string | null };
  readonly 'printer.cupsRejecting': { readonly queue: string; readonly reason: string | null };
  readonly 'printer.cupsNotFound': { readonly queue: string };
  readonly 'printer.cupsUnreachable': { readonly server: string | null; readonly printer: string };
  /** In the printer list (discovery, lpstat): the queue is stopped or refuses jobs. */
  readonly 'printer.listDisabled': { readonly queue: string; readonly reason: string | null };
  readonly 'printer.listRejecting': { readonly queue: string; readonly reason: string | null };
  readonly 'printer.windowsState': { readonly printer: string; readonly state: WindowsNotReadyState };
  readonly 'printer.windowsWorkOffline': { readonly printer: string };
  /** A raw ZPL printer's own status (`~HS`) says it cannot print; `model` from `~HI` when it said. */
  readonly 'printer.zplNotReady': { readonly address: string; readonly model: string | null; readonly conditions: readonly ZplCondition[] };
  /** A raw ZPL printer refused the connection or did not answer. */
  readonly 'printer.zplNoAnswer': { readonly address: string; readonly model: string | null; readonly reason: string };
  readonly 'printer.folderDiskFull': { readonly path: string };
  readonly 'printer.folderNoAccess': { readonly path: string };
  readonly 'printer.folderNotAFolder': { readonly path: string };
  /** The folder, or the disk or network share holding it, is gone or fails its I/O (`code`: ENOENT, EIO…). */
  readonly 'printer.folderUnavailable': { readonly path: string; readonly code: string };
  /** A label or document PDF over its layout's limits (printing/pdf-limits.ts): refused before it is sent. */
  readonly 'printer.pdfTooLarge': { readonly mb: string; readonly limitMb: number };
  readonly 'printer.pdfUnreadable': { readonly detail: string };
  readonly 'printer.pdfTooManyPages': { readonly limit: number };
  readonly 'printer.pdfPageTooLarge': {
    readonly page: number;
    readonly width: string;
    readonly height: string;
    readonly maxWidth: number;
    readonly maxHeight: number;
  };

  // Intake: a webhook booking waiting for its decision (src/main/intake/pending-decisions.ts)
  readonly 'intake.waiting': { readonly cause: AgentMessage; readonly nextAttemptAt: string };
  readonly 'intake.waitingForRules': Record<string, never>;
  /** A station rule needs the shipment's fields and GET /shipments/{id} failed. */
  readonly 'intake.needsShipment': { readonly shipmentId: string; readonly cause: AgentMessage };

  // Where a document stands in the end-of-day report and a shipment's documents (src/main/report)
  readonly 'report.neverReached': Record<string, never>;
  readonly 'report.canceledAtService': Record<string, never>;
  readonly 'report.canceledAtStation': Record<string, never>;
  readonly 'report.atPrinter': Record<string, never>;
  readonly 'report.held': Record<string, never>;
  readonly 'report.waiting': { readonly state: ReportWaitingState };
  readonly 'report.canceledByHand': Record<string, never>;
  readonly 'report.onlyOtherDocument': Record<string, never>;
  readonly 'report.notPrintedYet': Record<string, never>;

  // The agent's connection to the service (src/main/agent)
  readonly 'agent.notConnected': Record<string, never>;
  readonly 'agent.enterKeyToTest': Record<string, never>;
}

export type AgentMessageCode = keyof AgentMessageParams;

/** One message: a code and its parameters, typed together. */
export type AgentMessage = {
  readonly [C in AgentMessageCode]: { readonly code: C; readonly params: AgentMessageParams[C] };
}[AgentMessageCode];

/** Builds a message; the compiler checks the parameters against the code. */
export function agentMessage<C extends AgentMessageCode>(code: C, params: AgentMessageParams[C]): AgentMessage {
  return { code, params } as AgentMessage;
}

/** Shorthand for codes without parameters. */
export function plainMessage(
  code: { [C in AgentMessageCode]: AgentMessageParams[C] extends Record<string, never> ? C : never }[AgentMessageCode],
): AgentMessage {
  return { code, params: {} } as AgentMessage;
}

export const textMessage = (text: string): AgentMessage => ({ code: 'text', params: { text } });

/** The message when it has a code of its own; null for bare text, which adds nothing to the English beside it. */
export function codedOnly(message: AgentMessage | null | undefined): AgentMessage | null {
  return message && message.code !== 'text' ? message : null;
}

/** The Windows spooler states' English advice (after `Windows printer "NAME" `). */
export const WINDOWS_STATE_ENGLISH: Readonly<Record<WindowsNotReadyState, string>> = {
  Paused:
    'is paused: resume it in Windows (Settings > Printers & scanners > the printer > Open print queue > Printer > untick Pause Printing)',
  Error: 'reports an error: check the printer (display, lights) and its print queue in Windows',
  PendingDeletion: 'is being removed from Windows: choose another printer in settings',
  PaperJam: 'has a paper jam: clear it, then printing continues',
  PaperOut: 'is out of paper (labels): load the label roll',
  ManualFeed: 'waits for paper in the manual feed: load it or change the paper source',
  PaperProblem: 'has a paper problem: check the label roll and the guides',
  Offline: 'is offline: switch it on and check its cable or network',
  OutputBinFull: 'has a full output bin: empty it',
  NotAvailable: 'is not available: check that it is switched on and connected',
  NoToner: 'is out of toner or ribbon: replace it',
  PagePunt: 'cannot print the current page: check the print queue in Windows',
  UserIntervention: 'needs attention at the printer: check its display',
  OutOfMemory: 'has run out of memory: switch it off and on again',
  DoorOpen: 'has its door (cover) open: close it',
  ServerUnknown: 'is in an unknown state on its print server: check the print server',
};

/** Each ZPL condition in English, with what to do. */
export const ZPL_CONDITION_ENGLISH: Readonly<Record<ZplCondition, string>> = {
  paperOut: 'paper out: load labels (media) and close the head',
  headOpen: 'head open: close the print head',
  ribbonOut: 'ribbon out: load a ribbon',
  paused: 'paused: press the pause button (or send ~PS) to resume',
  bufferFull: 'receive buffer full: wait for it to print what it has',
  overTemperature: 'head over temperature: let it cool down',
  corruptRam: 'configuration lost (corrupt RAM): check its settings',
};

/** `ZD421-203dpi at 10.0.0.7:9100`, or the address alone. */
export function zplPrinterName(p: { readonly address: string; readonly model: string | null }): string {
  return p.model ? `${p.model} at ${p.address}` : p.address;
}

export function isWindowsNotReadyState(state: string): state is WindowsNotReadyState {
  return (WINDOWS_NOT_READY_STATES as readonly string[]).includes(state);
}

/** "2 s", "500 ms": the delay as the English reasons have always said it. */
export function formatDelay(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  return `${Math.round(ms / 1000)} s`;
}

/** A message without its closing period and spaces, to go on in a longer sentence. */
export const trimEnd = (text: string): string => text.replace(/[.\s]+$/, '');

type EnglishTable = { readonly [C in AgentMessageCode]: (params: AgentMessageParams[C]) => string };

/** What every refused PDF adds: nothing went out, and where to look. */
const PDF_REFUSED = '; nothing was printed. Check the shipment in the service (or ask its support) before printing it again.';

const ENGLISH: EnglishTable = {
  text: (p) => p.text,
  'job.waitingForPrinter': (p) => `${trimEnd(englishOf(p.advice))}; waiting for the printer (checking again in ${formatDelay(p.delayMs)})`,
  'job.retrying': (p) => `${englishOf(p.cause)}; retrying in ${formatDelay(p.delayMs)}`,
  'job.heldRetry': (p) => englishOf(p.cause),
  'job.gaveUp': (p) => `${englishOf(p.cause)} (gave up after ${p.attempts} attempts; retry by hand)`,
  'job.mayHavePrinted': (p) => {
    const cause = englishOf(p.cause);
    return /may have printed/.test(cause) ? cause : `${trimEnd(cause)}; it may have printed: check the printer, then retry by hand`;
  },
  'job.noDocument': (p) => `this shipment has no ${p.documentType}`,
  'job.canceledByHand': () => 'canceled by hand',
  'job.shipmentCanceled': (p) =>
    p.by === 'station'
      ? 'shipment canceled at this station; the label was not printed'
      : 'shipment canceled at the service (the web application or another station); the label was not printed',
  'job.handedBeforeRestart': () => 'handed to the printer before the restart; it cannot be followed further',
  'job.stoppedWhileSending': () => 'the agent stopped while sending this job: it may have printed: check the printer, then retry by hand',
  'job.resentAfterRestart': (p) => `the spooler ${p.outcome} job ${p.spoolerJobId} after the restart; sending it again`,
  'job.assumedPrinted': () => 'the spooler no longer lists the job; assumed printed',
  'job.abortedAtPrinter': (p) => `the printer aborted job ${p.spoolerJobId}; check the printer, then retry`,
  'job.canceledAtPrinter': (p) => `job ${p.spoolerJobId} was canceled at the printer`,
  'job.refusedByPrinter': (p) =>
    `the printer refused job ${p.spoolerJobId}: "${p.words}"; check the printer's media and settings, then retry`,
  'job.waitingAtPrinter': (p) => `at the spooler, waiting for the printer: ${trimEnd(p.words)}; it prints when the printer is back`,
  'job.lostAtPrinter': (p) => `the printer lost job ${p.spoolerJobId} before saying it had printed it (it restarted while printing)`,
  'service.unavailable': () => 'the service is unavailable',
  'service.unavailable503': () => 'the service is unavailable (HTTP 503)',
  'service.labelNotReady': () => 'label not ready yet',
  'service.slowDown': () => 'the service asked us to slow down',
  'service.noAnswer': () => 'the service did not answer in time',
  'service.unreachable': () => 'the service is unreachable',
  'service.error': (p) => p.text,
  'printer.cupsDisabled': (p) => {
    // "Paused" is what cupsd says when cupsdisable was given no reason: it adds nothing.
    const why = p.reason && p.reason !== 'Paused' ? ` (${p.reason})` : '';
    return `CUPS queue "${p.queue}" is disabled${why}: run \`cupsenable '${p.queue}'\` or enable it in printer settings.`;
  },
  'printer.cupsRejecting': (p) => {
    const why = p.reason && p.reason !== 'Rejecting Jobs' ? ` (${p.reason})` : '';
    return `CUPS queue "${p.queue}" is not accepting jobs${why}: run \`cupsaccept '${p.queue}'\` or accept jobs in printer settings.`;
  },
  'printer.cupsNotFound': (p) =>
    `CUPS queue "${p.queue}" does not exist: check the name with \`lpstat -p\` or choose another printer in settings.`,
  'printer.cupsUnreachable': (p) =>
    `Cannot reach ${p.server ?? 'the local CUPS scheduler'} to print to ${p.printer}: ` +
    'start CUPS (systemctl start cups) or check the server address.',
  'printer.listDisabled': (p) => `Disabled${p.reason && p.reason !== 'Paused' ? ` (${p.reason})` : ''}: run \`cupsenable '${p.queue}'\`.`,
  'printer.listRejecting': (p) => `Not accepting jobs${p.reason ? ` (${p.reason})` : ''}: run \`cupsaccept '${p.queue}'\`.`,
  'printer.windowsState': (p) => `Windows printer "${p.printer}" ${WINDOWS_STATE_ENGLISH[p.state]}.`,
  'printer.windowsWorkOffline': (p) =>
    `Windows printer "${p.printer}" is set to "Use Printer Offline": untick it in the printer's queue window (Printer menu).`,
  'printer.zplNotReady': (p) =>
    `ZPL printer ${zplPrinterName(p)} reports ${p.conditions.map((c) => ZPL_CONDITION_ENGLISH[c]).join('; ')}. ` +
    'Labels wait and print once it is ready.',
  'printer.zplNoAnswer': (p) =>
    `ZPL printer ${zplPrinterName(p)} does not answer (${p.reason}): check that it is switched on and on the network; ` +
    'labels wait until it answers.',
  'printer.folderDiskFull': (p) => `The disk holding ${p.path} is full: free some space or choose another folder.`,
  'printer.folderNoAccess': (p) =>
    `Print Station may not write to ${p.path}: give this user write access to the folder or choose another one.`,
  'printer.folderNotAFolder': (p) => `${p.path} is not a folder (a file is in the way): move it or choose another folder.`,
  'printer.folderUnavailable': (p) =>
    `Print Station cannot reach ${p.path} (${p.code}): the folder, or the disk or network share holding it, is gone or not answering. Reconnect it or choose another folder.`,
  'printer.pdfTooLarge': (p) => `Refused: the PDF is ${p.mb} MB, more than the ${p.limitMb} MB a print may be${PDF_REFUSED}`,
  'printer.pdfUnreadable': (p) => `Refused: the PDF could not be read (${p.detail})${PDF_REFUSED}`,
  'printer.pdfTooManyPages': (p) =>
    `Refused: the PDF has more than ${p.limit.toLocaleString('en-GB')} pages, the most a print may have${PDF_REFUSED}`,
  'printer.pdfPageTooLarge': (p) =>
    `Refused: page ${p.page} of the PDF is ${p.width} × ${p.height} in, larger than the ${p.maxWidth} × ${p.maxHeight} in a page of this layout may be${PDF_REFUSED}`,
  'intake.waiting': (p) => `${englishOf(p.cause)} Next try at ${p.nextAttemptAt}.`,
  'intake.waitingForRules': () => 'Received by webhook; waiting for the station rules to decide.',
  'report.neverReached': () => 'never reached this station',
  'report.canceledAtService': () => 'shipment canceled at the service',
  'report.canceledAtStation': () => 'shipment canceled at this station',
  'report.atPrinter': () => 'at the printer, not reported done: check the printer',
  'report.held': () => 'held: automatic printing is paused',
  'report.waiting': (p) => `waiting in the queue (${p.state})`,
  'report.canceledByHand': () => 'label job canceled by hand',
  'report.onlyOtherDocument': () => 'no label job: only another document was printed automatically',
  'report.notPrintedYet': () => 'not printed yet',
  'agent.notConnected': () => 'No API key is set: connect your account in Settings → Connection, or start the demo.',
  'agent.enterKeyToTest': () => 'Enter an API key to test the connection.',
  'intake.needsShipment': (p) =>
    `Waiting for the shipment's details: a station rule looks at sender_reference or system, which the webhook does not carry, ` +
    `and GET /shipments/${p.shipmentId} failed (${englishOf(p.cause)}). Tried again automatically.`,
};

/** The English text of a message: what the ledger, logs, the CLI and `--json` show. */
export function englishOf(message: AgentMessage): string {
  const compose = ENGLISH[message.code] as ((params: unknown) => string) | undefined;
  if (!compose) return message.code;
  return compose(message.params);
}

/** Whether a value read back (from the ledger, or over the bridge) is a message of a known code. */
export function isAgentMessage(value: unknown): value is AgentMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { code, params } = value as { code?: unknown; params?: unknown };
  return typeof code === 'string' && Object.hasOwn(ENGLISH, code) && typeof params === 'object' && params !== null;
}

/** A stored message (JSON), or null when absent, unreadable or of a code this build does not know. */
export function parseAgentMessage(json: string | null | undefined): AgentMessage | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return isAgentMessage(value) ? value : null;
  } catch {
    return null;
  }
}

/** Every code, for tests that check each one is worded. */
export const AGENT_MESSAGE_CODES = Object.keys(ENGLISH) as AgentMessageCode[];
