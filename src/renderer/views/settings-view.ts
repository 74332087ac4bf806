/**
 * Settings: connection, printers and routing, intake and station rules, packing, pause. The
 * sections are tabs (each about two screens at 1280x800 at most); one Save saves every changed
 * field of every section, and what acts at once (Pause, Test page, Test connection) sits apart
 * from it. The API key field is write-only: the agent never sends the key back, only whether one is set.
 */
import { agentInputs, type AgentInput } from '../../shared/agent-api';
import { DOCUMENT_TYPES, type PrinterInfo, type SettingsView, type StationRules } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, option, replaceChildren } from '../dom';
import { describeTarget } from '../format';
import { t } from '../i18n';
import { JOB_STATE_WORDS } from '../job-words';
import { MEDIA_WORDS, documentWords } from '../words';
import { createDiagnosticsPanel } from './diagnostics-panel';
import { PrinterPicker } from './printer-picker';
import { PrinterPauseList } from './printer-pauses';
import type { PackSettingsPanel } from './pack-settings';
import { mountPrintersEditor, type PrintersEditor } from './printers-editor';
import { SettingsSections, type SectionName } from './settings-sections';
import { ScaleSettingsPanel } from './scale-settings';

const MATCH_FIELDS = ['reference_id', 'sender_reference', 'system'] as const;

export class SettingsPanel {
  readonly element: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly fields = {
    environment: h(
      'select',
      { id: 'set-environment', name: 'environment' },
      option('sandbox', t('settings.env.sandbox')),
      option('production', t('settings.env.production')),
      option('custom', t('settings.env.custom')),
    ),
    apiUrl: h('input', { id: 'set-api-url', name: 'apiUrl', type: 'url', autocomplete: 'off', spellcheck: 'false' }),
    apiKey: h('input', { id: 'set-api-key', name: 'apiKey', type: 'password', autocomplete: 'new-password', spellcheck: 'false' }),
    labelPrinterMedia: h(
      'select',
      { id: 'set-media', name: 'labelPrinterMedia' },
      option('label', MEDIA_WORDS.label),
      option('a4', MEDIA_WORDS.a4),
    ),
    sheetLayout: h(
      'select',
      { id: 'set-sheet-layout', name: 'sheetLayout' },
      option('a4', t('settings.sheet.a4')),
      option('1x2', t('settings.sheet.1x2')),
      option('3x1', t('settings.sheet.3x1')),
      option('2x2', t('settings.sheet.2x2')),
    ),
    copies: h('input', { id: 'set-copies', name: 'copies', type: 'number', min: 1, max: 10, step: 1 }),
    webhooksEnabled: h('input', { id: 'set-webhooks', name: 'webhooksEnabled', type: 'checkbox' }),
    pollIntervalSeconds: h('input', { id: 'set-poll', name: 'pollIntervalSeconds', type: 'number', min: 0, max: 3600, step: 1 }),
    ruleMode: h(
      'select',
      { id: 'set-rule-mode', name: 'ruleMode' },
      option('all', t('settings.rule.all')),
      option('none', t('settings.rule.none')),
      option('filtered', t('settings.rule.filtered')),
    ),
    sources: h('input', { id: 'set-sources', name: 'sources', autocomplete: 'off', placeholder: t('settings.sourcesPlaceholder') }),
    carriers: h('input', { id: 'set-carriers', name: 'carriers', autocomplete: 'off', placeholder: t('settings.carriersPlaceholder') }),
    matches: h('textarea', {
      id: 'set-matches',
      name: 'fieldMatches',
      rows: 3,
      spellcheck: 'false',
      placeholder: 'reference_id SHOP-\nsystem /^webshop/',
    }),
  };
  private readonly autoPrint = new Map<string, HTMLInputElement>(
    DOCUMENT_TYPES.map((t) => [t, h('input', { type: 'checkbox', name: 'autoPrint', value: t, id: `set-auto-${t}` })]),
  );
  private readonly keyState = h('span', { class: 'key-state', id: 'key-state' });
  private readonly connectionResult = h('p', { class: 'inline-result', role: 'status' });
  private readonly testPrintResult = h('p', { class: 'inline-result', role: 'status' });
  private readonly saveResult = h('div', { class: 'save-result' });
  private readonly labelPrinter = new PrinterPicker({
    role: 'label',
    legend: t('settings.labelPrinter'),
    uriLabel: t('settings.labelPrinterUri'),
  });
  private readonly documentPrinter = new PrinterPicker({
    role: 'document',
    legend: t('settings.documentPrinter'),
    uriLabel: t('settings.documentPrinterUri'),
  });
  private readonly findPrinters = h('button', { type: 'button', class: 'find-printers' }, t('settings.findPrinters'));
  private readonly datalist = h('datalist', { id: 'printer-uris' });
  private readonly printerPauses: PrinterPauseList;
  private readonly printersEditor: PrintersEditor;
  private readonly sections: SettingsSections;
  private packing: PackSettingsPanel | null = null;
  /** The one line on joining a site, on a station that is in none (the app shows no Site tab there). */
  private readonly siteHint = h('p', { class: 'hint site-join' }, t('site.notInSite'));
  private readonly scale: ScaleSettingsPanel;
  private readonly pauseButton = h('button', { type: 'button', class: 'pause', 'aria-pressed': 'false' }, t('settings.pauseAutoPrint'));
  /** Edited since the last fill: settings arriving late must not overwrite what was typed. */
  private dirty = false;

  constructor(private readonly ctx: UiContext) {
    const f = this.fields;
    this.printerPauses = new PrinterPauseList(ctx);
    this.printersEditor = mountPrintersEditor(ctx);
    const field = (label: string, control: HTMLElement, hint?: string) =>
      h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hint ? h('span', { class: 'hint' }, hint) : null);
    const testLabel = h('button', { type: 'button', 'data-target': 'label' }, t('settings.testLabel'));
    const testDocument = h('button', { type: 'button', 'data-target': 'document' }, t('settings.testDocument'));
    const testConnection = h('button', { type: 'button' }, t('settings.testConnection'));

    const connection = [
      h(
        'fieldset',
        {},
        h('legend', {}, t('settings.connection')),
        field(t('settings.environment'), f.environment),
        field(t('settings.apiUrl'), f.apiUrl, t('settings.apiUrlHint')),
        h('div', { class: 'field' }, h('label', { for: f.apiKey.id }, t('settings.apiKey')), f.apiKey, this.keyState),
        h('div', { class: 'row' }, testConnection, this.connectionResult),
      ),
      h(
        'fieldset',
        {},
        h('legend', {}, t('settings.intake')),
        h('div', { class: 'field check' }, h('label', { for: f.webhooksEnabled.id }, f.webhooksEnabled, t('settings.webhooks'))),
        field(t('settings.pollInterval'), f.pollIntervalSeconds),
        field(t('settings.stationPrints'), f.ruleMode),
        field(t('settings.sources'), f.sources, t('settings.commaSeparated')),
        field(t('settings.carriers'), f.carriers, t('settings.carriersHint')),
        field(t('settings.matches'), f.matches, t('settings.matchesHint')),
        this.siteHint,
      ),
    ];
    // One printers area, in two columns on a wide window, each heading with its content: the
    // configured printers as one list (role, rules, readiness, Test page, Pause), which printer
    // gets labels and which documents, paper and copies; beside them the printers by name, the
    // routing rules and the defaults (the printers form).
    const printers = [
      h(
        'div',
        { class: 'printers-col' },
        h('div', { class: 'printers-now' }, this.printerPauses.element),
        h(
          'fieldset',
          { class: 'printers-choice' },
          h('legend', {}, t('settings.whichPrinter')),
          this.labelPrinter.element,
          this.documentPrinter.element,
          h('p', { class: 'hint' }, t('settings.documentPrinterHint')),
          h('div', { class: 'row' }, this.findPrinters, testLabel, testDocument, this.testPrintResult),
          h(
            'details',
            { class: 'advanced' },
            h('summary', {}, t('settings.advancedUri')),
            this.labelPrinter.uriField,
            this.documentPrinter.uriField,
            this.datalist,
          ),
        ),
      ),
      h(
        'div',
        { class: 'printers-col' },
        this.printersEditor.element,
        h(
          'fieldset',
          { class: 'printers-paper' },
          h('legend', {}, t('settings.paperAndCopies')),
          field(t('settings.labelPrinterHolds'), f.labelPrinterMedia),
          field(t('settings.labelsOnA4'), f.sheetLayout),
          h(
            'fieldset',
            { class: 'checks' },
            h('legend', {}, t('settings.autoPrint')),
            ...[...this.autoPrint.entries()].map(([type, box]) => h('label', { for: box.id }, box, documentWords(type))),
          ),
          field(t('settings.copies'), f.copies),
        ),
      ),
    ];
    this.scale = new ScaleSettingsPanel(ctx.api);
    this.sections = new SettingsSections();
    this.printersEditor.onReveal = () => this.sections.show('printers', false);
    this.form = h(
      'form',
      { class: 'settings', id: 'settings-form', novalidate: true },
      this.sections.panel('connection', t('settings.tab.connection'), ...connection),
      this.sections.panel('printers', t('settings.tab.printers'), ...printers),
      this.sections.panel('packing', t('settings.tab.packing')),
      this.sections.panel('scale', t('settings.tab.scale'), this.scale.element),
    );
    // Outside the form: its own controls (language, scanner test) are not saved by Save.
    const support = this.sections.panel('support', t('settings.tab.support'));
    // Sticky: the one Save is in sight whichever section is open and however far it is scrolled.
    const saveBar = h(
      'div',
      { class: 'settings-save-bar' },
      h('button', { type: 'submit', form: 'settings-form', class: 'primary' }, t('settings.save')),
      h('p', { class: 'hint' }, t('settings.saveHint')),
      this.saveResult,
    );
    this.element = h(
      'section',
      { class: 'view settings-view', id: 'view-settings', role: 'tabpanel', 'aria-labelledby': 'tab-settings', hidden: true },
      // Pausing acts at once and saves nothing: it sits apart from the form and its Save.
      h('div', { class: 'settings-pause-bar' }, h('p', { class: 'hint' }, t('settings.pauseHint')), this.pauseButton),
      this.sections.tablist,
      this.form,
      support,
      saveBar,
    );
    const hideSave = (name: SectionName) => {
      saveBar.hidden = name === 'support';
    };
    this.sections.onShow(hideSave);
    hideSave(this.sections.open);
    this.sections.onShow((name) => name === 'scale' && void this.scale.refresh());
    support.append(createDiagnosticsPanel(ctx));

    this.form.addEventListener('input', () => {
      this.dirty = true;
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.save();
    });
    testConnection.addEventListener('click', () => void this.testConnection());
    testLabel.addEventListener('click', () => void this.testPrint(this.labelPrinter.value));
    testDocument.addEventListener('click', () => void this.testPrint(this.documentPrinter.value));
    this.findPrinters.addEventListener('click', () => void this.loadPrinters());
    this.pauseButton.addEventListener('click', () => void this.togglePause());
    ctx.onSettings((settings) => this.fill(settings));
  }

  show(): void {
    void this.loadPrinters();
    void this.printerPauses.refresh();
    if (this.sections.open === 'scale') void this.scale.refresh();
    // The caret goes where the admin was: the first field of Connection, else the open section's tab.
    if (this.sections.open === 'connection') this.fields.environment.focus();
    else this.sections.show(this.sections.open);
  }

  /** Packing settings: their own panel and file, saved by this Save when changed. */
  setPacking(packing: PackSettingsPanel): void {
    this.packing = packing;
    this.sections.content('packing').append(packing.element);
  }

  /** The scale read anew: Settings → Scale shows it while open. */
  scaleReading(): void {
    if (this.sections.open === 'scale' && !this.element.hidden) void this.scale.refresh();
  }

  /** Adds to Language and support (controls that act at once, saved by nothing here). */
  addSupport(...elements: HTMLElement[]): void {
    this.sections.content('support').prepend(...elements);
  }

  /** Opens a section (e.g. Connection on first run). */
  showSection(name: SectionName): void {
    this.sections.show(name);
  }

  /** Asks the agent to discover printers again (lpstat and friends). */
  loadPrinters(): Promise<void> {
    return this.ctx.printers(true).then((printers) => this.showPrinters(printers));
  }

  /** Focus the key field (first run: "Connect your account"). */
  focusKey(): void {
    this.sections.show('connection');
    this.fields.apiKey.focus();
  }

  /** A station in a site has the Site tab: the line on how to join one goes. */
  setInSite(inSite: boolean): void {
    this.siteHint.hidden = inSite;
  }

  setPaused(paused: boolean): void {
    this.pauseButton.setAttribute('aria-pressed', String(paused));
    this.pauseButton.textContent = paused ? t('settings.resumeAutoPrint') : t('settings.pauseAutoPrint');
  }

  private fill(s: SettingsView): void {
    // No keyring on this computer: the key works until the app quits, and must be entered again after.
    const sessionOnly = s.apiKeySet && s.apiKeySessionOnly === true;
    this.keyState.textContent = sessionOnly ? t('settings.keySessionOnly') : s.apiKeySet ? t('settings.keySet') : t('settings.noKey');
    this.keyState.className = s.apiKeySet && !sessionOnly ? 'key-state ok' : 'key-state warn';
    this.setPaused(s.paused);
    this.scale.fill(s.scale, this.dirty);
    if (this.dirty) return;
    const f = this.fields;
    f.environment.value = s.environment;
    f.apiUrl.value = s.apiUrl;
    f.apiKey.value = '';
    f.apiKey.placeholder = s.apiKeySet ? t('settings.keyReplace') : t('settings.keyPaste');
    this.labelPrinter.value = s.routing.labelPrinter;
    this.documentPrinter.value = s.routing.documentPrinter;
    f.labelPrinterMedia.value = s.routing.labelPrinterMedia;
    f.sheetLayout.value = s.routing.sheetLayout;
    f.copies.value = String(s.routing.copies);
    for (const [type, box] of this.autoPrint) box.checked = s.routing.autoPrint.includes(type);
    f.webhooksEnabled.checked = s.intake.webhooksEnabled;
    f.pollIntervalSeconds.value = String(s.intake.pollIntervalSeconds);
    f.ruleMode.value = s.stationRules.mode;
    f.sources.value = s.stationRules.sources.join(', ');
    f.carriers.value = s.stationRules.carriers.join(', ');
    f.matches.value = s.stationRules.matches.map((m) => `${m.field} ${m.pattern}`).join('\n');
  }

  private showPrinters(printers: readonly PrinterInfo[]): void {
    replaceChildren(this.datalist, ...printers.map((p) => option(p.uri, p.name)));
    this.labelPrinter.setPrinters(printers);
    this.documentPrinter.setPrinters(printers);
    this.printersEditor.setPrinters(printers);
  }

  private input(): AgentInput<'saveSettings'> | string {
    const f = this.fields;
    const list = (value: string) =>
      value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    const matches: Array<StationRules['matches'][number]> = [];
    for (const line of f.matches.value
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      const [field, ...rest] = line.split(/\s+/);
      const pattern = rest.join(' ');
      if (!MATCH_FIELDS.includes(field as (typeof MATCH_FIELDS)[number]) || !pattern) {
        return t('settings.badMatch', { line, fields: MATCH_FIELDS.join(', ') });
      }
      matches.push({ field: field as (typeof MATCH_FIELDS)[number], pattern });
    }
    const input: AgentInput<'saveSettings'> = {
      environment: f.environment.value as 'sandbox' | 'production' | 'custom',
      ...(f.apiUrl.value.trim() ? { apiUrl: f.apiUrl.value.trim() } : {}),
      ...(f.apiKey.value.trim() ? { apiKey: f.apiKey.value.trim() } : {}),
      routing: {
        labelPrinter: this.labelPrinter.value,
        documentPrinter: this.documentPrinter.value,
        labelPrinterMedia: f.labelPrinterMedia.value as 'label' | 'a4',
        sheetLayout: f.sheetLayout.value as 'a4' | '1x2' | '3x1' | '2x2',
        autoPrint: [...this.autoPrint.entries()].filter(([, box]) => box.checked).map(([type]) => type),
        copies: Number(f.copies.value),
      },
      intake: { webhooksEnabled: f.webhooksEnabled.checked, pollIntervalSeconds: Number(f.pollIntervalSeconds.value) },
      stationRules: {
        mode: f.ruleMode.value as StationRules['mode'],
        sources: list(f.sources.value),
        carriers: list(f.carriers.value),
        matches,
      },
      ...this.scale.patch(),
    };
    const checked = agentInputs.saveSettings.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return t('settings.check', { path: issue?.path.join('.') ?? 'settings', message: issue?.message ?? t('settings.invalidValue') });
    }
    return input;
  }

  /** The one Save: every changed field of Connection, Printers and Packing. */
  private async save(): Promise<void> {
    const input = this.input();
    if (typeof input === 'string') {
      replaceChildren(this.saveResult, h('p', { role: 'alert', class: 'fail' }, input));
      return;
    }
    const printers = this.printersEditor.prepareSave();
    if (printers === false) {
      replaceChildren(this.saveResult, h('p', { role: 'alert', class: 'fail' }, t('settings.fixPrinters')));
      return;
    }
    if (printers.routing) input.routing = { ...input.routing, ...printers.routing };
    try {
      const saved = await this.ctx.api.saveSettings(input);
      this.dirty = false;
      this.ctx.setSettings(saved);
      if (printers.routing) this.printersEditor.saved(saved, printers.routing);
      const packed = this.packing?.changed ? await this.packing.save() : true;
      replaceChildren(
        this.saveResult,
        packed
          ? h('p', { role: 'status', class: 'ok' }, t('settings.saved'))
          : h('p', { role: 'alert', class: 'fail' }, t('settings.notSaved', { error: t('settings.tab.packing') })),
      );
      void this.printerPauses.refresh();
    } catch (error) {
      this.printersEditor.refused(error);
      replaceChildren(this.saveResult, h('p', { role: 'alert', class: 'fail' }, t('settings.notSaved', { error: describeError(error) })));
    }
  }

  private async testConnection(): Promise<void> {
    const f = this.fields;
    this.connectionResult.className = 'inline-result';
    this.connectionResult.textContent = t('settings.testing');
    try {
      const result = await this.ctx.api.testConnection({
        ...(f.apiUrl.value.trim() ? { apiUrl: f.apiUrl.value.trim() } : {}),
        ...(f.apiKey.value.trim() ? { apiKey: f.apiKey.value.trim() } : {}),
      });
      this.connectionResult.className = 'inline-result ok';
      this.connectionResult.textContent = t('settings.connected', { team: result.team, status: result.status });
    } catch (error) {
      this.connectionResult.className = 'inline-result fail';
      this.connectionResult.textContent = t('settings.connectionFailed', { error: describeError(error) });
    }
  }

  private async testPrint(printer: string): Promise<void> {
    if (!printer.trim()) {
      this.testPrintResult.className = 'inline-result fail';
      this.testPrintResult.textContent = t('settings.choosePrinter');
      return;
    }
    try {
      const job = await this.ctx.api.testPrint({ printer: printer.trim() });
      this.testPrintResult.className = 'inline-result ok';
      this.testPrintResult.textContent = t('settings.testPageFor', {
        target: describeTarget(job.target),
        state: JOB_STATE_WORDS[job.state] ?? job.state,
      });
    } catch (error) {
      this.testPrintResult.className = 'inline-result fail';
      this.testPrintResult.textContent = t('settings.testPrintFailed', { error: describeError(error) });
    }
  }

  private async togglePause(): Promise<void> {
    const paused = this.pauseButton.getAttribute('aria-pressed') !== 'true';
    try {
      const status = await this.ctx.api.setPaused({ paused });
      this.setPaused(status.paused);
      replaceChildren(
        this.saveResult,
        h('p', { role: 'status', class: 'ok' }, status.paused ? t('settings.autoPrintPaused') : t('settings.autoPrintResumed')),
      );
    } catch (error) {
      replaceChildren(this.saveResult, h('p', { role: 'alert', class: 'fail' }, describeError(error)));
    }
  }
}
