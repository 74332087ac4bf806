import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { Ledger } from '../../../src/main/ledger/ledger';
import { PrintPipeline } from '../../../src/main/jobs/pipeline';
import type { PdfFetcher } from '../../../src/main/jobs/ports';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { MemoryTarget, notice, tempDir } from '../../support/jobs/fakes';

const LABELS = 'cups:labels';
/** Small enough that the sandbox's labels (about 2.4 kB a page) reach it: 12 one-parcel labels, or one 20-parcel shipment. */
const CAP = 40_000;

/**
 * The byte cap on batches (batchMaxBytes, src/main/jobs/batch-bytes.ts) against the real
 * sandbox: its labels are one page per parcel, so a many-parcel shipment makes a big PDF.
 */
describe('PrintPipeline byte cap with the sandbox', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let tmp: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
    tmp = tempDir('ps-batch-bytes-');
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
    tmp?.cleanup();
  });

  it('keeps every batch PDF under the cap, and sends many-parcel shipments that fill it alone, each once and in order', async () => {
    const calls: { ids: string[]; bytes: number }[] = [];
    const fetcher: PdfFetcher = {
      printFile: async (req) => {
        // Recorded in request order (a small batch may come back before a big one).
        const call = { ids: [...req.shipment_ids], bytes: NaN };
        calls.push(call);
        const result = await client.printFile(req);
        call.bytes = result.pdf.byteLength;
        return result;
      },
    };
    const ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite') });
    // The memory target as a CUPS queue: batching is for cups and windows targets only.
    const target = new MemoryTarget(LABELS);
    Object.defineProperty(target, 'kind', { value: 'cups' });
    const p = new PrintPipeline({
      ledger,
      fetcher,
      targetFor: () => target,
      route: () => ({ target: LABELS, layout: 'printer', media: 'label' }),
      batchMaxBytes: CAP,
      followIntervalMs: 10,
    });
    const book = async (n: number, packages: number): Promise<string[]> => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push((await sandbox.bookShipment({ packages })).shipmentId);
      return ids;
    };
    try {
      await p.start();
      const [first] = await book(1, 1);
      p.submitBooking(notice(first!));
      await p.idle();
      const small = await book(30, 1);
      for (const id of small) p.submitBooking(notice(id));
      await p.idle();
      const smallCalls = calls.slice(1);
      expect(smallCalls.flatMap((c) => c.ids)).toEqual(small);
      expect(smallCalls.length).toBeGreaterThan(1); // still batched
      for (const call of smallCalls) expect(call.bytes).toBeLessThanOrEqual(CAP);

      const [heavyFirst] = await book(1, 20);
      p.submitBooking(notice(heavyFirst!));
      await p.idle();
      expect(calls[calls.length - 1]!.bytes).toBeGreaterThan(CAP); // alone, it fills the cap
      const heavy = await book(4, 20);
      const before = calls.length;
      for (const id of heavy) p.submitBooking(notice(id));
      await p.idle();
      expect(calls.slice(before).map((c) => c.ids)).toEqual(heavy.map((id) => [id]));
      const printed = [first!, ...small, heavyFirst!, ...heavy];
      expect(ledger.counts().completed).toBe(printed.length);
      expect(target.spooled).toHaveLength(calls.length);
    } finally {
      await p.stop();
      ledger.close();
    }
  });
});
