/**
 * Pack and ship's hands-free slice of AgentApi: `packHandsFree` hands a scanned draft to the
 * scale, `packHandsFreeStatus` says where it is (src/main/pack/hands-free.ts decides).
 */
import type { AgentInput } from '../../../shared/agent-api';
import type { HandsFreeView } from '../../../shared/domain';
import type { HandsFreeBooking } from '../../pack/hands-free';
import type { OperationGroup } from './groups';

export function handsFreeOperations(booking: Pick<HandsFreeBooking, 'arm' | 'status'>): OperationGroup<'handsFree'> {
  return {
    async packHandsFree(input: AgentInput<'packHandsFree'>): Promise<HandsFreeView> {
      return booking.arm(input);
    },
    async packHandsFreeStatus(input: AgentInput<'packHandsFreeStatus'>): Promise<HandsFreeView> {
      return booking.status(input);
    },
  };
}
