/**
 * On a scanned, booked shipment: "already printed?" and documents per parcel (issue 13,
 * parts 4 and 3). Says at once whether the label printed, when and where ("Label printed
 * 09:14 on Zebra bench 2"), before anyone reprints it (Reprint, Alt+R, still prints
 * another); lists every document the shipment needs with its print state; and prints the
 * missing ones with one button (the agent makes that at most once per document).
 * Self-contained: result-view mounts it with one line; it follows job events itself.
 */
import { DOCUMENT_TYPES, type EndOfDayState, type JobView, type ShipmentDocumentState, type ShipmentView } from '../../shared/domain';
import { END_OF_DAY_STATE_WORDS } from '../../shared/end-of-day-csv';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { describeTarget, localClock } from '../format';
import { documentWords } from '../words';

const MISSING: ReadonlySet<EndOfDayState> = new Set(['not_printed', 'failed']);
/** Documents POST /shipments/print can print; uploads the service lists (adr_dangerousgoods) are not. */
const PRINTABLE: ReadonlySet<string> = new Set(DOCUMENT_TYPES);
/** The agent's words for a job still in line (end-of-day.ts): nothing to press for. */
const IN_LINE = /^(waiting in the queue|held:)/;

export function shipmentDocumentsPanel(shipment: ShipmentView, ctx: UiContext): HTMLElement {
  const types = shipment.availableDocuments.filter((t) => PRINTABLE.has(t));
  const notice = h('p', { class: 'printed-notice', role: 'status' });
  if (types.length === 0) return notice;
  const list = h('ul', { class: 'document-states', 'aria-label': 'Documents to print' });
  const button = h('button', { type: 'button', class: 'print-documents', disabled: true }, 'Print missing documents');
  const result = h('p', { class: 'inline-result', role: 'status' });
  const element = h(
    'section',
    { class: 'shipment-documents', 'aria-label': 'Documents of this parcel' },
    notice,
    list,
    h('div', { class: 'row' }, button, result),
  );
  const names = new Map<string, string>();

  const printerName = (uri: string | null): string => (uri ? (names.get(uri) ?? describeTarget(uri)) : 'a printer');
  const render = (states: readonly ShipmentDocumentState[]): void => {
    const label = states.find((s) => s.documentType === 'label');
    notice.className = `printed-notice${label?.state === 'printed' ? ' already' : ''}`;
    notice.textContent =
      label?.state === 'printed'
        ? `Label printed ${localClock(label.printedAt)} on ${printerName(label.printer)}. Reprint (Alt+R) prints it again.`
        : label?.state === 'may_have_printed'
          ? `The label may have printed on ${printerName(label.printer)}: check the printer before reprinting.`
          : '';
    replaceChildren(
      list,
      ...states.map((s) =>
        h(
          'li',
          { class: `document-state ${s.state}` },
          h('span', { class: 'document-name' }, documentWords(s.documentType)),
          h('span', { class: `eod-state ${s.state}` }, END_OF_DAY_STATE_WORDS[s.state]),
          h('span', { class: 'eod-detail' }, s.state === 'printed' ? `${localClock(s.printedAt)} on ${printerName(s.printer)}` : s.detail),
        ),
      ),
    );
    const missing = states.filter((s) => MISSING.has(s.state) && !IN_LINE.test(s.detail ?? '')).length;
    button.disabled = missing === 0;
    button.textContent = missing > 0 ? `Print missing documents (${missing})` : 'Print missing documents';
  };

  const load = async (): Promise<void> => {
    try {
      render(await ctx.api.shipmentDocuments({ shipmentId: shipment.id, documentTypes: [...types] }));
    } catch (error) {
      result.className = 'inline-result fail';
      result.textContent = `Print state unknown: ${describeError(error)}`;
    }
  };

  button.addEventListener('click', () => {
    button.disabled = true;
    void ctx.api.printShipmentDocuments({ shipmentId: shipment.id }).then(
      (done) => {
        render(done.documents);
        result.className = 'inline-result ok';
        const already = done.waiting > 0 ? `, ${done.waiting} already printing or printed` : '';
        result.textContent = `${done.queued + done.retried} document(s) sent to print${already}.`;
      },
      (error: unknown) => {
        result.className = 'inline-result fail';
        result.textContent = `Nothing printed: ${describeError(error)}`;
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
    for (const p of printers) names.set(p.uri, p.name);
    void load();
  });
  return element;
}

function sameShipment(job: JobView, shipment: ShipmentView): boolean {
  return job.shipmentId.toLowerCase() === shipment.id.toLowerCase();
}
