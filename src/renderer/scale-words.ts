/** The scale's state and weight in the UI language: `1.234 kg` when stable, `Moving · 1.240 kg`, `Offline`. */
import type { ScaleState, ScaleStatus } from '../shared/scale';
import { localWeight } from './format';
import { t, type MessageKey } from './i18n';

const STATE_WORDS: Readonly<Record<ScaleState, MessageKey>> = {
  stable: 'scale.state.stable',
  motion: 'scale.state.motion',
  zero: 'scale.state.zero',
  under: 'scale.state.under',
  over: 'scale.state.over',
  offline: 'scale.state.offline',
};

export function scaleStateWords(state: ScaleState): string {
  return t(STATE_WORDS[state]);
}

export function scaleWords(status: ScaleStatus): string {
  if (status.state === 'stable' && status.kg !== null) return localWeight(status.kg);
  if (status.state === 'motion' && status.kg !== null) return `${scaleStateWords('motion')} · ${localWeight(status.kg)}`;
  return scaleStateWords(status.state);
}
