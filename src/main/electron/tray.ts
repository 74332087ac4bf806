/**
 * The tray icon and menu (Signal-Desktop SystemTrayService model): a class with an
 * injectable Tray factory and one render-from-state that only touches the native tray
 * when something visible changed (tray updates are not free, and on some Linux
 * desktops a rebuilt menu closes the one the user has open).
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { AgentStatus, ConfiguredPrinter } from '../../shared/domain';
import { trayWord, type UiLanguage } from '../../shared/tray-words';

export type TrayIconState = AgentStatus['state'];
export const TRAY_ICON_STATES: readonly TrayIconState[] = ['ok', 'paused', 'error', 'offline'];

/** The part of Electron's Tray the controller uses. */
export interface TrayLike {
  setImage(image: string): void;
  setToolTip(toolTip: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface TrayActions {
  /** Pause (true) or resume (false) automatic printing. */
  readonly setPaused: (paused: boolean) => void;
  readonly openWindow: () => void;
  readonly printTestLabel: () => void;
  readonly quit: () => void;
  /** Pause (true) or resume (false) one printer; without it the menu has no printer items. */
  readonly setPrinterPaused?: (uri: string, paused: boolean) => void;
}

export interface TrayControllerOptions {
  /** Creates the native tray with its first icon (`new Tray(path)` in the app). */
  readonly createTray: (iconPath: string) => TrayLike;
  /** Builds the native menu (`Menu.buildFromTemplate` in the app). */
  readonly buildMenu: (template: MenuItemConstructorOptions[]) => unknown;
  /** Icon file per state (build/tray/*.png, resolved by tray-icons.ts). */
  readonly icons: Readonly<Record<TrayIconState, string>>;
  readonly actions: TrayActions;
  /**
   * Start at login (macOS and Windows keep this in the OS: app.get/setLoginItemSettings).
   * @default undefined (no menu item, e.g. on Linux where Electron cannot set it)
   */
  readonly loginItem?: { readonly get: () => boolean; readonly set: (enabled: boolean) => void };
  /** How the last print time reads in the status line. @default local HH:MM */
  readonly formatTime?: (iso: string) => string;
  /** The menu's and tooltip's language until setLanguage() says otherwise. @default 'en' */
  readonly language?: UiLanguage;
}

/** Everything the tray shows, derived from the status: rendering compares these. */
export interface TrayView {
  readonly icon: string;
  readonly toolTip: string;
  readonly statusLine: string;
  readonly paused: boolean;
  /** null when the platform has no start-at-login setting. */
  readonly startAtLogin: boolean | null;
  /** The configured printers, each paused or not (setPrinters). */
  readonly printers: readonly Pick<ConfiguredPrinter, 'uri' | 'paused'>[];
  /** Printers not ready, in their own words (AgentStatus.printerProblems), and an offline scale: one menu line each. */
  readonly printerProblems: readonly string[];
  /** The language the tooltip and menu are in. */
  readonly language: UiLanguage;
}

export class TrayController {
  readonly #options: TrayControllerOptions;
  readonly #formatTime: (iso: string) => string;
  #tray: TrayLike | null = null;
  #last: TrayView | null = null;
  #status: AgentStatus | null = null;
  #printers: readonly Pick<ConfiguredPrinter, 'uri' | 'paused'>[] = [];
  #language: UiLanguage;

  constructor(options: TrayControllerOptions) {
    this.#options = options;
    this.#formatTime = options.formatTime ?? ((iso) => defaultFormatTime(iso, this.#language));
    this.#language = options.language ?? 'en';
  }

  /** The window's language (Settings → Language): the tooltip and menu follow at once. */
  setLanguage(language: UiLanguage): void {
    this.#language = language;
    this.#refresh();
  }

  /** Derives what the tray shows for a status (pure; exposed for tests and the window title). */
  view(status: AgentStatus): TrayView {
    // An offline scale needs a person as a printer out of paper does: one more line of the same list.
    const scaleOffline =
      status.scale?.state === 'offline' ? [trayWord(this.#language, 'tray.scaleOffline', { scale: status.scale.uri })] : [];
    const printerProblems = [...(status.printerProblems ?? []).map((p) => p.detail), ...scaleOffline];
    // A printer out of paper (head open, paused at the printer, unreachable) needs a person
    // even while the agent itself is fine.
    const shown: AgentStatus['state'] = status.state === 'ok' && printerProblems.length > 0 ? 'error' : status.state;
    const state: TrayIconState = status.paused && shown === 'ok' ? 'paused' : shown;
    const language = this.#language;
    const team = status.team ?? trayWord(language, 'tray.notConnected');
    const lastPrint = status.lastPrintAt
      ? trayWord(language, 'tray.lastPrint', { time: this.#formatTime(status.lastPrintAt) })
      : trayWord(language, 'tray.noPrints');
    const problem =
      status.lastError && status.state === 'error'
        ? `: ${status.lastError.message}`
        : printerProblems.length > 0 && state === 'error'
          ? `: ${printerProblems[0]}`
          : '';
    // Windows truncates tray tooltips at 127 characters.
    const toolTip = `Print Station — ${trayWord(language, `tray.state.${state}`)}${problem}`.slice(0, 127);
    return {
      icon: this.#options.icons[state],
      toolTip,
      statusLine: `${team} · ${status.environment} · ${lastPrint}`,
      paused: status.paused,
      startAtLogin: this.#options.loginItem ? this.#options.loginItem.get() : null,
      printers: this.#printers,
      printerProblems,
      language,
    };
  }

  /** The configured printers and which are paused; the menu follows (after a status is known). */
  setPrinters(printers: readonly ConfiguredPrinter[]): void {
    this.#printers = printers.map(({ uri, paused }) => ({ uri, paused }));
    this.#refresh();
  }

  /** Shows the status; a no-op when nothing visible changed since the last render. */
  render(status: AgentStatus): void {
    this.#status = status;
    const next = this.view(status);
    const previous = this.#last;
    if (previous && sameView(previous, next)) return;
    const tray = this.#ensureTray(next.icon);
    // A new tray already has the icon it was created with.
    if (previous && previous.icon !== next.icon) tray.setImage(next.icon);
    if (!previous || previous.toolTip !== next.toolTip) tray.setToolTip(next.toolTip);
    const menuChanged =
      !previous ||
      previous.statusLine !== next.statusLine ||
      previous.paused !== next.paused ||
      previous.startAtLogin !== next.startAtLogin ||
      previous.language !== next.language ||
      previous.printerProblems.join('\n') !== next.printerProblems.join('\n');
    if (menuChanged || !samePrinters(previous, next)) {
      tray.setContextMenu(this.#options.buildMenu(this.#menu(next)));
    }
    this.#last = next;
  }

  destroy(): void {
    this.#tray?.destroy();
    this.#tray = null;
    this.#last = null;
  }

  #ensureTray(icon: string): TrayLike {
    if (this.#tray) return this.#tray;
    const tray = this.#options.createTray(icon);
    // Left click opens the window (Windows, most Linux panels); macOS shows the menu.
    tray.on('click', () => this.#options.actions.openWindow());
    this.#tray = tray;
    return tray;
  }

  #loginItemMenu(view: TrayView): MenuItemConstructorOptions[] {
    const loginItem = this.#options.loginItem;
    if (!loginItem || view.startAtLogin === null) return [];
    return [
      {
        id: 'start-at-login',
        label: trayWord(view.language, 'tray.startAtLogin'),
        type: 'checkbox',
        checked: view.startAtLogin,
        click: (item) => {
          loginItem.set(item.checked);
          this.#refresh();
        },
      },
    ];
  }

  /** Re-renders the last status (after a change the status does not carry, like start at login). */
  #refresh(): void {
    if (this.#status) this.render(this.#status);
  }

  /** "Printers ▸ Pause cups:Zebra": one item per configured printer, when the app can pause one. */
  #printerMenu(view: TrayView): MenuItemConstructorOptions[] {
    const setPrinterPaused = this.#options.actions.setPrinterPaused;
    if (!setPrinterPaused || view.printers.length === 0) return [];
    const submenu: MenuItemConstructorOptions[] = view.printers.map((p) => ({
      id: `printer:${p.uri}`,
      label: trayWord(view.language, p.paused ? 'tray.resumePrinter' : 'tray.pausePrinter', { printer: p.uri }),
      click: () => setPrinterPaused(p.uri, !p.paused),
    }));
    return [{ id: 'printers', label: trayWord(view.language, 'tray.printers'), submenu }];
  }

  #menu(view: TrayView): MenuItemConstructorOptions[] {
    const { actions } = this.#options;
    const say = (key: Parameters<typeof trayWord>[1]): string => trayWord(view.language, key);
    return [
      { id: 'status', label: view.statusLine, enabled: false },
      ...view.printerProblems.map((detail, i): MenuItemConstructorOptions => ({
        id: `printer-problem:${i}`,
        label: detail,
        enabled: false,
      })),
      { type: 'separator' },
      view.paused
        ? { id: 'pause', label: say('tray.resumeAutoPrint'), click: () => actions.setPaused(false) }
        : { id: 'pause', label: say('tray.pauseAutoPrint'), click: () => actions.setPaused(true) },
      ...this.#printerMenu(view),
      { id: 'open', label: say('tray.open'), click: () => actions.openWindow() },
      { id: 'test-print', label: say('tray.testPrint'), click: () => actions.printTestLabel() },
      ...this.#loginItemMenu(view),
      { type: 'separator' },
      { id: 'quit', label: say('tray.quit'), click: () => actions.quit() },
    ];
  }
}

function sameView(a: TrayView, b: TrayView): boolean {
  const same = a.icon === b.icon && a.toolTip === b.toolTip && a.statusLine === b.statusLine && a.paused === b.paused;
  return (
    same &&
    a.startAtLogin === b.startAtLogin &&
    a.language === b.language &&
    samePrinters(a, b) &&
    a.printerProblems.join('\n') === b.printerProblems.join('\n')
  );
}

function samePrinters(a: TrayView, b: TrayView): boolean {
  if (a.printers.length !== b.printers.length) return false;
  return a.printers.every((p, i) => p.uri === b.printers[i]?.uri && p.paused === b.printers[i]?.paused);
}

function defaultFormatTime(iso: string, language: UiLanguage): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return trayWord(language, 'tray.unknownTime');
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}
