import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// No Electron binary: BrowserWindow, its webContents and shell are mocked and record
// what the app asks of them.
const electron = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- vi.hoisted runs before the imports are bound
  const { EventEmitter: Emitter } = require('node:events') as typeof import('node:events');
  class FakeWebContents extends Emitter {
    windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
      this.windowOpenHandler = handler;
    }
  }
  class FakeBrowserWindow extends Emitter {
    static created: FakeBrowserWindow[] = [];
    readonly webContents = new FakeWebContents();
    hidden = false;
    shown = false;
    loaded: { url?: string; file?: string } | null = null;
    constructor(readonly options: Record<string, unknown>) {
      super();
      FakeBrowserWindow.created.push(this);
    }
    hide(): void {
      this.hidden = true;
    }
    show(): void {
      this.shown = true;
    }
    loadURL(url: string): Promise<void> {
      this.loaded = { url };
      return Promise.resolve();
    }
    loadFile(file: string): Promise<void> {
      this.loaded = { file };
      return Promise.resolve();
    }
  }
  return { FakeBrowserWindow, shell: { openExternal: vi.fn(async (_url: string) => {}) } };
});
vi.mock('electron', () => ({ BrowserWindow: electron.FakeBrowserWindow, shell: electron.shell }));

const { createMainWindow, hardenSession, openExternalSafely } = await import('../../../src/main/electron/window');
const { createAppUrlPolicy, contentSecurityPolicy, isSafeExternalUrl } = await import('../../../src/main/electron/url-policy');
const { silentLogger } = await import('../../../src/main/log');

type FakeWindow = InstanceType<typeof electron.FakeBrowserWindow>;
const RENDERER_DIR = join(tmpdir(), 'ps-app', 'out', 'renderer');
const APP_URL = `file://${RENDERER_DIR}/index.html`;

function open(quitting = false): FakeWindow {
  createMainWindow({
    preloadPath: '/app/out/preload/index.cjs',
    load: { file: join(RENDERER_DIR, 'index.html') },
    policy: createAppUrlPolicy({ rendererDir: RENDERER_DIR }),
    logger: silentLogger,
    isQuitting: () => quitting,
  });
  return electron.FakeBrowserWindow.created.at(-1)!;
}

function navigate(window: FakeWindow, name: string, url: string): boolean {
  let prevented = false;
  const event = { preventDefault: () => void (prevented = true), url };
  window.webContents.emit(name, event, url);
  return prevented;
}

describe('createMainWindow', () => {
  beforeEach(() => {
    electron.FakeBrowserWindow.created.length = 0;
    electron.shell.openExternal.mockClear();
  });

  it('passes webPreferences that satisfy the Electron security checklist', () => {
    const window = open();
    const prefs = window.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs).not.toHaveProperty('enableRemoteModule');
    expect(window.loaded).toEqual({ file: join(RENDERER_DIR, 'index.html') });
  });

  it('blocks navigation away from the app but allows the app itself', () => {
    const window = open();
    expect(navigate(window, 'will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate(window, 'will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate(window, 'will-redirect', 'http://127.0.0.1:9/phish')).toBe(true);
    expect(navigate(window, 'will-frame-navigate', 'https://evil.example/frame')).toBe(true);
    expect(navigate(window, 'will-navigate', `${APP_URL}#settings`)).toBe(false);
  });

  it('refuses webviews', () => {
    const window = open();
    expect(navigate(window, 'will-attach-webview', APP_URL)).toBe(true);
  });

  it('denies every window.open and opens only http(s) links in the browser', () => {
    const window = open();
    const handler = window.webContents.windowOpenHandler!;
    expect(handler({ url: 'https://carrier.example/track?id=123' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://carrier.example/track?id=123');
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://user:pw@evil.example/', APP_URL]) {
      expect(handler({ url })).toEqual({ action: 'deny' });
    }
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('hides to the tray on close unless quitting', () => {
    const window = open();
    let prevented = false;
    window.emit('close', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(true);
    expect(window.hidden).toBe(true);

    const quitting = open(true);
    let preventedOnQuit = false;
    quitting.emit('close', { preventDefault: () => void (preventedOnQuit = true) });
    expect(preventedOnQuit).toBe(false);
    expect(quitting.hidden).toBe(false);
  });

  it('shows the window once it is ready', () => {
    const window = open();
    expect(window.shown).toBe(false);
    window.emit('ready-to-show');
    expect(window.shown).toBe(true);
  });
});

describe('openExternalSafely / isSafeExternalUrl', () => {
  it('accepts only http(s) URLs with a host and no credentials', () => {
    expect(isSafeExternalUrl('https://tracking.example/abc')).toBe(true);
    expect(isSafeExternalUrl('http://tracking.example/abc')).toBe(true);
    expect(isSafeExternalUrl('file:///C:/Windows/system32/calc.exe')).toBe(false);
    expect(isSafeExternalUrl('ms-msdt:/id PCWDiagnostic')).toBe(false);
    expect(isSafeExternalUrl('https://a:b@evil.example/')).toBe(false);
    expect(isSafeExternalUrl('not a url')).toBe(false);
    expect(openExternalSafely('javascript:alert(1)', silentLogger)).toBe(false);
  });
});

describe('hardenSession', () => {
  it('adds a strict CSP to every response and denies all permissions', () => {
    let onHeaders: ((details: { responseHeaders?: Record<string, string[]> }, cb: (r: unknown) => void) => void) | null = null;
    let onRequest: ((c: unknown, p: string, cb: (granted: boolean) => void) => void) | null = null;
    let onCheck: (() => boolean) | null = null;
    const session = {
      webRequest: { onHeadersReceived: (listener: typeof onHeaders) => void (onHeaders = listener) },
      setPermissionRequestHandler: (handler: typeof onRequest) => void (onRequest = handler),
      setPermissionCheckHandler: (handler: typeof onCheck) => void (onCheck = handler),
    };
    hardenSession(session as never);
    let response: { responseHeaders: Record<string, string[]> } | null = null;
    onHeaders!({ responseHeaders: { 'content-type': ['text/html'] } }, (r) => void (response = r as never));
    const csp = response!.responseHeaders['Content-Security-Policy']![0]!;
    expect(response!.responseHeaders['content-type']).toEqual(['text/html']);
    expect(csp).toBe(contentSecurityPolicy());
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const granted: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal']) onRequest!({}, permission, (g) => granted.push(g));
    expect(granted).toEqual([false, false, false, false]);
    expect(onCheck!()).toBe(false);
  });
});
