/**
 * The main window and the web-contents hardening. Electron security checklist
 * (https://www.electronjs.org/docs/latest/tutorial/security), item by item:
 *  1. Only load secure content: the window loads only the bundled renderer (file://
 *     under out/renderer) or, in development, the local dev server.
 *  2. No Node.js integration for web content: nodeIntegration (and in workers and
 *     subframes) false.
 *  3. Context isolation: contextIsolation true; the preload exposes functions only.
 *  4. Process sandboxing: sandbox true (the preload is CommonJS for that reason).
 *  5. Permission requests: every request and check is denied (the UI needs none).
 *  6. webSecurity stays true.
 *  7. Content-Security-Policy: set on every response via session.webRequest (url-policy.ts).
 *  8. allowRunningInsecureContent false.
 *  9. experimentalFeatures false.
 * 10. No enableBlinkFeatures.
 * 11./12. <webview>: webviewTag false, and will-attach-webview is refused anyway.
 * 13. Navigation: will-navigate / will-redirect / will-frame-navigate are cancelled
 *     unless the target is the app itself.
 * 14. New windows: setWindowOpenHandler denies all; http(s) links open in the browser.
 * 15. shell.openExternal only for validated http(s) URLs (isSafeExternalUrl).
 * 16. Current Electron: 41.x (package.json).
 * 17. IPC sender validation: ipc.ts (known webContents and frame URL allowlist).
 * 18. file:// vs a custom protocol: the renderer is loaded from file://; the IPC
 *     allowlist and the navigation policy pin it to out/renderer, and the fuses
 *     (electron-builder.yml) only load the app from the integrity-checked asar.
 * 19. Fuses: electron-builder.yml electronFuses (runAsNode off, no NODE_OPTIONS, no
 *     inspect arguments, onlyLoadAppFromAsar, asar integrity validation).
 * 20. No Electron APIs exposed to web content: src/preload exposes one function per
 *     AgentApi operation and onEvent, never ipcRenderer.
 * The remote module no longer exists in Electron (removed in 14), so there is nothing to disable.
 */
import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import type { Logger } from '../log';
import { contentSecurityPolicy, isSafeExternalUrl, type AppUrlPolicy } from './url-policy';

export interface MainWindowOptions {
  /** Absolute path of the built preload (out/preload/index.cjs). */
  readonly preloadPath: string;
  /** What to load: the dev server URL, or the built index.html. */
  readonly load: { readonly url: string } | { readonly file: string };
  readonly policy: AppUrlPolicy;
  readonly logger: Logger;
  /** Closing hides the window to the tray unless this returns true (quit from the tray menu). */
  readonly isQuitting: () => boolean;
  /** Dev server URL, widens the CSP's connect-src for hot reload. @default undefined */
  readonly devServerUrl?: string;
  /** Window icon (Linux/Windows). @default undefined */
  readonly icon?: string;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: 'Print Station',
    autoHideMenuBar: true,
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
    },
  });

  hardenWebContents(window.webContents, options.policy, options.logger);
  window.once('ready-to-show', () => window.show());
  window.on('close', (event) => {
    if (options.isQuitting()) return;
    // The agent keeps printing in the background: closing only hides to the tray.
    event.preventDefault();
    window.hide();
  });

  const loading = 'url' in options.load ? window.loadURL(options.load.url) : window.loadFile(options.load.file);
  loading.catch((error: unknown) =>
    options.logger.error(`window: cannot load the UI: ${error instanceof Error ? error.message : String(error)}`),
  );
  return window;
}

/** Navigation, new windows, webviews: everything that could take the UI away from the app is refused. */
export function hardenWebContents(contents: WebContents, policy: AppUrlPolicy, logger: Logger): void {
  const guard = (event: { preventDefault(): void }, url: string): void => {
    if (policy.isAppUrl(url)) return;
    event.preventDefault();
    logger.warn(`window: blocked navigation to ${describeUrl(url)}`);
  };
  contents.on('will-navigate', (event, url) => guard(event, url));
  contents.on('will-redirect', (event, url) => guard(event, url));
  contents.on('will-frame-navigate', (event) => guard(event, event.url));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    logger.warn('window: blocked a <webview>');
  });
  contents.setWindowOpenHandler(({ url }) => {
    // Tracking links open in the user's browser; nothing ever opens inside the app.
    openExternalSafely(url, logger);
    return { action: 'deny' };
  });
}

/** Opens http(s) links (carrier tracking pages) in the default browser; refuses everything else. */
export function openExternalSafely(url: string, logger: Logger): boolean {
  if (!isSafeExternalUrl(url)) {
    logger.warn(`window: refused to open ${describeUrl(url)} outside the app`);
    return false;
  }
  shell
    .openExternal(url)
    .catch((error: unknown) => logger.warn(`window: cannot open a link: ${error instanceof Error ? error.message : String(error)}`));
  return true;
}

/** Session-wide: a strict CSP on every response and no permissions (camera, notifications from web, ...). */
export function hardenSession(session: Session, devServerUrl?: string): void {
  const csp = contentSecurityPolicy(devServerUrl);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

function describeUrl(url: string): string {
  // Only scheme and host: a URL may carry tokens in its query.
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'file:' ? 'a local file' : `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'an invalid URL';
  }
}
