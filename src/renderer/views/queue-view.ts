/**
 * Queue and history: every job with its state and reason, search, retry and cancel,
 * updated live from job events.
 */
import { JOB_STATES, type JobState, type JobView } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, option, replaceChildren } from '../dom';
import { describeTarget, localDateTime, localWhen } from '../format';
import { JOB_STATE_WORDS, isActive } from '../job-words';

const LIMIT = 200;

export class QueueView {
  readonly element: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly stateFilter: HTMLSelectElement;
  private readonly body: HTMLTableSectionElement;
  private readonly message: HTMLElement;
  private jobs: JobView[] = [];
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
          h('tr', {}, ...['State', 'Document', 'Shipment', 'Trigger', 'Printer', 'Created', 'Updated', 'Actions'].map((c) => h('th', { scope: 'col' }, c))),
        ),
        this.body,
      ),
    );
    this.search.addEventListener('input', () => this.scheduleLoad());
    this.stateFilter.addEventListener('change', () => void this.load());
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

  private scheduleLoad(): void {
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

  private render(): void {
    if (this.jobs.length === 0) {
      replaceChildren(this.body, h('tr', {}, h('td', { colspan: 8, class: 'muted' }, this.search.value ? 'No job matches.' : 'No jobs yet.')));
      return;
    }
    replaceChildren(this.body, ...this.jobs.map((job) => this.row(job)));
  }

  private row(job: JobView): HTMLTableRowElement {
    const actions = h('td', { class: 'actions' });
    if (job.state === 'failed' || job.state === 'canceled') {
      actions.append(this.action('Retry', job, () => this.ctx.api.retryJob({ id: job.id })));
    }
    if (isActive(job.state)) {
      actions.append(this.action('Cancel', job, () => this.ctx.api.cancelJob({ id: job.id })));
    }
    const shipment = job.reference ?? job.trackingId ?? job.shipmentId;
    return h(
      'tr',
      { class: `job state-${job.state}`, 'data-job-id': job.id },
      h(
        'td',
        { class: 'state' },
        h('span', { class: `badge state-${job.state}`, title: JOB_STATE_WORDS[job.state] ?? job.state }, job.state),
        job.reason ? h('span', { class: 'reason' }, job.reason) : null,
        job.requestId ? h('span', { class: 'request-id' }, `Request id ${job.requestId}`) : null,
      ),
      h('td', {}, `${job.documentType} · ${job.layout}${job.copies > 1 ? ` ×${job.copies}` : ''}`),
      h('td', {}, h('span', {}, shipment), job.trackingId && job.trackingId !== shipment ? h('span', { class: 'muted small' }, job.trackingId) : null),
      h('td', {}, job.trigger),
      h('td', { class: 'target' }, describeTarget(job.target)),
      h('td', {}, h('time', { datetime: job.createdAt, title: localDateTime(job.createdAt) }, localWhen(job.createdAt))),
      h('td', {}, h('time', { datetime: job.updatedAt, title: localDateTime(job.updatedAt) }, localWhen(job.updatedAt)), job.attempts > 1 ? h('span', { class: 'muted small' }, `${job.attempts} attempts`) : null),
      actions,
    );
  }

  private action(label: 'Retry' | 'Cancel', job: JobView, run: () => Promise<JobView>): HTMLButtonElement {
    const button = h('button', { type: 'button', 'aria-label': `${label} job ${job.reference ?? job.shipmentId} ${job.documentType}` }, label);
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
