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
import { JOB_STATE_WORDS, isActive } from '../job-words';
import { pageOf, pageWords } from '../paging';
import { LAYOUT_WORDS, TRIGGER_WORDS, documentWords } from '../words';

/** The most the agent returns in one call (listJobs' limit). */
const LIMIT = 500;
export const QUEUE_PAGE_SIZE = 25;
const COLUMNS = ['State', 'Document', 'Shipment', 'Printer', 'When', 'Actions'] as const;

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
      placeholder: 'Reference, tracking number or shipment id',
    });
    this.stateFilter = h('select', { id: 'job-state' }, option('', 'All states'), ...JOB_STATES.map((s) => option(s, s)));
    this.body = h('tbody');
    this.message = h('div', { class: 'queue-message' });
    this.previous = h('button', { type: 'button', class: 'previous' }, 'Previous');
    this.next = h('button', { type: 'button', class: 'next' }, 'Next');
    this.pagerText = h('span', { class: 'pager-text', role: 'status' });
    this.pager = h('nav', { class: 'pager', 'aria-label': 'Job pages' }, this.previous, this.pagerText, this.next);
    this.element = h(
      'section',
      { class: 'view queue-view', id: 'view-queue', role: 'tabpanel', 'aria-labelledby': 'tab-queue', hidden: true },
      h(
        'div',
        { class: 'queue-tools' },
        h('label', { for: 'job-search' }, 'Search jobs'),
        this.search,
        h('label', { for: 'job-state' }, 'State'),
        this.stateFilter,
        h('button', { type: 'button', class: 'refresh' }, 'Refresh'),
      ),
      h(
        'p',
        { class: 'hint' },
        '“Spooled” means the printer’s spooler accepted the job; “completed” means the spooler reports it printed (or the PDF is saved in its folder).',
      ),
      this.message,
      h(
        'table',
        { class: 'jobs', 'aria-label': 'Print jobs' },
        h(
          'thead',
          {},
          h('tr', {}, ...COLUMNS.map((c) => h('th', { scope: 'col' }, c))),
        ),
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
      replaceChildren(this.message, h('p', { role: 'alert', class: 'fail' }, `Could not load the jobs: ${describeError(error)}`));
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
    this.pagerText.textContent = `${pageWords(page, 'jobs')} · page ${page.index + 1} of ${page.pages}`;
    this.previous.disabled = page.index === 0;
    this.next.disabled = page.index >= page.pages - 1;
    this.pager.hidden = page.pages <= 1;
    if (page.items.length === 0) {
      const text = this.search.value || this.stateFilter.value ? 'No job matches.' : 'No jobs yet.';
      replaceChildren(this.body, h('tr', {}, h('td', { colspan: COLUMNS.length, class: 'muted empty' }, text)));
      return;
    }
    replaceChildren(this.body, ...page.items.map((job) => this.row(job)));
  }

  private row(job: JobView): HTMLTableRowElement {
    const actions = h('td', { class: 'actions', 'data-label': 'Actions' });
    if (job.state === 'failed' || job.state === 'canceled') {
      actions.append(this.action('Retry', job, () => this.ctx.api.retryJob({ id: job.id })));
    }
    if (isActive(job.state)) {
      actions.append(this.action('Cancel', job, () => this.ctx.api.cancelJob({ id: job.id })));
    }
    const shipment = job.reference ?? job.trackingId ?? job.shipmentId;
    const updated = job.updatedAt !== job.createdAt ? `updated ${localWhen(job.updatedAt)}` : null;
    return h(
      'tr',
      { class: `job state-${job.state}`, 'data-job-id': job.id },
      h(
        'td',
        { class: 'state', 'data-label': 'State' },
        h('span', { class: `badge state-${job.state}`, title: JOB_STATE_WORDS[job.state] }, job.state),
        job.reason ? h('span', { class: 'reason' }, job.reason) : null,
        job.requestId ? h('span', { class: 'request-id' }, `Request id ${job.requestId}`) : null,
      ),
      h(
        'td',
        { class: 'document', 'data-label': 'Document' },
        h('span', {}, `${documentWords(job.documentType)}${job.copies > 1 ? ` ×${job.copies}` : ''}`),
        h('span', { class: 'muted small' }, `${LAYOUT_WORDS[job.layout]} · ${TRIGGER_WORDS[job.trigger]}`),
      ),
      h(
        'td',
        { class: 'shipment', 'data-label': 'Shipment' },
        h('span', {}, shipment),
        job.trackingId && job.trackingId !== shipment ? h('span', { class: 'muted small' }, job.trackingId) : null,
        job.shipmentCanceled ? h('span', { class: 'badge stage-canceled' }, 'Shipment canceled') : null,
      ),
      h('td', { class: 'target', 'data-label': 'Printer' }, describeTarget(job.target)),
      h(
        'td',
        { class: 'when', 'data-label': 'When' },
        h('time', { datetime: job.createdAt, title: `Created ${localDateTime(job.createdAt)}` }, localWhen(job.createdAt)),
        updated ? h('time', { class: 'muted small', datetime: job.updatedAt, title: localDateTime(job.updatedAt) }, updated) : null,
        job.attempts > 1 ? h('span', { class: 'muted small' }, `${job.attempts} attempts`) : null,
      ),
      actions,
    );
  }

  private action(label: 'Retry' | 'Cancel', job: JobView, run: () => Promise<JobView>): HTMLButtonElement {
    const name = `${label} job ${job.reference ?? job.shipmentId} ${documentWords(job.documentType).toLowerCase()}`;
    const button = h('button', { type: 'button', 'aria-label': name }, label);
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        this.onJob(await run());
        replaceChildren(this.message);
      } catch (error) {
        replaceChildren(this.message, h('p', { role: 'alert', class: 'fail' }, `${label} failed: ${describeError(error)}`));
        button.disabled = false;
      }
    });
    return button;
  }
}
