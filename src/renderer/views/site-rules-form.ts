/**
 * The Site tab's rules form: any station's station rules, as the site holds them, edited
 * from this station (bridge operation saveSiteRules); the site decides by them at once.
 * The same fields and words as this station's own rules in Settings.
 */
import type { StationRules } from '../../shared/domain';
import type { SiteStationView, SiteStatusView } from '../../shared/site';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { t } from '../i18n';

const MATCH_FIELDS = ['reference_id', 'sender_reference', 'system'] as const;
type MatchField = (typeof MATCH_FIELDS)[number];

/** The form's fields as rules, or the line that cannot be read (in words). */
export function rulesFromFields(fields: { mode: string; sources: string; carriers: string; matches: string }): StationRules | string {
  const list = (value: string): string[] =>
    value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  const matches: StationRules['matches'] = [];
  for (const line of fields.matches
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const [field, ...rest] = line.split(/\s+/);
    const pattern = rest.join(' ');
    if (!MATCH_FIELDS.includes(field as MatchField) || !pattern) return t('settings.badMatch', { line, fields: MATCH_FIELDS.join(', ') });
    matches.push({ field: field as MatchField, pattern });
  }
  return { mode: fields.mode as StationRules['mode'], sources: list(fields.sources), carriers: list(fields.carriers), matches };
}

export class SiteRulesForm {
  readonly element: HTMLElement;
  private readonly station: HTMLSelectElement;
  private readonly mode: HTMLSelectElement;
  private readonly sources: HTMLInputElement;
  private readonly carriers: HTMLInputElement;
  private readonly matches: HTMLTextAreaElement;
  private readonly result: HTMLElement;
  private stations: readonly SiteStationView[] = [];

  constructor(
    private readonly ctx: UiContext,
    private readonly onSaved: (status: SiteStatusView) => void,
  ) {
    const option = (value: string, label: string) => h('option', { value }, label);
    this.station = h('select', { id: 'site-rules-station', name: 'station' });
    this.mode = h(
      'select',
      { id: 'site-rules-mode', name: 'mode' },
      option('filtered', t('settings.rule.filtered')),
      option('none', t('settings.rule.none')),
      option('all', t('settings.rule.all')),
    );
    this.sources = h('input', { id: 'site-rules-sources', autocomplete: 'off', placeholder: t('settings.sourcesPlaceholder') });
    this.carriers = h('input', { id: 'site-rules-carriers', autocomplete: 'off', placeholder: t('settings.carriersPlaceholder') });
    this.matches = h('textarea', { id: 'site-rules-matches', rows: 3, spellcheck: 'false', placeholder: 'reference_id SHOP-' });
    this.result = h('div', { class: 'inline-result' });
    const save = h('button', { type: 'submit', class: 'primary' }, t('site.rulesSave'));
    const field = (label: string, control: HTMLElement, hint?: string) =>
      h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hint ? h('span', { class: 'hint' }, hint) : null);
    this.element = h(
      'form',
      { class: 'site-rules', novalidate: true, 'aria-labelledby': 'site-rules-title' },
      h('h3', { id: 'site-rules-title' }, t('site.rulesOf')),
      h('p', { class: 'hint' }, t('site.rulesHint')),
      field(t('site.col.station'), this.station),
      field(t('settings.stationPrints'), this.mode),
      field(t('settings.sources'), this.sources),
      field(t('settings.carriers'), this.carriers, t('settings.carriersHint')),
      field(t('settings.matches'), this.matches, t('settings.matchesHint')),
      save,
      this.result,
    );
    this.station.addEventListener('change', () => this.fill());
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.save();
    });
  }

  /** The site's stations; the fields are filled only when the chosen station changes, so a refresh never undoes typing. */
  setStations(stations: readonly SiteStationView[]): void {
    this.stations = stations.filter((s) => s.role === 'station');
    const chosen = this.station.value;
    const names = this.stations.map((s) => s.name);
    if (names.join('\n') !== Array.from(this.station.options, (o) => o.value).join('\n')) {
      replaceChildren(this.station, ...names.map((name) => h('option', { value: name }, name)));
      if (names.includes(chosen)) this.station.value = chosen;
      if (!chosen || !names.includes(chosen)) this.fill();
    }
    this.element.hidden = this.stations.length === 0;
  }

  private fill(): void {
    const rules = this.stations.find((s) => s.name === this.station.value)?.rules;
    this.mode.value = rules?.mode ?? 'none';
    this.sources.value = rules?.sources.join(', ') ?? '';
    this.carriers.value = rules?.carriers.join(', ') ?? '';
    this.matches.value = rules?.matches.map((m) => `${m.field} ${m.pattern}`).join('\n') ?? '';
  }

  private async save(): Promise<void> {
    const rules = rulesFromFields({
      mode: this.mode.value,
      sources: this.sources.value,
      carriers: this.carriers.value,
      matches: this.matches.value,
    });
    if (typeof rules === 'string') {
      replaceChildren(this.result, h('p', { role: 'alert', class: 'fail' }, rules));
      return;
    }
    try {
      const status = await this.ctx.api.saveSiteRules({ station: this.station.value, rules });
      replaceChildren(this.result, h('p', { role: 'status', class: 'ok' }, t('site.rulesSaved')));
      this.onSaved(status);
    } catch (error) {
      replaceChildren(this.result, h('p', { role: 'alert', class: 'fail' }, t('settings.notSaved', { error: describeError(error) })));
    }
  }
}
