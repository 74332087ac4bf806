/**
 * The label that went out, in sight: in Chromium at 800x600 against the real headless agent
 * and the sandbox, a label printed automatically and a reprint each show their picture in the
 * scan view (an image named for the shipment), the picture is that label (compared block by
 * block with the printed PDF rendered by poppler's pdftoppm: nearer to it than to another
 * shipment's label), and it leaves Reprint in sight and clickable, covering no control.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, SCREENS_DIR, stationTest as test } from './fixtures';
import { Poppler } from '../support/poppler';
import { pdfsIn } from '../support/station';

const run = promisify(execFile);

/** Grey levels (0–255), one per pixel, row by row. */
interface Grey {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

/** The picture the page shows, as the browser decoded it. */
async function shownPicture(page: Page, name: string): Promise<Grey> {
  return page.getByRole('img', { name }).evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(img, 0, 0);
    const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const pixels: number[] = [];
    for (let i = 0; i < rgba.length; i += 4) pixels.push(Math.round(0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!));
    return { width: canvas.width, height: canvas.height, pixels: pixels as unknown as Uint8Array };
  });
}

/** The PDF's first page rendered by pdftoppm (poppler, not the agent's MuPDF) at exactly `width` × `height`, in grey. */
async function renderedPdf(file: string, width: number, height: number): Promise<Grey> {
  const dir = await mkdtemp(join(tmpdir(), 'ps-preview-'));
  try {
    const prefix = join(dir, 'page');
    await run('pdftoppm', [
      '-gray',
      '-singlefile',
      '-f',
      '1',
      '-l',
      '1',
      '-scale-to-x',
      String(width),
      '-scale-to-y',
      String(height),
      file,
      prefix,
    ]);
    return parsePgm(await readFile(`${prefix}.pgm`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A binary PGM (P5, 8 bits): what pdftoppm -gray writes. */
function parsePgm(bytes: Buffer): Grey {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 64).toString('latin1'));
  if (!header || header[3] !== '255') throw new Error('pdftoppm wrote no 8-bit PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: bytes.subarray(header[0].length, header[0].length + width * height) };
}

/** The picture in blocks of BLOCK × BLOCK pixels, each its mean grey. */
const BLOCK = 8;
function blocks(picture: Grey): number[] {
  const columns = Math.floor(picture.width / BLOCK);
  const rows = Math.floor(picture.height / BLOCK);
  const means: number[] = [];
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < columns; bx++) {
      let sum = 0;
      for (let y = by * BLOCK; y < (by + 1) * BLOCK; y++) {
        for (let x = bx * BLOCK; x < (bx + 1) * BLOCK; x++) sum += picture.pixels[y * picture.width + x]!;
      }
      means.push(sum / (BLOCK * BLOCK));
    }
  }
  return means;
}

/**
 * How far the picture is from each of two labels, over the 8 × 8 blocks where those two labels
 * (drawn by one renderer) differ by more than 40 grey levels: their addresses, references,
 * barcodes. Elsewhere the two are alike, and there two renderers' ways of smoothing thin bars and
 * small text are all a comparison would measure. Mean distances 0 (the same) to 255, and (for
 * the failure message) the share of those blocks nearer to `one` than to `other`.
 */
function distances(picture: Grey, one: Grey, other: Grey): { one: number; other: number; blocks: number; nearerOne: number } {
  for (const label of [one, other]) expect([label.width, label.height]).toEqual([picture.width, picture.height]);
  const [p, a, b] = [blocks(picture), blocks(one), blocks(other)];
  const differing = a.map((_, i) => i).filter((i) => Math.abs(a[i]! - b[i]!) > 40);
  const mean = (label: number[]): number => differing.reduce((sum, i) => sum + Math.abs(p[i]! - label[i]!), 0) / differing.length;
  const nearerOne = differing.filter((i) => Math.abs(p[i]! - a[i]!) < Math.abs(p[i]! - b[i]!)).length / differing.length;
  return { one: mean(a), other: mean(b), blocks: differing.length, nearerOne };
}

/** Whether the element itself (or something inside it) is what a click at its centre reaches. */
async function clickable(page: Page, name: string): Promise<boolean> {
  return page.getByRole('button', { name, exact: true }).evaluate((button) => {
    const box = button.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && button.contains(hit);
  });
}

test('a printed label and a reprint show their picture in the scan view, the right one, with Reprint in sight at 800x600', async ({
  page,
  station,
  snap,
}) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(station.url);
  await page.getByRole('tab', { name: 'Scan', exact: true }).click();

  // Printed automatically while the scan view is open: its picture appears.
  const first = await station.book();
  const firstName = `The label that went out: ${first.referenceId}`;
  await expect(page.getByRole('img', { name: firstName })).toBeVisible();

  // Scanned: the shipment with its Reprint. Another shipment prints meanwhile and shows instead.
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill(first.trackingId);
  await scan.press('Enter');
  const reprint = page.getByRole('button', { name: 'Reprint label', exact: true });
  await expect(reprint).toBeVisible();
  const second = await station.book();
  const secondName = `The label that went out: ${second.referenceId}`;
  await expect(page.getByRole('img', { name: secondName })).toBeVisible();
  await expect(page.getByRole('img', { name: firstName })).toHaveCount(0);

  // Reprinted: the first label's picture again, and Reprint still in sight and not covered.
  await reprint.click();
  const picture = page.getByRole('img', { name: firstName });
  await expect(picture).toBeVisible();
  await expect(page.locator('.label-preview figcaption')).toHaveText(first.referenceId);
  await expect.poll(async () => (await pdfsIn(station.printsDir)).filter((f) => f.startsWith(first.shipmentId)).length).toBe(2);
  await expect(picture).toBeInViewport({ ratio: 1 });
  await expect(reprint).toBeInViewport({ ratio: 1 });
  expect(await clickable(page, 'Reprint label')).toBe(true);
  // The picture lies in the scan view's flow beside the scan box, clear of the state bar, so it
  // covers nothing: no control of the view (Reprint's panel, the scan box) is under it, and
  // the state bar is not.
  const overlap = await page.evaluate(() => {
    const picture = document.querySelector('.label-preview')!.getBoundingClientRect();
    const bar = document.querySelector('.status-bar')!.getBoundingClientRect();
    const covered = Array.from(document.querySelectorAll('#view-scan :is(button, select, input, a[href])'))
      .filter((control) => {
        const box = control.getBoundingClientRect();
        return (
          box.width > 0 && box.left < picture.right && picture.left < box.right && box.top < picture.bottom && picture.top < box.bottom
        );
      })
      .map((control) => control.id || control.textContent);
    return { covered, overBar: Math.max(0, picture.bottom - bar.top) };
  });
  expect(overlap).toEqual({ covered: [], overBar: 0 });
  await snap('label-preview-reprint-800x600');
  await page.screenshot({ path: join(SCREENS_DIR, 'label-preview-reprint-800x600-viewport.png') });

  // The picture is the label that went out: where the first and second shipments' printed PDFs
  // (drawn by poppler's pdftoppm, not the agent's MuPDF) differ, it is the first's. That PDF's
  // barcode, read by zbarimg, is the first shipment's tracking number.
  const shown = await shownPicture(page, firstName);
  expect(shown.width).toBeGreaterThan(100);
  const pdfs = await pdfsIn(station.printsDir);
  const ownPdf = join(
    station.printsDir,
    pdfs.find((f) => f.startsWith(first.shipmentId))!,
  );
  const otherPdf = join(
    station.printsDir,
    pdfs.find((f) => f.startsWith(second.shipmentId))!,
  );
  const poppler = await Poppler.create();
  try {
    expect(await poppler.barcodes(ownPdf, 1)).toContain(`CODE-128:${first.trackingId}`);
  } finally {
    await poppler.dispose();
  }
  const far = distances(
    shown,
    await renderedPdf(ownPdf, shown.width, shown.height),
    await renderedPdf(otherPdf, shown.width, shown.height),
  );
  const figures = `${far.one.toFixed(1)} from its own label, ${far.other.toFixed(1)} from the other, over ${far.blocks} blocks, ${Math.round(far.nearerOne * 100)} % nearer its own`;
  // The barcode alone differs in a few dozen blocks. Runs measured the picture about 3 times
  // nearer its own label than the other; with the two labels swapped, about a third.
  expect(far.blocks, figures).toBeGreaterThan(20);
  expect(far.other, figures).toBeGreaterThan(far.one * 2);
});
