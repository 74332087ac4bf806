/**
 * Settings → Printers and routing: the station's printers (name, URI, media, sheet layout,
 * fallback), the routing rules and the per-document defaults, edited as one JSON block
 * (docs/OPERATIONS.md, "Several printers"). Checked here with the same schema the agent
 * uses, then saved; the agent refuses names and URIs that lead nowhere, naming the field.
 */
import { z } from 'zod';
import { printerEntrySchema, routingRuleSchema } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h } from '../dom';

const editedSchema = z
  .object({
    printers: z.array(printerEntrySchema).default([]),
    rules: z.array(routingRuleSchema).default([]),
    defaults: z.record(z.string(), z.string().min(1)).default({}),
  })
  .strict();

export class PrintersEditor {
  readonly element: HTMLElement;
  private readonly text: HTMLTextAreaElement;
  private readonly result: HTMLElement;

  constructor(private readonly ctx: UiContext) {
    this.text = h('textarea', {
      id: 'printers-json',
      rows: '12',
      spellcheck: 'false',
      'aria-label': 'Printers, rules and defaults (JSON)',
    });
    const save = h('button', { type: 'button', class: 'printers-save' }, 'Save printers and rules');
    save.addEventListener('click', () => void this.save());
    this.result = h('p', { class: 'inline-result', role: 'status' });
    this.element = h(
      'div',
      { class: 'printers-editor' },
      h('h3', {}, 'Printers and routing rules'),
      this.text,
      h('div', { class: 'row' }, save, this.result),
    );
  }

  async refresh(): Promise<void> {
    try {
      const { routing } = await this.ctx.api.getSettings({});
      this.text.value = JSON.stringify(
        { printers: routing.printers ?? [], rules: routing.rules ?? [], defaults: routing.defaults ?? {} },
        null,
        2,
      );
    } catch (error) {
      this.say('fail', `Printers could not be read: ${describeError(error)}`);
    }
  }

  private async save(): Promise<void> {
    let raw: unknown;
    try {
      raw = JSON.parse(this.text.value);
    } catch (error) {
      this.say('fail', `Not valid JSON (${(error as Error).message}): correct it and save again.`);
      return;
    }
    const parsed = editedSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      this.say('fail', `"${issue.path.join('.') || '(top)'}" is invalid: ${issue.message}. Correct it and save again.`);
      return;
    }
    try {
      await this.ctx.api.saveSettings({ routing: parsed.data });
      this.say('ok', `Saved: ${parsed.data.printers.length} printer(s), ${parsed.data.rules.length} rule(s).`);
    } catch (error) {
      this.say('fail', `Not saved: ${describeError(error)}`);
    }
  }

  private say(tone: 'ok' | 'fail', text: string): void {
    this.result.className = `inline-result ${tone}`;
    this.result.textContent = text;
  }
}

/** The editor, filled in from the settings; one call where Settings mounts it. */
export function mountPrintersEditor(ctx: UiContext): HTMLElement {
  const editor = new PrintersEditor(ctx);
  void editor.refresh();
  return editor.element;
}
