import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../src/main/api/client';
import { ApiError } from '../../../../src/main/api/errors';
import { createTarget } from '../../../../src/main/printing/create-target';
import { PrintError } from '../../../../src/main/printing/errors';
import { ServiceTarget, type ServicePrintPort } from '../../../../src/main/printing/service/service-target';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/server';

const BENCH = '5b3a2f0e-6f0c-4c5e-9a51-0d4c6f1e7a01';

describe('ServiceTarget against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  function request(shipmentId: string, overrides: Partial<SpoolRequest> = {}): SpoolRequest {
    return {
      jobId: 'j1',
      title: 'ps j1',
      pdf: null,
      media: 'label',
      copies: 1,
      shipmentId,
      documentType: 'label',
      layout: 'printer',
      ...overrides,
    };
  }

  it('asks the service to print on its printer (output_format printer) without fetching a PDF', async () => {
    const { shipmentId } = await sandbox.bookShipment();
    const target = createTarget(`service:${BENCH}`, { service: client });
    expect(target).toBeInstanceOf(ServiceTarget);
    expect(target.needsPdf).toBe(false);
    expect(target.reconcilable).toBe(false);
    const result = await target.spool(request(shipmentId, { copies: 2 }));
    expect(result.completed).toBe(true);
    expect(result.spoolerJobId).toMatch(/^https?:\/\//);
    const jobs = sandbox.printerJobs(BENCH).filter((j) => j.shipmentIds.includes(shipmentId));
    expect(jobs).toHaveLength(2);
    expect(jobs.every((j) => j.documentType === 'label' && j.layout === 'printer')).toBe(true);
  });

  it('passes the service error through with its request id', async () => {
    const { shipmentId } = await sandbox.bookShipment();
    const target = createTarget('service:no-such-printer', { service: client });
    const error = await target.spool(request(shipmentId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).requestId).toBeTruthy();
    expect((error as ApiError).message).toContain('Unknown printer_id');
  });

  /** The real client, except that call number `failOn` answers like a gateway or a throttle would. */
  function failingPort(failOn: number, error: () => ApiError): ServicePrintPort & { calls: number } {
    const port = {
      calls: 0,
      printToPrinter: async (req: Parameters<ServicePrintPort['printToPrinter']>[0]) => {
        port.calls += 1;
        if (port.calls === failOn) throw error();
        return client.printToPrinter(req);
      },
    };
    return port;
  }
  const apiError = (code: ApiError['code'], status: number, retryAfterMs: number | null = null) =>
    new ApiError(code, `HTTP ${status} on POST /shipments/print`, {
      status,
      requestId: `rq-${status}`,
      serviceMessage: null,
      fieldErrors: {},
      retryAfterMs,
      method: 'POST',
      path: '/shipments/print',
    });

  it('never resends copies that printed: a 502 on copy 2 of 3 reports "1 of 3 copies printed" and stops', async () => {
    const { shipmentId } = await sandbox.bookShipment();
    const port = failingPort(2, () => apiError('SERVICE_UNAVAILABLE', 502));
    const target = new ServiceTarget({ uri: `service:${BENCH}`, printerId: BENCH, service: port });
    const error = await target.spool(request(shipmentId, { copies: 3 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrintError);
    expect((error as PrintError).code).toBe('PRINT_PARTIAL');
    expect((error as PrintError).retryable).toBe(false);
    expect((error as PrintError).requestId).toBe('rq-502');
    expect((error as PrintError).message).toContain('1 of 3 copies printed (copy 2 may have printed too)');
    expect(port.calls).toBe(2);
    expect(sandbox.printerJobs(BENCH).filter((j) => j.shipmentIds.includes(shipmentId))).toHaveLength(1);
  });

  it('reports copies printed before a refusal too (429 on copy 2 of 2)', async () => {
    const { shipmentId } = await sandbox.bookShipment();
    const target = new ServiceTarget({
      uri: `service:${BENCH}`,
      printerId: BENCH,
      service: failingPort(2, () => apiError('SERVICE_RATE_LIMITED', 429, 1000)),
    });
    const error = await target.spool(request(shipmentId, { copies: 2 })).catch((e: unknown) => e);
    expect((error as PrintError).code).toBe('PRINT_PARTIAL');
    expect((error as PrintError).message).toContain('1 of 2 copies printed, then');
  });

  it('calls a 5xx or a timeout on the only copy "may have printed" (not retryable); a 429 or a 503 with Retry-After passes through to be retried', async () => {
    const { shipmentId } = await sandbox.bookShipment();
    for (const [status, code] of [
      [500, 'SERVICE_UNAVAILABLE'],
      [504, 'SERVICE_UNAVAILABLE'],
      [503, 'SERVICE_UNAVAILABLE'],
    ] as const) {
      const target = new ServiceTarget({
        uri: `service:${BENCH}`,
        printerId: BENCH,
        service: failingPort(1, () => apiError(code, status)),
      });
      const error = await target.spool(request(shipmentId)).catch((e: unknown) => e);
      expect((error as PrintError).code).toBe('PRINT_MAY_HAVE_PRINTED');
      expect((error as PrintError).retryable).toBe(false);
      expect((error as PrintError).message).toContain('it may have printed: check the printer, then retry by hand');
    }
    for (const make of [() => apiError('SERVICE_RATE_LIMITED', 429, 1000), () => apiError('SERVICE_UNAVAILABLE', 503, 1000)]) {
      const target = new ServiceTarget({ uri: `service:${BENCH}`, printerId: BENCH, service: failingPort(1, make) });
      const error = await target.spool(request(shipmentId)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).retryable).toBe(true);
    }
    // A real timeout from the real client against a slow sandbox.
    const slow = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0, timeoutMs: 100 });
    sandbox.setFaults({ latencyMs: 400 });
    try {
      const error = await new ServiceTarget({ uri: `service:${BENCH}`, printerId: BENCH, service: slow })
        .spool(request(shipmentId))
        .catch((e: unknown) => e);
      expect((error as PrintError).code).toBe('PRINT_MAY_HAVE_PRINTED');
      expect(((error as PrintError).cause as ApiError).code).toBe('SERVICE_TIMEOUT');
    } finally {
      sandbox.setFaults({ latencyMs: 0 });
      await slow.close();
    }
  });
});
