/**
 * The test label of a raw ZPL printer, written in ZPL itself (not a rasterized PDF): it shows
 * what the printer was told (the dpi the agent renders at), what the printer says it is
 * (`~HI`), and a millimetre ruler drawn in dots, so a ruler held against it shows at once
 * whether the dpi is right.
 */
import type { ZplDpi } from './zpl-raster';
import type { ZplIdentity } from './zpl-status';

export interface ZplTestLabelFacts {
  readonly uri: string;
  readonly dpi: ZplDpi;
  /** What `~HI` answered; null when the printer did not say. */
  readonly identity: ZplIdentity | null;
  readonly at: Date;
  /** @default 4 x 6 in at `dpi` */
  readonly widthDots?: number;
  readonly heightDots?: number;
}

/** Field data may not contain ^ or ~ (they start commands); anything else prints as is. */
function text(value: string): string {
  return value.replace(/[\^~]/g, ' ');
}

export function zplTestLabel(facts: ZplTestLabelFacts): string {
  const dpmm = facts.dpi / 25.4;
  const width = facts.widthDots ?? Math.round(4 * facts.dpi);
  const height = facts.heightDots ?? Math.round(6 * facts.dpi);
  const margin = Math.round(3 * dpmm);
  const font = Math.round(3 * dpmm);
  const identity = facts.identity
    ? `${facts.identity.model} ${facts.identity.firmware}, ${facts.identity.dotsPerMm} dots/mm, ${facts.identity.memory}`
    : 'not asked (a spooler stands between)';
  const lines = [
    `Printer: ${facts.uri}`,
    `Rendered at: ${facts.dpi} dpi (${(facts.dpi / 25.4).toFixed(2)} dots/mm)`,
    `Printer identity: ${identity}`,
    `Label: ${width} x ${height} dots`,
    `Printed: ${facts.at.toISOString()}`,
    'Ruler: every tick 1 mm, numbered every 10 mm.',
    'The 50 mm mark must measure 50 mm.',
  ];
  const parts = [`^XA^CI28^PW${width}^LL${height}^LH0,0`];
  parts.push(`^FO${margin},${margin}^GB${width - 2 * margin},${height - 2 * margin},${Math.max(2, Math.round(dpmm / 2))}^FS`);
  parts.push(`^FO${margin * 3},${margin * 3}^A0N,${font * 2},${font * 2}^FDPrint Station^FS`);
  parts.push(`^FO${margin * 3},${margin * 3 + font * 3}^A0N,${font + 4},${font + 4}^FDTest label (ZPL)^FS`);
  lines.forEach((line, i) => {
    parts.push(`^FO${margin * 3},${margin * 3 + font * 6 + i * Math.round(font * 1.5)}^A0N,${font},${font}^FD${text(line)}^FS`);
  });
  // The ruler along the bottom: ticks 1 mm apart, taller every 5 and 10 mm.
  const x0 = margin * 3;
  const baseline = height - margin * 3;
  const length = Math.floor((width - 6 * margin) / dpmm);
  const thin = Math.max(1, Math.round(dpmm / 6));
  parts.push(`^FO${x0},${baseline}^GB${Math.round(length * dpmm) + thin},${thin},${thin}^FS`);
  for (let mm = 0; mm <= length; mm++) {
    const tall = Math.round((mm % 10 === 0 ? 5 : mm % 5 === 0 ? 3 : 1.5) * dpmm);
    parts.push(`^FO${x0 + Math.round(mm * dpmm)},${baseline - tall}^GB${thin},${tall},${thin}^FS`);
    if (mm % 10 === 0) parts.push(`^FO${x0 + Math.round(mm * dpmm) + thin * 2},${baseline - tall - font}^A0N,${font},${font}^FD${mm}^FS`);
  }
  parts.push('^PQ1,0,1,Y^XZ\n');
  return parts.join('');
}
