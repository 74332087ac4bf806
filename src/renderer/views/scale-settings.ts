/**
 * Settings → Scale: the station's one scale (its URI, saved by the one Save with the rest),
 * the live reading and the identity the scale reports (`scaleDetails`), so whoever sets it up
 * sees at once that the scale answers and which one it is.
 */
import type { AgentClient } from '../../shared/agent-api';
import type { ScaleDetails } from '../../shared/scale';
import { h, replaceChildren } from '../dom';
import { t } from '../i18n';
import { scaleWords } from '../scale-words';

export class ScaleSettingsPanel {
  readonly uri = h('input', { id: 'set-scale', name: 'scale', autocomplete: 'off', spellcheck: 'false', placeholder: 'none' });
  private readonly reading = h('p', { class: 'scale-reading', role: 'status', 'aria-live': 'polite' });
  private readonly identity = h('p', { class: 'scale-identity hint' });
  /** Which command weights are asked with: a scale that refuses SIR or SI is still used, and this says how. */
  private readonly command = h('p', { class: 'scale-command hint' });
  readonly element: HTMLElement;
  /** The URI as last saved or loaded: Save sends the field only when it differs. */
  private loaded = 'none';
  private refreshing = false;

  constructor(private readonly api: AgentClient) {
    this.element = h(
      'fieldset',
      { class: 'scale-settings' },
      h('legend', {}, t('settings.scale')),
      h(
        'div',
        { class: 'field' },
        h('label', { for: this.uri.id }, t('settings.scaleUri')),
        this.uri,
        h('span', { class: 'hint' }, t('settings.scaleHint')),
      ),
      this.reading,
      this.identity,
      this.command,
    );
  }

  fill(uri: string | undefined, dirty: boolean): void {
    this.loaded = uri ?? 'none';
    if (!dirty) this.uri.value = this.loaded;
  }

  /** `{ scale }` for saveSettings when the field was changed; else nothing. */
  patch(): { scale?: string } {
    const typed = this.uri.value.trim() || 'none';
    return typed === this.loaded ? {} : { scale: typed };
  }

  /** Asks the agent for the reading and identity now (on opening the section, on each reading). */
  async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      this.show(await this.api.scaleDetails({}));
    } catch {
      // The state bar says when the agent cannot be reached; this panel keeps its last words.
    } finally {
      this.refreshing = false;
    }
  }

  private show(details: ScaleDetails): void {
    if (details.uri === 'none') {
      replaceChildren(this.reading, t('settings.scaleNone'));
      replaceChildren(this.identity);
      replaceChildren(this.command);
      return;
    }
    replaceChildren(
      this.reading,
      h('span', { class: 'status-label' }, `${t('settings.scaleReading')}: `),
      h('span', { class: `scale-${details.state}`, 'data-scale-state': details.state }, scaleWords(details)),
      details.problem ? h('span', { class: 'hint', 'data-verbatim': '' }, ` (${details.problem})`) : null,
    );
    replaceChildren(
      this.identity,
      details.identity ? `${t('settings.scaleIdentity')} ` : t('settings.scaleNoIdentity'),
      details.identity ? h('span', { 'data-verbatim': '' }, details.identity) : null,
    );
    replaceChildren(
      this.command,
      ...(details.command ? [`${t('settings.scaleCommand')} `, h('span', { 'data-verbatim': '' }, details.command)] : []),
    );
  }
}
