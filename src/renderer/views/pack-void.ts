/**
 * Void a booked shipment: "Cancel shipment", then a confirmation that names the shipment
 * and its tracking id. The service's refusal is shown with its request id.
 */
import type { ShipmentView } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { t } from '../i18n';
import { beepFailure, beepSuccess } from '../sound';

export function voidPanel(shipment: ShipmentView, ctx: UiContext, done: (note: string) => void): HTMLElement {
  const name = shipment.referenceId ?? shipment.id;
  const cancel = h('button', { type: 'button', class: 'danger' }, t('action.cancelShipment'));
  const confirmBox = h('div', { class: 'confirm', role: 'group', 'aria-label': t('void.confirmCancel'), hidden: true });
  const status = h('p', { class: 'pack-status', role: 'status' });
  const element = h(
    'section',
    { class: 'void-panel', 'aria-label': t('action.cancelShipment'), 'data-keep-focus': '' },
    cancel,
    confirmBox,
    status,
  );

  const close = (): void => {
    confirmBox.hidden = true;
    cancel.hidden = false;
    cancel.focus();
  };
  cancel.addEventListener('click', () => {
    const yes = h('button', { type: 'button', class: 'danger' }, t('void.confirmCancel'));
    const no = h('button', { type: 'button' }, t('void.keep'));
    replaceChildren(
      confirmBox,
      h('p', {}, shipment.trackingId ? t('void.questionTracking', { name, tracking: shipment.trackingId }) : t('void.question', { name })),
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
    status.textContent = t('void.canceling');
    try {
      const result = await ctx.api.packCancel({ shipmentId: shipment.id });
      if (result.ok) {
        beepSuccess();
        done(t('void.canceled', { name }));
        return;
      }
      const p = result.problem;
      status.textContent = t('void.failed', {
        error: p.message + (p.requestId && !p.message.includes(p.requestId) ? t('eod.requestId', { id: p.requestId }) : ''),
      });
    } catch (error) {
      status.textContent = t('void.failed', { error: describeError(error) });
    }
    status.classList.add('error');
    yes.disabled = false;
    beepFailure();
  };
  return element;
}
