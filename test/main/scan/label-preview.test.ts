/**
 * The label that went out, as a small PNG rendered from its PDF (MuPDF), against the sandbox
 * and the headless agent: bounded in size, kept per job, null for a job the station does not know.
 */
import { afterEach, expect, it } from 'vitest';
import { startStation, waitFor, type Station } from '../../support/agent-harness';

let station: Station | null = null;
afterEach(async () => {
  await station?.close();
  station = null;
});

it('renders a printed job as a PNG of at most 240 × 360, kept, and answers null for an unknown job', async () => {
  station = await startStation();
  const agent = await station.start();
  const booked = await station.sandbox.bookShipment({ source: 'API' });
  await waitFor(async () => (await station!.prints()).length === 1, 'the label printed');
  const [job] = agent.agent.ledger.search({ text: booked.shipmentId, limit: 5 });
  expect(job).toBeDefined();
  const api = agent.agent.api;
  const prints = (): number =>
    station!.sandbox.requestLog().filter((r) => r.method === 'POST' && r.url.includes('/shipments/print')).length;
  const before = prints();

  const preview = await api.labelPreview({ jobId: job!.id });
  expect(preview).not.toBeNull();
  const png = Buffer.from(preview!.pngBase64, 'base64');
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.readUInt32BE(16)).toBe(preview!.width);
  expect(png.readUInt32BE(20)).toBe(preview!.height);
  expect(preview!.width).toBeLessThanOrEqual(240);
  expect(preview!.height).toBeLessThanOrEqual(360);
  expect(Math.max(preview!.width / 240, preview!.height / 360)).toBeGreaterThan(0.99);
  expect(prints()).toBe(before + 1);

  expect(await api.labelPreview({ jobId: job!.id })).toEqual(preview);
  expect(prints()).toBe(before + 1);
  expect(await api.labelPreview({ jobId: 'no-such-job' })).toBeNull();
});
