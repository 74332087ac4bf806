/**
 * On a scanned, booked shipment: "already printed?" and documents per parcel.
 * Says at once whether the label printed, when and where ("Label printed
 * 09:14 on Zebra bench 2"), before anyone reprints it (Reprint, Alt+R, still prints
 * another); lists every document the shipment needs with its print state; and prints the
 * missing ones with one button (the agent makes that at most once per document).
 * Self-contained: result-view mounts it with one line; it follows job events itself.
 */
import { DOCUMENT_TYPES, type DocumentPrintState, type JobView, type ShipmentDocumentState, type ShipmentView } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import { agentWords } from '../agent-words';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { describeTarget, localClock, printerName as printerLabel } from '../format';
import { t } from '../i18n';
import { END_OF_DAY_WORDS, documentWords } from '../words';

const MISSING: ReadonlySet<DocumentPrintState> = new Set(['not_printed', 'failed']);
/** Documents POST /shipments/print can print; uploads the service lists (adr_dangerousgoods) are not. */
const PRINTABLE: ReadonlySet<string> = new Set(DOCUMENT_TYPES);
/** The agent's words for a job still in line (end-of-day.ts): nothing to press for. */
export const IN_LINE = /^(waiting in the queue|held:)/;

export function shipmentDocumentsPanel(shipment: ShipmentView, ctx: UiContext): HTMLElement {
  const types = shipment.availableDocuments.filter((type) => PRINTABLE.has(type));
  const notice = h('p', { class: 'printed-notice', role: 'status' });
  if (types.length === 0) return notice;
  const list = h('ul', { class: 'document-states', 'aria-label': t('docs.toPrint') });
  const button = h('button', { type: 'button', class: 'print-documents', disabled: true }, t('docs.printMissing'));
  const result = h('p', { class: 'inline-result', role: 'status' });
  const element = h(
    'section',
    { class: 'shipment-documents', 'aria-label': t('docs.ofParcel') },
    notice,
    list,
    h('div', { class: 'row' }, button, result),
  );
  const names = new Map<string, string>();

  const printerName = (uri: string | null): string => (uri ? (names.get(uri) ?? describeTarget(uri)) : t('docs.aPrinter'));
  /**
   * Documents the station prints by itself (Settings, auto-print): one of those not printed is
   * worth an alarm. Any other document not printed is simply not printed here: neutral.
   */
  const autoPrinted = (type: string): boolean => (ctx.settings?.routing.autoPrint ?? ['label']).includes(type);
  const notHere = (s: ShipmentDocumentState): boolean => s.state === 'not_printed' && !autoPrinted(s.documentType);
  const render = (states: readonly ShipmentDocumentState[]): void => {
    const label = states.find((s) => s.documentType === 'label');
    notice.className = `printed-notice${label?.state === 'printed' ? ' already' : ''}`;
    notice.textContent =
      label?.state === 'printed'
        ? t('docs.labelPrinted', { time: localClock(label.printedAt), printer: printerName(label.printer) })
        : label?.state === 'may_have_printed'
          ? t('docs.labelMayHavePrinted', { printer: printerName(label.printer) })
          : '';
    replaceChildren(
      list,
      ...states.map((s) =>
        h(
          'li',
          { class: `document-state ${notHere(s) ? 'not-here' : s.state}`, 'data-document': s.documentType },
          h('span', { class: 'document-name' }, documentWords(s.documentType)),
          notHere(s)
            ? h('span', { class: 'eod-state not-here' }, t('docs.notPrintedHere'))
            : h('span', { class: `eod-state ${s.state}` }, END_OF_DAY_WORDS[s.state]),
          h(
            'span',
            { class: 'eod-detail' },
            s.state === 'printed'
              ? t('eod.printedOn', { time: localClock(s.printedAt), printer: printerName(s.printer) })
              : s.detail === null
                ? null
                : agentWords(s.detailMessage, s.detail),
          ),
        ),
      ),
    );
    const printable = states.filter((s) => MISSING.has(s.state) && !IN_LINE.test(s.detail ?? ''));
    const missing = printable.filter((s) => !notHere(s)).length;
    button.disabled = printable.length === 0;
    // The documents the station leaves to others can still be printed here, without an alarm.
    button.textContent =
      missing > 0
        ? t('docs.printMissingCount', { count: missing })
        : printable.length > 0
          ? t('docs.printHereCount', { count: printable.length })
          : t('docs.printMissing');
  };

  const load = async (): Promise<void> => {
    try {
      render(await ctx.api.shipmentDocuments({ shipmentId: shipment.id, documentTypes: [...types] }));
    } catch (error) {
      result.className = 'inline-result fail';
      result.textContent = t('docs.stateUnknown', { error: describeError(error) });
    }
  };

  button.addEventListener('click', () => {
    button.disabled = true;
    void ctx.api.printShipmentDocuments({ shipmentId: shipment.id }).then(
      (done) => {
        render(done.documents);
        result.className = 'inline-result ok';
        const already = done.waiting > 0 ? t('docs.already', { count: done.waiting }) : '';
        result.textContent = t('docs.sent', { count: done.queued + done.retried, already });
      },
      (error: unknown) => {
        result.className = 'inline-result fail';
        result.textContent = t('eod.nothingPrinted', { error: describeError(error) });
        button.disabled = false;
      },
    );
  });

  // Job events of this shipment change its states; the subscription ends once the panel is gone.
  let seen = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const stop = ctx.api.onEvent((event) => {
    if (element.isConnected) seen = true;
    else if (seen) {
      stop();
      return;
    }
    if (event.type !== 'job' || !sameShipment(event.job, shipment) || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void load();
    }, 150);
  });
  void ctx.printers().then((printers) => {
    for (const p of printers) names.set(p.uri, printerLabel(p.name, p.uri));
    void load();
  });
  return element;
}

function sameShipment(job: JobView, shipment: ShipmentView): boolean {
  return job.shipmentId.toLowerCase() === shipment.id.toLowerCase();
}
