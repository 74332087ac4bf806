/**
 * The window: tabs (Scan, Queue & history, Settings, End of day), the status bar, live events and
 * the focus rule (on the Scan view the caret always comes back to the scan box, so the
 * next parcel can be scanned without touching the mouse). When the UI's language changes
 * (Settings, or the OS) the views are built again in it; the tab stays where it was.
 */
import type { AgentClient, AgentEvent } from '../shared/agent-api';
import type { AgentStatus } from '../shared/domain';
import { describeError } from './bridge/agent-call-error';
import { UiContext, type TabName } from './context';
import { h } from './dom';
import { language, onLanguageChange, refreshLanguage, t, type MessageKey } from './i18n';
import { EndOfDayView } from './views/end-of-day-view';
import { firstRunPanel } from './views/first-run';
import { LANGUAGE_SELECT_ID, createLanguagePicker } from './views/language-picker';
import { QueueView } from './views/queue-view';
import { ScanView } from './views/scan-view';
import { scannerTestSection } from './views/scanner-test-sheet';
import { SettingsPanel } from './views/settings-view';
import { SiteView } from './views/site-view';
import { packSettingsPanel } from './views/pack-settings';
import { StatusBar } from './views/status-bar';
import { agentWords } from './agent-words';

/**
 * The tabs, in order. A new view is one entry here, one in TabName (context.ts) and one in
 * App.views: the tab button, its panel, Alt+key (its place in the row) and arrow keys follow
 * from this table. Site is there only on a station in a site (`--site`): a lone station has
 * nothing to show in it.
 */
const ALL_TABS: ReadonlyArray<{ name: TabName; label: MessageKey; siteOnly?: true }> = [
  { name: 'scan', label: 'tab.scan' },
  { name: 'queue', label: 'tab.queue' },
  { name: 'settings', label: 'tab.settings' },
  { name: 'end-of-day', label: 'tab.endOfDay' },
  { name: 'site', label: 'tab.site', siteOnly: true },
];

interface Tab {
  readonly name: TabName;
  readonly label: MessageKey;
  /** Alt+key: the tab's place in the row, from 1. */
  readonly key: string;
}

/** The tabs this station shows, each with its Alt+number. */
export function tabsFor(inSite: boolean): readonly Tab[] {
  return ALL_TABS.filter((tab) => inSite || !tab.siteOnly).map((tab, i) => ({ name: tab.name, label: tab.label, key: String(i + 1) }));
}
const STATUS_REFRESH_MS = 15_000;

/** What a tab shows: its panel (role tabpanel, id `view-<name>`) and what to do when shown. */
interface TabView {
  readonly element: HTMLElement;
  show?(): void;
}

export class App {
  private ctx!: UiContext;
  private scan!: ScanView;
  private queue!: QueueView;
  private settings!: SettingsPanel;
  private statusBar!: StatusBar;
  private notices!: HTMLElement;
  private readonly tabButtons = new Map<TabName, HTMLButtonElement>();
  private views!: Readonly<Record<TabName, TabView>>;
  private active: TabName = 'scan';
  /** Known once siteStatus answers: until then (and on a lone station) no Site tab. */
  private inSite = false;
  private tabs: readonly Tab[] = tabsFor(false);
  private tablist!: HTMLElement;
  private main!: HTMLElement;
  private statusTimer: ReturnType<typeof setTimeout> | null = null;
  /** The last status shown (or why the agent was unreachable), to show again after a rebuild. */
  private lastStatus: AgentStatus | null = null;
  private lastOffline: string | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly api: AgentClient,
  ) {}

  start(): void {
    refreshLanguage();
    this.build();
    this.installFocusRule();
    this.installShortcuts();
    this.api.onEvent((event) => this.onEvent(event));
    // The desktop app's tray and notifications follow the window's language (no-op in a browser).
    this.api.setUiLanguage?.(language());
    onLanguageChange((chosen) => {
      this.api.setUiLanguage?.(chosen);
      this.rebuild();
    });
    this.showTab('scan');
    void this.findSite();
    void this.refreshStatus();
    setInterval(() => void this.refreshStatus(), STATUS_REFRESH_MS);
    void this.loadSettings();
  }

  /** The views, tabs and shell in the current language, on a fresh context (old views drop away). */
  private build(): void {
    const previous = this.ctx;
    this.ctx = new UiContext(
      this.api,
      () => this.focusScan(),
      (tab) => this.showTab(tab),
    );
    if (previous?.settings) this.ctx.setSettings(previous.settings);
    this.scan = new ScanView(this.ctx);
    this.queue = new QueueView(this.ctx);
    this.settings = new SettingsPanel(this.ctx);
    this.settings.addSupport(createLanguagePicker(), scannerTestSection());
    // Packing settings: their own section and file, saved by Settings' one Save.
    const packing = packSettingsPanel(this.ctx);
    this.settings.setPacking(packing);
    const endOfDay = new EndOfDayView(this.ctx);
    this.statusBar = new StatusBar();
    this.notices = h('div', { class: 'notices', 'aria-live': 'polite' });
    this.views = {
      scan: { element: this.scan.element, show: () => this.focusScan() },
      queue: this.queue,
      settings: {
        element: this.settings.element,
        show: () => {
          this.settings.show();
          void packing.load();
        },
      },
      'end-of-day': endOfDay,
      site: new SiteView(this.ctx),
    };
    this.tabs = tabsFor(this.inSite);
    this.settings.setInSite(this.inSite);
    this.scan.setTabCount(this.tabs.length);
    this.tabButtons.clear();
    const tablist = h('nav', { class: 'tabs', role: 'tablist', 'aria-label': t('app.views') });
    this.tablist = tablist;
    for (const tab of this.tabs) tablist.append(this.tabButton(tab));
    // The ARIA tabs pattern: arrow keys, Home and End move between tabs.
    tablist.addEventListener('keydown', (event) => {
      const tabs = this.tabs;
      const index = tabs.findIndex((t) => t.name === this.active);
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      const tab = tabs[(next + tabs.length) % tabs.length]!;
      this.showTab(tab.name);
      this.tabButtons.get(tab.name)?.focus();
    });
    const header = h('header', { class: 'top' }, h('h1', {}, t('app.title')), tablist);
    const main = h('main', {}, this.notices, ...this.tabs.map((tab) => this.views[tab.name].element));
    this.main = main;
    this.root.replaceChildren(header, main, this.statusBar.element);
    // Focus leaving the scan box to nowhere (a click on text, the window losing focus) comes back.
    this.scan.input.addEventListener('blur', (event) => {
      if (event.relatedTarget === null) setTimeout(() => this.focusScan(), 0);
    });
  }

  private tabButton(tab: Tab): HTMLButtonElement {
    const button = h(
      'button',
      { type: 'button', role: 'tab', id: `tab-${tab.name}`, 'aria-controls': `view-${tab.name}`, 'aria-keyshortcuts': `Alt+${tab.key}` },
      t(tab.label),
    );
    button.tabIndex = -1;
    button.setAttribute('aria-selected', 'false');
    button.addEventListener('click', () => this.showTab(tab.name));
    this.tabButtons.set(tab.name, button);
    return button;
  }

  /** The agent said this station is in a site: its tab joins the row (nothing else is built again). */
  private addSiteTab(): void {
    this.inSite = true;
    this.tabs = tabsFor(true);
    const site = this.tabs.find((tab) => tab.name === 'site')!;
    this.tablist.append(this.tabButton(site));
    this.views.site.element.hidden = true;
    this.main.append(this.views.site.element);
    this.scan.setTabCount(this.tabs.length);
    this.settings.setInSite(true);
  }

  /** The language changed: the same tab, status and first-run panel, in the new words. */
  private rebuild(): void {
    const languageFocused = document.activeElement?.id === LANGUAGE_SELECT_ID;
    const firstRunShown = this.scan.element.querySelector('.first-run') !== null;
    this.build();
    if (this.lastStatus) this.showStatus(this.lastStatus);
    else if (this.lastOffline !== null) this.statusBar.offline(this.lastOffline);
    if (firstRunShown) this.showFirstRun();
    this.showTab(this.active);
    // Whoever just chose a language keeps their place in Settings.
    if (languageFocused) document.getElementById(LANGUAGE_SELECT_ID)?.focus();
  }

  showTab(name: TabName): void {
    if (!this.tabs.some((tab) => tab.name === name)) name = 'scan';
    this.active = name;
    for (const [tab, button] of this.tabButtons) {
      button.setAttribute('aria-selected', String(tab === name));
      button.tabIndex = tab === name ? 0 : -1;
    }
    for (const tab of this.tabs) this.views[tab.name].element.hidden = tab.name !== name;
    this.views[name].show?.();
  }

  private focusScan(): void {
    if (this.active !== 'scan') return;
    if (document.activeElement !== this.scan.input) this.scan.input.focus({ preventScroll: true });
  }

  private installFocusRule(): void {
    const isControl = (el: EventTarget | null): boolean =>
      el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && el !== this.scan.input);
    // A flow that takes several inputs (pack and ship, its confirmations) keeps the caret
    // where the packer is working; it hands it back to the scan box when it is done.
    const inFlow = (el: EventTarget | null): boolean => el instanceof Element && el.closest('[data-keep-focus]') !== null;
    window.addEventListener('focus', () => this.focusScan());
    // After any action (a button pressed, a choice made) the caret returns.
    document.addEventListener('click', (event) => {
      if (!isControl(event.target) && !inFlow(event.target)) setTimeout(() => this.focusScan(), 0);
    });
    document.addEventListener('change', (event) => {
      if (this.scan.element.contains(event.target as Node) && !inFlow(event.target)) setTimeout(() => this.focusScan(), 0);
    });
    // A scanner burst while another control has focus must not be lost: the first
    // printable key moves the caret to the scan box and the burst lands there.
    document.addEventListener(
      'keydown',
      (event) => {
        if (this.active !== 'scan' || event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
        const target = document.activeElement;
        // Space selects a rate or presses a button in a flow; it is no scanner character.
        if (event.key === ' ' && inFlow(target)) return;
        if (
          target === this.scan.input ||
          target instanceof HTMLTextAreaElement ||
          (target instanceof HTMLInputElement && target.type !== 'checkbox')
        )
          return;
        this.scan.input.focus({ preventScroll: true });
      },
      { capture: true },
    );
  }

  private installShortcuts(): void {
    document.addEventListener('keydown', (event) => {
      if (event.altKey && !event.ctrlKey && !event.metaKey) {
        const tab = this.tabs.find((t) => t.key === event.key);
        if (tab) {
          event.preventDefault();
          this.showTab(tab.name);
          return;
        }
        if (event.key.toLowerCase() === 'r' && this.active === 'scan') {
          event.preventDefault();
          this.scan.reprint();
        }
        if (event.key.toLowerCase() === 'b' && this.active === 'scan') {
          event.preventDefault();
          this.scan.book();
        }
        return;
      }
      if (event.key === 'Escape' && this.active !== 'scan') this.showTab('scan');
    });
  }

  private onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'job':
        this.scan.onJob(event.job);
        this.queue.onJob(event.job);
        this.scheduleStatusRefresh();
        break;
      case 'status':
        this.showStatus(event.status);
        break;
      case 'alert':
        this.notice(`${event.title}: ${event.message}`);
        break;
      case 'fallback':
        this.offerFallback(event.printer, agentWords(event.adviceMessage, event.advice), event.fallback);
        break;
      case 'fallbackMoved':
        this.notice(t('fallback.moved', { count: event.jobs.length, printer: event.printer, to: event.to }));
        break;
      case 'scale':
        this.statusBar.scale(event.scale);
        this.settings.scaleReading();
        this.ctx.scaleReading(event.scale);
        break;
      case 'tracking':
        break;
    }
  }

  /** A label printer stopped: say why, and offer to send its waiting labels to its A4 fallback. */
  private offerFallback(printer: string, advice: string, fallback: string | null): void {
    if (fallback === null) {
      this.notice(t('fallback.stopped', { printer, advice }));
      return;
    }
    const move = h('button', { type: 'button' }, t('fallback.move', { to: fallback }));
    const item = this.notice(t('fallback.stopped', { printer, advice }), move);
    move.addEventListener('click', () => {
      move.disabled = true;
      this.api.moveToFallback({ printer }).then(
        () => item.remove(),
        (error: unknown) => {
          move.disabled = false;
          this.notice(describeError(error));
        },
      );
    });
  }

  private notice(text: string, ...actions: HTMLElement[]): HTMLElement {
    const close = h('button', { type: 'button', class: 'link', 'aria-label': t('app.dismiss') }, '×');
    const item = h('p', { class: 'notice' }, text, ...actions, close);
    close.addEventListener('click', () => item.remove());
    this.notices.prepend(item);
    while (this.notices.children.length > 3) this.notices.lastElementChild?.remove();
    return item;
  }

  /** Jobs change the counts and the last print: refresh soon, once per burst of events. */
  private scheduleStatusRefresh(): void {
    if (this.statusTimer) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = null;
      void this.refreshStatus();
    }, 500);
  }

  /** A station in a site (`--site`) gets the Site tab; a lone one, or one that cannot say, none. */
  private async findSite(): Promise<void> {
    try {
      const site = await this.api.siteStatus({});
      if (site.enabled && !this.inSite) this.addSiteTab();
    } catch {
      // No answer: the tab stays away, as on a lone station (the status bar says why the agent is out of reach).
    }
  }

  private async refreshStatus(): Promise<void> {
    try {
      this.showStatus(await this.api.getStatus({}));
    } catch (error) {
      this.lastStatus = null;
      this.lastOffline = describeError(error);
      this.statusBar.offline(this.lastOffline);
    }
  }

  private showStatus(status: AgentStatus): void {
    this.lastStatus = status;
    this.lastOffline = null;
    this.statusBar.show(status);
    this.settings.setPaused(status.paused);
  }

  private async loadSettings(): Promise<void> {
    try {
      const settings = await this.api.getSettings({});
      this.ctx.setSettings(settings);
      if (!settings.apiKeySet) this.showFirstRun();
    } catch (error) {
      this.notice(t('app.settingsLoadFailed', { error: describeError(error) }));
    }
  }

  private showFirstRun(): void {
    this.scan.element.prepend(
      firstRunPanel(this.ctx, () => {
        this.showTab('settings');
        this.settings.focusKey();
      }),
    );
  }
}
