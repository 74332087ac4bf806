/**
 * Queue and history: every job with its state and reason, search, retry and cancel,
 * updated live from job events, a page at a time. Below 900 px the rows become cards
 * (styles.css), so Retry stays on screen at 800x600.
 */
import { JOB_STATES, type JobState, type JobView } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, option, replaceChildren } from '../dom';
import { describeTarget, localDateTime, localWhen } from '../format';
import { t, type MessageKey } from '../i18n';
import { JOB_BADGE_WORDS, JOB_STATE_WORDS, isActive, jobReason, siteDecisionLine } from '../job-words';
import { pageOf } from '../paging';
import { LAYOUT_WORDS, TRIGGER_WORDS, documentWords } from '../words';

/** The most the agent returns in one call (listJobs' limit). */
const LIMIT = 500;
export const QUEUE_PAGE_SIZE = 25;
const COLUMNS = ['state', 'document', 'shipment', 'printer', 'when', 'actions'] as const;
const column = (name: (typeof COLUMNS)[number]): string => t(`queue.col.${name}`);

/** Test pages are made by the agent, not the service (src/main/agent/test-page.ts): no reprint from history. */
const TEST_PAGE = 'testpage';

export class QueueView {
  readonly element: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly stateFilter: HTMLSelectElement;
  private readonly body: HTMLTableSectionElement;
  private readonly message: HTMLElement;
  private readonly pager: HTMLElement;
  private readonly pagerText: HTMLElement;
  private readonly previous: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private jobs: JobView[] = [];
  private page = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private loaded = false;

  constructor(private readonly ctx: UiContext) {
    this.search = h('input', {
      type: 'search',
      id: 'job-search',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: t('queue.searchPlaceholder'),
    });
    this.stateFilter = h(
      'select',
      { id: 'job-state' },
      option('', t('queue.allStates')),
      ...JOB_STATES.map((s) => option(s, JOB_BADGE_WORDS[s])),
    );
    this.body = h('tbody');
    this.message = h('div', { class: 'queue-message' });
    this.previous = h('button', { type: 'button', class: 'previous' }, t('queue.previous'));
    this.next = h('button', { type: 'button', class: 'next' }, t('queue.next'));
    this.pagerText = h('span', { class: 'pager-text', role: 'status' });
    this.pager = h('nav', { class: 'pager', 'aria-label': t('queue.pagesAria') }, this.previous, this.pagerText, this.next);
    this.element = h(
      'section',
      { class: 'view queue-view', id: 'view-queue', role: 'tabpanel', 'aria-labelledby': 'tab-queue', hidden: true },
      h(
        'div',
        { class: 'queue-tools' },
        h('label', { for: 'job-search' }, t('queue.searchLabel')),
        this.search,
        h('label', { for: 'job-state' }, t('queue.stateLabel')),
        this.stateFilter,
        h('button', { type: 'button', class: 'refresh' }, t('queue.refresh')),
      ),
      h('p', { class: 'hint' }, t('queue.hint')),
      this.message,
      h(
        'table',
        { class: 'jobs', 'aria-label': t('queue.tableAria') },
        h('thead', {}, h('tr', {}, ...COLUMNS.map((c) => h('th', { scope: 'col' }, column(c))))),
        this.body,
      ),
      this.pager,
    );
    this.previous.addEventListener('click', () => this.goTo(this.page - 1));
    this.next.addEventListener('click', () => this.goTo(this.page + 1));
    this.search.addEventListener('input', () => this.scheduleLoad(true));
    this.stateFilter.addEventListener('change', () => {
      this.page = 0;
      void this.load();
    });
    this.element.querySelector('button.refresh')?.addEventListener('click', () => void this.load());
  }

  /** Called when the view is shown. */
  show(): void {
    void this.load();
    this.search.focus();
  }

  /** Live update: replace the job in place, or add a new one on top when it fits the filter. */
  onJob(job: JobView): void {
    if (!this.loaded) return;
    const index = this.jobs.findIndex((j) => j.id === job.id);
    if (index >= 0) this.jobs[index] = job;
    else if (this.matches(job)) this.jobs = [job, ...this.jobs].slice(0, LIMIT);
    else return;
    this.render();
  }

  private matches(job: JobView): boolean {
    const state = this.stateFilter.value;
    if (state && job.state !== state) return false;
    const q = this.search.value.trim().toLowerCase();
    if (!q) return true;
    return [job.reference, job.trackingId, job.shipmentId, job.id].some((v) => v?.toLowerCase().includes(q));
  }

  private scheduleLoad(firstPage = false): void {
    if (firstPage) this.page = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.load(), 200);
  }

  async load(): Promise<void> {
    const search = this.search.value.trim();
    const state = (this.stateFilter.value || undefined) as JobState | undefined;
    try {
      this.jobs = await this.ctx.api.listJobs({ search: search || undefined, state, limit: LIMIT });
      this.loaded = true;
      replaceChildren(this.message);
      this.render();
    } catch (error) {
      replaceChildren(this.message, h('p', { role: 'alert', class: 'fail' }, t('queue.loadFailed', { error: describeError(error) })));
    }
  }

  private goTo(page: number): void {
    this.page = page;
    this.render();
    // Keep the keyboard where it was: a disabled button would drop focus to the body.
    const focused = document.activeElement;
    if ((focused === this.next || focused === this.previous) && (focused as HTMLButtonElement).disabled) {
      (focused === this.next ? this.previous : this.next).focus();
    }
  }

  private render(): void {
    const page = pageOf(this.jobs, this.page, QUEUE_PAGE_SIZE);
    this.page = page.index;
    const where = { from: page.from, to: page.to, total: page.total, page: page.index + 1, pages: page.pages };
    this.pagerText.textContent = page.total === 0 ? t('queue.pagerEmpty', where) : t('queue.pager', where);
    this.previous.disabled = page.index === 0;
    this.next.disabled = page.index >= page.pages - 1;
    this.pager.hidden = page.pages <= 1;
    if (page.items.length === 0) {
      const text = this.search.value || this.stateFilter.value ? t('queue.noMatch') : t('queue.noJobs');
      replaceChildren(this.body, h('tr', {}, h('td', { colspan: COLUMNS.length, class: 'muted empty' }, text)));
      return;
    }
    replaceChildren(this.body, ...page.items.map((job) => this.row(job)));
  }

  private row(job: JobView): HTMLTableRowElement {
    const actions = h('td', { class: 'actions', 'data-label': column('actions') });
    if (job.state === 'failed' || job.state === 'canceled') {
      actions.append(this.action('retry', job, () => this.ctx.api.retryJob({ id: job.id })));
    }
    if (isActive(job.state)) {
      actions.append(this.action('cancel', job, () => this.ctx.api.cancelJob({ id: job.id })));
    }
    // A job done can be printed again from the history: the same document, layout and printer.
    if ((job.state === 'completed' || job.state === 'spooled') && !job.shipmentCanceled && job.documentType !== TEST_PAGE) {
      actions.append(
        this.action('reprint', job, async () => {
          const [again] = await this.ctx.api.reprint({
            shipmentId: job.shipmentId,
            documentType: job.documentType,
            layout: job.layout,
            printer: job.target,
          });
          if (!again) throw new Error(t('queue.reprintNone'));
          return again;
        }),
      );
    }
    const shipment = job.reference ?? job.trackingId ?? job.shipmentId;
    const site = siteDecisionLine(job);
    const updated = job.updatedAt !== job.createdAt ? t('queue.updated', { when: localWhen(job.updatedAt) }) : null;
    return h(
      'tr',
      { class: `job state-${job.state}`, 'data-job-id': job.id },
      h(
        'td',
        { class: 'state', 'data-label': column('state') },
        h('span', { class: `badge state-${job.state}`, title: JOB_STATE_WORDS[job.state] }, JOB_BADGE_WORDS[job.state]),
        job.reason ? h('span', { class: 'reason' }, jobReason(job)) : null,
        job.requestId ? h('span', { class: 'request-id' }, t('common.requestId', { id: job.requestId })) : null,
      ),
      h(
        'td',
        { class: 'document', 'data-label': column('document') },
        h('span', {}, `${documentWords(job.documentType)}${job.copies > 1 ? ` ×${job.copies}` : ''}`),
        // A site station's own webhooks and polling are off: its bookings came through the site.
        h('span', { class: 'muted small' }, `${LAYOUT_WORDS[job.layout]} · ${site ? t('trigger.site') : TRIGGER_WORDS[job.trigger]}`),
        site ? h('span', { class: 'site-decision muted small' }, site) : null,
      ),
      h(
        'td',
        { class: 'shipment', 'data-label': column('shipment') },
        h('span', {}, shipment),
        job.trackingId && job.trackingId !== shipment ? h('span', { class: 'muted small' }, job.trackingId) : null,
        job.shipmentCanceled ? h('span', { class: 'badge stage-canceled' }, t('queue.shipmentCanceled')) : null,
      ),
      h('td', { class: 'target', 'data-label': column('printer') }, describeTarget(job.target)),
      h(
        'td',
        { class: 'when', 'data-label': column('when') },
        h('time', { datetime: job.createdAt, title: t('queue.created', { when: localDateTime(job.createdAt) }) }, localWhen(job.createdAt)),
        updated ? h('time', { class: 'muted small', datetime: job.updatedAt, title: localDateTime(job.updatedAt) }, updated) : null,
        job.attempts > 1 ? h('span', { class: 'muted small' }, t('queue.attempts', { count: job.attempts })) : null,
      ),
      actions,
    );
  }

  private action(kind: 'retry' | 'cancel' | 'reprint', job: JobView, run: () => Promise<JobView>): HTMLButtonElement {
    const name = t(`queue.${kind}Name` as MessageKey, {
      shipment: job.reference ?? job.shipmentId,
      document: documentWords(job.documentType).toLowerCase(),
    });
    const button = h('button', { type: 'button', 'aria-label': name }, t(`queue.${kind}`));
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        this.onJob(await run());
        replaceChildren(this.message);
      } catch (error) {
        replaceChildren(
          this.message,
          h('p', { role: 'alert', class: 'fail' }, t(`queue.${kind}Failed` as MessageKey, { error: describeError(error) })),
        );
        button.disabled = false;
      }
    });
    return button;
  }
}
