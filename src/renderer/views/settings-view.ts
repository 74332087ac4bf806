/**
 * Settings: connection, printers and routing, intake and station rules, pause. The API
 * key field is write-only: the agent never sends the key back, only whether one is set.
 */
import { agentInputs, type AgentInput } from '../../shared/agent-api';
import { DOCUMENT_TYPES, type PrinterInfo, type SettingsView, type StationRules } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, option, replaceChildren } from '../dom';
import { describeTarget } from '../format';
import { JOB_STATE_WORDS } from '../job-words';
import { documentWords } from '../words';
import { createDiagnosticsPanel } from './diagnostics-panel';
import { PrinterPicker } from './printer-picker';
import { PrinterPauseList } from './printer-pauses';
import { mountPrintersEditor } from './printers-editor';

const MATCH_FIELDS = ['reference_id', 'sender_reference', 'system'] as const;

export class SettingsPanel {
  readonly element: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly fields = {
    environment: h('select', { id: 'set-environment', name: 'environment' }, option('sandbox', 'Sandbox'), option('production', 'Production'), option('custom', 'Custom')),
    apiUrl: h('input', { id: 'set-api-url', name: 'apiUrl', type: 'url', autocomplete: 'off', spellcheck: 'false' }),
    apiKey: h('input', { id: 'set-api-key', name: 'apiKey', type: 'password', autocomplete: 'new-password', spellcheck: 'false' }),
    labelPrinterMedia: h('select', { id: 'set-media', name: 'labelPrinterMedia' }, option('label', '4x6 labels'), option('a4', 'A4 sheets')),
    sheetLayout: h(
      'select',
      { id: 'set-sheet-layout', name: 'sheetLayout' },
      option('a4', 'One label per A4 page'),
      option('1x2', 'Two per page'),
      option('3x1', 'Three per page'),
      option('2x2', 'Four per page'),
    ),
    copies: h('input', { id: 'set-copies', name: 'copies', type: 'number', min: 1, max: 10, step: 1 }),
    webhooksEnabled: h('input', { id: 'set-webhooks', name: 'webhooksEnabled', type: 'checkbox' }),
    pollIntervalSeconds: h('input', { id: 'set-poll', name: 'pollIntervalSeconds', type: 'number', min: 0, max: 3600, step: 1 }),
    ruleMode: h(
      'select',
      { id: 'set-rule-mode', name: 'ruleMode' },
      option('all', 'Every booking'),
      option('none', 'Nothing (print on scan only)'),
      option('filtered', 'Bookings matching the rules below'),
    ),
    sources: h('input', { id: 'set-sources', name: 'sources', autocomplete: 'off', placeholder: 'API, APP (empty = any)' }),
    carriers: h('input', { id: 'set-carriers', name: 'carriers', autocomplete: 'off', placeholder: 'empty = any carrier' }),
    matches: h('textarea', { id: 'set-matches', name: 'fieldMatches', rows: 3, spellcheck: 'false', placeholder: 'reference_id SHOP-\nsystem /^webshop/' }),
  };
  private readonly autoPrint = new Map<string, HTMLInputElement>(
    DOCUMENT_TYPES.map((t) => [t, h('input', { type: 'checkbox', name: 'autoPrint', value: t, id: `set-auto-${t}` })]),
  );
  private readonly keyState = h('span', { class: 'key-state', id: 'key-state' });
  private readonly connectionResult = h('p', { class: 'inline-result', role: 'status' });
  private readonly testPrintResult = h('p', { class: 'inline-result', role: 'status' });
  private readonly saveResult = h('div', { class: 'save-result' });
  private readonly labelPrinter = new PrinterPicker({ role: 'label', legend: 'Label printer', uriLabel: 'Label printer URI' });
  private readonly documentPrinter = new PrinterPicker({ role: 'document', legend: 'Document printer', uriLabel: 'Document printer URI' });
  private readonly findPrinters = h('button', { type: 'button', class: 'find-printers' }, 'Find printers again');
  private readonly datalist = h('datalist', { id: 'printer-uris' });
  private readonly printerPauses: PrinterPauseList;
  private readonly pauseButton = h('button', { type: 'button', class: 'pause', 'aria-pressed': 'false' }, 'Pause auto-print');
  /** Edited since the last fill: settings arriving late must not overwrite what was typed. */
  private dirty = false;

  constructor(private readonly ctx: UiContext) {
    const f = this.fields;
    this.printerPauses = new PrinterPauseList(ctx);
    const field = (label: string, control: HTMLElement, hint?: string) =>
      h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hint ? h('span', { class: 'hint' }, hint) : null);
    const testLabel = h('button', { type: 'button', 'data-target': 'label' }, 'Test print on label printer');
    const testDocument = h('button', { type: 'button', 'data-target': 'document' }, 'Test print on document printer');
    const testConnection = h('button', { type: 'button' }, 'Test connection');

    this.form = h(
      'form',
      { class: 'settings', novalidate: true },
      h(
        'fieldset',
        {},
        h('legend', {}, 'Connection'),
        field('Environment', f.environment),
        field('API URL', f.apiUrl, 'The service address including /external/v1'),
        h('div', { class: 'field' }, h('label', { for: f.apiKey.id }, 'API key'), f.apiKey, this.keyState),
        h('div', { class: 'row' }, testConnection, this.connectionResult),
      ),
      h(
        'fieldset',
        {},
        h('legend', {}, 'Printers and routing'),
        this.labelPrinter.element,
        this.documentPrinter.element,
        h('p', { class: 'hint' }, 'The document printer prints A4 documents: waybill, customs invoice and the like.'),
        h('div', { class: 'row' }, this.findPrinters),
        h(
          'details',
          { class: 'advanced' },
          h('summary', {}, 'Advanced: type a printer URI'),
          this.labelPrinter.uriField,
          this.documentPrinter.uriField,
          this.datalist,
        ),
        field('Label printer holds', f.labelPrinterMedia),
        field('Labels on A4 sheets', f.sheetLayout),
        h(
          'fieldset',
          { class: 'checks' },
          h('legend', {}, 'Print automatically after booking'),
          ...[...this.autoPrint.entries()].map(([type, box]) => h('label', { for: box.id }, box, documentWords(type))),
        ),
        field('Copies', f.copies),
        h('div', { class: 'row' }, testLabel, testDocument, this.testPrintResult),
        this.printerPauses.element,
        mountPrintersEditor(ctx),
      ),
      h(
        'fieldset',
        {},
        h('legend', {}, 'Intake'),
        h('div', { class: 'field check' }, h('label', { for: f.webhooksEnabled.id }, f.webhooksEnabled, 'Receive booking webhooks')),
        field('Poll interval (seconds, 0 = off)', f.pollIntervalSeconds),
        field('This station prints', f.ruleMode),
        field('Booking sources', f.sources, 'Comma separated'),
        field('Carriers', f.carriers, 'Comma separated carrier codes or names'),
        field('Field matches', f.matches, 'One per line: field (reference_id, sender_reference, system) then a prefix or /regex/'),
      ),
      h(
        'div',
        { class: 'row save-row' },
        h('button', { type: 'submit', class: 'primary' }, 'Save settings'),
        this.pauseButton,
        this.saveResult,
      ),
    );
    this.element = h('section', { class: 'view settings-view', id: 'view-settings', role: 'tabpanel', 'aria-labelledby': 'tab-settings', hidden: true }, this.form);
    this.element.append(createDiagnosticsPanel(ctx));

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
    this.fields.environment.focus();
  }

  /** Asks the agent to discover printers again (lpstat and friends). */
  loadPrinters(): Promise<void> {
    return this.ctx.printers(true).then((printers) => this.showPrinters(printers));
  }

  /** Focus the key field (first run: "Connect your account"). */
  focusKey(): void {
    this.fields.apiKey.focus();
  }

  setPaused(paused: boolean): void {
    this.pauseButton.setAttribute('aria-pressed', String(paused));
    this.pauseButton.textContent = paused ? 'Resume auto-print' : 'Pause auto-print';
  }

  private fill(s: SettingsView): void {
    // No keyring on this computer: the key works until the app quits, and must be entered again after.
    const sessionOnly = s.apiKeySet && s.apiKeySessionOnly === true;
    this.keyState.textContent = sessionOnly
      ? 'Key set for this session only: this computer has no system keyring to keep it safely, so enter it again after a restart'
      : s.apiKeySet ? 'Key set' : 'No key set';
    this.keyState.className = s.apiKeySet && !sessionOnly ? 'key-state ok' : 'key-state warn';
    this.setPaused(s.paused);
    if (this.dirty) return;
    const f = this.fields;
    f.environment.value = s.environment;
    f.apiUrl.value = s.apiUrl;
    f.apiKey.value = '';
    f.apiKey.placeholder = s.apiKeySet ? 'Key set: type a new one to replace it' : 'Paste the API key';
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
  }

  private input(): AgentInput<'saveSettings'> | string {
    const f = this.fields;
    const list = (value: string) => value.split(',').map((v) => v.trim()).filter(Boolean);
    const matches: Array<StationRules['matches'][number]> = [];
    for (const line of f.matches.value.split('\n').map((l) => l.trim()).filter(Boolean)) {
      const [field, ...rest] = line.split(/\s+/);
      const pattern = rest.join(' ');
      if (!MATCH_FIELDS.includes(field as (typeof MATCH_FIELDS)[number]) || !pattern) {
        return `Field matches: “${line}” must be a field (${MATCH_FIELDS.join(', ')}) followed by a pattern.`;
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
      stationRules: { mode: f.ruleMode.value as StationRules['mode'], sources: list(f.sources.value), carriers: list(f.carriers.value), matches },
    };
    const checked = agentInputs.saveSettings.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return `Check “${issue?.path.join('.') ?? 'settings'}”: ${issue?.message ?? 'invalid value'}.`;
    }
    return input;
  }

  private async save(): Promise<void> {
    const input = this.input();
    if (typeof input === 'string') {
      replaceChildren(this.saveResult, h('p', { role: 'alert', class: 'fail' }, input));
      return;
    }
    try {
      const saved = await this.ctx.api.saveSettings(input);
      this.dirty = false;
      this.ctx.setSettings(saved);
      replaceChildren(this.saveResult, h('p', { role: 'status', class: 'ok' }, 'Settings saved.'));
      void this.printerPauses.refresh();
    } catch (error) {
      replaceChildren(this.saveResult, h('p', { role: 'alert', class: 'fail' }, `Not saved: ${describeError(error)}`));
    }
  }

  private async testConnection(): Promise<void> {
    const f = this.fields;
    this.connectionResult.className = 'inline-result';
    this.connectionResult.textContent = 'Testing…';
    try {
      const result = await this.ctx.api.testConnection({
        ...(f.apiUrl.value.trim() ? { apiUrl: f.apiUrl.value.trim() } : {}),
        ...(f.apiKey.value.trim() ? { apiKey: f.apiKey.value.trim() } : {}),
      });
      this.connectionResult.className = 'inline-result ok';
      this.connectionResult.textContent = `Connected: team ${result.team} (${result.status})`;
    } catch (error) {
      this.connectionResult.className = 'inline-result fail';
      this.connectionResult.textContent = `Connection failed: ${describeError(error)}`;
    }
  }

  private async testPrint(printer: string): Promise<void> {
    if (!printer.trim()) {
      this.testPrintResult.className = 'inline-result fail';
      this.testPrintResult.textContent = 'Choose a printer first.';
      return;
    }
    try {
      const job = await this.ctx.api.testPrint({ printer: printer.trim() });
      this.testPrintResult.className = 'inline-result ok';
      this.testPrintResult.textContent = `Test page for ${describeTarget(job.target)}: ${JOB_STATE_WORDS[job.state] ?? job.state}`;
    } catch (error) {
      this.testPrintResult.className = 'inline-result fail';
      this.testPrintResult.textContent = `Test print failed: ${describeError(error)}`;
    }
  }

  private async togglePause(): Promise<void> {
    const paused = this.pauseButton.getAttribute('aria-pressed') !== 'true';
    try {
      const status = await this.ctx.api.setPaused({ paused });
      this.setPaused(status.paused);
      replaceChildren(this.saveResult, h('p', { role: 'status', class: 'ok' }, status.paused ? 'Auto-print paused.' : 'Auto-print resumed.'));
    } catch (error) {
      replaceChildren(this.saveResult, h('p', { role: 'alert', class: 'fail' }, describeError(error)));
    }
  }
}
