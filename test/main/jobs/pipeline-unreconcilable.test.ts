import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { ApiError } from '../../../src/main/api/errors';
import type { JobRecord } from '../../../src/main/ledger/job-record';
import { ServiceTarget, type ServicePrintPort } from '../../../src/main/printing/service/service-target';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { WindowsTarget, type PdfToPrinterModule } from '../../../src/main/printing/windows/windows-target';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { notice } from '../../support/jobs/fakes';
import { Harness } from '../../support/jobs/harness';

const WIN = 'windows:Zebra';
const SVC = 'service:5b3a2f0e-6f0c-4c5e-9a51-0d4c6f1e7a01';
const BENCH = '5b3a2f0e-6f0c-4c5e-9a51-0d4c6f1e7a01';

/** pdf-to-printer is what cannot run here: the fake records what SumatraPDF was given. */
function fakeSumatra(): PdfToPrinterModule & { printed: string[] } {
  const printed: string[] = [];
  return { printed, print: async (file) => void printed.push(file), getPrinters: async () => [{ deviceId: 'Zebra', name: 'Zebra' }] };
}

/**
 * Review H1 and M3: targets that cannot say what they printed (windows, service) are
 * never sent a job again on a guess, neither after a restart nor after an ambiguous error.
 */
describe('PrintPipeline with targets that cannot be reconciled', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let sumatra: ReturnType<typeof fakeSumatra>;
  let servicePort: ServicePrintPort & { calls: number; failFirst: (() => Error) | null };
  let h: Harness;

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });
  beforeEach(() => {
    sumatra = fakeSumatra();
    servicePort = {
      calls: 0,
      failFirst: null,
      printToPrinter: async (req) => {
        servicePort.calls += 1;
        const fail = servicePort.failFirst;
        servicePort.failFirst = null;
        if (fail) throw fail();
        return client.printToPrinter(req);
      },
    };
    const targets = new Map<string, PrinterTarget>([
      [WIN, new WindowsTarget({ uri: WIN, name: 'Zebra', pdfToPrinter: sumatra })],
      [SVC, new ServiceTarget({ uri: SVC, printerId: BENCH, service: servicePort })],
    ]);
    h = new Harness(targets, WIN);
  });
  afterEach(async () => {
    await h.close();
  });

  /** What a run killed at the given point leaves in the ledger. */
  function leftByCrash(target: string, shipmentId: string, state: 'spooling' | 'spooled', spoolAttempted: boolean): JobRecord {
    const job = h.ledger.createAutoJob({ shipmentId, documentType: 'label', layout: 'printer', target, trigger: 'webhook' }).job;
    h.ledger.transition(job.id, 'fetching', { incrementAttempts: true });
    return h.ledger.transition(job.id, state, { spoolAttempted });
  }

  it('prints a Windows job once and never again at later restarts', async () => {
    const first = h.pipeline();
    await first.start();
    const [job] = first.submitBooking(notice('s1'));
    await first.idle();
    expect(h.ledger.get(job!.id)).toMatchObject({ state: 'completed' });
    for (let run = 0; run < 3; run++) {
      await h.restart();
      const p = h.pipeline();
      await p.start();
      await p.idle();
    }
    expect(sumatra.printed).toHaveLength(1);
    expect(h.ledger.get(job!.id)).toMatchObject({ state: 'completed', attempts: 1 });
  });

  it('after a crash: a Windows job handed over is completed, one caught mid-spool fails as "may have printed", one only looked up is sent', async () => {
    const spooled = leftByCrash(WIN, 's-spooled', 'spooled', true);
    const midSpool = leftByCrash(WIN, 's-mid', 'spooling', true);
    const lookupOnly = leftByCrash(WIN, 's-lookup', 'spooling', false);
    const p = h.pipeline();
    await p.start();
    await p.idle();
    expect(h.ledger.get(spooled.id)).toMatchObject({ state: 'completed' });
    expect(h.ledger.get(midSpool.id)).toMatchObject({ state: 'failed' });
    expect(h.ledger.get(midSpool.id)!.reason).toContain('may have printed: check the printer, then retry by hand');
    expect(h.ledger.get(lookupOnly.id)).toMatchObject({ state: 'completed' });
    expect(sumatra.printed).toHaveLength(1);
    expect(h.ledger.open()).toEqual([]);
  });

  it('does not send a service job again that a crash caught mid-request', async () => {
    const { shipmentId } = await sandbox.bookShipment();
    const job = leftByCrash(SVC, shipmentId, 'spooling', true);
    const p = h.pipeline();
    await p.start();
    await p.idle();
    expect(h.ledger.get(job.id)).toMatchObject({ state: 'failed' });
    expect(h.ledger.get(job.id)!.reason).toContain('may have printed');
    expect(servicePort.calls).toBe(0);
    expect(sandbox.printerJobs(BENCH).filter((j) => j.shipmentIds.includes(shipmentId))).toHaveLength(0);
  });

  const apiError = (status: number, retryAfterMs: number | null) => () =>
    new ApiError(status === 429 ? 'SERVICE_RATE_LIMITED' : 'SERVICE_UNAVAILABLE', `HTTP ${status}`, {
      status,
      requestId: `rq-${status}`,
      serviceMessage: null,
      fieldErrors: {},
      retryAfterMs,
      method: 'POST',
      path: '/shipments/print',
    });

  it('fails a service job on a 502 ("may have printed", request id kept) instead of sending it again', async () => {
    const { shipmentId } = await sandbox.bookShipment();
    const p = h.pipeline({ route: () => ({ target: SVC, layout: 'printer', media: 'label' }) });
    await p.start();
    servicePort.failFirst = apiError(502, null);
    const [job] = p.submitBooking(notice(shipmentId));
    await p.idle();
    expect(servicePort.calls).toBe(1);
    expect(h.ledger.get(job!.id)).toMatchObject({ state: 'failed', requestId: 'rq-502' });
    expect(h.ledger.get(job!.id)!.reason).toContain('may have printed: check the printer, then retry by hand');
  });

  it('retries a service job refused up front (503 with Retry-After, 429) and prints it once', async () => {
    for (const status of [503, 429]) {
      const { shipmentId } = await sandbox.bookShipment();
      const p = h.pipeline({ route: () => ({ target: SVC, layout: 'printer', media: 'label' }) });
      await p.start();
      servicePort.calls = 0;
      servicePort.failFirst = apiError(status, 10);
      const [job] = p.submitBooking(notice(shipmentId));
      await p.idle();
      expect(servicePort.calls).toBe(2);
      expect(h.ledger.get(job!.id)).toMatchObject({ state: 'completed' });
      expect(sandbox.printerJobs(BENCH).filter((j) => j.shipmentIds.includes(shipmentId))).toHaveLength(1);
      await p.stop();
    }
  });
});
