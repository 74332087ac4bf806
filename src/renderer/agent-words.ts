/**
 * Messages the agent composed (job reasons, printer readiness, alerts, errors) in the UI's
 * language: each code of src/shared/agent-messages.ts through the catalogs, nested messages
 * worded in turn. A message without a code (an old ledger row, a code this build does not
 * know) shows the English the agent sent. The service's own words cannot be translated: they
 * are framed in the UI's language, and the request id stays visible.
 */
import { englishOf, formatDelay, type AgentMessage, type AgentMessageCode, type AgentMessageParams } from '../shared/agent-messages';
import type { AgentErrorPayload } from '../shared/domain';
import { reportDetailKey } from '../shared/report-words';
import { localDateTime } from './format';
import { t, type MessageKey } from './i18n';
import { documentWords } from './document-words';

type Wording = { readonly [C in AgentMessageCode]: (params: AgentMessageParams[C]) => string };

/** `(reason)` after a queue's name, with the printer's state keywords (media-empty-error) in words. */
/** A ZPL printer as people see it: its model (from ~HI) at its address, or the address alone. */
function zplName(p: { readonly address: string; readonly model: string | null }): string {
  return p.model ? t('agentMsg.printer.zplAt', { model: p.model, address: p.address }) : p.address;
}

function why(reason: string | null, meaningless: string): string {
  if (!reason || reason === meaningless) return '';
  return ` (${cupsReasonWords(reason)})`;
}

/** IPP printer-state-reasons keywords a packer can act on (RFC 8011 5.4.12), without their -error/-warning/-report suffix. */
const CUPS_REASONS: Readonly<Record<string, MessageKey>> = {
  'media-empty': 'agentMsg.cupsReason.mediaEmpty',
  'media-needed': 'agentMsg.cupsReason.mediaEmpty',
  'media-jam': 'agentMsg.cupsReason.mediaJam',
  'cover-open': 'agentMsg.cupsReason.coverOpen',
  'door-open': 'agentMsg.cupsReason.coverOpen',
  offline: 'agentMsg.cupsReason.offline',
  'toner-empty': 'agentMsg.cupsReason.markerEmpty',
  'marker-supply-empty': 'agentMsg.cupsReason.markerEmpty',
  paused: 'agentMsg.cupsReason.paused',
};

function cupsReasonWords(reason: string): string {
  return reason
    .split(/,\s*/)
    .map((token) => {
      const key = CUPS_REASONS[token.replace(/-(error|warning|report)$/, '')];
      return key ? t(key) : token;
    })
    .join(', ');
}

/** The report's codes are worded by the report words (src/shared/report-words.ts, in the catalogs), as the CSV words them. */
function reportWords(message: AgentMessage): string {
  const key = reportDetailKey(message);
  return key ? t(key) : englishOf(message);
}

const delay = (ms: number): string => formatDelay(ms);

const WORDING: Wording = {
  text: (p) => p.text,
  'job.waitingForPrinter': (p) => t('agentMsg.job.waitingForPrinter', { advice: trimEnd(agentWords(p.advice)), delay: delay(p.delayMs) }),
  'job.retrying': (p) => t('agentMsg.job.retrying', { cause: agentWords(p.cause), delay: delay(p.delayMs) }),
  'job.heldRetry': (p) => agentWords(p.cause),
  'job.gaveUp': (p) => t('agentMsg.job.gaveUp', { cause: agentWords(p.cause), attempts: p.attempts }),
  // As the English: a cause that already says "may have printed" is not said twice.
  'job.mayHavePrinted': (p) =>
    /may have printed/.test(englishOf(p.cause))
      ? agentWords(p.cause)
      : t('agentMsg.job.mayHavePrinted', { cause: trimEnd(agentWords(p.cause)) }),
  'job.noDocument': (p) => t('agentMsg.job.noDocument', { document: documentWords(p.documentType) }),
  'job.canceledByHand': () => t('agentMsg.job.canceledByHand'),
  'job.shipmentCanceled': (p) => t(p.by === 'station' ? 'agentMsg.job.shipmentCanceledHere' : 'agentMsg.job.shipmentCanceledElsewhere'),
  'job.handedBeforeRestart': () => t('agentMsg.job.handedBeforeRestart'),
  'job.stoppedWhileSending': () => t('agentMsg.job.stoppedWhileSending'),
  'job.resentAfterRestart': (p) =>
    t(p.outcome === 'aborted' ? 'agentMsg.job.resentAborted' : 'agentMsg.job.resentCanceled', { job: p.spoolerJobId }),
  'job.assumedPrinted': () => t('agentMsg.job.assumedPrinted'),
  'job.abortedAtPrinter': (p) => t('agentMsg.job.abortedAtPrinter', { job: p.spoolerJobId }),
  'job.canceledAtPrinter': (p) => t('agentMsg.job.canceledAtPrinter', { job: p.spoolerJobId }),
  // The printer's words stay as it said them: they are what its display and manual say.
  'job.refusedByPrinter': (p) => t('agentMsg.job.refusedByPrinter', { job: p.spoolerJobId, words: p.words }),
  'job.waitingAtPrinter': (p) => t('agentMsg.job.waitingAtPrinter', { words: trimEnd(p.words) }),
  'job.lostAtPrinter': (p) => t('agentMsg.job.lostAtPrinter', { job: p.spoolerJobId }),
  'service.unavailable': () => t('agentMsg.service.unavailable'),
  'service.unavailable503': () => t('agentMsg.service.unavailable503'),
  'service.labelNotReady': () => t('agentMsg.service.labelNotReady'),
  'service.slowDown': () => t('agentMsg.service.slowDown'),
  'service.noAnswer': () => t('agentMsg.service.noAnswer'),
  'service.unreachable': () => t('agentMsg.service.unreachable'),
  'service.error': (p) => withRequestId(serviceErrorWords(p), p.requestId),
  'printer.cupsDisabled': (p) => t('agentMsg.printer.cupsDisabled', { queue: p.queue, why: why(p.reason, 'Paused') }),
  'printer.cupsRejecting': (p) => t('agentMsg.printer.cupsRejecting', { queue: p.queue, why: why(p.reason, 'Rejecting Jobs') }),
  'printer.cupsNotFound': (p) => t('agentMsg.printer.cupsNotFound', { queue: p.queue }),
  'printer.cupsUnreachable': (p) =>
    t('agentMsg.printer.cupsUnreachable', { server: p.server ?? t('agentMsg.printer.localCups'), printer: p.printer }),
  'printer.listDisabled': (p) => t('agentMsg.printer.listDisabled', { queue: p.queue, why: why(p.reason, 'Paused') }),
  'printer.listRejecting': (p) => t('agentMsg.printer.listRejecting', { queue: p.queue, why: why(p.reason, '') }),
  'printer.windowsState': (p) => t(`agentMsg.windows.${p.state}`, { printer: p.printer }),
  'printer.windowsWorkOffline': (p) => t('agentMsg.printer.windowsWorkOffline', { printer: p.printer }),
  'printer.zplNotReady': (p) =>
    t('agentMsg.printer.zplNotReady', {
      printer: zplName(p),
      conditions: p.conditions.map((c) => t(`agentMsg.zpl.${c}`)).join('; '),
    }),
  'printer.zplNoAnswer': (p) => t('agentMsg.printer.zplNoAnswer', { printer: zplName(p), reason: p.reason }),
  'printer.folderDiskFull': (p) => t('agentMsg.printer.folderDiskFull', { path: p.path }),
  'printer.folderNoAccess': (p) => t('agentMsg.printer.folderNoAccess', { path: p.path }),
  'printer.folderNotAFolder': (p) => t('agentMsg.printer.folderNotAFolder', { path: p.path }),
  'printer.folderUnavailable': (p) => t('agentMsg.printer.folderUnavailable', { path: p.path, code: p.code }),
  'printer.pdfTooLarge': (p) => t('agentMsg.printer.pdfTooLarge', { mb: p.mb, limitMb: p.limitMb }),
  'printer.pdfUnreadable': (p) => t('agentMsg.printer.pdfUnreadable', { detail: p.detail }),
  'printer.pdfTooManyPages': (p) => t('agentMsg.printer.pdfTooManyPages', { limit: p.limit }),
  'printer.pdfPageTooLarge': (p) =>
    t('agentMsg.printer.pdfPageTooLarge', { page: p.page, width: p.width, height: p.height, maxWidth: p.maxWidth, maxHeight: p.maxHeight }),
  'intake.waiting': (p) => t('agentMsg.intake.waiting', { cause: agentWords(p.cause), time: localDateTime(p.nextAttemptAt) }),
  'intake.waitingForRules': () => t('agentMsg.intake.waitingForRules'),
  'report.neverReached': (p) => reportWords({ code: 'report.neverReached', params: p }),
  'report.canceledAtService': (p) => reportWords({ code: 'report.canceledAtService', params: p }),
  'report.canceledAtStation': (p) => reportWords({ code: 'report.canceledAtStation', params: p }),
  'report.atPrinter': (p) => reportWords({ code: 'report.atPrinter', params: p }),
  'report.held': (p) => reportWords({ code: 'report.held', params: p }),
  'report.waiting': (p) => reportWords({ code: 'report.waiting', params: p }),
  'report.canceledByHand': (p) => reportWords({ code: 'report.canceledByHand', params: p }),
  'report.onlyOtherDocument': (p) => reportWords({ code: 'report.onlyOtherDocument', params: p }),
  'report.notPrintedYet': (p) => reportWords({ code: 'report.notPrintedYet', params: p }),
  'agent.notConnected': () => t('agentMsg.agent.notConnected'),
  'agent.enterKeyToTest': () => t('agentMsg.agent.enterKeyToTest'),
  'intake.needsShipment': (p) => t('agentMsg.intake.needsShipment', { cause: trimEnd(agentWords(p.cause)) }),
};

/**
 * A service error in the UI's language: a rejected key, or the service's own words framed
 * ("The service refused it: …"), or what the code means when the service said nothing.
 */
function serviceErrorWords(p: AgentMessageParams['service.error']): string {
  if (p.apiCode === 'SERVICE_UNAUTHORIZED') return t('agentMsg.service.badKey');
  if (p.serviceMessage) return t('agentMsg.service.refused', { message: trimEnd(p.serviceMessage) });
  switch (p.apiCode) {
    case 'SERVICE_RATE_LIMITED':
      return t('agentMsg.service.limiting');
    case 'SERVICE_UNAVAILABLE':
      return t('agentMsg.service.down', { status: String(p.status ?? '') });
    case 'SERVICE_TIMEOUT':
      return t('agentMsg.service.timeout');
    case 'SERVICE_UNREACHABLE':
      return t('agentMsg.service.noConnection');
    case 'SERVICE_INVALID_RESPONSE':
      return t('agentMsg.service.badAnswer');
    default:
      // Words the station composed about a request it did not send, or an answer without words: as sent.
      return p.status === null ? p.text : t('agentMsg.service.answered', { status: String(p.status) });
  }
}

function withRequestId(words: string, requestId: string | null): string {
  return requestId && !words.includes(requestId) ? t('common.withRequestId', { message: words, id: requestId }) : words;
}

const trimEnd = (text: string): string => text.replace(/[.\s]+$/, '');

/**
 * A message in the UI's language. `english` is what the agent sent beside it: shown when the
 * message is absent or of a code this build does not know.
 */
export function agentWords(message: AgentMessage | null | undefined, english?: string | null): string {
  const word = message ? (WORDING[message.code] as ((params: unknown) => string) | undefined) : undefined;
  if (!message || !word || typeof message.params !== 'object' || message.params === null) return english ?? message?.code ?? '';
  try {
    return word(message.params);
  } catch {
    // Parameters of another build's shape: the English is as good as it gets.
    return english ?? message.code;
  }
}

/** Fixed-text errors without a message code: their code says it all (AgentErrorPayload.code → catalog key). */
const ERROR_CODE_WORDS: Readonly<Record<string, MessageKey>> = {
  API_KEY_REQUIRED: 'agentMsg.error.apiKeyRequired',
  UI_UNAUTHORIZED: 'agentMsg.error.uiUnauthorized',
  UNTRUSTED_SENDER: 'agentMsg.error.untrustedSender',
};

/** An error payload's words in the UI's language, with its request id visible. */
export function errorWords(payload: AgentErrorPayload): string {
  const key = Object.hasOwn(ERROR_CODE_WORDS, payload.code) ? ERROR_CODE_WORDS[payload.code] : undefined;
  const words = payload.agentMessage ? agentWords(payload.agentMessage, payload.message) : key ? t(key) : payload.message;
  return withRequestId(words, payload.requestId);
}
