/**
 * One looked-up shipment: summary, reprint, documents and the tracking timeline
 * (newest first, local time).
 */
import {
  DOCUMENT_TYPES,
  LABEL_LAYOUTS,
  shipmentStage,
  withCarrier,
  type JobView,
  type PartyView,
  type ShipmentStage,
  type ShipmentView,
  type TrackingEventView,
} from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, option, replaceChildren } from '../dom';
import { describeTarget, localDateTime, printerName } from '../format';
import { t } from '../i18n';
import { describeJob } from '../job-words';
import { beepFailure, beepSuccess } from '../sound';
import { IN_LINE, shipmentDocumentsPanel } from './shipment-documents';
import { LAYOUT_WORDS, STAGE_WORDS, documentWords, shipmentStatusWords, trackingStatusWords } from '../words';
import { packPanel } from './pack-panel';
import { voidPanel } from './pack-void';

export interface ShipmentPanel {
  readonly element: HTMLElement;
  /** Live job updates for the reprints started from this panel. */
  onJob(job: JobView): void;
  /** Triggers the Reprint button (keyboard shortcut). */
  reprint(): void;
  /** Opens the pack-and-ship flow of a shipment that is not booked (keyboard shortcut). */
  book(): void;
  dispose(): void;
}

/**
 * `done` is called after the shipment changed here (booked, canceled) with a line to show;
 * the caller looks it up again.
 */
export function renderShipment(shipment: ShipmentView, ctx: UiContext, done: (note: string) => void = () => undefined): ShipmentPanel {
  const stage = shipmentStage(shipment);
  const reprint = reprintPanel(shipment, ctx);
  // Not booked: the pack flow takes the reprint's place (there is nothing to reprint yet).
  const pack = stage === 'draft' ? packPanel(shipment, ctx, done) : null;
  const action =
    pack?.element ??
    (stage === 'canceled'
      ? h('p', { class: 'canceled-note', role: 'note' }, t('result.canceledNote'))
      : h(
          'div',
          { class: 'booked-actions' },
          reprint.element,
          // With the carrier (picked up or later) the service refuses a cancel: none is offered.
          withCarrier(shipment)
            ? h('p', { class: 'canceled-note', role: 'note' }, t('result.withCarrierNote'))
            : voidPanel(shipment, ctx, done),
        ));
  const title = shipment.receiver.name ?? shipment.receiver.contactName ?? shipment.referenceId ?? shipment.id;
  const element = h(
    'article',
    { class: 'shipment', 'aria-label': t('result.shipment', { reference: shipment.referenceId ?? shipment.id }) },
    h(
      'header',
      { class: 'shipment-head' },
      // A short window keeps the name to one line: the whole of it on hover.
      h('h2', { 'data-verbatim': '', title }, title),
      h('span', { class: `badge stage-${stage}` }, STAGE_WORDS[stage]),
      // The service's own status only when it says more than the stage (IN TRANSIT, not BOOKED).
      // A draft has one badge: "Not booked" says all a packer needs (PENDING would say it twice).
      shipment.status && stage !== 'draft' && !SAME_AS_STAGE[stage].includes(shipment.status.toUpperCase())
        ? h('span', { class: 'badge muted', 'data-status': shipment.status }, shipmentStatusWords(shipment.status))
        : null,
    ),
    // Each part is a cell of one grid (styles.css, "Result"): the actions and the print state side
    // by side where a window is short, so every control is in sight without scrolling.
    h(
      'div',
      { class: `shipment-grid${stage === 'booked' ? ' with-printed' : ''}` },
      // Reprint first: it is what a packer at the bench came for, and it must be on screen.
      h('div', { class: 'shipment-action' }, action),
      stage === 'booked' && h('div', { class: 'shipment-printed' }, shipmentDocumentsPanel(shipment, ctx)),
      summary(shipment),
      documents(shipment),
      timeline(shipment.tracking),
    ),
  );
  return {
    element,
    onJob: reprint.onJob,
    reprint: stage === 'booked' ? reprint.trigger : () => undefined,
    book: () => pack?.open(),
    dispose: reprint.dispose,
  };
}

function summary(shipment: ShipmentView): HTMLElement {
  const rows: Array<[string, string | null]> = [
    [t('result.receiver'), party(shipment.receiver)],
    [t('result.carrier'), [shipment.carrierName, shipment.productName].filter(Boolean).join(' · ') || null],
    [t('result.trackingNumber'), shipment.trackingId],
    [t('result.reference'), shipment.referenceId],
    [t('result.senderReference'), shipment.senderReference],
    [t('result.receiverReference'), shipment.receiverReference],
    [t('result.shipmentId'), shipment.id],
  ];
  return h(
    'dl',
    { class: 'summary' },
    ...rows.flatMap(([term, value], i) => [
      h('dt', {}, term),
      // The tracking number (row 2) and ids are read as one: they never wrap mid-number.
      // Every value here is the service's (names, addresses, carrier, numbers): shown as received.
      h('dd', { class: `${value ? '' : 'muted'}${i === 2 ? ' number' : ''}`, 'data-verbatim': value ? '' : null }, value ?? '—'),
    ]),
  );
}

function party(p: PartyView): string | null {
  const place = [p.postalCode, p.city].filter(Boolean).join(' ');
  const parts = [
    p.name,
    p.contactName && p.contactName !== p.name ? p.contactName : null,
    p.addressLine,
    [place, p.countryCode].filter(Boolean).join(', '),
  ];
  const text = parts.filter((x): x is string => typeof x === 'string' && x !== '').join(', ');
  return text || null;
}

function documents(shipment: ShipmentView): HTMLElement {
  return h(
    'section',
    { class: 'documents', 'aria-labelledby': 'documents-title' },
    h('h3', { id: 'documents-title' }, t('result.documents')),
    shipment.availableDocuments.length > 0
      ? h(
          'ul',
          { class: 'chips', 'aria-label': t('result.documentsAvailable') },
          ...shipment.availableDocuments.map((d) => h('li', {}, documentWords(d))),
        )
      : h('p', { class: 'muted' }, t('result.noDocuments')),
  );
}

function timeline(events: readonly TrackingEventView[]): HTMLElement {
  const newestFirst = [...events].sort((a, b) => Date.parse(b.occurredAt) - Date.parse(a.occurredAt));
  return h(
    'section',
    { class: 'timeline', 'aria-labelledby': 'timeline-title' },
    h('h3', { id: 'timeline-title' }, t('result.tracking')),
    newestFirst.length === 0
      ? h('p', { class: 'muted' }, t('result.noTracking'))
      : h(
          'ol',
          { 'aria-label': t('names.trackingEvents'), class: 'events' },
          ...newestFirst.map((event, index) =>
            h(
              'li',
              { class: index === 0 ? 'event latest' : 'event' },
              // The status in words; the service's own code (docs/INTERFACES.md) in its tooltip and
              // for assistive technology, not beside the words where it reads as a second status.
              h(
                'span',
                { class: 'event-head', title: event.status },
                h('span', { class: 'event-words' }, trackingStatusWords(event.status)),
                trackingStatusWords(event.status) === event.status
                  ? null
                  : h('span', { class: 'event-status visually-hidden' }, ` (${event.status})`),
              ),
              h('time', { datetime: event.occurredAt }, localDateTime(event.occurredAt)),
              // The carrier's own words, in its language: shown as received, marked as such.
              event.description ? h('span', { class: 'event-description', 'data-verbatim': '' }, event.description) : null,
              event.location ? h('span', { class: 'event-location' }, event.location) : null,
              safeUrl(event.url)
                ? h(
                    'a',
                    {
                      href: event.url ?? '',
                      target: '_blank',
                      rel: 'noopener noreferrer',
                      'aria-label': t('result.carrierPageFor', {
                        status: trackingStatusWords(event.status),
                        time: localDateTime(event.occurredAt),
                      }),
                    },
                    t('result.carrierPage'),
                  )
                : null,
            ),
          ),
        ),
  );
}

function safeUrl(url: string | null): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

function reprintPanel(shipment: ShipmentView, ctx: UiContext) {
  const docs = shipment.availableDocuments.length > 0 ? shipment.availableDocuments : ['label'];
  const documentSelect = h(
    'select',
    { id: 'reprint-document', 'aria-label': t('result.documentToReprint') },
    ...docs.map((d) => option(d, documentWords(d), d === 'label')),
  );
  const layoutSelect = h(
    'select',
    { id: 'reprint-layout', 'aria-label': t('result.labelLayout') },
    option('', t('result.routingDefault')),
    ...LABEL_LAYOUTS.map((l) => option(l, LAYOUT_WORDS[l])),
  );
  const printerSelect = h('select', { id: 'reprint-printer', 'aria-label': t('result.printer') }, option('', t('result.routingDefault')));
  const button = h(
    'button',
    { type: 'button', class: 'primary reprint', 'aria-keyshortcuts': 'Alt+R' },
    t('result.reprintDocument', { document: documentWords('label').toLowerCase() }),
  );
  const status = h('p', { class: 'reprint-status', role: 'status' });
  const jobs = new Map<string, JobView>();
  /** Documents known never to have gone to a printer: "Print waybill", not "Reprint waybill". */
  const neverPrinted = new Set<string>();
  const buttonWords = (): string => {
    const chosen = documentSelect.value || 'label';
    const document = documentWords(chosen).toLowerCase();
    return neverPrinted.has(chosen) ? t('result.printDocument', { document }) : t('result.reprintDocument', { document });
  };

  const routingDefault = (): void => {
    const settings = ctx.settings;
    const isLabel = documentSelect.value === 'label';
    const target = settings ? (isLabel ? settings.routing.labelPrinter : settings.routing.documentPrinter) : null;
    const first = printerSelect.options[0];
    if (first)
      first.textContent = target ? t('result.routingDefaultTarget', { target: describeTarget(target) }) : t('result.routingDefault');
    button.textContent = buttonWords();
    layoutSelect.disabled = !isLabel;
  };
  documentSelect.addEventListener('change', routingDefault);
  routingDefault();

  // Which documents ever went to a printer (printed, may have, failed): the others are printed, not reprinted.
  // Unknown (the agent did not answer) stays "Reprint", as before the answer.
  const printable = docs.filter((d) => PRINTABLE_DOCUMENTS.has(d));
  const loadStates = (): void => {
    if (printable.length === 0) return;
    ctx.api.shipmentDocuments({ shipmentId: shipment.id, documentTypes: printable }).then(
      (states) => {
        neverPrinted.clear();
        for (const s of states) if (s.state === 'not_printed' && !IN_LINE.test(s.detail ?? '')) neverPrinted.add(s.documentType);
        button.textContent = buttonWords();
      },
      () => undefined,
    );
  };
  loadStates();

  void ctx.printers().then((printers) => {
    for (const p of printers)
      printerSelect.append(
        option(p.uri, p.ready === false ? t('result.printerNotReady', { name: printerName(p.name, p.uri) }) : printerName(p.name, p.uri)),
      );
  });

  const showJobs = (): void => {
    replaceChildren(status, ...[...jobs.values()].map((j) => h('span', { class: `job-line state-${j.state}` }, describeJob(j))));
  };

  // A fast printer finishes a job before the reprint call has answered: its live updates
  // arrive first. They are kept here until the answer names the job, so the stale
  // "queued" in the answer cannot overwrite "completed".
  const early = new Map<string, JobView>();
  let awaitingAnswer = false;

  const trigger = async (): Promise<void> => {
    if (button.disabled) return;
    button.disabled = true;
    awaitingAnswer = true;
    early.clear();
    status.classList.remove('error');
    status.textContent = t('result.sendingReprint');
    try {
      const created = await ctx.api.reprint({
        shipmentId: shipment.id,
        documentType: documentSelect.value || undefined,
        layout: (layoutSelect.value || undefined) as (typeof LABEL_LAYOUTS)[number] | undefined,
        printer: printerSelect.value || undefined,
      });
      jobs.clear();
      for (const job of created) jobs.set(job.id, latest(job, early.get(job.id)));
      showJobs();
      beepSuccess();
    } catch (error) {
      status.classList.add('error');
      status.textContent = t('result.reprintFailed', { error: describeError(error) });
      beepFailure();
    } finally {
      awaitingAnswer = false;
      early.clear();
      button.disabled = false;
      ctx.focusScan();
    }
  };
  button.addEventListener('click', () => void trigger());

  const element = h(
    'section',
    { class: 'reprint-panel', 'aria-labelledby': 'reprint-title' },
    h('h3', { id: 'reprint-title' }, t('action.reprint')),
    h(
      'div',
      { class: 'reprint-controls' },
      h('label', {}, h('span', {}, t('result.document')), documentSelect),
      h('label', {}, h('span', {}, t('result.layout')), layoutSelect),
      h('label', { class: 'grow' }, h('span', {}, t('result.printer')), printerSelect),
      button,
    ),
    status,
  );
  const dispose = ctx.onSettings(routingDefault);

  return {
    element,
    dispose,
    trigger: () => void trigger(),
    onJob(job: JobView): void {
      const known = jobs.get(job.id);
      if (known) {
        jobs.set(job.id, latest(known, job));
        showJobs();
        // Printed now: the next press is a reprint.
        if (job.state !== known.state && PROGRESS[job.state] >= PROGRESS.spooled) loadStates();
      } else if (awaitingAnswer) {
        early.set(job.id, latest(job, early.get(job.id)));
      }
    },
  };
}

/** Documents the agent prints (and so knows the print state of); uploads it does not. */
const PRINTABLE_DOCUMENTS: ReadonlySet<string> = new Set(DOCUMENT_TYPES);

/** Service statuses the stage badge already says. */
const SAME_AS_STAGE: Readonly<Record<ShipmentStage, readonly string[]>> = {
  draft: ['NOT BOOKED'],
  booked: ['BOOKED'],
  canceled: ['CANCELED'],
};

/** How far along a job is, for two views stamped in the same millisecond. */
const PROGRESS: Record<JobView['state'], number> = {
  queued: 0,
  fetching: 1,
  spooling: 2,
  spooled: 3,
  completed: 4,
  failed: 4,
  canceled: 4,
};

/** The newer of two views of one job. */
function latest(a: JobView, b: JobView | undefined): JobView {
  if (!b) return a;
  if (b.updatedAt !== a.updatedAt) return b.updatedAt > a.updatedAt ? b : a;
  return PROGRESS[b.state] > PROGRESS[a.state] ? b : a;
}
