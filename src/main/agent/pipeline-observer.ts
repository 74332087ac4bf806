import type { JobView } from '../../shared/domain';
import { JOB_ERROR_CODES, type JobError } from '../ledger/errors';
import type { PipelineObserver } from '../jobs/ports';
import type { Logger } from '../log';
import type { StationActivity } from '../site/station/station-activity';
import type { EventHub } from './event-hub';
import { JobLogLines } from '../jobs/job-log';
import type { StatusTracker } from './status-tracker';

export interface PipelineObserverDeps {
  readonly log: Logger;
  readonly status: StatusTracker;
  /** The site heartbeat's queue, last print and failures. */
  readonly activity: Pick<StationActivity, 'job'>;
  readonly hub: Pick<EventHub, 'emit'>;
}

/**
 * What the agent does with what the job engine tells it: every job change goes to the status
 * (window, tray), the site heartbeat, the log (one line per job that says something) and the UI.
 */
export function pipelineObserver(deps: PipelineObserverDeps): Required<PipelineObserver> {
  const { log, status, activity, hub } = deps;
  const jobLines = new JobLogLines();
  const emitStatus = (): void => hub.emit({ type: 'status', status: status.snapshot() });
  return {
    // The ledger cannot be written (disk full, read-only): said once, with what to do, in the
    // log, the status (window, tray) until it can; the pipeline retries and resumes by itself.
    onError: (error: JobError) => {
      log.error(error.message);
      if (error.code === JOB_ERROR_CODES.LEDGER_WRITE_FAILED) status.ledgerFailed(error);
      else status.serviceFailed(error);
      emitStatus();
    },
    onLedgerBack: () => {
      log.info('ledger: writes go through again; printing resumes');
      status.ledgerBack();
      emitStatus();
    },
    onJobChange: (job: JobView) => {
      status.job(job);
      activity.job(job);
      const line = jobLines.line(job);
      if (line !== null) (job.state === 'failed' ? log.warn : log.info)(line);
      hub.emit({ type: 'job', job });
    },
  };
}
