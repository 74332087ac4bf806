/**
 * The scale's slice of AgentApi: `scaleStatus` (`{ state, kg }`, docs/INTERFACES.md, Scales)
 * and `scaleDetails` (Settings → Scale). The scale itself is followed by ScaleWatch.
 */
import type { AgentInput } from '../../../shared/agent-api';
import type { ScaleDetails, ScaleStatus } from '../../../shared/scale';
import type { ScaleWatch } from '../scale-watch';
import type { OperationGroup } from './groups';

export type ScaleOperations = OperationGroup<'scale'>;

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

/** A station built without a scale watch (tests, the relay): it reads as having no scale. */
export const NO_SCALE: ScaleOperations = {
  async scaleStatus(): Promise<ScaleStatus> {
    return { state: 'offline', kg: null };
  },
  async scaleDetails(): Promise<ScaleDetails> {
    return { uri: 'none', state: 'offline', kg: null, unit: null, identity: null, command: null, problem: null, garbage: 0 };
  },
};
