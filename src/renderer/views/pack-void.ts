/**
 * Void a booked shipment: "Cancel shipment", then a confirmation that names the shipment
 * and its tracking id. The service's refusal is shown with its request id.
 */
import type { ShipmentView } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { beepFailure, beepSuccess } from '../sound';

export function voidPanel(shipment: ShipmentView, ctx: UiContext, done: (note: string) => void): HTMLElement {
  const name = shipment.referenceId ?? shipment.id;
  const cancel = h('button', { type: 'button', class: 'danger' }, 'Cancel shipment');
  const confirmBox = h('div', { class: 'confirm', role: 'group', 'aria-label': 'Confirm cancel', hidden: true });
  const status = h('p', { class: 'pack-status', role: 'status' });
  const element = h('section', { class: 'void-panel', 'aria-label': 'Cancel shipment', 'data-keep-focus': '' }, cancel, confirmBox, status);

  const close = (): void => {
    confirmBox.hidden = true;
    cancel.hidden = false;
    cancel.focus();
  };
  cancel.addEventListener('click', () => {
    const yes = h('button', { type: 'button', class: 'danger' }, 'Confirm cancel');
    const no = h('button', { type: 'button' }, 'Keep it');
    replaceChildren(
      confirmBox,
      h('p', {}, `Cancel shipment ${name}${shipment.trackingId ? ` (tracking ${shipment.trackingId})` : ''}? Its label becomes void and cannot be reprinted.`),
      h('div', { class: 'pack-actions' }, yes, no),
    );
    no.addEventListener('click', close);
    yes.addEventListener('click', () => void confirm(yes));
    confirmBox.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close();
      }
    });
    cancel.hidden = true;
    confirmBox.hidden = false;
    yes.focus();
  });

  const confirm = async (yes: HTMLButtonElement): Promise<void> => {
    yes.disabled = true;
    status.classList.remove('error');
    status.textContent = 'Canceling…';
    try {
      const result = await ctx.api.packCancel({ shipmentId: shipment.id });
      if (result.ok) {
        beepSuccess();
        done(`Canceled ${name}: its label is void.`);
        return;
      }
      const p = result.problem;
      status.textContent = `Cancel failed: ${p.message}${p.requestId && !p.message.includes(p.requestId) ? ` (request id ${p.requestId})` : ''}`;
    } catch (error) {
      status.textContent = `Cancel failed: ${describeError(error)}`;
    }
    status.classList.add('error');
    yes.disabled = false;
    beepFailure();
  };
  return element;
}
