/**
 * The configured printers as one list: each one row with what it prints (labels, documents,
 * the routing rules that send to it), its readiness, a test page and its own Pause/Resume. A
 * paused printer's jobs wait in the ledger, in order, while the other printers go on (the
 * pipeline holds that printer's line; nothing is lost or printed twice). Shown at the head of
 * Settings → Printers.
 */
import type { ConfiguredPrinter, JobView, PrinterInfo } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { describeTarget, listWords, localNumber } from '../format';
import { t, type MessageKey } from '../i18n';
import { readiness, type Readiness } from '../words';

const pill = (state: Readiness) => h('span', { class: `readiness ${state.tone}` }, state.words);

const ROLE_WORDS: Readonly<Record<ConfiguredPrinter['roles'][number], MessageKey>> = {
  label: 'pauses.role.label',
  document: 'pauses.role.document',
};

/** Job states that mean paper is being made now (or the spooler has it). */
const AT_PRINTER: ReadonlySet<JobView['state']> = new Set(['fetching', 'spooling', 'spooled']);

/**
 * What the pill says, truthfully: paused (by hand here), printing (a job at it now), else what
 * the printer itself says (ready, stopped with its reason, not reachable), or unknown.
 */
export function printerPill(paused: boolean, printing: boolean, found: PrinterInfo | undefined): Readiness {
  if (paused) return { tone: 'warn', words: t('pauses.paused') };
  if (printing) return { tone: 'ok', words: t('pauses.printing') };
  if (!found) return { tone: 'unknown', words: t('pauses.notReachable') };
  return readiness(found);
}

export class PrinterPauseList {
  readonly element: HTMLElement;
  private found: readonly PrinterInfo[] = [];
  private busy: ReadonlySet<string> = new Set();
  private readonly list: HTMLElement;
  private readonly result: HTMLElement;

  constructor(private readonly ctx: UiContext) {
    this.list = h('ul', { class: 'printer-pauses', 'aria-label': t('pauses.title') });
    this.result = h('p', { class: 'inline-result', role: 'status' });
    this.element = h('div', { class: 'printer-pause-list' }, h('h3', {}, t('pauses.title')), this.list, this.result);
  }

  async refresh(): Promise<void> {
    try {
      const [configured, found, jobs] = await Promise.all([
        this.ctx.api.listConfiguredPrinters({}),
        this.ctx.printers().catch(() => [] as readonly PrinterInfo[]),
        this.ctx.api.listJobs({ limit: 200 }).catch(() => [] as readonly JobView[]),
      ]);
      this.found = found;
      this.busy = new Set(jobs.filter((j) => AT_PRINTER.has(j.state)).map((j) => j.target));
      this.render(configured);
    } catch (error) {
      this.say('fail', t('pauses.listFailed', { error: describeError(error) }));
    }
  }

  private render(printers: readonly ConfiguredPrinter[]): void {
    if (printers.length === 0) replaceChildren(this.list, h('li', { class: 'muted' }, t('pauses.none')));
    else replaceChildren(this.list, ...printers.map((p) => this.item(p)));
  }

  /** Named in Settings → Printers by name (not only the label or document printer chosen). */
  private named(printer: ConfiguredPrinter): boolean {
    return (this.ctx.settings?.routing.printers ?? []).some((p) => p.name === printer.name && p.uri === printer.uri);
  }

  /** "labels · rules 1, 3": its roles, and the routing rules (numbered as in the form) that name it. */
  private roleWords(printer: ConfiguredPrinter): string {
    const rules = (this.ctx.settings?.routing.rules ?? [])
      .map((rule, i) => ({ rule, n: i + 1 }))
      .filter(({ rule }) => rule.printer === printer.uri || (printer.name !== undefined && rule.printer === printer.name))
      .map(({ n }) => localNumber(n));
    const roles = listWords(printer.roles.map((r) => t(ROLE_WORDS[r])));
    const ruled = rules.length > 0 ? t('pauses.rules', { count: rules.length, rules: rules.join(', ') }) : '';
    return [roles, ruled].filter(Boolean).join(' · ');
  }

  private item(printer: ConfiguredPrinter): HTMLElement {
    const name = describeTarget(printer.uri);
    const verb = printer.paused ? t('action.resume') : t('action.pause');
    const label = printer.paused ? t('pauses.resumeName', { name }) : t('pauses.pauseName', { name });
    const pressed = String(printer.paused);
    const button = h('button', { type: 'button', class: 'printer-pause', 'aria-pressed': pressed, 'aria-label': label }, verb);
    button.addEventListener('click', () => void this.toggle(printer));
    const test = h(
      'button',
      { type: 'button', class: 'printer-test', 'aria-label': t('pauses.testPageOn', { name }) },
      t('pauses.testPage'),
    );
    test.addEventListener('click', () => void this.testPage(printer.uri));
    return h(
      'li',
      { class: `printer-pause-item${printer.paused ? ' paused' : ''}` },
      h('span', { class: 'printer-name' }, this.named(printer) ? `${printer.name} (${name})` : name),
      h('span', { class: 'printer-detail' }, this.roleWords(printer)),
      pill(
        printerPill(
          printer.paused,
          this.busy.has(printer.uri),
          this.found.find((f) => f.uri === printer.uri),
        ),
      ),
      test,
      button,
    );
  }

  /** A page with the printer's media, layout and a millimetre ruler (test-page.ts). */
  private async testPage(uri: string): Promise<void> {
    try {
      await this.ctx.api.testPrint({ printer: uri });
      this.say('ok', t('pauses.testPageSent', { target: describeTarget(uri) }));
    } catch (error) {
      this.say('fail', t('pauses.testPageFailed', { error: describeError(error) }));
    }
  }

  private async toggle(printer: ConfiguredPrinter): Promise<void> {
    const paused = !printer.paused;
    try {
      await this.ctx.api.setPaused({ paused, printer: printer.uri });
      await this.refresh();
      this.say(
        'ok',
        paused
          ? t('pauses.nowPaused', { target: describeTarget(printer.uri) })
          : t('pauses.nowResumed', { target: describeTarget(printer.uri) }),
      );
    } catch (error) {
      this.say('fail', describeError(error));
    }
  }

  private say(tone: 'ok' | 'fail', text: string): void {
    this.result.className = `inline-result ${tone}`;
    this.result.textContent = text;
  }
}
