/** Team, environment, agent state and the last print, always visible. */
import type { AgentStatus } from '../../shared/domain';
import { h, replaceChildren } from '../dom';
import { localDateTime } from '../format';

const STATE_WORDS: Readonly<Record<AgentStatus['state'], string>> = {
  ok: 'Running',
  paused: 'Auto-print paused',
  error: 'Error',
  offline: 'Offline',
};

export class StatusBar {
  readonly element = h('footer', { class: 'status-bar', 'aria-label': 'Agent status' });

  show(status: AgentStatus): void {
    const item = (label: string, value: string, cls = '') => h('span', { class: `status-item ${cls}` }, h('span', { class: 'status-label' }, label), value);
    replaceChildren(
      this.element,
      item('State', STATE_WORDS[status.state] ?? status.state, `state state-${status.state}`),
      item('Team', status.team ?? '—'),
      item('Environment', status.environment),
      item('Last print', localDateTime(status.lastPrintAt)),
      status.queued > 0 ? item('Queued', String(status.queued)) : null,
      status.failed > 0 ? item('Failed', String(status.failed), 'warn') : null,
      status.lastError
        ? h('span', { class: 'status-item error', title: status.lastError.message }, h('span', { class: 'status-label' }, 'Last error'), lastError(status))
        : null,
    );
  }

  offline(message: string): void {
    replaceChildren(this.element, h('span', { class: 'status-item state state-offline' }, h('span', { class: 'status-label' }, 'State'), 'Offline'), h('span', { class: 'status-item error' }, message));
  }
}

function lastError(status: AgentStatus): string {
  const e = status.lastError;
  if (!e) return '';
  return e.requestId && !e.message.includes(e.requestId) ? `${e.message} (request id ${e.requestId})` : e.message;
}
