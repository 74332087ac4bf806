import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { ApiError } from '../../../src/main/api/errors';
import { createTarget } from '../../../src/main/printing/create-target';
import { ServiceTarget } from '../../../src/main/printing/service-target';
import type { SpoolRequest } from '../../../src/main/printing/target';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';

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
    return { jobId: 'j1', title: 'ps j1', pdf: null, media: 'label', copies: 1, shipmentId, documentType: 'label', layout: 'printer', ...overrides };
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
});
