/**
 * The sections of Settings as tabs (WAI-ARIA tabs: arrow keys, Home and End move between them),
 * so an admin reads one section at a time instead of one page thousands of pixels tall. The
 * section last opened stays open when Settings is left and opened again.
 */
import { h } from '../dom';
import { t } from '../i18n';

export type SectionName = 'connection' | 'printers' | 'packing' | 'scale' | 'support';

/** The section open last, kept when the views are built again (a new language keeps the admin's place). */
let lastOpen: SectionName = 'connection';

export class SettingsSections {
  readonly tablist: HTMLElement;
  private readonly tabs = new Map<SectionName, HTMLButtonElement>();
  private readonly panels = new Map<SectionName, HTMLElement>();
  private readonly listeners: Array<(name: SectionName) => void> = [];
  private current: SectionName = lastOpen;

  constructor() {
    this.tablist = h('div', { class: 'settings-tabs', role: 'tablist', 'aria-label': t('settings.sections') });
    this.tablist.addEventListener('keydown', (event) => this.onKey(event));
  }

  /** A section's tab and its panel (returned, to be placed); the one open last is shown. */
  panel(name: SectionName, title: string, ...content: HTMLElement[]): HTMLElement {
    const first = name === this.current;
    const tab = h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `settings-tab-${name}`,
        'aria-controls': `settings-panel-${name}`,
        'aria-selected': String(first),
        tabindex: first ? '0' : '-1',
      },
      title,
    );
    tab.addEventListener('click', () => this.show(name));
    const panel = h(
      'div',
      { class: 'settings-part', role: 'tabpanel', id: `settings-panel-${name}`, 'aria-labelledby': tab.id, hidden: !first },
      ...content,
    );
    this.tabs.set(name, tab);
    this.panels.set(name, panel);
    this.tablist.append(tab);
    return panel;
  }

  /** The panel of a section, to add to. */
  content(name: SectionName): HTMLElement {
    return this.panels.get(name)!;
  }

  onShow(listener: (name: SectionName) => void): void {
    this.listeners.push(listener);
  }

  /** Opens a section; `focus` puts the caret on its tab (as a click or an arrow key does). */
  /** The section open now. */
  get open(): SectionName {
    return this.current;
  }

  show(name: SectionName, focus = true): void {
    this.current = lastOpen = name;
    for (const [each, tab] of this.tabs) {
      const selected = each === name;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      this.panels.get(each)!.hidden = !selected;
    }
    if (focus) this.tabs.get(name)!.focus();
    for (const listener of this.listeners) listener(name);
  }

  private onKey(event: KeyboardEvent): void {
    const names = [...this.tabs.keys()];
    const at = names.indexOf(this.current);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % names.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + names.length) % names.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? names.length - 1
              : -1;
    if (to < 0) return;
    event.preventDefault();
    this.show(names[to]!);
  }
}
