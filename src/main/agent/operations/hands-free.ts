/**
 * Pack and ship's hands-free slice of AgentApi: `packHandsFree` hands a scanned draft to the
 * scale, `packHandsFreeStatus` says where it is (src/main/pack/hands-free.ts decides).
 */
import type { AgentApi, AgentInput } from '../../../shared/agent-api';
import type { HandsFreeView } from '../../../shared/domain';
import type { HandsFreeBooking } from '../../pack/hands-free';

export type HandsFreeOperations = Pick<AgentApi, 'packHandsFree' | 'packHandsFreeStatus'>;

export function createHandsFreeOperations(booking: Pick<HandsFreeBooking, 'arm' | 'status'>): HandsFreeOperations {
  return {
    async packHandsFree(input: AgentInput<'packHandsFree'>): Promise<HandsFreeView> {
      return booking.arm(input);
    },
    async packHandsFreeStatus(input: AgentInput<'packHandsFreeStatus'>): Promise<HandsFreeView> {
      return booking.status(input);
    },
  };
}
