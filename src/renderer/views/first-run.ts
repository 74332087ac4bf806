/**
 * First run (no API key yet): connect an account, or try the demo on the sandbox. Shown
 * above the scan box until dismissed by either choice.
 */
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h } from '../dom';
import { t } from '../i18n';

export function firstRunPanel(ctx: UiContext, onConnect: () => void): HTMLElement {
  const connect = h('button', { type: 'button', class: 'primary' }, t('firstRun.connect'));
  const demo = h('button', { type: 'button' }, t('firstRun.demo'));
  const message = h('p', { class: 'inline-result', role: 'status' });
  const panel = h(
    'section',
    { class: 'first-run', 'aria-labelledby': 'first-run-title' },
    h('h2', { id: 'first-run-title' }, t('firstRun.title')),
    h('p', {}, t('firstRun.intro')),
    h('div', { class: 'row' }, connect, demo),
    message,
  );
  connect.addEventListener('click', () => {
    panel.remove();
    onConnect();
  });
  demo.addEventListener('click', async () => {
    try {
      // The agent runs the embedded sandbox and books a shipment every few seconds.
      demo.disabled = true;
      message.textContent = t('firstRun.starting');
      await ctx.api.startDemo({});
      panel.remove();
      ctx.focusScan();
    } catch (error) {
      demo.disabled = false;
      message.textContent = t('firstRun.demoFailed', { error: describeError(error) });
    }
  });
  return panel;
}
