/**
 * Staged auto-update with electron-updater against the generic provider (a plain HTTPS
 * folder holding latest.yml and the installers, electron-builder.yml `publish`): check,
 * download in the background, then restart into the new version only when the print queue
 * is empty, so a station never restarts mid-print. electron-updater checks each download
 * against the sha512 in latest.yml, and on Windows that the installer is signed by the
 * same publisher as the running app (when the app is signed).
 */
import { trayWord, type UiLanguage } from '../../shared/tray-words';
import type { AgentApi } from '../../shared/agent-api';
import type { Logger } from '../log';
import type { NotificationLike } from './notifications';

/** The part of electron-updater's AppUpdater this uses (its `autoUpdater`). */
export interface UpdaterPort {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string; channel?: string }): void;
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-available' | 'update-not-available' | 'update-downloaded' | 'error', listener: (arg: unknown) => void): unknown;
}

export type UpdatePhase = 'disabled' | 'idle' | 'checking' | 'downloading' | 'downloaded' | 'waiting-for-queue' | 'installing';

export interface UpdateState {
  readonly phase: UpdatePhase;
  /** The version being downloaded or ready. */
  readonly version: string | null;
  /** The last check or download failure, in words. */
  readonly error: string | null;
}

export interface UpdateControllerOptions {
  readonly updater: UpdaterPort;
  /**
   * The update folder. null: the URL electron-builder baked into the app (app-update.yml,
   * from PRINT_STATION_UPDATE_URL at build time). Must be https (http only for localhost).
   */
  readonly feedUrl: string | null;
  /** False outside a packaged app (electron-updater has no app-update.yml there). */
  readonly enabled: boolean;
  /** True when nothing is queued, being fetched or being spooled (a restart then loses no print). */
  readonly isQueueEmpty: () => Promise<boolean>;
  readonly logger: Logger;
  /** @default 4 hours */
  readonly checkIntervalMs?: number;
  /** How often the queue is looked at while an update waits for it to empty. @default 15000 */
  readonly queuePollMs?: number;
  /**
   * Restart on its own once downloaded and the queue has stayed empty for `quietPolls`
   * looks in a row (an unattended station); false: only when restartWhenIdle() is called
   * ("restart to update"). @default true
   */
  readonly installWhenIdle?: boolean;
  /** Consecutive empty-queue looks before an automatic restart (not between two labels of a burst). @default 2 */
  readonly quietPolls?: number;
  readonly onChange?: (state: UpdateState) => void;
}

/** The feed URL if it is one electron-updater may use; throws with what to fix. */
export function checkFeedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`the update URL "${url}" is not a URL: set PRINT_STATION_UPDATE_URL to the https folder holding latest.yml`);
  }
  const local = parsed.hostname === 'localhost' || parsed.hostname === '127.0.0.1' || parsed.hostname === '[::1]';
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && local)) {
    throw new Error(`the update URL must be https (got ${parsed.protocol}//${parsed.host}): updates are code that runs on the station`);
  }
  return url;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class UpdateController {
  private readonly o: UpdateControllerOptions;
  private state: UpdateState = { phase: 'idle', version: null, error: null };
  private checkTimer: NodeJS.Timeout | null = null;
  private queueTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private quiet = 0;
  /** A wait for the queue to empty is running (one at a time). */
  private waiting = false;
  /** restartWhenIdle() was asked for: restart at the first empty look. */
  private requested = false;

  constructor(options: UpdateControllerOptions) {
    this.o = options;
  }

  get current(): UpdateState {
    return this.state;
  }

  /** Wires the updater and checks now and every checkIntervalMs. */
  start(): void {
    const { updater, logger } = this.o;
    if (!this.o.enabled) {
      this.set({ phase: 'disabled' });
      return;
    }
    if (this.o.feedUrl) {
      try {
        updater.setFeedURL({ provider: 'generic', url: checkFeedUrl(this.o.feedUrl) });
      } catch (error) {
        logger.error(`update: ${messageOf(error)}; updates are off`);
        this.set({ phase: 'disabled', error: messageOf(error) });
        return;
      }
    }
    // Downloads are started here, after a check found one, so the phase is always known;
    // installing on quit is fine: quitting already lets the current print finish.
    updater.autoDownload = false;
    updater.autoInstallOnAppQuit = true;
    updater.on('update-available', (info) => this.onAvailable(info));
    updater.on('update-not-available', () => {
      if (this.state.phase === 'checking') this.set({ phase: 'idle', error: null });
    });
    updater.on('update-downloaded', (info) => this.onDownloaded(info));
    updater.on('error', (error) => this.onError(error));
    void this.check();
    const every = this.o.checkIntervalMs ?? 4 * 60 * 60 * 1000;
    this.checkTimer = setInterval(() => void this.check(), every);
    this.checkTimer.unref?.();
  }

  /** Looks for an update unless one is already on its way or waiting. */
  async check(): Promise<void> {
    if (this.stopped || this.state.phase !== 'idle') return;
    this.set({ phase: 'checking', error: null });
    try {
      await this.o.updater.checkForUpdates();
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * "Restart to update": restarts into the downloaded version as soon as the queue is
   * empty (at once if it is). False when no update is downloaded.
   */
  restartWhenIdle(): boolean {
    if (this.state.phase !== 'downloaded' && this.state.phase !== 'waiting-for-queue') return false;
    this.requested = true;
    this.waitForQueue();
    return true;
  }

  stop(): void {
    this.stopped = true;
    if (this.checkTimer) clearInterval(this.checkTimer);
    if (this.queueTimer) clearTimeout(this.queueTimer);
    this.checkTimer = null;
    this.queueTimer = null;
  }

  private onAvailable(info: unknown): void {
    const version = (info as { version?: string } | null)?.version ?? null;
    this.o.logger.info(`update: ${version ?? 'a new version'} is available; downloading in the background`);
    this.set({ phase: 'downloading', version, error: null });
    this.o.updater.downloadUpdate().catch((error: unknown) => this.onError(error));
  }

  private onDownloaded(info: unknown): void {
    const version = (info as { version?: string } | null)?.version ?? this.state.version;
    this.o.logger.info(`update: ${version ?? 'the new version'} is downloaded (sha512 checked); it installs when the print queue is empty`);
    this.set({ phase: 'downloaded', version, error: null });
    if (this.o.installWhenIdle ?? true) this.waitForQueue();
  }

  private onError(error: unknown): void {
    const said = messageOf(error);
    this.o.logger.warn(`update: ${said}`);
    // A failed check or download is tried again at the next check; a downloaded update stays.
    if (this.state.phase === 'checking' || this.state.phase === 'downloading') this.set({ phase: 'idle', error: said });
    else this.set({ error: said });
  }

  private waitForQueue(): void {
    if (this.stopped || this.waiting || this.state.phase === 'installing') return;
    this.waiting = true;
    this.set({ phase: 'waiting-for-queue' });
    const look = async (): Promise<void> => {
      this.queueTimer = null;
      if (this.stopped) return;
      let empty = false;
      try {
        empty = await this.o.isQueueEmpty();
      } catch (error) {
        this.o.logger.warn(`update: cannot see the print queue (${messageOf(error)}); waiting`);
      }
      this.quiet = empty ? this.quiet + 1 : 0;
      if (empty && (this.requested || this.quiet >= (this.o.quietPolls ?? 2))) {
        this.waiting = false;
        this.install();
        return;
      }
      this.queueTimer = setTimeout(() => void look(), this.o.queuePollMs ?? 15_000);
      this.queueTimer.unref?.();
    };
    void look();
  }

  private install(): void {
    this.set({ phase: 'installing' });
    this.o.logger.info(`update: the print queue is empty; restarting into ${this.state.version ?? 'the new version'}`);
    // Silent (no installer wizard on an unattended station), and the app starts again after.
    this.o.updater.quitAndInstall(true, true);
  }

  private set(patch: Partial<UpdateState>): void {
    this.state = { ...this.state, ...patch };
    this.o.onChange?.(this.state);
  }
}

/**
 * The queue is empty when the agent counts nothing queued, being fetched or being spooled
 * (AgentStatus.queued); a job already at the spooler prints there whatever the app does.
 */
export function queueEmptyFrom(api: Pick<AgentApi, 'getStatus'>): () => Promise<boolean> {
  return async () => (await api.getStatus({})).queued === 0;
}

/**
 * Says once per version that an update is ready; clicking the notification is "restart to
 * update" (which still waits for the queue to empty).
 */
export function notifyWhenReady(
  createNotification: (options: { title: string; body: string }) => NotificationLike,
  isSupported: () => boolean,
  restartWhenIdle: () => boolean,
  /** The window's language when the notification shows. @default () => 'en' */
  language: () => UiLanguage = () => 'en',
): (state: UpdateState) => void {
  let told: string | null | undefined;
  return (state) => {
    if (state.phase !== 'downloaded' || state.version === told || !isSupported()) return;
    told = state.version;
    const version = state.version ? ` ${state.version}` : '';
    const ready = createNotification({
      title: trayWord(language(), 'notify.updateReady'),
      body: trayWord(language(), 'notify.updateBody', { version }),
    });
    ready.on('click', () => void restartWhenIdle());
    ready.show();
  };
}

/** What the desktop app passes to start updates (see startDesktopUpdates). */
export interface DesktopUpdatesOptions {
  readonly isPackaged: boolean;
  readonly isQueueEmpty: () => Promise<boolean>;
  readonly logger: Logger;
  /** PRINT_STATION_UPDATE_URL (the update folder) and PRINT_STATION_UPDATE_RESTART (`idle`, default, or `prompt`). */
  readonly env: NodeJS.ProcessEnv;
  readonly onChange?: (state: UpdateState) => void;
  /** @default electron-updater's autoUpdater */
  readonly updater?: UpdaterPort;
}

/** electron-updater's autoUpdater (a CommonJS module that imports electron, so loaded only here). */
export async function loadAutoUpdater(): Promise<UpdaterPort> {
  const mod = (await import('electron-updater')) as unknown as { autoUpdater?: UpdaterPort; default?: { autoUpdater: UpdaterPort } };
  return (mod.autoUpdater ?? mod.default?.autoUpdater) as UpdaterPort;
}

/**
 * Starts staged updates for the desktop app: off outside a packaged app; the feed from
 * PRINT_STATION_UPDATE_URL when set (else the URL built into the app); a downloaded update
 * installs once the print queue is empty, unless PRINT_STATION_UPDATE_RESTART=prompt, when
 * it waits for "restart to update" (restartWhenIdle).
 */
export async function startDesktopUpdates(options: DesktopUpdatesOptions): Promise<UpdateController> {
  const restart = options.env.PRINT_STATION_UPDATE_RESTART ?? 'idle';
  if (restart !== 'idle' && restart !== 'prompt') {
    options.logger.warn(`update: PRINT_STATION_UPDATE_RESTART must be idle or prompt, got "${restart}"; using idle`);
  }
  const controller = new UpdateController({
    updater: options.updater ?? (options.isPackaged ? await loadAutoUpdater() : inertUpdater()),
    feedUrl: options.env.PRINT_STATION_UPDATE_URL?.trim() || null,
    enabled: options.isPackaged,
    isQueueEmpty: options.isQueueEmpty,
    logger: options.logger,
    installWhenIdle: restart !== 'prompt',
    ...(options.onChange ? { onChange: options.onChange } : {}),
  });
  controller.start();
  return controller;
}

/** Stands in outside a packaged app, where the controller is disabled and never calls it. */
function inertUpdater(): UpdaterPort {
  const never = (): never => {
    throw new Error('updates are off outside a packaged app');
  };
  return {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    setFeedURL: never,
    checkForUpdates: never,
    downloadUpdate: never,
    quitAndInstall: never,
    on: () => undefined,
  };
}
