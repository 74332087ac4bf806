/**
 * The Site tab: every station of the site (`--site`) by name, online or offline, its
 * printers and their readiness, its queue, its last print and its failures in the last 30
 * minutes; the relays apart (they print nothing); and the site's latest decisions (who
 * prints which booking, and why). Kept current while shown (every few seconds); a station
 * that stops shows offline within 20 s. The app shows this tab only on a station in a site.
 * Names, references and printers are never broken inside: a cell too narrow for one ends it
 * with an ellipsis and keeps it whole in its title.
 */
import type { SiteDecisionView, SiteStationView, SiteStatusView } from '../../shared/site';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { describeTarget, localClock } from '../format';
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
  private readonly relays: HTMLElement;
  private readonly relaysPart: HTMLElement;
  private readonly rules: SiteRulesForm;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly ctx: UiContext) {
    this.rules = new SiteRulesForm(ctx, (status) => this.render(status));
    this.summary = h('p', { class: 'site-summary', role: 'status' });
    this.body = h('tbody');
    this.decisions = h('ul', { class: 'site-decisions', 'aria-label': t('site.decisions') });
    this.relays = h('ul', { class: 'site-relays', 'aria-label': t('site.relays') });
    this.relaysPart = h('div', { class: 'site-relays-part', hidden: true }, h('h3', {}, t('site.relays')), this.relays);
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
      this.relaysPart,
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
      replaceChildren(this.relays);
      this.relaysPart.hidden = true;
      this.rules.setStations([]);
      return;
    }
    this.summary.textContent = status.connected
      ? t('site.connected', { address: status.address ?? '', station: status.station ?? '' })
      : t('site.lost', { address: status.address ?? '' });
    const missing = status.missingProtection ?? [];
    if (missing.length > 0) {
      this.summary.textContent += ` ${t(missing.length === 2 ? 'site.unprotected' : missing[0] === 'tls' ? 'site.noTls' : 'site.noCredentials')}`;
    }
    // A relay takes the intake in and prints nothing: listed apart, not as a station.
    // One row per name: the site's presence list can name a station twice while its heartbeat is rewritten.
    const once = [...new Map(status.stations.map((s) => [s.name, s])).values()];
    const stations = once.filter((s) => s.role !== 'relay');
    const relays = once.filter((s) => s.role === 'relay');
    replaceChildren(this.body, ...stations.map((station) => this.row(station, station.name === status.station)));
    replaceChildren(
      this.relays,
      ...relays.map((relay) =>
        h(
          'li',
          { class: relay.online ? 'site-online' : 'site-offline' },
          token(relay.name),
          ' ',
          h('span', { class: 'site-state' }, relay.online ? t('site.online') : t('site.offline')),
        ),
      ),
    );
    this.relaysPart.hidden = relays.length === 0;
    this.rules.setStations(stations);
    replaceChildren(
      this.decisions,
      ...(status.decisions.length === 0 ? [h('li', {}, t('site.noDecisions'))] : status.decisions.map((d) => decisionItem(d))),
    );
  }

  private row(station: SiteStationView, self: boolean): HTMLTableRowElement {
    const state = station.online ? t('site.online') : t('site.offline');
    // Printers named as everywhere else (`Folder ./demo-prints`, not `folder:./demo-prints`), one a line.
    const printers =
      station.printers.length === 0
        ? ['—']
        : station.printers.map((p) =>
            token(p.ready ? t('site.printerReady', { printer: describeTarget(p.uri) }) : `${describeTarget(p.uri)}: ${p.words}`),
          );
    // The station's scale beside its printers, as the state bar shows it (a line of its own).
    const scale = station.scale && station.scale.uri !== 'none' ? token(`${t('status.scale')}: ${scaleWords(station.scale)}`) : null;
    // The reference a packer reads on the parcel; a shipment id (a UUID) only when there is none.
    const lastPrint = station.lastPrint
      ? [
          token(station.lastPrint.reference ?? station.lastPrint.shipmentId),
          ' ',
          h('span', { class: 'site-time' }, localClock(station.lastPrint.at)),
        ]
      : ['—'];
    return h(
      'tr',
      { class: station.online ? 'site-online' : 'site-offline', 'aria-current': self ? 'true' : null },
      h('th', { scope: 'row' }, token(station.name)),
      h('td', {}, h('span', { class: 'site-state' }, state)),
      h('td', {}, ...printers, scale),
      h('td', {}, String(station.queued)),
      h('td', {}, ...lastPrint),
      h('td', {}, String(station.failures30m)),
    );
  }
}

/** A name or reference kept whole: an ellipsis where the cell is too narrow, the whole of it in the title. */
function token(text: string): HTMLElement {
  return h('span', { class: 'token', title: text }, text);
}

/** A decision with its booking's reference kept whole. */
function decisionItem(decision: SiteDecisionView): HTMLElement {
  const booking = decision.referenceId ?? decision.shipmentId;
  const text = decisionText(decision);
  return h('li', {}, h('span', { class: 'token-inline' }, booking), text.slice(booking.length));
}

/** "ORDER-1: printed at Packing 3: claimed by a scan at 10:42". */
export function decisionText(decision: SiteDecisionView): string {
  const booking = decision.referenceId ?? decision.shipmentId;
  const where = decision.takenBy ? t('site.printedAt', { station: decision.takenBy }) : t('site.goesTo', { station: decision.station });
  const why = siteReasonWords(decision.reason, decision.claimedAt ?? decision.decidedAt, decision.movedFrom);
  return `${booking}: ${where}: ${why}`;
}
