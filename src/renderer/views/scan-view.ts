/**
 * The default view: the scan box (always focused), the feedback line and the result.
 * A keyboard-wedge scanner types a burst of characters and Enter; so does a person.
 */
import type { LookupResult } from '../../shared/agent-api';
import type { JobView } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { language, t } from '../i18n';
import { installScanSuffixes } from '../scan-suffix';
import { beepFailure, beepSuccess, primeAudio } from '../sound';
import { CatchUpBanner } from './catch-up-banner';
import { renderShipment, type ShipmentPanel } from './result-view';
import { scannerTestWords } from './scanner-test-sheet';
import { LabelPreviewView } from './label-preview-view';

/** How long after the view puts the caret back in the box an empty Enter is taken as part of what went before. */
const ENTER_AFTER_FOCUS_MS = 1000;

export class ScanView {
  readonly element: HTMLElement;
  readonly input: HTMLInputElement;
  private readonly feedback: HTMLElement;
  private readonly result: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly hint = h('p', { id: 'scan-hint', class: 'hint' });
  private panel: ShipmentPanel | null = null;
  private readonly preview: LabelPreviewView;
  /** Scans are answered in order: a slow lookup must not overwrite a newer result. */
  private sequence = 0;
  /** performance.now() until which an empty Enter says nothing (see ENTER_AFTER_FOCUS_MS). */
  private quietUntil = 0;

  constructor(private readonly ctx: UiContext) {
    this.input = h('input', {
      id: 'scan',
      type: 'text',
      name: 'scan',
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: 'false',
      enterkeyhint: 'search',
      maxlength: 512,
      'aria-describedby': 'scan-hint',
    });
    this.form = h(
      'form',
      { class: 'scan-form', role: 'search' },
      // A short window shows the label on one line, cut: the whole of it on hover.
      h('label', { for: 'scan', class: 'scan-label', title: t('scan.label') }, t('scan.label')),
      h('div', { class: 'scan-row' }, this.input, h('button', { type: 'submit', class: 'primary' }, t('scan.lookUp'))),
      this.hint,
    );
    this.feedback = h('div', { class: 'feedback', id: 'scan-feedback' });
    this.result = h('div', { class: 'result' });
    this.preview = new LabelPreviewView(ctx);
    this.element = h(
      'section',
      { class: 'view scan-view', id: 'view-scan', role: 'tabpanel', 'aria-labelledby': 'tab-scan' },
      // The picture of the label that went out beside the scan box and the scan's answer: where
      // the packer looks after a scan, in the flow, so it covers no control at any size.
      h(
        'div',
        { class: 'scan-top' },
        h('div', { class: 'scan-answer' }, this.form, new CatchUpBanner(ctx).element, this.feedback),
        this.preview.element,
      ),
      this.result,
    );

    const suffixes = installScanSuffixes(this.input, (code) => {
      primeAudio();
      void this.lookup(code);
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      primeAudio();
      const { code, pairedEnter } = suffixes.submitted();
      if (pairedEnter) return;
      if (code.trim() === '') {
        this.input.value = '';
        // The second of two quick Enters that booked, or looked up, and put the caret back
        // here: it belonged to what just happened, not to a scan that read nothing.
        if (performance.now() < this.quietUntil) return;
        replaceChildren(this.feedback, h('p', { role: 'status', class: 'hint-line' }, t('scan.empty')));
        return;
      }
      void this.lookup(code);
    });
  }

  async lookup(raw: string): Promise<void> {
    const scan = raw.slice(0, 512);
    this.input.value = '';
    if (scan.trim() === '') return;
    const test = scannerTestWords(scan);
    if (test !== null) {
      // A code from the scanner test sheet: answered here, no lookup.
      this.panel?.dispose();
      this.panel = null;
      replaceChildren(this.result);
      replaceChildren(this.feedback, h('p', { role: 'status', class: 'scanner-test-result' }, test));
      return;
    }
    const seq = ++this.sequence;
    this.element.classList.add('busy');
    this.element.setAttribute('aria-busy', 'true');
    let outcome: LookupResult | { kind: 'error'; message: string };
    try {
      outcome = await this.ctx.api.lookup({ scan });
    } catch (error) {
      outcome = { kind: 'error', message: t('scan.lookupFailed', { scan: scan.trim(), error: describeError(error) }) };
    }
    if (seq !== this.sequence) return;
    this.element.classList.remove('busy');
    this.element.removeAttribute('aria-busy');
    this.show(outcome);
    this.quietUntil = performance.now() + ENTER_AFTER_FOCUS_MS;
    this.ctx.focusScan();
  }

  /** The keyboard hint names the Alt+number keys of the tabs there are (four, or five with a site). */
  setTabCount(count: number): void {
    this.hint.textContent = t('scan.hint', { last: count });
    // A short window shows the hint on one line, cut: the whole of it on hover.
    this.hint.title = this.hint.textContent;
  }

  reprint(): void {
    this.panel?.reprint();
  }

  book(): void {
    this.panel?.book();
  }

  /** After a booking or a void: the shipment again, as the service now has it, with a note. */
  private async refresh(shipmentId: string, note: string): Promise<void> {
    const seq = ++this.sequence;
    let outcome: LookupResult | null = null;
    try {
      outcome = await this.ctx.api.lookup({ scan: shipmentId });
    } catch {
      outcome = null;
    }
    if (seq !== this.sequence) return;
    replaceChildren(this.feedback, h('p', { role: 'status', class: 'ok' }, note));
    if (outcome?.kind === 'found') {
      this.panel?.dispose();
      this.panel = renderShipment(outcome.shipment, this.ctx, (next) => void this.refresh(outcome.shipment.id, next));
      replaceChildren(this.result, this.panel.element);
    }
    // After a booking at a small screen: the scan box and the note ("Booked") back in view.
    window.scrollTo({ top: 0 });
    this.quietUntil = performance.now() + ENTER_AFTER_FOCUS_MS;
    this.ctx.focusScan();
  }

  onJob(job: JobView): void {
    this.panel?.onJob(job);
    this.preview.onJob(job);
  }

  private show(outcome: LookupResult | { kind: 'error'; message: string }): void {
    if (outcome.kind === 'found') {
      const s = outcome.shipment;
      this.flash('ok');
      replaceChildren(
        this.feedback,
        h('p', { role: 'status', class: 'ok' }, foundWords(outcome.scanned, outcome.matchedBy, s.referenceId)),
        outcome.layoutMismatch ? h('p', { class: 'warn layout-mismatch' }, t(`scan.layout.${outcome.layoutMismatch}`)) : null,
      );
      this.panel?.dispose();
      this.panel = renderShipment(s, this.ctx, (note) => void this.refresh(s.id, note));
      replaceChildren(this.result, this.panel.element);
      beepSuccess();
      return;
    }
    this.flash('fail');
    this.panel?.dispose();
    this.panel = null;
    replaceChildren(this.result);
    replaceChildren(this.feedback, h('p', { role: 'alert', class: 'fail' }, failureWords(outcome)));
    beepFailure();
  }

  private flash(kind: 'ok' | 'fail'): void {
    this.element.classList.remove('flash-ok', 'flash-fail');
    // Reflow so the animation restarts on two scans in a row with the same outcome.
    void this.element.offsetWidth;
    this.element.classList.add(kind === 'ok' ? 'flash-ok' : 'flash-fail');
  }
}

function foundWords(scanned: string, by: 'reference' | 'shipment_id' | 'tracking_id', reference: string | null): string {
  const matchedBy = t(`scan.by.${by}`);
  // Found by its reference, the reference is what was scanned: saying it again is an echo.
  const echo = by === 'reference' || reference?.trim().toUpperCase() === scanned.trim().toUpperCase();
  const words = { scanned: unbroken(scanned), matchedBy };
  return reference && !echo ? t('scan.foundReference', { ...words, reference: unbroken(reference) }) : t('scan.found', words);
}

/** A code shown whole on a narrow window: its hyphens as non-breaking ones (DEMO-0017 never splits into "DEMO-" and "0017"). */
function unbroken(code: string): string {
  return code.replace(/-/g, '\u2011');
}

/**
 * "Nothing found" in the UI's language. The agent writes English: in English its words are
 * shown as written, and an unreadable scan (empty `normalized`) keeps them in any language,
 * since they say what was wrong with it.
 */
function failureWords(outcome: Exclude<LookupResult, { kind: 'found' }> | { kind: 'error'; message: string }): string {
  const translate = outcome.kind === 'not_found' && outcome.normalized !== '' && language() !== 'en';
  return translate ? t('scan.notFound', { scan: outcome.scanned }) : outcome.message;
}
