/**
 * End of day: for a day, where each booking stands (booked, printed, may have printed,
 * failed, not printed, canceled), from the service's list and the ledger; the list by
 * reference, carrier and tracking id; CSV download; "Print what is missing" and, when the
 * service offers manifests for the day's shipments, "Print manifests". The agent makes both
 * actions exactly-once, so a second click is harmless.
 */
import { END_OF_DAY_STATES, type EndOfDayPrintResult, type EndOfDayReport, type EndOfDayState } from '../../shared/domain';
import { END_OF_DAY_STATE_WORDS, endOfDayCsv } from '../../shared/end-of-day-csv';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { describeTarget, localClock } from '../format';

const COLUMNS = ['Reference', 'Carrier', 'Tracking id', 'State'] as const;

/** Today in the station's time zone, as a date input wants it. */
export function todayText(now: Date = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export class EndOfDayView {
  readonly element: HTMLElement;
  private readonly day: HTMLInputElement;
  private readonly counts: HTMLElement;
  private readonly warning: HTMLElement;
  private readonly result: HTMLElement;
  private readonly body: HTMLTableSectionElement;
  private readonly printMissing: HTMLButtonElement;
  private readonly printManifests: HTMLButtonElement;
  private readonly download: HTMLButtonElement;
  private report: EndOfDayReport | null = null;
  private busy = false;

  constructor(private readonly ctx: UiContext) {
    this.day = h('input', { type: 'date', id: 'eod-day', required: true });
    this.day.value = todayText();
    const refresh = h('button', { type: 'button', class: 'refresh' }, 'Refresh');
    this.printMissing = h('button', { type: 'button', class: 'primary', disabled: true }, 'Print what is missing');
    this.printManifests = h('button', { type: 'button', hidden: true }, 'Print manifests');
    this.download = h('button', { type: 'button', disabled: true }, 'Download CSV');
    this.counts = h('ul', { class: 'eod-counts', 'aria-label': 'Counts', 'aria-live': 'polite' });
    this.warning = h('div', { class: 'eod-warning' });
    this.result = h('p', { class: 'inline-result', role: 'status' });
    this.body = h('tbody');
    this.element = h(
      'section',
      { class: 'view eod-view', id: 'view-end-of-day', role: 'tabpanel', 'aria-labelledby': 'tab-end-of-day', hidden: true },
      h('h2', {}, 'End of day'),
      h('div', { class: 'eod-tools' }, h('label', { for: 'eod-day' }, 'Day'), this.day, refresh),
      this.counts,
      this.warning,
      h('div', { class: 'eod-actions' }, this.printMissing, this.printManifests, this.download),
      this.result,
      h(
        'table',
        { class: 'eod-table', 'aria-label': 'Bookings of the day' },
        h('thead', {}, h('tr', {}, ...COLUMNS.map((c) => h('th', { scope: 'col' }, c)))),
        this.body,
      ),
    );
    this.day.addEventListener('change', () => void this.load());
    refresh.addEventListener('click', () => void this.load());
    this.printMissing.addEventListener('click', () => void this.act('printMissing'));
    this.printManifests.addEventListener('click', () => void this.act('printManifests'));
    this.download.addEventListener('click', () => this.downloadCsv());
  }

  show(): void {
    void this.load();
  }

  async load(): Promise<void> {
    const day = this.day.value;
    if (!day) {
      this.say('fail', 'Choose a day.');
      return;
    }
    this.say('', 'Reading the day’s bookings…');
    try {
      this.render(await this.ctx.api.endOfDay({ day }));
      this.say('', '');
    } catch (error) {
      this.say('fail', `The report could not be made: ${describeError(error)}`);
    }
  }

  private async act(op: 'printMissing' | 'printManifests'): Promise<void> {
    if (this.busy || !this.report) return;
    this.busy = true;
    try {
      const done: EndOfDayPrintResult = await this.ctx.api[op]({ day: this.report.day });
      this.render(done.report);
      const what = op === 'printMissing' ? 'label' : 'manifest';
      const parts = [`${done.queued} ${what}(s) sent to print`];
      if (done.retried > 0) parts.push(`${done.retried} failed label(s) tried again`);
      if (done.waiting > 0) parts.push(`${done.waiting} already printing or printed`);
      this.say('ok', `${parts.join(', ')}.`);
    } catch (error) {
      this.say('fail', `Nothing printed: ${describeError(error)}`);
    } finally {
      this.busy = false;
    }
  }

  private render(report: EndOfDayReport): void {
    this.report = report;
    const items = [h('li', { class: 'eod-count booked' }, h('strong', {}, report.counts.booked), ' booked')];
    for (const state of END_OF_DAY_STATES) {
      items.push(h('li', { class: `eod-count ${state}` }, h('strong', {}, report.counts[state]), ` ${END_OF_DAY_STATE_WORDS[state]}`));
    }
    replaceChildren(this.counts, ...items);
    const error = report.serviceError;
    replaceChildren(
      this.warning,
      error
        ? h(
            'p',
            { role: 'alert', class: 'fail' },
            `The service’s list was not read; these are this station’s own jobs only: ${error.message}` +
              (error.requestId ? ` (request id ${error.requestId})` : ''),
          )
        : null,
    );
    const missing = report.counts.not_printed + report.counts.failed;
    this.printMissing.disabled = missing === 0;
    this.printMissing.textContent = missing > 0 ? `Print what is missing (${missing})` : 'Print what is missing';
    const manifests = report.manifests;
    this.printManifests.hidden = manifests.available === 0;
    this.printManifests.textContent = `Print manifests (${manifests.printed} of ${manifests.available} printed)`;
    this.download.disabled = false;
    replaceChildren(
      this.body,
      ...(report.rows.length === 0 ? [h('tr', {}, h('td', { colspan: COLUMNS.length, class: 'muted' }, 'No bookings on this day.'))] : []),
      ...report.rows.map((r) =>
        h(
          'tr',
          { class: `eod-row ${r.state}` },
          h('td', {}, r.reference ?? r.shipmentId),
          h('td', {}, r.carrier ?? '—'),
          h('td', {}, r.trackingId ?? '—'),
          h('td', {}, h('span', { class: `eod-state ${r.state}` }, END_OF_DAY_STATE_WORDS[r.state]), stateDetail(r.state, r)),
        ),
      ),
    );
  }

  private downloadCsv(): void {
    if (!this.report) return;
    const url = URL.createObjectURL(new Blob([endOfDayCsv(this.report)], { type: 'text/csv;charset=utf-8' }));
    const link = h('a', { href: url, download: `end-of-day-${this.report.day}.csv`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  private say(tone: '' | 'ok' | 'fail', text: string): void {
    this.result.className = `inline-result${tone ? ` ${tone}` : ''}`;
    this.result.textContent = text;
  }
}

function stateDetail(state: EndOfDayState, row: EndOfDayReport['rows'][number]): HTMLElement | null {
  if (state === 'printed' && row.printedAt) {
    return h('span', { class: 'eod-detail' }, ` ${localClock(row.printedAt)} on ${describeTarget(row.printer ?? '')}`);
  }
  return row.detail ? h('span', { class: 'eod-detail' }, ` ${row.detail}`) : null;
}
