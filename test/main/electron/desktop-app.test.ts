import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentApi, AgentEvent } from '../../../src/shared/agent-api';
import type { AgentStatus } from '../../../src/shared/domain';
import type { DesktopAppOptions } from '../../../src/main/electron/desktop-app';

// The Electron binary is not available: the electron module is replaced by recording
// fakes. Everything else (settings on disk, IPC validation, tray, notifier) is real.
const fakes = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- vi.hoisted runs before the imports are bound
  const { EventEmitter: Emitter } = require('node:events') as typeof import('node:events');
  let nextId = 1;
  class FakeWebContents extends Emitter {
    readonly id = nextId++;
    readonly sent: Array<[string, unknown]> = [];
    url = '';
    setWindowOpenHandler(): void {}
    isDestroyed(): boolean {
      return false;
    }
    getURL(): string {
      return this.url;
    }
    send(channel: string, payload: unknown): void {
      this.sent.push([channel, payload]);
    }
  }
  class FakeBrowserWindow extends Emitter {
    static created: FakeBrowserWindow[] = [];
    readonly webContents = new FakeWebContents();
    visible = false;
    focused = 0;
    constructor(readonly options: Record<string, unknown>) {
      super();
      FakeBrowserWindow.created.push(this);
    }
    loadURL(url: string): Promise<void> {
      this.webContents.url = url;
      return Promise.resolve();
    }
    loadFile(file: string): Promise<void> {
      this.webContents.url = `file://${file}`;
      return Promise.resolve();
    }
    isDestroyed(): boolean {
      return false;
    }
    isMinimized(): boolean {
      return false;
    }
    restore(): void {}
    show(): void {
      this.visible = true;
    }
    hide(): void {
      this.visible = false;
    }
    focus(): void {
      this.focused += 1;
    }
  }
  class FakeTray {
    static created: FakeTray[] = [];
    image: string;
    toolTip = '';
    menu: Array<{ id?: string; label?: string; click?: () => void }> = [];
    destroyed = false;
    constructor(image: string) {
      this.image = image;
      FakeTray.created.push(this);
    }
    setImage(image: string): void {
      this.image = image;
    }
    setToolTip(text: string): void {
      this.toolTip = text;
    }
    setContextMenu(menu: FakeTray['menu']): void {
      this.menu = menu;
    }
    on(): void {}
    destroy(): void {
      this.destroyed = true;
    }
  }
  class FakeNotification {
    static shown: Array<{ title: string; body: string }> = [];
    static isSupported(): boolean {
      return true;
    }
    constructor(readonly options: { title: string; body: string }) {}
    on(): void {}
    show(): void {
      FakeNotification.shown.push(this.options);
    }
  }
  const handlers = new Map<string, (event: unknown, payload: unknown) => unknown>();
  const listeners = new Map<string, (event: unknown, payload: unknown) => void>();
  const app = Object.assign(new Emitter(), {
    lock: true,
    quitCalls: 0,
    userData: '',
    appPath: '',
    requestSingleInstanceLock: () => app.lock,
    quit: () => {
      app.quitCalls += 1;
    },
    whenReady: () => Promise.resolve(),
    getAppPath: () => app.appPath,
    getPath: () => app.userData,
    // Unpackaged (npm start): icons come from build/tray, no process.resourcesPath outside Electron.
    isPackaged: false,
    getLoginItemSettings: () => ({ openAtLogin: false, wasOpenedAsHidden: false }),
    setLoginItemSettings: () => {},
    locale: 'en-US',
    preferred: ['en-US'] as string[],
    getLocale: () => app.locale,
    getPreferredSystemLanguages: () => app.preferred,
  });
  return {
    app,
    handlers,
    listeners,
    FakeBrowserWindow,
    FakeTray,
    FakeNotification,
    electron: {
      app,
      BrowserWindow: FakeBrowserWindow,
      Tray: FakeTray,
      Notification: FakeNotification,
      Menu: { buildFromTemplate: (template: unknown) => template },
      ipcMain: {
        handle: (channel: string, fn: (event: unknown, payload: unknown) => unknown) => handlers.set(channel, fn),
        removeHandler: (channel: string) => handlers.delete(channel),
        on: (channel: string, fn: (event: unknown, payload: unknown) => void) => listeners.set(channel, fn),
        removeListener: (channel: string) => listeners.delete(channel),
      },
      safeStorage: {
        isEncryptionAvailable: () => true,
        getSelectedStorageBackend: () => 'gnome_libsecret',
        encryptString: (plain: string) => Buffer.from(`enc:${plain}`),
        decryptString: (cipher: Buffer) => cipher.toString().slice(4),
      },
      session: {
        defaultSession: {
          webRequest: { onHeadersReceived: () => {} },
          setPermissionRequestHandler: () => {},
          setPermissionCheckHandler: () => {},
        },
      },
      dialog: { showErrorBox: vi.fn() },
      shell: { openExternal: vi.fn(async () => {}) },
    },
  };
});
vi.mock('electron', () => fakes.electron);

const { runDesktopApp } = await import('../../../src/main/electron/desktop-app');
const { createConfSettingsStore } = await import('../../../src/main/settings/conf-settings-store');
const { silentLogger } = await import('../../../src/main/log');
const { ipcChannel, IPC_EVENT_CHANNEL, AGENT_OPERATIONS, UI_LANGUAGE_CHANNEL } = await import('../../../src/shared/agent-api');

const STATUS: AgentStatus = {
  team: 'Acme',
  environment: 'sandbox',
  state: 'ok',
  paused: false,
  lastPrintAt: null,
  lastError: null,
  queued: 0,
  failed: 0,
};

class FakeAgent {
  readonly events = new EventEmitter();
  readonly calls: string[] = [];
  options: Record<string, unknown> | null = null;
  readonly api = new Proxy({} as AgentApi, {
    get: (_target, op: string) => async (input: unknown) => {
      this.calls.push(`${op}:${JSON.stringify(input)}`);
      if (op === 'getStatus') return STATUS;
      if (op === 'setPaused') return { ...STATUS, paused: (input as { paused: boolean }).paused, state: 'paused' };
      if (op === 'listConfiguredPrinters') {
        const paused = this.calls.some((c) => c.startsWith('setPaused:{"paused":true,"printer"'));
        return [{ uri: 'cups:Zebra', roles: ['label'], paused }];
      }
      return null;
    },
  });
  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.events.on('event', listener);
    return () => this.events.off('event', listener);
  }
  emit(event: AgentEvent): void {
    this.events.emit('event', event);
  }
  async start(): Promise<void> {
    this.calls.push('start');
  }
  async stop(): Promise<void> {
    this.calls.push('stop');
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('runDesktopApp', () => {
  let dir: string;
  let agent: FakeAgent;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ps-desktop-'));
    fakes.app.removeAllListeners();
    Object.assign(fakes.app, {
      lock: true,
      quitCalls: 0,
      userData: join(dir, 'userData'),
      appPath: join(dir, 'app'),
      locale: 'en-US',
      preferred: ['en-US'],
    });
    fakes.handlers.clear();
    fakes.listeners.clear();
    fakes.FakeBrowserWindow.created.length = 0;
    fakes.FakeTray.created.length = 0;
    fakes.FakeNotification.shown.length = 0;
    agent = new FakeAgent();
    delete process.env.ELECTRON_RENDERER_URL;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function start(extra: { readonly demo?: DesktopAppOptions['demo'] } = {}): Promise<void> {
    await runDesktopApp({
      ...extra,
      createAgent: (options) => {
        agent.options = options as unknown as Record<string, unknown>;
        return agent;
      },
      logger: silentLogger,
      defaultApiUrl: 'http://127.0.0.1:9/external/v1',
      createSettings: async ({ apiUrl, logger }) => createConfSettingsStore({ dataDir: dir, apiUrl, logger }),
    });
    await tick();
  }

  it('quits at once when another instance holds the lock, without starting an agent', async () => {
    fakes.app.lock = false;
    await start();
    expect(fakes.app.quitCalls).toBe(1);
    expect(agent.calls).toEqual([]);
    expect(fakes.FakeBrowserWindow.created).toHaveLength(0);
  });

  it('starts the agent with the settings and key store, then shows tray and window', async () => {
    await start();
    expect(agent.options).toMatchObject({ dataDir: join(dir, 'userData') });
    expect(agent.options).toHaveProperty('settings');
    expect(agent.options).toHaveProperty('apiKeys');
    expect(agent.calls[0]).toBe('start');
    expect([...fakes.handlers.keys()].sort()).toEqual(AGENT_OPERATIONS.map(ipcChannel).sort());
    expect(fakes.FakeTray.created).toHaveLength(1);
    const tray = fakes.FakeTray.created[0]!;
    expect(tray.image).toBe(join(dir, 'app', 'build', 'tray', 'tray-ok.png'));
    expect(tray.menu.map((item) => item.label).filter(Boolean)[0]).toBe('Acme · sandbox · no prints yet');
    expect(fakes.FakeBrowserWindow.created).toHaveLength(1);
    const window = fakes.FakeBrowserWindow.created[0]!;
    expect(window.webContents.url).toBe(`file://${join(dir, 'app', 'out', 'renderer', 'index.html')}`);
    expect((window.options.webPreferences as Record<string, unknown>).preload).toBe(join(dir, 'app', 'out', 'preload', 'index.cjs'));
  });

  it('hands the agent the demo provider it was given (the first run\'s "Try the demo"), and none otherwise', async () => {
    const demo = { start: async () => ({ apiUrl: 'http://127.0.0.1:9/external/v1', apiKey: 'k' }), stop: async () => {} };
    await start({ demo });
    expect(agent.options?.['demo']).toBe(demo);
  });

  it('answers IPC from its window and drops it from any other webContents', async () => {
    await start();
    const window = fakes.FakeBrowserWindow.created[0]!;
    const handler = fakes.handlers.get(ipcChannel('getStatus'))!;
    const fromWindow = { sender: window.webContents, senderFrame: { url: window.webContents.url, parent: null } };
    expect(await handler(fromWindow, {})).toEqual({ ok: true, value: STATUS });
    const stranger = { sender: { id: 9999 }, senderFrame: { url: window.webContents.url, parent: null } };
    expect(await handler(stranger, {})).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
  });

  it('quits the app on SIGINT and SIGTERM with one listener each, however many times an app starts in the process', async () => {
    await start();
    const listeners = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
    for (let i = 0; i < 3; i++) await start();
    expect({ SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') }).toEqual(listeners);
    // The listener quits the app started last (the process's one app in Electron).
    const quit = process.listeners('SIGTERM').at(-1) as () => void;
    quit();
    expect(fakes.app.quitCalls).toBe(1);
  });

  it('a second launch focuses the existing window', async () => {
    await start();
    const window = fakes.FakeBrowserWindow.created[0]!;
    fakes.app.emit('second-instance');
    expect(fakes.FakeBrowserWindow.created).toHaveLength(1);
    expect(window.visible).toBe(true);
    expect(window.focused).toBe(1);
  });

  it('closing the window hides it; quitting from the tray stops the agent cleanly', async () => {
    await start();
    const window = fakes.FakeBrowserWindow.created[0]!;
    window.visible = true;
    let prevented = false;
    window.emit('close', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(true);
    expect(window.visible).toBe(false);
    expect(fakes.app.quitCalls).toBe(0);

    const tray = fakes.FakeTray.created[0]!;
    tray.menu.find((item) => item.id === 'quit')!.click!();
    expect(fakes.app.quitCalls).toBe(1);
    fakes.app.emit('before-quit');
    let quitPrevented = false;
    fakes.app.emit('will-quit', { preventDefault: () => void (quitPrevented = true) });
    expect(quitPrevented).toBe(true);
    await tick();
    expect(agent.calls).toContain('stop');
    expect(tray.destroyed).toBe(true);
    expect(fakes.handlers.size).toBe(0);
    expect(fakes.app.quitCalls).toBe(2);
    // The second will-quit (after shutdown) goes through.
    let again = false;
    fakes.app.emit('will-quit', { preventDefault: () => void (again = true) });
    expect(again).toBe(false);

    let closePrevented = false;
    window.emit('close', { preventDefault: () => void (closePrevented = true) });
    expect(closePrevented).toBe(false);
  });

  it('pause from the tray goes through the agent api and re-renders the tray', async () => {
    await start();
    const tray = fakes.FakeTray.created[0]!;
    tray.menu.find((item) => item.id === 'pause')!.click!();
    await tick();
    expect(agent.calls).toContain('setPaused:{"paused":true}');
    expect(tray.image).toBe(join(dir, 'app', 'build', 'tray', 'tray-paused.png'));
    expect(tray.menu.find((item) => item.id === 'pause')!.label).toBe('Resume auto-print');
  });

  it('pauses one printer from the Printers menu of the tray through the agent api, and the menu then offers Resume', async () => {
    await start();
    await tick();
    const tray = fakes.FakeTray.created[0]!;
    type Item = { id?: string; label?: string; click?: () => void; submenu?: Item[] };
    const printers = (): Item[] => (tray.menu as Item[]).find((item) => item.id === 'printers')!.submenu!;
    expect(printers().map((item) => item.label)).toEqual(['Pause cups:Zebra']);
    printers()[0]!.click!();
    await tick();
    await tick();
    expect(agent.calls).toContain('setPaused:{"paused":true,"printer":"cups:Zebra"}');
    expect(printers().map((item) => item.label)).toEqual(['Resume cups:Zebra']);
  });

  it('routes agent events to the tray, notifications and the window', async () => {
    await start();
    const window = fakes.FakeBrowserWindow.created[0]!;
    const tray = fakes.FakeTray.created[0]!;
    const offline: AgentEvent = { type: 'status', status: { ...STATUS, state: 'offline' } };
    agent.emit(offline);
    expect(tray.image).toBe(join(dir, 'app', 'build', 'tray', 'tray-offline.png'));
    agent.emit({ type: 'alert', shipmentId: 's1', title: 'Delivery exception', message: 'Address not found' });
    expect(fakes.FakeNotification.shown).toEqual([expect.objectContaining({ title: 'Delivery exception' })]);
    expect(window.webContents.sent.map(([channel]) => channel)).toEqual([IPC_EVENT_CHANNEL, IPC_EVENT_CHANNEL]);
    expect(window.webContents.sent[0]![1]).toEqual(offline);
  });

  describe("in the window's language", () => {
    type Item = { id?: string; label?: string; submenu?: Item[] };
    const labels = (menu: Item[]): string[] =>
      menu.flatMap((item) => [item.label ?? '', ...(item.submenu ?? []).map((sub) => sub.label ?? '')]).filter(Boolean);
    const failedJob = (id: string): AgentEvent => ({
      type: 'job',
      job: {
        id,
        shipmentId: 'shp_1',
        reference: 'ORDER-1',
        trackingId: null,
        documentType: 'waybill',
        layout: 'printer',
        target: 'cups:Zebra',
        copies: 1,
        trigger: 'webhook',
        state: 'failed',
        reason: 'paper out',
        requestId: 'req-7',
        attempts: 1,
        spoolerJobId: null,
        createdAt: '2026-11-24T09:00:00.000Z',
        updatedAt: '2026-11-24T09:00:01.000Z',
      },
    });
    async function say(language: unknown, from: 'window' | 'stranger' = 'window'): Promise<void> {
      const window = fakes.FakeBrowserWindow.created[0]!;
      const sender = from === 'window' ? window.webContents : { id: 9999 };
      fakes.listeners.get(UI_LANGUAGE_CHANNEL)!({ sender, senderFrame: { url: window.webContents.url, parent: null } }, { language });
      await tick();
    }

    it('speaks English by default, then Swedish and Finnish once the window says so', async () => {
      await start();
      await tick();
      const tray = fakes.FakeTray.created[0]!;
      expect(labels(tray.menu)).toEqual([
        'Acme · sandbox · no prints yet',
        'Pause auto-print',
        'Printers',
        'Pause cups:Zebra',
        'Open Print Station',
        'Print test label',
        'Quit Print Station',
      ]);
      expect(tray.toolTip).toBe('Print Station — printing automatically');

      await say('sv');
      expect(labels(tray.menu)).toEqual([
        'Acme · sandbox · inga utskrifter än',
        'Pausa automatisk utskrift',
        'Skrivare',
        'Pausa cups:Zebra',
        'Öppna Print Station',
        'Skriv ut testetikett',
        'Avsluta Print Station',
      ]);
      expect(tray.toolTip).toBe('Print Station — skriver ut automatiskt');
      agent.emit(failedJob('j1'));
      expect(fakes.FakeNotification.shown.at(-1)).toEqual({
        title: 'Utskriften misslyckades: fraktsedel för ORDER-1',
        body: 'paper out (förfrågnings-id req-7)',
        silent: false,
        urgency: 'critical',
      });

      await say('fi');
      expect(labels(tray.menu)).toEqual([
        'Acme · sandbox · ei vielä tulosteita',
        'Keskeytä automaattinen tulostus',
        'Tulostimet',
        'Keskeytä cups:Zebra',
        'Avaa Print Station',
        'Tulosta testitarra',
        'Sulje Print Station',
      ]);
      expect(tray.toolTip).toBe('Print Station — tulostaa automaattisesti');
      agent.emit(failedJob('j2'));
      expect(fakes.FakeNotification.shown.at(-1)).toMatchObject({ title: 'Tulostus epäonnistui: rahtikirja, ORDER-1' });
    });

    it('ignores a language from another webContents, and one that is none of the five', async () => {
      await start();
      const tray = fakes.FakeTray.created[0]!;
      await say('sv', 'stranger');
      await say('de');
      await say('<script>');
      expect(tray.menu.find((item) => item.id === 'open')!.label).toBe('Open Print Station');
    });

    it("starts in the system's language before the window says any (Finnish Windows)", async () => {
      Object.assign(fakes.app, { locale: 'fi', preferred: ['de-DE', 'fi-FI'] });
      await start();
      const tray = fakes.FakeTray.created[0]!;
      expect(tray.menu.find((item) => item.id === 'quit')!.label).toBe('Sulje Print Station');
      await say('en');
      expect(tray.menu.find((item) => item.id === 'quit')!.label).toBe('Quit Print Station');
    });
  });
});
