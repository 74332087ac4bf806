import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CupsTarget } from '../../../src/main/printing/cups/cups-target';
import { checkPrintersAtStart } from '../../../src/main/printing/startup-check';
import { startPrivateCups, type PrivateCups } from '../../support/cups';
import { startIppEvePrinter, type IppEvePrinter } from '../../support/ippeveprinter';

/** A label queue whose printer lacks 4x6 media is named at start and in readiness with media (Settings), not at each label. */
describe('the media check of a CUPS queue in front of an IPP printer (ippeveprinter)', () => {
  let cups: PrivateCups;
  let a4only: IppEvePrinter;
  let labels: IppEvePrinter;

  beforeAll(async () => {
    a4only = await startIppEvePrinter({ media: ['iso_a4_210x297mm', 'na_letter_8.5x11in'] });
    labels = await startIppEvePrinter();
    cups = await startPrivateCups({ queues: [{ name: 'sink', kind: 'sink' }] });
    await cups.addIppQueue('a4only', a4only.uri);
    await cups.addIppQueue('labels', labels.uri);
  });
  afterAll(async () => {
    await cups?.stop();
    await a4only?.stop();
    await labels?.stop();
  });

  it('warns at start about a label printer without 4x6 media, saying what it offers; a 4x6 printer and a raw sink pass', async () => {
    const lines: string[] = [];
    const media = () => 'label' as const;
    await checkPrintersAtStart(['cups:a4only', 'cups:labels', 'cups:sink'], { env: cups.env }, (line) => lines.push(line), media);
    expect(lines).toEqual([
      `printer cups:a4only: the printer of CUPS queue "a4only" (${a4only.uri}) does not list 4x6 in labels in the media it supports ` +
        '(it offers: iso_a4_210x297mm, na_letter_8.5x11in): load and configure 4x6 in labels on the printer, or route them to another printer.',
    ]);
    // Without the media a printer is for, nothing is said (and no label is held back by it).
    const none: string[] = [];
    await checkPrintersAtStart(['cups:a4only'], { env: cups.env }, (line) => none.push(line));
    expect(none).toEqual([]);
  });

  it('is ready for A4 and for spooling, and not ready for labels, in readiness', async () => {
    const target = new CupsTarget({ uri: 'cups:a4only', queue: 'a4only', env: cups.env });
    expect(await target.readiness()).toEqual({ ready: true, detail: null });
    expect(await target.readiness('a4')).toEqual({ ready: true, detail: null });
    expect((await target.readiness('label')).ready).toBe(false);
    const ok = new CupsTarget({ uri: 'cups:labels', queue: 'labels', env: cups.env });
    expect(await ok.readiness('label')).toEqual({ ready: true, detail: null });
  });
});
