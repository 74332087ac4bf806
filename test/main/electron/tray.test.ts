import type { MenuItemConstructorOptions } from 'electron';
import { beforeEach, describe, expect, it } from 'vitest';
import { TRAY_ICON_STATES, TrayController, type TrayLike } from '../../../src/main/electron/tray';
import type { AgentStatus } from '../../../src/shared/domain';

// The native Tray is injected (no Electron binary here); this records what reached it.
class RecordingTray implements TrayLike {
  readonly calls: Array<[string, unknown]> = [];
  readonly clickListeners: Array<() => void> = [];
  constructor(readonly initialImage: string) {}
  setImage(image: string): void {
    this.calls.push(['setImage', image]);
  }
  setToolTip(toolTip: string): void {
    this.calls.push(['setToolTip', toolTip]);
  }
  setContextMenu(menu: unknown): void {
    this.calls.push(['setContextMenu', menu]);
  }
  on(_event: 'click', listener: () => void): this {
    this.clickListeners.push(listener);
    return this;
  }
  destroy(): void {
    this.calls.push(['destroy', null]);
  }
}

const ICONS = {
  ok: '/icons/tray-ok.png',
  paused: '/icons/tray-paused.png',
  error: '/icons/tray-error.png',
  offline: '/icons/tray-offline.png',
};
const BASE: AgentStatus = {
  team: 'Acme Shipping',
  environment: 'production',
  state: 'ok',
  paused: false,
  lastPrintAt: '2026-11-22T09:05:00Z',
  lastError: null,
  queued: 0,
  failed: 0,
};

describe('TrayController', () => {
  let trays: RecordingTray[];
  let actions: string[];
  let controller: TrayController;
  let loginItem: boolean;

  // Every controller in a test records its native tray here.
  const createTray = (icon: string): RecordingTray => {
    const created = new RecordingTray(icon);
    trays.push(created);
    return created;
  };
  const tray = (): RecordingTray => trays[0]!;
  const lastMenu = (): MenuItemConstructorOptions[] => {
    const menus = tray().calls.filter(([name]) => name === 'setContextMenu');
    return menus[menus.length - 1]![1] as MenuItemConstructorOptions[];
  };
  const labels = (): string[] =>
    lastMenu()
      .filter((item) => item.type !== 'separator')
      .map((item) => item.label ?? '');
  const item = (id: string): MenuItemConstructorOptions => lastMenu().find((entry) => entry.id === id)!;

  beforeEach(() => {
    trays = [];
    actions = [];
    loginItem = false;
    controller = new TrayController({
      createTray,
      buildMenu: (template) => template,
      icons: ICONS,
      formatTime: (iso) => iso.slice(11, 16),
      actions: {
        setPaused: (paused) => actions.push(`setPaused:${paused}`),
        openWindow: () => actions.push('openWindow'),
        printTestLabel: () => actions.push('printTestLabel'),
        quit: () => actions.push('quit'),
      },
      loginItem: { get: () => loginItem, set: (enabled) => void (loginItem = enabled) },
    });
  });

  it.each(TRAY_ICON_STATES)('renders the %s state with its icon, tooltip and menu', (state) => {
    controller.render({ ...BASE, state, paused: state === 'paused' });
    expect(trays).toHaveLength(1);
    expect(tray().initialImage).toBe(ICONS[state]);
    const toolTip = tray().calls.find(([name]) => name === 'setToolTip')![1] as string;
    expect(toolTip).toMatch(/^Print Station — /);
    expect(toolTip).toContain({ ok: 'printing automatically', paused: 'paused', error: 'needs attention', offline: 'offline' }[state]);
    expect(labels()).toEqual([
      'Acme Shipping · production · last print 09:05',
      state === 'paused' ? 'Resume auto-print' : 'Pause auto-print',
      'Open Print Station',
      'Print test label',
      'Start at login',
      'Quit Print Station',
    ]);
    expect(item('status').enabled).toBe(false);
  });

  it('shows the paused icon when auto-print is paused even if the agent reports ok', () => {
    controller.render({ ...BASE, paused: true });
    expect(tray().initialImage).toBe(ICONS.paused);
  });

  it('shows the last error in the tooltip and a not-connected status line', () => {
    controller.render({
      ...BASE,
      team: null,
      lastPrintAt: null,
      state: 'error',
      lastError: { code: 'PRINTER_OFFLINE', message: 'Zebra is offline', requestId: null },
    });
    expect(tray().calls).toContainEqual(['setToolTip', 'Print Station — needs attention: Zebra is offline']);
    expect(labels()[0]).toBe('Not connected · production · no prints yet');
  });

  it('shows a ZPL printer out of paper in its own words: attention icon, tooltip and a menu line, gone once it is ready', () => {
    const paperOut =
      'ZPL printer ZD421-203dpi at 10.0.0.7:9100 reports paper out: load labels (media) and close the head. Labels wait and print once it is ready.';
    controller.render({ ...BASE, printerProblems: [{ uri: 'zpl://10.0.0.7', detail: paperOut }] });
    expect(tray().initialImage).toBe(ICONS.error);
    const toolTip = tray().calls.findLast(([name]) => name === 'setToolTip')![1] as string;
    expect(toolTip).toMatch(/^Print Station — needs attention: ZPL printer ZD421-203dpi at 10\.0\.0\.7:9100 reports paper out/);
    expect(toolTip.length).toBeLessThanOrEqual(127);
    expect(item('printer-problem:0')).toMatchObject({ label: paperOut, enabled: false });
    controller.render({ ...BASE, printerProblems: [] });
    expect(tray().calls).toContainEqual(['setImage', ICONS.ok]);
    expect(tray().calls.findLast(([name]) => name === 'setToolTip')![1]).toBe('Print Station — printing automatically');
    expect(item('printer-problem:0')).toBeUndefined();
  });

  it('says when the scale goes offline (attention icon, tooltip, a menu line) and nothing once it answers again', () => {
    const scale = { uri: 'serial:/dev/ttyUSB0', state: 'offline' as const, kg: null };
    controller.render({ ...BASE, scale });
    expect(tray().initialImage).toBe(ICONS.error);
    expect(tray().calls.findLast(([name]) => name === 'setToolTip')![1]).toBe(
      'Print Station — needs attention: Scale serial:/dev/ttyUSB0 is offline: weights are not read',
    );
    expect(item('printer-problem:0')).toMatchObject({ label: 'Scale serial:/dev/ttyUSB0 is offline: weights are not read' });
    controller.render({ ...BASE, scale: { ...scale, state: 'stable', kg: 1.2 } });
    expect(tray().calls).toContainEqual(['setImage', ICONS.ok]);
    expect(item('printer-problem:0')).toBeUndefined();
  });

  it('re-renders only what changed, and nothing when nothing changed', () => {
    controller.render(BASE);
    const afterFirst = tray().calls.length;
    controller.render({ ...BASE, queued: 5, failed: 1 }); // not shown in the tray
    controller.render({ ...BASE });
    expect(tray().calls).toHaveLength(afterFirst);

    controller.render({ ...BASE, state: 'offline' });
    const changed = tray().calls.slice(afterFirst);
    expect(changed.map(([name]) => name)).toEqual(['setImage', 'setToolTip']);
    expect(changed[0]).toEqual(['setImage', ICONS.offline]);

    controller.render({ ...BASE, state: 'offline', lastPrintAt: '2026-11-22T10:15:00Z' });
    const menuOnly = tray().calls.slice(afterFirst + 2);
    expect(menuOnly.map(([name]) => name)).toEqual(['setContextMenu']);
    expect(labels()[0]).toBe('Acme Shipping · production · last print 10:15');
    expect(trays).toHaveLength(1);
  });

  it('lists the configured printers under Printers, each with Pause or Resume, and rebuilds the menu only when one changes', () => {
    const paused: string[] = [];
    const withPrinters = new TrayController({
      createTray,
      buildMenu: (template) => template,
      icons: ICONS,
      actions: {
        setPaused: () => undefined,
        openWindow: () => undefined,
        printTestLabel: () => undefined,
        quit: () => undefined,
        setPrinterPaused: (uri, p) => void paused.push(`${uri}:${p}`),
      },
    });
    withPrinters.setPrinters([{ uri: 'cups:Zebra', roles: ['label'], paused: false }]); // no status yet: nothing shown
    expect(trays).toHaveLength(0);
    withPrinters.render(BASE);
    const printers = () => item('printers').submenu as MenuItemConstructorOptions[];
    expect(printers().map((p) => p.label)).toEqual(['Pause cups:Zebra']);
    printers()[0]!.click!({} as never, undefined, {} as never);
    expect(paused).toEqual(['cups:Zebra:true']);
    const menus = () => tray().calls.filter(([name]) => name === 'setContextMenu').length;
    const before = menus();
    withPrinters.setPrinters([{ uri: 'cups:Zebra', roles: ['label'], paused: false }]);
    expect(menus()).toBe(before);
    withPrinters.setPrinters([
      { uri: 'cups:Zebra', roles: ['label'], paused: true },
      { uri: 'cups:Office', roles: ['document'], paused: false },
    ]);
    expect(menus()).toBe(before + 1);
    expect(printers().map((p) => p.label)).toEqual(['Resume cups:Zebra', 'Pause cups:Office']);
    printers()[0]!.click!({} as never, undefined, {} as never);
    expect(paused).toEqual(['cups:Zebra:true', 'cups:Zebra:false']);
  });

  it('says its menu and tooltip in Swedish, then Finnish, once the language is set, without a new tray', () => {
    const tray2 = new TrayController({
      createTray,
      buildMenu: (template) => template,
      icons: ICONS,
      formatTime: (iso) => iso.slice(11, 16),
      actions: {
        setPaused: () => undefined,
        openWindow: () => undefined,
        printTestLabel: () => undefined,
        quit: () => undefined,
        setPrinterPaused: () => undefined,
      },
      loginItem: { get: () => false, set: () => undefined },
    });
    tray2.render({ ...BASE, state: 'error', lastError: { code: 'X', message: 'Zebra is offline', requestId: null } });
    tray2.setPrinters([
      { uri: 'cups:Zebra', roles: ['label'], paused: true },
      { uri: 'cups:Office', roles: ['document'], paused: false },
    ]);
    const allLabels = (): string[] =>
      lastMenu()
        .filter((entry) => entry.type !== 'separator')
        .flatMap((entry) => [
          entry.label ?? '',
          ...((entry.submenu as MenuItemConstructorOptions[] | undefined) ?? []).map((sub) => sub.label ?? ''),
        ]);
    const toolTip = (): unknown =>
      tray()
        .calls.filter(([name]) => name === 'setToolTip')
        .at(-1)![1];

    tray2.setLanguage('sv');
    expect(allLabels()).toEqual([
      'Acme Shipping · production · senaste utskrift 09:05',
      'Pausa automatisk utskrift',
      'Skrivare',
      'Återuppta cups:Zebra',
      'Pausa cups:Office',
      'Öppna Print Station',
      'Skriv ut testetikett',
      'Starta vid inloggning',
      'Avsluta Print Station',
    ]);
    expect(toolTip()).toBe('Print Station — behöver åtgärdas: Zebra is offline');

    tray2.setLanguage('fi');
    tray2.render({ ...BASE, team: null, lastPrintAt: null, paused: true });
    expect(allLabels()).toEqual([
      'Ei yhdistetty · production · ei vielä tulosteita',
      'Jatka automaattista tulostusta',
      'Tulostimet',
      'Jatka cups:Zebra',
      'Keskeytä cups:Office',
      'Avaa Print Station',
      'Tulosta testitarra',
      'Käynnistä kirjautuessa',
      'Sulje Print Station',
    ]);
    expect(toolTip()).toBe('Print Station — automaattinen tulostus keskeytetty');
    expect(trays).toHaveLength(1);
  });

  it('menu items call the injected actions', () => {
    controller.render(BASE);
    const click = (id: string) => (item(id).click as unknown as (menuItem: { checked: boolean }) => void)({ checked: !loginItem });
    click('pause');
    click('open');
    click('test-print');
    click('quit');
    expect(actions).toEqual(['setPaused:true', 'openWindow', 'printTestLabel', 'quit']);
    controller.render({ ...BASE, paused: true });
    click('pause');
    expect(actions.at(-1)).toBe('setPaused:false');
    tray().clickListeners.forEach((listener) => listener());
    expect(actions.at(-1)).toBe('openWindow');
  });

  it('toggles start at login and re-renders the checkbox', () => {
    controller.render(BASE);
    expect(item('start-at-login').checked).toBe(false);
    (item('start-at-login').click as unknown as (menuItem: { checked: boolean }) => void)({ checked: true });
    expect(loginItem).toBe(true);
    expect(item('start-at-login').checked).toBe(true);
  });

  it('has no start-at-login item where the platform has none', () => {
    const plain = new TrayController({
      createTray,
      buildMenu: (template) => template,
      icons: ICONS,
      actions: { setPaused() {}, openWindow() {}, printTestLabel() {}, quit() {} },
    });
    plain.render(BASE);
    expect(labels()).not.toContain('Start at login');
  });

  it('destroys the native tray', () => {
    controller.render(BASE);
    controller.destroy();
    expect(tray().calls.at(-1)).toEqual(['destroy', null]);
  });
});
