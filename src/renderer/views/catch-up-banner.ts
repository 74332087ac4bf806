/**
 * The offer a fresh station makes once: the shipments booked in the hour before its first
 * start, which it did not print by itself (src/main/intake/first-start.ts), with one button
 * to print them. Nothing shows when there is nothing to offer.
 */
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { t } from '../i18n';

export class CatchUpBanner {
  readonly element: HTMLElement;

  constructor(private readonly ctx: UiContext) {
    this.element = h('div', { class: 'catch-up', hidden: true });
    void this.load();
  }

  private async load(): Promise<void> {
    let count: number;
    try {
      ({ count } = await this.ctx.api.catchUpOffer({}));
    } catch {
      // An agent that cannot say (an older one, the bridge down) offers nothing: the station works as before.
      return;
    }
    if (count === 0) return;
    const button = h('button', { type: 'button' }, t('catchUp.print'));
    const status = h('p', { role: 'status', class: 'catch-up-status' });
    button.addEventListener('click', () => void this.print(button, status));
    replaceChildren(this.element, h('p', { class: 'catch-up-offer' }, t('catchUp.offer', { count })), button, status);
    this.element.hidden = false;
  }

  private async print(button: HTMLButtonElement, status: HTMLElement): Promise<void> {
    button.disabled = true;
    try {
      const { submitted } = await this.ctx.api.printCatchUp({});
      replaceChildren(this.element, h('p', { role: 'status', class: 'ok' }, t('catchUp.printed', { count: submitted })));
    } catch (error) {
      button.disabled = false;
      replaceChildren(status, describeError(error));
    }
  }
}
