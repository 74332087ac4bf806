import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../support/net';
import { startNatsServer, type NatsServer } from '../../../support/nats';
import { startTestSite, type TestSite } from '../../../support/site';
import { waitFor } from '../../../support/agent-harness';

let site: TestSite | null = null;
const servers: NatsServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await site?.close();
  site = null;
  for (const server of servers.splice(0)) await server.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Once the relay has set the site up: a station joins, and a booking prints there. */
async function expectBookingPrintedAtPackingOne(testSite: TestSite, reference: string): Promise<void> {
  const one = testSite.station('Packing 1');
  await one.start();
  const booked = await testSite.sandbox.bookShipment({ reference_id: reference });
  await waitFor(async () => (await one.printed()).includes(booked.shipmentId), 'the booking printed at Packing 1', 20_000);
}

/** A nats-server on `port` from a config file: with JetStream, or without it (a server that refuses the site's setup). */
async function serverOn(port: number, jetStream: boolean): Promise<NatsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ps-nats-conf-'));
  dirs.push(dir);
  const store = join(dir, 'store');
  const file = join(dir, 'nats.conf');
  writeFileSync(file, `port: ${port}\n${jetStream ? `jetstream { store_dir: "${store}" }\n` : ''}`);
  const server = await startNatsServer({ config: { file, port, store } });
  servers.push(server);
  return server;
}

describe('a relay whose first setup of the site fails', () => {
  it('started 3 s before its nats-server, waits for it and then takes bookings', async () => {
    const nats = await startNatsServer();
    await nats.kill();
    servers.push(nats);
    site = await startTestSite({ natsServer: nats });
    const starting = site.startRelay();
    await new Promise((r) => setTimeout(r, 3_000));
    await nats.start();
    await starting;
    await expectBookingPrintedAtPackingOne(site, 'LATE-SERVER');
  }, 60_000);

  it('against a server without JetStream: says what failed, when it tries again and what to do, and joins once the server has it', async () => {
    const port = await freePort();
    const plain = await serverOn(port, false);
    site = await startTestSite({ natsServer: plain });
    const starting = site.startRelay({ setupTimeoutMs: 500 });
    let started = false;
    void starting.then(() => (started = true));
    await waitFor(() => site!.lines.some((l) => l.includes('relay: cannot set up the site at')), 'the relay saying why it waits', 15_000);
    const said = site.lines.find((l) => l.includes('relay: cannot set up the site at'))!;
    expect(said).toContain(`nats://127.0.0.1:${port}`);
    expect(said).toContain('does not answer JetStream requests');
    expect(said).toContain('start it with -js');
    expect(said).toMatch(/trying again in \d+ s$/);
    expect(started).toBe(false);

    // The operator fixes the server: the same port, JetStream on.
    await plain.kill();
    await serverOn(port, true);
    await starting;
    await expectBookingPrintedAtPackingOne(site, 'FIXED-SERVER');
  }, 90_000);
});
