/**
 * The desktop app's lifecycle, kept thin: it stores settings and the encrypted key,
 * creates the same agent the headless mode runs, and connects it to a tray, native
 * notifications and one window over IPC. Everything the UI does goes through AgentApi.
 */
import { join } from 'node:path';
import { BrowserWindow, Menu, Notification, Tray, app, dialog, ipcMain, safeStorage, session } from 'electron';
import type { AgentApi, AgentEvent } from '../../shared/agent-api';
import type { DemoConnectionProvider } from '../api/session-connection';
import { createLogger, type Logger } from '../log';
import { createLogFile } from '../log-file';
import { EncryptedApiKeyStore, type ApiKeyStore } from '../settings/api-key-store';
import type { SettingsStore } from '../settings/settings-store';
import { createElectronStoreSettings } from './electron-store-settings';
import { forwardAgentEvents, registerAgentIpc, registerUiLanguage, trustedSenderCheck } from './ipc';
import { AgentNotifier } from './notifications';
import { SafeStorageSecretBox } from './safe-storage-secret-box';
import { TRAY_ICON_STATES, TrayController, type TrayIconState } from './tray';
import { systemUiLanguage } from './ui-language';
import { trayWord, type UiLanguage } from '../../shared/tray-words';
import { createAppUrlPolicy } from './url-policy';
import { notifyWhenReady, queueEmptyFrom, startDesktopUpdates } from './updater';
import { createMainWindow, hardenSession } from './window';

/** What the desktop app hands to the agent factory (src/main/agent/create-agent.ts). */
export interface DesktopAgentOptions {
  /** Where the ledger lives (the app's userData folder). */
  readonly dataDir: string;
  readonly settings: SettingsStore;
  /** The key, encrypted with safeStorage; saveSettings({apiKey}) stores it here and read() decrypts it. */
  readonly apiKeys: ApiKeyStore;
  readonly log: Logger;
  /** What the first-run "Try the demo" connects to. */
  readonly demo?: DemoConnectionProvider;
}

/** The agent as the shell uses it (the shape createAgent returns). */
export interface AgentHandle {
  readonly api: AgentApi;
  subscribe(listener: (event: AgentEvent) => void): () => void;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

export interface DesktopAppOptions {
  readonly createAgent: (options: DesktopAgentOptions) => AgentHandle | Promise<AgentHandle>;
  readonly logger: Logger;
  /** Service base URL until the user picks one. */
  readonly defaultApiUrl: string;
  /** How long a clean shutdown may take before the app exits anyway. @default 10_000 */
  readonly shutdownTimeoutMs?: number;
  /** Where settings live. @default electron-store in the userData folder (createElectronStoreSettings) */
  readonly createSettings?: (options: { readonly apiUrl: string; readonly logger: Logger }) => Promise<SettingsStore>;
  /** What the first-run "Try the demo" connects to (main.ts: src/main/demo). @default none: the demo refuses to start */
  readonly demo?: DemoConnectionProvider;
}

/**
 * The app's logger: stderr, and the rotating file in `<userData>/logs` (src/main/log-file.ts)
 * where the diagnostics bundle reads its last lines. userData is known before app ready.
 */
export function createDesktopLogger(userDataDir: string = app.getPath('userData')): Logger {
  return createLogger({ sink: createLogFile({ dir: join(userDataDir, 'logs') }).write });
}

export async function runDesktopApp(options: DesktopAppOptions): Promise<void> {
  const { logger } = options;
  // One agent per machine user: a second copy would print every label twice.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  let quitting = false;
  let window: BrowserWindow | null = null;
  let cleanup: (() => Promise<void>) | null = null;
  let stopped = false;

  app.on('second-instance', () => showWindow());
  app.on('before-quit', () => {
    quitting = true;
  });
  // Windows only hide; the app lives in the tray until Quit.
  app.on('window-all-closed', () => {});
  app.on('activate', () => showWindow());
  app.on('will-quit', (event) => {
    if (stopped || !cleanup) return;
    event.preventDefault();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, options.shutdownTimeoutMs ?? 10_000).unref());
    void Promise.race([cleanup(), timeout])
      .catch((error: unknown) => logger.error(`app: shutdown failed: ${message(error)}`))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
  quitOnSignals(app);

  await app.whenReady();

  const appPath = app.getAppPath();
  const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
  const rendererDir = join(appPath, 'out', 'renderer');
  const policy = createAppUrlPolicy({ rendererDir, ...(devServerUrl ? { devServerUrl } : {}) });
  hardenSession(session.defaultSession, devServerUrl);

  const settings = await (options.createSettings ?? createElectronStoreSettings)({ apiUrl: options.defaultApiUrl, logger });
  const apiKeys = new EncryptedApiKeyStore({ settings, box: new SafeStorageSecretBox({ safeStorage }), logger });

  let agent: AgentHandle;
  try {
    agent = await options.createAgent({ dataDir: app.getPath('userData'), settings, apiKeys, log: logger, demo: options.demo });
    await agent.start();
  } catch (error) {
    logger.error(`app: the agent cannot start: ${message(error)}`);
    dialog.showErrorBox('Print Station cannot start', message(error));
    stopped = true;
    app.quit();
    return;
  }

  const isTrustedSender = trustedSenderCheck({
    knownWebContentsIds: () => (window && !window.isDestroyed() ? [window.webContents.id] : []),
    policy,
  });
  const ipc = registerAgentIpc({ ipcMain, api: agent.api, isTrustedSender, logger });
  // The system's language until the window says which it shows (at start and on every change).
  let uiLanguage: UiLanguage = systemUiLanguage(app);
  const stopForwarding = forwardAgentEvents({
    subscribe: (listener) => agent.subscribe(listener),
    targets: () => (window && !window.isDestroyed() ? [window.webContents] : []),
    policy,
  });

  const tray = new TrayController({
    createTray: (icon) => new Tray(icon),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    icons: trayIcons(app.isPackaged ? join(process.resourcesPath, 'tray') : join(appPath, 'build', 'tray')),
    actions: {
      setPaused: (paused) => {
        agent.api.setPaused({ paused }).then(
          (status) => tray.render(status),
          (error: unknown) => logger.error(`tray: ${message(error)}`),
        );
      },
      setPrinterPaused: (printer, paused) => {
        agent.api
          .setPaused({ paused, printer })
          .then(() => refreshTrayPrinters())
          .catch((error: unknown) => logger.error(`tray: ${message(error)}`));
      },
      openWindow: () => showWindow(),
      printTestLabel: () => {
        const printer = settings.get().routing.labelPrinter;
        agent.api.testPrint({ printer }).catch((error: unknown) =>
          notifier.handle({
            type: 'alert',
            shipmentId: '',
            title: trayWord(uiLanguage, 'tray.testPrintFailed'),
            message: message(error),
          }),
        );
      },
      quit: () => {
        quitting = true;
        app.quit();
      },
    },
    language: uiLanguage,
    ...(process.platform === 'darwin' || process.platform === 'win32'
      ? {
          loginItem: {
            get: () => app.getLoginItemSettings().openAtLogin,
            set: (openAtLogin: boolean) => app.setLoginItemSettings({ openAtLogin, openAsHidden: true }),
          },
        }
      : {}),
  });

  const notifier = new AgentNotifier({
    createNotification: (notificationOptions) => new Notification(notificationOptions),
    isSupported: () => Notification.isSupported(),
    onClick: () => showWindow(),
    language: uiLanguage,
  });
  const uiLanguageIpc = registerUiLanguage({
    ipcMain,
    isTrustedSender,
    logger,
    onLanguage: (language) => {
      uiLanguage = language;
      tray.setLanguage(language);
      notifier.setLanguage(language);
    },
  });
  const stopEvents = agent.subscribe((event) => {
    notifier.handle(event);
    if (event.type === 'status') {
      tray.render(event.status);
      // A pause from the window (one printer, or all) arrives as a status event: the menu follows.
      refreshTrayPrinters();
    }
  });
  const refreshTray = (): void => {
    agent.api.getStatus({}).then(
      (status) => tray.render(status),
      (error: unknown) => logger.error(`tray: ${message(error)}`),
    );
  };
  const refreshTrayPrinters = (): void => {
    agent.api
      .listConfiguredPrinters({})
      .then((printers) => tray.setPrinters(printers))
      .catch((error: unknown) => logger.error(`tray: ${message(error)}`));
  };
  refreshTray();
  refreshTrayPrinters();
  // A failure's 'error' ends after a while without any event: look again every minute.
  const trayRefresh = setInterval(refreshTray, 60_000);
  trayRefresh.unref();

  // Staged updates (updater.ts): the restart waits until nothing is queued, fetched or spooled.
  const updates = await startDesktopUpdates({
    isPackaged: app.isPackaged,
    isQueueEmpty: queueEmptyFrom(agent.api),
    logger,
    env: process.env,
    onChange: notifyWhenReady(
      (o) => new Notification(o),
      () => Notification.isSupported(),
      () => updates.restartWhenIdle(),
      () => uiLanguage,
    ),
  });

  cleanup = async () => {
    updates.stop();
    clearInterval(trayRefresh);
    stopEvents();
    stopForwarding();
    ipc.dispose();
    uiLanguageIpc.dispose();
    notifier.dispose();
    tray.destroy();
    await agent.stop();
  };

  // Started at login: stay in the tray; otherwise show the window.
  if (!app.getLoginItemSettings().wasOpenedAsHidden) showWindow();

  function showWindow(): void {
    if (!window || window.isDestroyed()) {
      window = createMainWindow({
        preloadPath: join(appPath, 'out', 'preload', 'index.cjs'),
        load: devServerUrl ? { url: devServerUrl } : { file: join(rendererDir, 'index.html') },
        policy,
        logger,
        isQuitting: () => quitting,
        ...(devServerUrl ? { devServerUrl } : {}),
      });
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }
}

function trayIcons(dir: string): Record<TrayIconState, string> {
  return Object.fromEntries(TRAY_ICON_STATES.map((state) => [state, join(dir, `tray-${state}.png`)])) as Record<TrayIconState, string>;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The app a SIGINT or SIGTERM quits (stopping its agent cleanly); null before the first start. */
let appQuitBySignal: { quit(): void } | null = null;

/**
 * One listener per signal for the process, however many apps it starts (one in Electron, many
 * in tests): a listener per start piled up on `process`. `once`: a second signal while the
 * shutdown hangs ends the process the default way.
 */
function quitOnSignals(app: { quit(): void }): void {
  if (appQuitBySignal === null) for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => appQuitBySignal?.quit());
  appQuitBySignal = app;
}
