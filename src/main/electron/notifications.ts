/**
 * Native notifications for failed print jobs and tracking alerts. A printer that jams
 * during a burst fails dozens of jobs in seconds: a sliding-window limit shows the first
 * few and folds the rest into one summary, so the desktop is never flooded.
 */
import type { NotificationConstructorOptions } from 'electron';
import type { AgentEvent } from '../../shared/agent-api';
import { notifyDocumentWord, trayWord, type UiLanguage } from '../../shared/tray-words';

/** The part of Electron's Notification this module uses. */
export interface NotificationLike {
  show(): void;
  on(event: 'click', listener: () => void): unknown;
}

export interface AgentNotifierOptions {
  /** `new Notification(options)` in the app. */
  readonly createNotification: (options: NotificationConstructorOptions) => NotificationLike;
  /** `Notification.isSupported()` in the app. @default () => true */
  readonly isSupported?: () => boolean;
  /** Called when the user clicks a notification. @default no-op */
  readonly onClick?: () => void;
  /** At most this many notifications per window. @default 3 */
  readonly maxPerWindow?: number;
  /** The window, in ms. @default 60_000 */
  readonly windowMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
  /** The notifications' language until setLanguage() says otherwise. @default 'en' */
  readonly language?: UiLanguage;
}

export class AgentNotifier {
  readonly #options: AgentNotifierOptions;
  readonly #max: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #shownAt: number[] = [];
  /** Jobs already announced as failed: a job reported failed again (retry, refresh) stays quiet. */
  readonly #announcedJobs = new Map<string, number>();
  #suppressed = 0;
  #flushTimer: ReturnType<typeof setTimeout> | null = null;
  #language: UiLanguage;

  constructor(options: AgentNotifierOptions) {
    this.#options = options;
    this.#max = options.maxPerWindow ?? 3;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#language = options.language ?? 'en';
  }

  /** The window's language (Settings → Language): notifications from now on are in it. */
  setLanguage(language: UiLanguage): void {
    this.#language = language;
  }

  /** Feed every agent event here; only failures and alerts notify. */
  handle(event: AgentEvent): void {
    if (event.type === 'job') {
      const { job } = event;
      if (job.state !== 'failed') return;
      if (this.#announcedJobs.get(job.id) === job.attempts) return;
      this.#announcedJobs.set(job.id, job.attempts);
      if (this.#announcedJobs.size > 1000) this.#announcedJobs.delete(this.#announcedJobs.keys().next().value as string);
      const what = job.reference ?? job.trackingId ?? job.shipmentId;
      const language = this.#language;
      // The reason is the agent's English: its words live in the renderer's catalogs, which main cannot read.
      const reason = job.reason ?? trayWord(language, 'notify.unknownReason');
      const requestId = job.requestId ? trayWord(language, 'notify.requestId', { id: job.requestId }) : '';
      const title = trayWord(language, 'notify.printFailed', { document: notifyDocumentWord(language, job.documentType), what });
      this.#notify(title, `${reason}${requestId}`, true);
    } else if (event.type === 'alert') {
      this.#notify(event.title, event.message, false);
    }
  }

  #notify(title: string, body: string, urgent: boolean): void {
    if (!(this.#options.isSupported?.() ?? true)) return;
    const now = this.#now();
    while (this.#shownAt.length > 0 && now - (this.#shownAt[0] ?? 0) >= this.#windowMs) this.#shownAt.shift();
    if (this.#shownAt.length >= this.#max) {
      this.#suppressed += 1;
      this.#scheduleSummary(now);
      return;
    }
    this.#shownAt.push(now);
    const more = this.#suppressed > 0 ? trayWord(this.#language, 'notify.more', { count: this.#suppressed }) : '';
    this.#suppressed = 0;
    this.#show(title, `${body}${more}`, urgent);
  }

  /** Stops the pending summary (app quit). */
  dispose(): void {
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
  }

  /** When the storm ends, one summary says how many were folded, so none is silently lost. */
  #scheduleSummary(now: number): void {
    if (this.#flushTimer) return;
    const wait = Math.max(0, (this.#shownAt[0] ?? now) + this.#windowMs - now);
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = null;
      if (this.#suppressed === 0) return;
      const count = this.#suppressed;
      this.#suppressed = 0;
      this.#shownAt.push(this.#now());
      const title = trayWord(this.#language, count === 1 ? 'notify.moreProblems.one' : 'notify.moreProblems.other', { count });
      this.#show(title, trayWord(this.#language, 'notify.openQueue'), true);
    }, wait);
    this.#flushTimer.unref?.();
  }

  #show(title: string, body: string, urgent: boolean): void {
    const notification = this.#options.createNotification({
      title,
      body,
      silent: false,
      ...(urgent ? { urgency: 'critical' as const } : {}),
    });
    notification.on('click', () => this.#options.onClick?.());
    notification.show();
  }
}
