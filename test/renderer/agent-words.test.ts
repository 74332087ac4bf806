// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AGENT_MESSAGE_CODES,
  WINDOWS_NOT_READY_STATES,
  agentMessage,
  englishOf,
  type AgentMessage,
  type AgentMessageCode,
  type AgentMessageParams,
} from '../../src/shared/agent-messages';
import type { AgentStatus, JobView } from '../../src/shared/domain';
import { agentWords, errorWords } from '../../src/renderer/agent-words';
import { LANGUAGES, refreshLanguage, setLanguage, type Language } from '../../src/renderer/i18n';
import { describeJob } from '../../src/renderer/job-words';
import { readiness } from '../../src/renderer/words';
import { QueueView } from '../../src/renderer/views/queue-view';
import { StatusBar } from '../../src/renderer/views/status-bar';
import { context, fakeClient, job, printer } from '../support/fake-agent-client';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
  refreshLanguage();
  document.body.replaceChildren();
});

const CAUSE = agentMessage('printer.cupsNotFound', { queue: 'Zebra' });

/** One example per code: the compiler asks for a new code's example here. */
const SAMPLES: { readonly [C in AgentMessageCode]: AgentMessageParams[C] } = {
  text: { text: 'something the agent has no code for' },
  'job.waitingForPrinter': { advice: CAUSE, delayMs: 4000 },
  'job.retrying': { cause: CAUSE, delayMs: 2000 },
  'job.heldRetry': { cause: CAUSE },
  'job.gaveUp': { cause: CAUSE, attempts: 5 },
  'job.mayHavePrinted': { cause: CAUSE },
  'job.noDocument': { documentType: 'customsinvoice' },
  'job.canceledByHand': {},
  'job.shipmentCanceled': { by: 'service' },
  'job.handedBeforeRestart': {},
  'job.stoppedWhileSending': {},
  'job.resentAfterRestart': { outcome: 'aborted', spoolerJobId: 'zebra-12' },
  'job.assumedPrinted': {},
  'job.abortedAtPrinter': { spoolerJobId: 'zebra-12' },
  'job.canceledAtPrinter': { spoolerJobId: 'zebra-12' },
  'job.refusedByPrinter': { spoolerJobId: 'zebra-12', words: 'Printer cannot print with supplied options.' },
  'job.lostAtPrinter': { spoolerJobId: 'zebra-12' },
  'job.waitingAtPrinter': { words: 'cannot be reached: check that it is on and connected' },
  'service.unavailable': {},
  'service.unavailable503': {},
  'service.labelNotReady': {},
  'service.slowDown': {},
  'service.noAnswer': {},
  'service.unreachable': {},
  'service.error': {
    apiCode: 'SERVICE_UNPROCESSABLE',
    status: 422,
    serviceMessage: 'Weight is missing.',
    requestId: 'req-42',
    text:
      'The service could not process POST /shipments/book: Weight is missing. ' +
      'Correct the shipment data and try again (request id req-42)',
  },
  'printer.cupsDisabled': { queue: 'Zebra', reason: 'media-empty-error' },
  'printer.cupsRejecting': { queue: 'Zebra', reason: null },
  'printer.cupsNotFound': { queue: 'Zebra' },
  'printer.cupsUnreachable': { server: null, printer: 'cups:Zebra' },
  'printer.listDisabled': { queue: 'Zebra', reason: null },
  'printer.listRejecting': { queue: 'Zebra', reason: null },
  'printer.windowsState': { printer: 'Zebra ZD421', state: 'PaperOut' },
  'printer.windowsWorkOffline': { printer: 'Zebra ZD421' },
  'printer.zplNotReady': { address: '10.0.0.7:9100', model: 'ZD421-203dpi', conditions: ['paperOut', 'paused'] },
  'printer.zplNoAnswer': { address: '10.0.0.7:9100', model: null, reason: 'connection refused' },
  'printer.folderDiskFull': { path: '/srv/labels' },
  'printer.folderNoAccess': { path: '/srv/labels' },
  'printer.folderNotAFolder': { path: '/srv/labels' },
  'printer.folderUnavailable': { path: '/srv/labels', code: 'EIO' },
  'printer.pdfTooLarge': { mb: '40.0', limitMb: 32 },
  'printer.pdfUnreadable': { detail: 'No PDF header found' },
  'printer.pdfTooManyPages': { limit: 1000 },
  'printer.pdfPageTooLarge': { page: 2, width: '4.0', height: '100.0', maxWidth: 10, maxHeight: 12 },
  'intake.waiting': { cause: CAUSE, nextAttemptAt: '2026-11-24T10:15:00.000Z' },
  'intake.waitingForRules': {},
  'intake.needsShipment': { shipmentId: 'shp_1', cause: CAUSE },
  'report.neverReached': {},
  'report.canceledAtService': {},
  'report.canceledAtStation': {},
  'report.atPrinter': {},
  'report.held': {},
  'report.waiting': { state: 'fetching' },
  'report.canceledByHand': {},
  'report.onlyOtherDocument': {},
  'report.notPrintedYet': {},
  'agent.notConnected': {},
  'agent.enterKeyToTest': {},
};
const sample = (code: AgentMessageCode): AgentMessage => agentMessage(code, SAMPLES[code] as never);

/** A job at the head of a paused CUPS queue's line, as the agent sends it: English reason and its code. */
function waitingOnPausedPrinter(): JobView {
  const reasonMessage = agentMessage('job.waitingForPrinter', {
    advice: agentMessage('printer.cupsDisabled', { queue: 'Zebra', reason: 'Paused' }),
    delayMs: 4000,
  });
  return job({ state: 'queued', target: 'cups:Zebra', reason: englishOf(reasonMessage), reasonMessage });
}

describe('agent messages in the UI language', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s words every code (except bare text) in its own words', (lang) => {
    setLanguage(lang as Language);
    for (const code of AGENT_MESSAGE_CODES) {
      const message = sample(code);
      const words = agentWords(message, englishOf(message));
      expect(words, `${lang} ${code}`).not.toBe('');
      expect(words, `${lang} ${code}`).not.toMatch(/\{\w+\}/);
      if (code === 'text') expect(words).toBe(SAMPLES.text.text);
      else expect(words, `${lang} ${code}`).not.toBe(englishOf(message));
    }
    for (const state of WINDOWS_NOT_READY_STATES) {
      const message = agentMessage('printer.windowsState', { printer: 'P', state });
      expect(agentWords(message), `${lang} ${state}`).not.toBe(englishOf(message));
    }
  });

  it('English words each code as the agent composes it (the service error framed, document types and state reasons in words)', () => {
    setLanguage('en');
    const reworded: readonly AgentMessageCode[] = ['service.error', 'intake.needsShipment', 'intake.waiting', 'job.noDocument'];
    for (const code of AGENT_MESSAGE_CODES.filter((c) => !reworded.includes(c))) {
      expect(agentWords(sample(code)), code).toBe(englishOf(sample(code)).replace('(media-empty-error)', '(out of paper)'));
    }
    expect(agentWords(sample('job.noDocument'))).toBe('this shipment has no Customs invoice');
    expect(agentWords(sample('service.error'))).toBe('The service refused it: Weight is missing (request id req-42)');
  });

  it('a job waiting for a paused printer reads in Swedish', () => {
    setLanguage('sv');
    expect(describeJob(waitingOnPausedPrinter())).toBe(
      'Etikett → CUPS Zebra: i kö: CUPS-kön "Zebra" är pausad: ' +
        "kör `cupsenable 'Zebra'` eller aktivera den i skrivarinställningarna; " +
        'väntar på skrivaren (kontrollerar igen om 4 s)',
    );
  });

  it('a job waiting for a paused printer reads in Finnish, in the queue view too', async () => {
    setLanguage('fi');
    const waiting = waitingOnPausedPrinter();
    expect(describeJob(waiting)).toContain(
      'CUPS-jono "Zebra" on keskeytetty: suorita `cupsenable \'Zebra\'` tai ota se käyttöön tulostinasetuksissa; ' +
        'odotetaan tulostinta (tarkistetaan uudelleen 4 s kuluttua)',
    );
    const client = fakeClient({ listJobs: async () => [waiting] });
    const view = new QueueView(context(client));
    document.body.append(view.element);
    await view.load();
    const reason = view.element.querySelector(`[data-job-id="${waiting.id}"] .reason`)?.textContent;
    expect(reason).toBe(
      'CUPS-jono "Zebra" on keskeytetty: suorita `cupsenable \'Zebra\'` tai ota se käyttöön tulostinasetuksissa; ' +
        'odotetaan tulostinta (tarkistetaan uudelleen 4 s kuluttua)',
    );
  });

  it('a Windows printer out of paper, and a CUPS state reason, read in Swedish on the printer list', () => {
    setLanguage('sv');
    const paperOut = agentMessage('printer.windowsState', { printer: 'Zebra ZD421', state: 'PaperOut' });
    expect(readiness(printer({ ready: false, detail: englishOf(paperOut), detailMessage: paperOut })).words).toBe(
      'inte redo: Windows-skrivaren "Zebra ZD421" har slut på papper (etiketter): lägg i etikettrullen.',
    );
    const cups = agentMessage('printer.cupsDisabled', { queue: 'Zebra', reason: 'media-empty-error' });
    expect(agentWords(cups)).toContain('"Zebra" är pausad (slut på papper)');
  });

  it('a ZPL printer out of paper and paused reads in Danish on the printer list, each condition in words', () => {
    setLanguage('da');
    const stopped = agentMessage('printer.zplNotReady', {
      address: '10.0.0.7:9100',
      model: 'ZD421-203dpi',
      conditions: ['paperOut', 'paused'],
    });
    expect(englishOf(stopped)).toBe(
      'ZPL printer ZD421-203dpi at 10.0.0.7:9100 reports paper out: load labels (media) and close the head; ' +
        'paused: press the pause button (or send ~PS) to resume. Labels wait and print once it is ready.',
    );
    expect(readiness(printer({ ready: false, detail: englishOf(stopped), detailMessage: stopped })).words).toBe(
      'ikke klar: ZPL-printeren ZD421-203dpi på 10.0.0.7:9100 melder papir opbrugt: læg etiketter (medie) i og luk printhovedet; ' +
        'sat på pause: tryk på pauseknappen (eller send ~PS) for at fortsætte. Etiketterne venter og udskrives, når den er klar.',
    );
  });

  it('shows the English as sent for a reason without a code, or with a code this build does not know', () => {
    setLanguage('sv');
    const old = job({ state: 'failed', reason: 'paper out at the old printer' });
    expect(describeJob(old)).toBe('Etikett → Mapp /srv/prints: misslyckades. paper out at the old printer');
    const future = { code: 'printer.teleported', params: {} } as unknown as AgentMessage;
    expect(agentWords(future, 'the printer teleported')).toBe('the printer teleported');
  });

  it("frames the service's own words in the UI language and keeps the request id visible", () => {
    setLanguage('fi');
    const refused = sample('service.error');
    expect(agentWords(refused)).toBe('Palvelu hylkäsi sen: Weight is missing (pyynnön tunnus req-42)');
    expect(errorWords({ code: 'SERVICE_UNPROCESSABLE', message: englishOf(refused), requestId: 'req-42', agentMessage: refused })).toBe(
      'Palvelu hylkäsi sen: Weight is missing (pyynnön tunnus req-42)',
    );
    setLanguage('sv');
    const timeout = agentMessage('service.error', {
      apiCode: 'SERVICE_TIMEOUT',
      status: null,
      serviceMessage: null,
      requestId: null,
      text: 'The service did not answer GET /status within 10 s: check the network and try again',
    });
    expect(agentWords(timeout)).toBe('Tjänsten svarade inte i tid: kontrollera nätverket och försök igen');
  });

  it('words fixed-text errors by their code, and the status bar shows the last failure in the UI language', async () => {
    setLanguage('da');
    expect(errorWords({ code: 'API_KEY_REQUIRED', message: 'Enter the API key again …', requestId: null })).toBe(
      'Indtast API-nøglen igen for den nye tjenesteadresse: den gemte nøgle sendes kun til den adresse, den blev indtastet til.',
    );
    const failed = agentMessage('job.gaveUp', { cause: agentMessage('service.unreachable', {}), attempts: 5 });
    const status: AgentStatus = {
      team: 'Team',
      environment: 'sandbox',
      state: 'error',
      paused: false,
      lastPrintAt: null,
      lastError: { code: 'JOB_FAILED', message: englishOf(failed), requestId: null, agentMessage: failed },
      queued: 0,
      failed: 1,
    };
    const bar = new StatusBar();
    bar.show(status);
    expect(bar.element.textContent).toContain('tjenesten kan ikke nås (opgav efter 5 forsøg; prøv igen manuelt)');
  });
});
