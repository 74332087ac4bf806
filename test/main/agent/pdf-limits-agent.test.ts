import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStation, type Station } from '../../support/agent-harness';
import { longPagePdf, manyPagesPdf, paddedPdf } from '../../support/hostile-pdfs';
import { startIppEvePrinter, type IppEvePrinter } from '../../support/ippeveprinter';
import { shipmentsInPdfs } from '../../support/reliability/pdf-shipments';
import { PDF_LIMITS } from '../../../src/main/printing/pdf-limits';

/**
 * A service that answers some prints with a hostile PDF: a proxy in front of the sandbox
 * that, for a shipment whose reference names one, answers POST /shipments/print with it.
 */
interface HostileService {
  readonly baseUrl: string;
  /** Print requests seen per shipment id. */
  readonly prints: Map<string, number>;
  close(): Promise<void>;
}

async function startHostileService(sandbox: Station['sandbox'], pdfs: ReadonlyMap<string, Uint8Array>): Promise<HostileService> {
  const prints = new Map<string, number>();
  const upstream = new URL(sandbox.baseUrl);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const path = req.url ?? '/';
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)),
        ) as Record<string, string>;
        if (req.method === 'POST' && path.endsWith('/shipments/print')) {
          const ids = (JSON.parse(body.toString()) as { shipment_ids: string[] }).shipment_ids;
          for (const id of ids) prints.set(id, (prints.get(id) ?? 0) + 1);
          const shipment = (await (await fetch(`${sandbox.baseUrl}/shipments/${ids[0]}`, { headers })).json()) as {
            reference_id: string | null;
          };
          const hostile = pdfs.get(shipment.reference_id ?? '');
          if (hostile) {
            res.writeHead(200, {
              'content-type': 'application/pdf',
              'content-length': hostile.byteLength,
              'x-service-request-id': `hostile-${ids[0]}`,
            });
            res.end(hostile);
            return;
          }
        }
        const answer = await fetch(new URL(path, upstream.origin), {
          method: req.method,
          headers,
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        });
        const passed: Record<string, string> = {};
        answer.headers.forEach((value, key) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(key)) passed[key] = value;
        });
        res.writeHead(answer.status, passed);
        res.end(Buffer.from(await answer.arrayBuffer()));
      })().catch((error: unknown) => {
        res.writeHead(599);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    prints,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The hostile PDFs, by the reference of the shipment they are answered for. */
const hostile = new Map<string, Uint8Array>();

describe('a PDF over the limits from the service, to a folder and to an ipp:// printer', () => {
  let station: Station;
  let service: HostileService;
  const printers: IppEvePrinter[] = [];

  beforeAll(async () => {
    hostile.set('HOSTILE-PAGES', await manyPagesPdf(2000));
    hostile.set('HOSTILE-LONG', await longPagePdf(100));
    hostile.set('HOSTILE-BYTES', await paddedPdf(PDF_LIMITS.printer.maxBytes + 1024));
  }, 60_000);
  afterAll(() => hostile.clear());

  beforeEach(async () => {
    station = await startStation();
    service = await startHostileService(station.sandbox, hostile);
  });
  afterEach(async () => {
    await station.close();
    await service.close();
    for (const printer of printers.splice(0)) await printer.stop();
  });

  /** Books the three hostile shipments, then a normal one; each hostile job fails with its reason, the normal one completes. */
  async function bookAndSettle(printer: string): Promise<string> {
    const { agent } = await station.start({ apiUrl: service.baseUrl, printer });
    const booked = new Map<string, string>();
    for (const reference of [...hostile.keys(), 'NORMAL-1']) {
      booked.set(reference, (await station.sandbox.bookShipment({ reference_id: reference })).shipmentId);
    }
    const jobOf = async (reference: string) => (await agent.api.listJobs({ search: reference }))[0];
    await expect.poll(async () => (await jobOf('NORMAL-1'))?.state, { timeout: 60_000 }).toBe('completed');
    const expected: Record<string, RegExp> = {
      'HOSTILE-PAGES': /^Refused: the PDF has more than 1,000 pages, the most a print may have; nothing was printed\. Check the shipment/,
      'HOSTILE-LONG':
        /^Refused: page 1 of the PDF is 4\.0 × 100\.0 in, larger than the 10 × 12 in a page of this layout may be; nothing was printed/,
      'HOSTILE-BYTES': /^Refused: the PDF is 32\.0 MB, more than the 32 MB a print may be; nothing was printed/,
    };
    for (const [reference, reason] of Object.entries(expected)) {
      await expect.poll(async () => (await jobOf(reference))?.state, { timeout: 30_000 }).toBe('failed');
      const job = (await jobOf(reference))!;
      expect(job.reason).toMatch(reason);
      expect(job.requestId).toBe(`hostile-${booked.get(reference)}`);
      // Refused once, not fetched again and again.
      expect(service.prints.get(booked.get(reference)!)).toBe(1);
    }
    return booked.get('NORMAL-1')!;
  }

  it('folder: the hostile PDFs fail with their reasons and write no file; the normal label prints', async () => {
    const normal = await bookAndSettle(`folder:${station.printDir}`);
    const files = await station.prints();
    expect(files.map((f) => f.split('_')[0])).toEqual([normal]);
  }, 120_000);

  it('ipp://: the hostile PDFs fail with their reasons and reach no printer; the normal label prints', async () => {
    const eve = await startIppEvePrinter();
    printers.push(eve);
    const normal = await bookAndSettle(eve.uri);
    expect(await shipmentsInPdfs(await eve.outputs())).toEqual([normal]);
  }, 120_000);
});

describe('a PDF over the service client’s response cap, from the real sandbox', () => {
  let station: Station;
  /** The cap set below a 40-parcel label (about 90 KB) and above everything else the agent reads. */
  const CAP_BYTES = 64 * 1024;

  beforeEach(async () => {
    station = await startStation();
  });
  afterEach(async () => {
    await station.close();
  });

  const printRequests = () => station.sandbox.requestLog().filter((r) => r.method === 'POST' && r.url.endsWith('/shipments/print')).length;

  it('refuses the job as a PDF too large (the words, what to do, the request id), fetched once, nothing printed; a label under the cap prints', async () => {
    const { agent } = await station.start({
      tuning: { pipeline: { retryBaseMs: 20, retryMaxMs: 200, followIntervalMs: 20 }, client: { maxResponseBytes: CAP_BYTES } },
    });
    const jobOf = async (reference: string) => (await agent.api.listJobs({ search: reference }))[0];

    const large = await station.sandbox.bookShipment({ reference_id: 'OVER-CAP', packages: 40 });
    await expect.poll(async () => (await jobOf('OVER-CAP'))?.state, { timeout: 30_000 }).toBe('failed');
    // Given time to retry (its backoff is at most 200 ms here), it does not: refused once.
    await new Promise((r) => setTimeout(r, 1_000));
    const job = (await jobOf('OVER-CAP'))!;
    expect(job.state).toBe('failed');
    expect(job.attempts).toBe(1);
    expect(printRequests()).toBe(1);
    expect(job.reasonMessage).toMatchObject({ code: 'printer.pdfTooLarge', params: { mb: '0.1', limitMb: CAP_BYTES / (1024 * 1024) } });
    expect(job.reason).toBe(
      'Refused: the PDF is 0.1 MB, more than the 0.0625 MB a print may be; nothing was printed. ' +
        'Check the shipment in the service (or ask its support) before printing it again.',
    );
    // The sandbox's X-Service-Request-ID of the print answer, as every service error carries it.
    expect(job.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(station.lines.some((l) => l.includes(`job ${job.id} failed`) && l.includes('Refused: the PDF is 0.1 MB'))).toBe(true);
    expect(await station.prints()).toEqual([]);

    const small = await station.sandbox.bookShipment({ reference_id: 'UNDER-CAP' });
    await expect.poll(async () => (await jobOf('UNDER-CAP'))?.state, { timeout: 30_000 }).toBe('completed');
    expect((await station.prints()).map((f) => f.split('_')[0])).toEqual([small.shipmentId]);
    expect((await jobOf('OVER-CAP'))!.state).toBe('failed');
    expect(large.shipmentId).not.toBe(small.shipmentId);
  }, 90_000);
});
