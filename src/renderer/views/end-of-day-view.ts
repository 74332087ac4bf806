/**
 * End of day: for a day, where each booking stands (booked, printed, may have printed,
 * failed, not printed, canceled), from the service's list and the ledger; the list by
 * reference, carrier and tracking id; CSV download (in the UI's language, laid out for a spreadsheet
 * of its locale: src/shared/end-of-day-csv.ts); "Print what is missing" and, when the
 * service offers manifests for the day's shipments, "Print manifests". The agent makes both
 * actions exactly-once, so a second click is harmless.
 */
import {
  END_OF_DAY_STATES,
  type EndOfDayPrintResult,
  type EndOfDayReport,
  type EndOfDayRow,
  type EndOfDayState,
} from '../../shared/domain';
import { endOfDayCsv } from '../../shared/end-of-day-csv';
import { describeError } from '../bridge/agent-call-error';
import { agentWords } from '../agent-words';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { describeTarget, localClock } from '../format';
import { language, t, type MessageKey } from '../i18n';
import { END_OF_DAY_WORDS } from '../words';

const COLUMNS: readonly MessageKey[] = ['eod.col.reference', 'eod.col.carrier', 'eod.col.trackingId', 'eod.col.state'];

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
    const refresh = h('button', { type: 'button', class: 'refresh' }, t('eod.refresh'));
    this.printMissing = h('button', { type: 'button', class: 'primary', disabled: true }, t('eod.printMissing'));
    this.printManifests = h('button', { type: 'button', hidden: true }, t('eod.printManifests'));
    this.download = h('button', { type: 'button', disabled: true }, t('eod.download'));
    this.counts = h('ul', { class: 'eod-counts', 'aria-label': t('eod.counts'), 'aria-live': 'polite' });
    this.warning = h('div', { class: 'eod-warning' });
    this.result = h('p', { class: 'inline-result', role: 'status' });
    this.body = h('tbody');
    this.element = h(
      'section',
      { class: 'view eod-view', id: 'view-end-of-day', role: 'tabpanel', 'aria-labelledby': 'tab-end-of-day', hidden: true },
      h('h2', {}, t('tab.endOfDay')),
      h('div', { class: 'eod-tools' }, h('label', { for: 'eod-day' }, t('eod.day')), this.day, refresh),
      this.counts,
      this.warning,
      h('div', { class: 'eod-actions' }, this.printMissing, this.printManifests, this.download),
      this.result,
      h(
        'table',
        { class: 'eod-table', 'aria-label': t('eod.bookings') },
        h('thead', {}, h('tr', {}, ...COLUMNS.map((c) => h('th', { scope: 'col' }, t(c))))),
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
      this.say('fail', t('eod.chooseDay'));
      return;
    }
    this.say('', t('eod.reading'));
    try {
      this.render(await this.ctx.api.endOfDay({ day }));
      this.say('', '');
    } catch (error) {
      this.say('fail', t('eod.reportFailed', { error: describeError(error) }));
    }
  }

  private async act(op: 'printMissing' | 'printManifests'): Promise<void> {
    if (this.busy || !this.report) return;
    this.busy = true;
    try {
      const done: EndOfDayPrintResult = await this.ctx.api[op]({ day: this.report.day });
      this.render(done.report);
      const parts = [t(op === 'printMissing' ? 'eod.labelsSent' : 'eod.manifestsSent', { count: done.queued })];
      if (done.retried > 0) parts.push(t('eod.retried', { count: done.retried }));
      if (done.waiting > 0) parts.push(t('eod.waiting', { count: done.waiting }));
      this.say('ok', `${parts.join(', ')}.`);
    } catch (error) {
      this.say('fail', t('eod.nothingPrinted', { error: describeError(error) }));
    } finally {
      this.busy = false;
    }
  }

  private render(report: EndOfDayReport): void {
    this.report = report;
    const items = (['booked', ...END_OF_DAY_STATES] as const).map((what) => {
      const count = report.counts[what];
      // Zero failed or not printed is all well: neutral, not an alarm.
      return h(
        'li',
        { class: `eod-count ${what}${count === 0 ? ' zero' : ''}` },
        h('strong', {}, count),
        ` ${t(`eod.count.${what}`, { count })}`,
      );
    });
    replaceChildren(this.counts, ...items);
    const error = report.serviceError;
    replaceChildren(
      this.warning,
      error
        ? h(
            'p',
            { role: 'alert', class: 'fail' },
            t('eod.serviceListUnread', { error: error.message }) + (error.requestId ? t('eod.requestId', { id: error.requestId }) : ''),
          )
        : null,
    );
    const missing = report.counts.not_printed + report.counts.failed;
    this.printMissing.disabled = missing === 0;
    this.printMissing.textContent = missing > 0 ? t('eod.printMissingCount', { count: missing }) : t('eod.printMissing');
    const manifests = report.manifests;
    this.printManifests.hidden = manifests.available === 0;
    this.printManifests.textContent = t('eod.printManifestsCount', { printed: manifests.printed, available: manifests.available });
    this.download.disabled = false;
    replaceChildren(
      this.body,
      ...(report.rows.length === 0 ? [h('tr', {}, h('td', { colspan: COLUMNS.length, class: 'muted' }, t('eod.noBookings')))] : []),
      ...report.rows.map((r) =>
        h(
          'tr',
          { class: `eod-row ${r.state}` },
          h('td', { class: 'ref' }, r.reference ?? r.shipmentId),
          h('td', {}, r.carrier ?? '—'),
          h('td', { class: 'number' }, r.trackingId ?? '—'),
          h('td', {}, h('span', { class: `eod-state ${r.state}` }, END_OF_DAY_WORDS[r.state]), stateDetail(r.state, r)),
        ),
      ),
    );
  }

  private downloadCsv(): void {
    if (!this.report) return;
    const url = URL.createObjectURL(
      new Blob([endOfDayCsv(this.report, { language: language(), detailWords: detailWords })], { type: 'text/csv;charset=utf-8' }),
    );
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
    return h(
      'span',
      { class: 'eod-detail' },
      ` ${t('eod.printedOn', { time: localClock(row.printedAt), printer: describeTarget(row.printer ?? '') })}`,
    );
  }
  const detail = detailWords(row);
  return detail ? h('span', { class: 'eod-detail' }, ` ${detail}`) : null;
}

/** A row's detail in the UI's language: its code worded, else the English the agent sent. */
function detailWords(row: Pick<EndOfDayRow, 'detail' | 'detailMessage'>): string | null {
  return row.detail === null ? null : agentWords(row.detailMessage, row.detail);
}
