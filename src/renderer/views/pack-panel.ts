/**
 * A scanned shipment that is not booked: what it holds and what booking still needs, and
 * the flow that finishes it at the table (parcels → rates → what the rate needs → Book
 * and print), by keyboard alone. Every failure keeps what was typed and shows the
 * service's message with its request id; field errors sit next to their fields.
 */
import type {
  BookedView,
  CustomsItemView,
  DraftView,
  FieldProblem,
  PackProblem,
  PackResult,
  RateView,
  ShipmentView,
} from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { fieldProblemWords, problemLine } from '../field-problem-words';
import { h, replaceChildren } from '../dom';
import { localNumber, localWeight } from '../format';
import { t } from '../i18n';
import { beepFailure, beepSuccess } from '../sound';
import { documentWords } from '../words';
import { ParcelsForm, dimensionsWords, weightWords } from './pack-parcels';
import { RateList, documentPicker, servicePointSelect, size } from './pack-rates';
import { followScale } from './pack-hands-free';

export interface PackPanel {
  readonly element: HTMLElement;
  /** Opens the flow (Alt+B). */
  open(): void;
}

export function packPanel(shipment: ShipmentView, ctx: UiContext, done: (note: string) => void): PackPanel {
  const api = ctx.api;
  const info = h('div', { class: 'pack-info' }, h('p', { class: 'muted' }, t('packPanel.checking')));
  const problem = h('div', { class: 'pack-problem', role: 'alert' });
  // What the scale is doing with this draft (Book when the weight is stable): said aloud as it changes.
  const handsFreeStatus = h('p', { class: 'pack-status hands-free', role: 'status' });
  const openButton = h('button', { type: 'button', class: 'primary', 'aria-keyshortcuts': 'Alt+B' }, t('packPanel.open'));
  const flow = h('div', { class: 'pack-flow', hidden: true });
  const element = h(
    'section',
    { class: 'pack-panel', 'aria-labelledby': 'pack-title', 'data-keep-focus': '' },
    h('h3', { id: 'pack-title' }, t('packPanel.title')),
    // The button first, under the heading: in sight at 1280x800 whatever the draft's summary holds.
    openButton,
    handsFreeStatus,
    info,
    flow,
    // Under the flow, beside its buttons: a banner appearing never pushes the fields being typed in.
    problem,
  );

  let draft: DraftView | null = null;
  let parcels: ParcelsForm | null = null;
  const uploaded = new Set<string>();
  const needs = h('div', { class: 'pack-needs' });
  const rates = new RateList(
    (rate) => showNeeds(rate),
    () => void book(),
  );
  const pickupNote = h('input', {
    type: 'text',
    maxlength: 500,
    'aria-label': t('packPanel.pickupNote'),
    placeholder: t('packPanel.pickupPlaceholder'),
  });
  const deliveryNote = h('input', {
    type: 'text',
    maxlength: 500,
    'aria-label': t('packPanel.deliveryNote'),
    placeholder: t('packPanel.deliveryPlaceholder'),
  });
  const bookButton = h('button', { type: 'button', class: 'primary book' }, t('action.bookAndPrint'));
  const bookStatus = h('p', { class: 'pack-status', role: 'status' });
  let pointSelect: HTMLSelectElement | null = null;
  let booking = false;
  const scale = followScale(
    ctx,
    shipment.id,
    () => parcels,
    handsFreeStatus,
    (view) => view.booked && finished(view.booked),
  );

  const showProblem = (p: PackProblem | null, elsewhere: readonly FieldProblem[] = p?.fields ?? []): void => {
    if (!p) return replaceChildren(problem);
    // Typed values the station refused: the banner says what the fields say, in the UI's words.
    const own = p.code === 'PACK_INVALID_INPUT' && p.fields.length > 0 && p.fields.every((f) => fieldProblemWords(f).translated);
    const message = own ? t('parcels.check', { problems: p.fields.map(problemLine).join('; ') }) : p.message;
    const text = p.requestId && !message.includes(p.requestId) ? t('common.withRequestId', { message, id: p.requestId }) : message;
    replaceChildren(
      problem,
      h('p', { class: 'fail' }, text),
      elsewhere.length > 0 ? h('ul', { class: 'field-problems' }, ...elsewhere.map((f) => h('li', {}, problemLine(f)))) : null,
    );
    beepFailure();
  };

  /** Runs a call; a thrown error (agent offline, bad input) is shown like a service problem. */
  const run = async <T>(call: () => Promise<PackResult<T>>): Promise<PackResult<T>> => {
    try {
      return await call();
    } catch (error) {
      return { ok: false, problem: { code: 'UI_ERROR', message: describeError(error), requestId: null, fields: [] } };
    }
  };

  const renderInfo = (d: DraftView): void => {
    draft = d;
    const rows: Array<[string, string | null]> = [
      [t('packPanel.sender'), partyLine(d.shipment.sender)],
      // The receiver is in the shipment's own summary beside this one: said once.
      [t('packPanel.parcels'), d.packages.length > 0 ? d.packages.map(packageLine).join('; ') : null],
      [
        t('packPanel.references'),
        [d.shipment.referenceId, d.shipment.senderReference, d.shipment.receiverReference].filter(Boolean).join(' · ') || null,
      ],
      [
        t('packPanel.customs'),
        d.customs ? d.customs.items.map((i) => customsItemLine(i, d.customs?.currency ?? null)).join('; ') || t('packPanel.noItems') : null,
      ],
    ];
    replaceChildren(
      info,
      h('dl', { class: 'summary' }, ...rows.flatMap(([term, v]) => [h('dt', {}, term), h('dd', { class: v ? '' : 'muted' }, v ?? '—')])),
      d.missing.length > 0
        ? h(
            'div',
            { class: 'missing' },
            h('p', { class: 'fail' }, t('packPanel.missingColon')),
            h('ul', { 'aria-label': t('packPanel.missing') }, ...d.missing.map((m) => h('li', {}, problemLine(m)))),
          )
        : h('p', { class: 'ok' }, t('packPanel.ready')),
    );
  };

  const load = async (): Promise<void> => {
    const result = await run(() => api.packDraft({ shipmentId: shipment.id }));
    if (result.ok) {
      renderInfo(result.value);
      // Handed to the scale (when the station books on a stable weight): the weight boxes show what it weighs.
      const armed = await scale.arm();
      if (armed && armed.state !== 'off' && armed.state !== 'booked' && flow.hidden) await open();
    } else {
      replaceChildren(info);
      showProblem(result.problem);
    }
  };

  const open = async (): Promise<void> => {
    if (!flow.hidden) return parcels?.focus();
    if (!draft) await load();
    if (!draft) return;
    parcels = new ParcelsForm(draft.packages, () => void saveParcels());
    replaceChildren(
      flow,
      parcels.element,
      rates.element,
      needs,
      h('div', { class: 'pack-notes' }, pickupNote, deliveryNote),
      h('div', { class: 'pack-actions' }, bookButton),
      bookStatus,
    );
    rates.element.hidden = true;
    bookButton.hidden = true;
    flow.hidden = false;
    openButton.hidden = true;
    // What the service says is missing on a parcel sits next to that parcel's field.
    parcels.showProblems(draft.missing);
    parcels.focus();
    void api.packPresets({}).then(
      (p) => parcels?.setPresets(p),
      () => undefined,
    );
    if (draft.missing.length === 0 && draft.packages.every((p) => p.weightKg !== null)) void fetchRates(false);
  };

  const saveParcels = async (): Promise<void> => {
    if (!parcels) return;
    showProblem(null);
    parcels.clearProblems();
    const result = await run(() => api.packUpdate({ shipmentId: shipment.id, packages: parcels!.values() }));
    if (!result.ok) {
      showProblem(result.problem, parcels.showProblems(result.problem.fields));
      return;
    }
    renderInfo(result.value);
    void scale.arm(rates.selected?.token);
    if (result.value.missing.length === 0) await fetchRates(true);
    else
      showProblem({
        code: 'PACK_MISSING',
        message: t('packPanel.savedStillMissing'),
        requestId: null,
        fields: result.value.missing,
      });
  };

  const fetchRates = async (focus: boolean): Promise<void> => {
    bookStatus.textContent = t('packPanel.fetchingRates');
    const result = await run(() => api.packRates({ shipmentId: shipment.id }));
    bookStatus.textContent = '';
    if (!result.ok) {
      showProblem(result.problem, parcels?.showProblems(result.problem.fields) ?? result.problem.fields);
      return;
    }
    showProblem(null);
    rates.show(result.value);
    rates.element.hidden = false;
    bookButton.hidden = false;
    if (focus) rates.focus();
  };

  const showNeeds = (rate: RateView): void => {
    pointSelect = null;
    // The chosen rate is the one the scale books with.
    void scale.arm(rate.token);
    const parts: HTMLElement[] = [];
    if (rate.needsServicePoint) {
      const holder = h('div', { class: 'need' }, h('p', { class: 'muted' }, t('packPanel.findingPoints')));
      parts.push(holder);
      void run(() => api.packServicePoints({ shipmentId: shipment.id, carrier: rate.carrier ?? undefined })).then((r) => {
        if (!r.ok) return showProblem(r.problem);
        pointSelect = servicePointSelect(r.value);
        replaceChildren(holder, h('label', { class: 'field' }, h('span', {}, t('packPanel.servicePoint')), pointSelect));
      });
    }
    for (const documentType of rate.requiredDocuments) {
      const status = h(
        'span',
        { class: uploaded.has(documentType) ? 'ok' : 'muted' },
        uploaded.has(documentType) ? t('packPanel.uploaded') : t('packPanel.requiredBeforeBooking'),
      );
      const picker = documentPicker(
        documentType,
        (file) => {
          status.textContent = t('packPanel.uploading', { size: size(file.bytes) });
          void run(() =>
            api.packUpload({
              shipmentId: shipment.id,
              documentType: documentType as 'customsinvoice',
              fileName: file.name,
              contentBase64: file.base64,
            }),
          ).then((r) => {
            if (!r.ok) {
              status.textContent = t('packPanel.notUploaded');
              return showProblem(r.problem);
            }
            uploaded.add(documentType);
            status.className = 'ok';
            status.textContent = t('packPanel.uploadedSize', { size: size(r.value.bytes) });
          });
        },
        (message) => showProblem({ code: 'PACK_NOT_PDF', message, requestId: null, fields: [] }),
      );
      parts.push(h('div', { class: 'need' }, picker, status));
    }
    replaceChildren(needs, ...parts);
  };

  const book = async (): Promise<void> => {
    const rate = rates.selected;
    if (booking || !rate) return;
    if (!rate.bookable)
      return showProblem({
        code: 'PACK_RATE',
        message: t('packPanel.noCustomsPayer'),
        requestId: null,
        fields: [],
      });
    const missingDocs = rate.requiredDocuments.filter((d) => !uploaded.has(d));
    if (missingDocs.length > 0) {
      showProblem({
        code: 'PACK_DOCUMENTS',
        message: t('packPanel.uploadFirst', { documents: missingDocs.map(documentWords).join(', ') }),
        requestId: null,
        fields: [],
      });
      needs.querySelector<HTMLInputElement>('input[type=file]')?.focus();
      return;
    }
    if (rate.needsServicePoint && !pointSelect?.value)
      return showProblem({ code: 'PACK_POINT', message: t('packPanel.pickPoint'), requestId: null, fields: [] });
    booking = true;
    bookButton.disabled = true;
    bookStatus.textContent = t('packPanel.booking');
    showProblem(null);
    const result = await run(() =>
      api.packBook({
        shipmentId: shipment.id,
        token: rate.token,
        servicePointToken: rate.needsServicePoint ? pointSelect?.value : undefined,
        pickupInstructions: pickupNote.value || undefined,
        deliveryInstructions: deliveryNote.value || undefined,
      }),
    );
    booking = false;
    bookButton.disabled = false;
    if (!result.ok) {
      bookStatus.textContent = '';
      showProblem(result.problem);
      return;
    }
    finished(result.value);
  };

  const finished = (b: BookedView): void => {
    beepSuccess();
    done(
      t('packPanel.booked', {
        name: shipment.referenceId ?? shipment.id,
        tracking: b.trackingId ? t('packPanel.tracking', { tracking: b.trackingId }) : '',
        refreshed: b.refreshedToken ? t('packPanel.refreshed') : '',
        what: t('packPanel.sent', { count: b.jobs.length }),
      }),
    );
  };

  openButton.addEventListener('click', () => void open());
  bookButton.addEventListener('click', () => void book());
  void load();
  return { element, open: () => void open() };
}

function partyLine(p: ShipmentView['receiver']): string | null {
  const place = [p.postalCode, p.city].filter(Boolean).join(' ');
  const text = [
    p.name,
    p.contactName && p.contactName !== p.name ? p.contactName : null,
    p.addressLine,
    [place, p.countryCode].filter(Boolean).join(', '),
  ]
    .filter((x): x is string => !!x)
    .join(', ');
  return text || null;
}

/** `3 × T-shirt, 0,25 kg, 1 234,5 SEK`: weight and value in the UI's digits, like the parcels' weights. */
function customsItemLine(item: CustomsItemView, currency: string | null): string {
  const weight = item.unitWeightKg === null ? '? kg' : localWeight(item.unitWeightKg);
  const value = item.unitValue === null ? '?' : localNumber(item.unitValue);
  return `${item.quantity ?? '?'} × ${item.description ?? t('packPanel.item')}, ${weight}, ${value} ${currency ?? ''}`.trim();
}

function packageLine(p: DraftView['packages'][number]): string {
  const dims =
    p.widthCm !== null && p.heightCm !== null && p.depthCm !== null
      ? dimensionsWords(p.widthCm, p.heightCm, p.depthCm)
      : t('packPanel.sizeMissing');
  const weight = p.weightKg !== null ? weightWords(p.weightKg) : t('packPanel.weightMissing');
  return `${p.quantity} × ${dims}, ${weight}${p.description ? ` (${p.description})` : ''}`;
}
