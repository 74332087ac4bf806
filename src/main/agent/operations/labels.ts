/**
 * The label you printed, in sight: `labelPreview`, a small PNG of a job's label
 * (src/main/scan/label-preview.ts renders and keeps it).
 */
import type { AgentInput } from '../../../shared/agent-api';
import type { LabelPreview } from '../../../shared/domain';
import { LabelPreviews } from '../../scan/label-preview';
import type { OperationDeps } from './deps';
import type { OperationGroup } from './groups';

export function labelOperations(deps: Pick<OperationDeps, 'ledger' | 'connection'>): OperationGroup<'labels'> {
  const previews = new LabelPreviews({
    job: (id) => deps.ledger.jobs.get(id),
    printFile: (request) => deps.connection.current.printFile(request),
  });
  return {
    async labelPreview({ jobId }: AgentInput<'labelPreview'>): Promise<LabelPreview | null> {
      return previews.preview(jobId);
    },
  };
}
