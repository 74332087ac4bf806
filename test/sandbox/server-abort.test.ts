import http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server';
import { started } from '../support/sandbox-api';

let sandbox: Sandbox | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox?.close();
  sandbox = null;
});

/** Sends half a POST body, then hangs up while the sandbox is still in its latency fault. */
function abortMidRequest(s: Sandbox, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(`${s.baseUrl}/shipments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '200', 'x-api-key': s.apiKey },
    });
    req.on('error', () => resolve());
    req.write('{"to": {');
    setTimeout(() => req.destroy(), afterMs);
  });
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sandbox server and clients that hang up', () => {
  it('does not log a request aborted during the latency fault as an internal error', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const s = await started({ faults: { latencyMs: 150 } });
    sandbox = s.sandbox;
    await abortMidRequest(sandbox, 30);
    await waitFor(() => sandbox!.requestLog().length > 0);
    expect(sandbox.requestLog()).toEqual([{ method: 'POST', url: '/external/v1/shipments', status: 0, bytes: 0, at: expect.any(Number) }]);
    expect(errors).not.toHaveBeenCalled();
    // The server still answers the next client.
    expect((await s.api.call('GET', '/status')).status).toBe(200);
  });
});
