/**
 * The configured printers, each with its own Pause/Resume and a test page: a paused printer's jobs wait
 * in the ledger, in order, while the other printers go on (the pipeline holds that
 * printer's line; nothing is lost or printed twice). Shown in Settings, under printers.
 */
import type { ConfiguredPrinter } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { describeTarget } from '../format';

const ROLE_WORDS: Readonly<Record<ConfiguredPrinter['roles'][number], string>> = { label: 'labels', document: 'documents' };

export class PrinterPauseList {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly result: HTMLElement;

  constructor(private readonly ctx: UiContext) {
    this.list = h('ul', { class: 'printer-pauses', 'aria-label': 'Configured printers' });
    this.result = h('p', { class: 'inline-result', role: 'status' });
    this.element = h('div', { class: 'printer-pause-list' }, h('h3', {}, 'Configured printers'), this.list, this.result);
  }

  async refresh(): Promise<void> {
    try {
      this.render(await this.ctx.api.listConfiguredPrinters({}));
    } catch (error) {
      this.say('fail', `Printers could not be listed: ${describeError(error)}`);
    }
  }

  private render(printers: readonly ConfiguredPrinter[]): void {
    replaceChildren(this.list, ...printers.map((p) => this.item(p)));
  }

  private item(printer: ConfiguredPrinter): HTMLElement {
    const name = describeTarget(printer.uri);
    const verb = printer.paused ? 'Resume' : 'Pause';
    const pressed = String(printer.paused);
    const button = h('button', { type: 'button', class: 'printer-pause', 'aria-pressed': pressed, 'aria-label': `${verb} ${name}` }, verb);
    button.addEventListener('click', () => void this.toggle(printer));
    const test = h('button', { type: 'button', class: 'printer-test', 'aria-label': `Test page on ${name}` }, 'Test page');
    test.addEventListener('click', () => void this.testPage(printer.uri));
    return h(
      'li',
      { class: `printer-pause-item${printer.paused ? ' paused' : ''}`, title: printer.uri },
      h('span', { class: 'printer-name' }, name),
      h('span', { class: 'printer-detail' }, printer.roles.map((r) => ROLE_WORDS[r]).join(' and ')),
      h('span', { class: `readiness ${printer.paused ? 'bad' : 'ok'}` }, printer.paused ? 'paused: jobs wait' : 'printing'),
      test,
      button,
    );
  }

  /** A page with the printer's media, layout and a millimetre ruler (test-page.ts). */
  private async testPage(uri: string): Promise<void> {
    try {
      await this.ctx.api.testPrint({ printer: uri });
      this.say('ok', `Test page sent to ${describeTarget(uri)}: it names its media and layout and has a ruler in mm.`);
    } catch (error) {
      this.say('fail', `Test page failed: ${describeError(error)}`);
    }
  }

  private async toggle(printer: ConfiguredPrinter): Promise<void> {
    const paused = !printer.paused;
    try {
      await this.ctx.api.setPaused({ paused, printer: printer.uri });
      await this.refresh();
      this.say('ok', `${describeTarget(printer.uri)} ${paused ? 'paused: its jobs wait until it is resumed' : 'resumed'}.`);
    } catch (error) {
      this.say('fail', describeError(error));
    }
  }

  private say(tone: 'ok' | 'fail', text: string): void {
    this.result.className = `inline-result ${tone}`;
    this.result.textContent = text;
  }
}
