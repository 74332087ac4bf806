/**
 * The ledger's disk fills up and empties again during a burst: the agent's data
 * directory is on a small real disk (tmpfs) that a filler file takes whole, several times,
 * while bookings arrive. Webhooks it cannot record are answered 503 and delivered again (or
 * found by the poller), the lines park while no write goes through and resume by themselves:
 * every label comes out exactly once, none is lost, none fails, and the agent keeps answering.
 *
 * In-process (startHeadlessAgent), so the test can read the agent's status while it works.
 * Skipped, saying why, where no tmpfs can be mounted (it needs root; CI runs as root).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHeadlessAgent, type HeadlessAgent } from '../../src/main/headless';
import { silentLogger } from '../../src/main/log';
import { useRig } from '../support/reliability/rig';
import { SIZES } from '../support/reliability/sizes';
import { PrintedShipments } from '../support/reliability/pdf-shipments';
import { checkPdfs, countPrinted, describeCount } from '../support/reliability/spool-count';
import { sleep, until } from '../support/reliability/wait';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../support/small-disk';

const QUEUE = 'ledger_disk_sink';
const SECRET = 'whsec-ledger-disk-0123456789';
const unavailable = smallDiskUnavailable();

describe.skipIf(unavailable !== null)(
  `ledger disk: full and empty again during a burst${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let agent: HeadlessAgent | null = null;
    let disk: SmallDisk | null = null;
    const rig = useRig({
      name: 'ledger-disk',
      queue: QUEUE,
      secret: SECRET,
      stopAgent: async () => {
        disk?.empty();
        await agent?.stop();
        disk?.close();
      },
    });

    it(`prints each of ${SIZES.ledgerDiskLabels} labels once while the ledger's disk fills up ${SIZES.ledgerDiskFills} times`, async () => {
      const { sandbox, cups, webhookPort } = rig();
      disk = mountSmallDisk(16 * 1024 * 1024);
      const small = disk;
      agent = await startHeadlessAgent({
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        dataDir: join(small.dir, 'data'),
        log: silentLogger,
        environment: 'custom',
        printer: `cups:${QUEUE}`,
        webhookPort,
        webhookSecrets: [SECRET],
        pollIntervalSeconds: 1,
        tuning: {
          targets: { env: cups.env },
          pipeline: { retryBaseMs: 100, retryMaxMs: 1_000, followIntervalMs: 200, ledgerRetryBaseMs: 100, ledgerRetryMaxMs: 1_000 },
        },
      });
      const api = agent.agent.api;

      const shipments: string[] = [];
      const perFill = Math.ceil(SIZES.ledgerDiskLabels / (SIZES.ledgerDiskFills + 1));
      let sawError = 0;
      let slowest = 0;
      for (let fill = 0; shipments.length < SIZES.ledgerDiskLabels; fill++) {
        const n = Math.min(perFill, SIZES.ledgerDiskLabels - shipments.length);
        for (let i = 0; i < n; i++) shipments.push((await sandbox.bookShipment({ reference_id: `LD-${fill}-${i}` })).shipmentId);
        if (fill >= SIZES.ledgerDiskFills) break;
        // Mid-burst: the disk fills up for a while, bookings keep coming, then it has room again.
        await sleep(150 * (fill % 3));
        small.fill();
        for (let i = 0; i < 3 && shipments.length < SIZES.ledgerDiskLabels; i++) {
          shipments.push((await sandbox.bookShipment({ reference_id: `LD-FULL-${fill}-${i}` })).shipmentId);
        }
        const emptyAt = Date.now() + 1_200;
        while (Date.now() < emptyAt) {
          // The agent answers while its ledger cannot be written.
          const started = Date.now();
          const status = await api.getStatus({});
          slowest = Math.max(slowest, Date.now() - started);
          if (status.state === 'error' && status.lastError?.code === 'LEDGER_WRITE_FAILED') sawError += 1;
          await sleep(100);
        }
        small.empty();
      }

      const outputs = (): Promise<string[]> => cups.outputs(QUEUE);
      const printed = new PrintedShipments();
      const labels = async (): Promise<string[]> => printed.update(await outputs());
      await until(`${shipments.length} labels`, async () => (await labels()).length >= shipments.length, {
        timeoutMs: 180_000,
        intervalMs: 500,
        detail: async () => describeCount(countPrinted(await labels(), shipments, (await outputs()).length)),
      });
      await cups.waitForJobs({ queue: QUEUE, timeoutMs: 60_000 });
      await sleep(2_000);

      const files = await outputs();
      const count = countPrinted(await printed.update(files), shipments, files.length);
      const failed = await api.listJobs({ state: 'failed', limit: 500 });
      const status = await api.getStatus({});
      console.log(
        `[ledger-disk] ${shipments.length} labels, disk filled ${SIZES.ledgerDiskFills} times; status showed the ledger failure ` +
          `${sawError} times; slowest status answer ${slowest} ms; ${failed.length} failed: ${describeCount(count)}`,
      );
      expect(count.missing).toEqual([]);
      expect(count.duplicated).toEqual([]);
      expect(count.unexpected).toEqual([]);
      expect((await checkPdfs(files)).broken).toEqual([]);
      expect(failed).toEqual([]);
      expect(sawError).toBeGreaterThan(0);
      expect(slowest).toBeLessThan(1_000);
      expect(status.state).toBe('ok');
      expect(status.lastError).toBeNull();
    });
  },
);
