/**
 * A field problem (src/shared/domain.ts FieldProblem) in the UI's language: the field named
 * from its path (`packages[0].weight_kg` → "Vikt (kg), kollirad 1"), the reason from its code.
 * What the station has no words for (a field or a message only the service knows) is shown
 * as the agent wrote it, marked as such.
 */
import type { FieldProblem } from '../shared/domain';
import { t, tMaybe, type MessageKey } from './i18n';

const PARCEL_FIELDS: Readonly<Record<string, MessageKey>> = {
  width_cm: 'parcels.width',
  height_cm: 'parcels.height',
  depth_cm: 'parcels.length',
  weight_kg: 'parcels.weight',
  quantity: 'parcels.quantity',
};

const PARTIES: Readonly<Record<string, MessageKey>> = { from: 'packPanel.sender', to: 'packPanel.receiver' };

export interface ProblemWords {
  readonly label: string;
  readonly message: string;
  /** False when either part is the agent's own (English) text. */
  readonly translated: boolean;
}

export function fieldProblemWords(p: FieldProblem): ProblemWords {
  const label = fieldLabelWords(p.field);
  const message = p.code ? t(`problem.${p.code}`, p.params ?? {}) : null;
  return { label: label ?? p.label, message: message ?? p.message, translated: label !== null && message !== null };
}

/** One problem as one line: `label: message`. */
export function problemLine(p: FieldProblem): string {
  const w = fieldProblemWords(p);
  return `${w.label}: ${w.message}`;
}

function fieldLabelWords(path: string): string | null {
  const parcel = /^packages\[(\d+)\]\.(\w+)$/.exec(path);
  if (parcel) {
    const key = PARCEL_FIELDS[parcel[2]!];
    return key ? t('parcels.fieldOfLine', { field: t(key), n: Number(parcel[1]) + 1 }) : null;
  }
  const party = /^(from|to)\.(.+)$/.exec(path);
  if (party) {
    const field = tMaybe(`partyField.${party[2]!}`);
    const who = PARTIES[party[1]!];
    return field && who ? t('problem.partyField', { party: t(who), field }) : null;
  }
  return null;
}
