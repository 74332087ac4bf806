/**
 * The Site tab: every station of the site (`--site`) by name, online or offline, its
 * printers and their readiness, its queue, its last print and its failures in the last 30
 * minutes; and the site's latest decisions (who prints which booking, and why). Kept
 * current while shown (every few seconds); a station that stops shows offline within 20 s.
 */
import type { SiteDecisionView, SiteStationView, SiteStatusView } from '../../shared/site';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { localClock } from '../format';
import { t, type MessageKey } from '../i18n';
import { siteReasonWords } from '../job-words';
import { SiteRulesForm } from './site-rules-form';
import { scaleWords } from '../scale-words';

/** How often the tab asks again while it is shown. */
export const SITE_REFRESH_MS = 3_000;

const COLUMNS: readonly MessageKey[] = [
  'site.col.station',
  'site.col.state',
  'site.col.printers',
  'site.col.queue',
  'site.col.lastPrint',
  'site.col.failures',
];

export class SiteView {
  readonly element: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly body: HTMLTableSectionElement;
  private readonly decisions: HTMLElement;
  private readonly rules: SiteRulesForm;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly ctx: UiContext) {
    this.rules = new SiteRulesForm(ctx, (status) => this.render(status));
    this.summary = h('p', { class: 'site-summary', role: 'status' });
    this.body = h('tbody');
    this.decisions = h('ul', { class: 'site-decisions', 'aria-label': t('site.decisions') });
    this.element = h(
      'section',
      { class: 'view site-view', id: 'view-site', role: 'tabpanel', 'aria-labelledby': 'tab-site', hidden: true },
      h('h2', {}, t('tab.site')),
      this.summary,
      h(
        'div',
        { class: 'site-table-wrap' },
        h(
          'table',
          { class: 'site-table', 'aria-label': t('site.stations') },
          h('thead', {}, h('tr', {}, ...COLUMNS.map((c) => h('th', { scope: 'col' }, t(c))))),
          this.body,
        ),
      ),
      h('h3', {}, t('site.decisions')),
      this.decisions,
      this.rules.element,
    );
    this.rules.element.hidden = true;
  }

  show(): void {
    void this.load();
    if (this.timer) return;
    this.timer = setInterval(() => {
      // Hidden (another tab) or dropped (a language change built a new view): stop asking.
      if (this.element.hidden || !this.element.isConnected) {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
        return;
      }
      void this.load();
    }, SITE_REFRESH_MS);
  }

  async load(): Promise<void> {
    let status: SiteStatusView;
    try {
      status = await this.ctx.api.siteStatus({});
    } catch (error) {
      this.summary.textContent = describeError(error);
      return;
    }
    this.render(status);
  }

  render(status: SiteStatusView): void {
    if (!status.enabled) {
      this.summary.textContent = t('site.notInSite');
      replaceChildren(this.body);
      replaceChildren(this.decisions);
      this.rules.setStations([]);
      return;
    }
    this.summary.textContent = status.connected
      ? t('site.connected', { address: status.address ?? '', station: status.station ?? '' })
      : t('site.lost', { address: status.address ?? '' });
    replaceChildren(this.body, ...status.stations.map((station) => this.row(station, station.name === status.station)));
    this.rules.setStations(status.stations);
    replaceChildren(
      this.decisions,
      ...(status.decisions.length === 0 ? [h('li', {}, t('site.noDecisions'))] : status.decisions.map((d) => h('li', {}, decisionText(d)))),
    );
  }

  private row(station: SiteStationView, self: boolean): HTMLTableRowElement {
    const name = station.role === 'relay' ? t('site.relayName', { name: station.name }) : station.name;
    const state = station.online ? t('site.online') : t('site.offline');
    const printers =
      station.printers.length === 0
        ? '—'
        : station.printers.map((p) => (p.ready ? t('site.printerReady', { printer: p.uri }) : `${p.uri}: ${p.words}`)).join('; ');
    // The station's scale beside its printers, as the state bar shows it.
    const scale = station.scale && station.scale.uri !== 'none' ? `${t('status.scale')}: ${scaleWords(station.scale)}` : null;
    // The reference a packer reads on the parcel; a shipment id (a UUID) only when there is none.
    const lastPrint = station.lastPrint
      ? `${station.lastPrint.reference ?? station.lastPrint.shipmentId} ${localClock(station.lastPrint.at)}`
      : '—';
    return h(
      'tr',
      { class: station.online ? 'site-online' : 'site-offline', 'aria-current': self ? 'true' : null },
      h('th', { scope: 'row' }, name),
      h('td', {}, h('span', { class: 'site-state' }, state)),
      h('td', {}, scale ? `${printers}; ${scale}` : printers),
      h('td', {}, String(station.queued)),
      h('td', {}, lastPrint),
      h('td', {}, String(station.failures30m)),
    );
  }
}

/** "ORDER-1: printed at Packing 3: claimed by a scan at 10:42". */
export function decisionText(decision: SiteDecisionView): string {
  const booking = decision.referenceId ?? decision.shipmentId;
  const where = decision.takenBy ? t('site.printedAt', { station: decision.takenBy }) : t('site.goesTo', { station: decision.station });
  const why = siteReasonWords(decision.reason, decision.claimedAt ?? decision.decidedAt, decision.movedFrom);
  return `${booking}: ${where}: ${why}`;
}
