/**
 * The scale's slice of AgentApi: `scaleStatus` (`{ state, kg }`, docs/INTERFACES.md, Scales)
 * and `scaleDetails` (Settings → Scale). The scale itself is followed by ScaleWatch.
 */
import type { AgentApi, AgentInput } from '../../../shared/agent-api';
import type { ScaleDetails, ScaleStatus } from '../../../shared/scale';
import type { ScaleWatch } from '../scale-watch';

export type ScaleOperations = Pick<AgentApi, 'scaleStatus' | 'scaleDetails'>;

export function createScaleOperations(scale: Pick<ScaleWatch, 'status' | 'details'>): ScaleOperations {
  return {
    async scaleStatus(_input: AgentInput<'scaleStatus'>): Promise<ScaleStatus> {
      return scale.status();
    },
    async scaleDetails(_input: AgentInput<'scaleDetails'>): Promise<ScaleDetails> {
      return scale.details();
    },
  };
}
