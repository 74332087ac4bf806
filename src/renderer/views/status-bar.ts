/** Team, environment, agent state and the last print, always visible. */
import type { AgentStatus } from '../../shared/domain';
import { h, replaceChildren } from '../dom';
import { localDateTime, localNumber } from '../format';
import { t, tMaybe, type MessageKey } from '../i18n';
import { agentWords, errorWords } from '../agent-words';
import type { ScaleStatus } from '../../shared/scale';
import { scaleWords } from '../scale-words';

const STATE_WORDS: Readonly<Record<AgentStatus['state'], MessageKey>> = {
  ok: 'status.state.ok',
  paused: 'status.state.paused',
  error: 'status.state.error',
  offline: 'status.state.offline',
};

export class StatusBar {
  readonly element = h('footer', { class: 'status-bar', 'aria-label': t('status.aria') });
  /** The scale's item, updated in place on every reading (a reading is not a whole status). */
  private scaleItem: HTMLElement | null = null;

  show(status: AgentStatus): void {
    // The bar is one line: a value cut short says the whole of itself on hover (the service's
    // own words, the team's name, marked as such there too).
    const item = (label: string, value: string, cls = '', verbatim = false) =>
      h(
        'span',
        { class: `status-item ${cls}` },
        h('span', { class: 'status-label' }, label),
        h('span', { title: value, 'data-verbatim': verbatim ? '' : null }, value),
      );
    replaceChildren(
      this.element,
      item(t('status.state'), STATE_WORDS[status.state] ? t(STATE_WORDS[status.state]) : status.state, `state state-${status.state}`),
      // The team's name is the service's: shown as written.
      item(t('status.team'), status.team ?? '—', '', true),
      item(t('status.environment'), tMaybe(`status.env.${status.environment}`) ?? status.environment),
      item(t('status.lastPrint'), localDateTime(status.lastPrintAt), 'last-print'),
      status.queued > 0 ? item(t('status.queued'), localNumber(status.queued)) : null,
      // The scale beside the printers: its state, and its weight when it has one.
      (this.scaleItem = status.scale ? this.scaleElement(status.scale) : null),
      status.failed > 0 ? item(t('status.failed'), localNumber(status.failed), 'warn') : null,
      // Each printer that says it is not ready, in its own words (paper out, head open, paused).
      ...(status.printerProblems ?? []).map((problem) => {
        const words = agentWords(problem.detailMessage, problem.detail);
        return h(
          'span',
          { class: 'status-item error printer-problem', title: words, 'data-printer': problem.uri },
          h('span', { class: 'status-label' }, t('status.printerNotReady')),
          words,
        );
      }),
      status.lastError
        ? h(
            'span',
            { class: 'status-item error', title: lastError(status) },
            h('span', { class: 'status-label' }, t('status.lastError')),
            lastError(status),
          )
        : null,
    );
  }

  /** A new reading of the scale (the `scale` event): only its item changes. */
  scale(reading: ScaleStatus): void {
    const item = this.scaleItem;
    if (!item) return;
    const fresh = this.scaleElement({ uri: item.getAttribute('data-scale') ?? '', ...reading });
    item.replaceWith(fresh);
    this.scaleItem = fresh;
  }

  private scaleElement(scale: NonNullable<AgentStatus['scale']>): HTMLElement {
    const tone = scale.state === 'offline' ? 'error' : scale.state === 'stable' || scale.state === 'zero' ? '' : 'warn';
    return h(
      'span',
      {
        class: `status-item scale scale-${scale.state} ${tone}`,
        title: `${t('status.scale')}: ${scaleWords(scale)}`,
        'data-scale': scale.uri,
        'data-scale-state': scale.state,
      },
      h('span', { class: 'status-label' }, t('status.scale')),
      scaleWords(scale),
    );
  }

  offline(message: string): void {
    this.scaleItem = null;
    replaceChildren(
      this.element,
      h(
        'span',
        { class: 'status-item state state-offline' },
        h('span', { class: 'status-label' }, t('status.state')),
        t('status.state.offline'),
      ),
      h('span', { class: 'status-item error' }, message),
    );
  }
}

function lastError(status: AgentStatus): string {
  const e = status.lastError;
  return e ? errorWords(e) : '';
}
