import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { writeSiteSetup, type SiteSetupResult } from '../../../../src/main/site/setup/site-setup';
import { connectSite, type SiteConnection } from '../../../../src/main/site/bus/connection';
import { BOOKINGS_STREAM, claimKey, stationConsumer, stationSubject, takenKey, token } from '../../../../src/main/site/bus/names';
import { startNatsServer, type NatsServer } from '../../../support/nats';
import { freePort } from '../../../support/net';

/**
 * The protected site as site-setup writes it, against the real nats-server: each
 * credential can do its own work (allowed) and nothing more (denied).
 */

let dir: string;
let setup: SiteSetupResult;
let server: NatsServer;
let relay: SiteConnection;
let station: NatsConnection;

const credsOf = (name: string): string => setup.creds.find((c) => c.name === name)!.file;

async function asStation(name: string): Promise<NatsConnection> {
  return connect({ servers: server.url, authenticator: credsAuthenticator(await readFile(credsOf(name))), timeout: 5_000 });
}

/** A JetStream publish (a KV put is one) that the server refuses: the promise rejects. */
async function refused(action: Promise<unknown>): Promise<string> {
  const outcome = await action.then(
    () => 'allowed',
    (error: unknown) => String(error),
  );
  expect(outcome).not.toBe('allowed');
  return outcome;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-site-setup-'));
  const port = await freePort();
  setup = await writeSiteSetup({ out: dir, stations: ['Packing 1', 'Packing 2'], relays: 2, port, store: join(dir, 'store') });
  server = await startNatsServer({ config: { file: setup.config, port, store: join(dir, 'store') } });
  relay = await connectSite({ servers: [server.url], name: 'relay-1', credsFile: credsOf('relay-1'), setupTimeoutMs: 10_000 });
  station = await asStation('Packing 1');
}, 60_000);

afterAll(async () => {
  await station?.close();
  await relay?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('site-setup', () => {
  it('writes a config and one creds file per relay and station, readable by their owner only', async () => {
    expect(setup.creds.map((c) => c.name)).toEqual(['relay-1', 'relay-2', 'Packing 1', 'Packing 2']);
    for (const file of [setup.config, ...setup.creds.map((c) => c.file)]) expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(credsOf('Packing 1'), 'utf8');
    expect(text).toMatch(/-----BEGIN NATS USER JWT-----\n[\w-]+\.[\w-]+\.[\w-]+\n------END NATS USER JWT------/);
    expect(text).toMatch(/-----BEGIN USER NKEY SEED-----\nSU[A-Z2-7]+\n------END USER NKEY SEED------/);
    expect(await readFile(setup.config, 'utf8')).toMatch(/jetstream: \{ store_dir/);
  });

  it('refuses a client without credentials', async () => {
    await expect(connect({ servers: server.url, timeout: 3_000 })).rejects.toThrow(/authoriz/i);
  });

  it('lets a relay set the site up and publish a booking', async () => {
    const ack = await relay.js.publish(stationSubject('Packing 2'), JSON.stringify({ shipmentId: 'S-1' }), { msgID: 'S-1@Packing 2' });
    expect(ack.stream).toBe(BOOKINGS_STREAM);
    await relay.buckets.decisions.put(token('S-1'), '{}');
  });

  it('lets a station join, keep its consumer, read, ack, and write what is its own', async () => {
    const own = await connectSite({ servers: [server.url], name: 'Packing 1', credsFile: credsOf('Packing 1'), setupTimeoutMs: 5_000 });
    try {
      await own.buckets.stations.put(token('Packing 1'), JSON.stringify({ beat: 1 }));
      await own.buckets.rules.put(token('Packing 1'), JSON.stringify({ rules: null }));
      await own.buckets.claims.put(claimKey('ORDER-1', 'Packing 1'), '{}');
      await own.buckets.taken.put(takenKey('S-1', 'Packing 1'), '{}');
      expect(await own.buckets.decisions.get(token('S-1'))).not.toBeNull();
      const jsm = await jetstreamManager(own.nc);
      await jsm.consumers.add(BOOKINGS_STREAM, {
        durable_name: stationConsumer('Packing 1'),
        filter_subject: stationSubject('Packing 1'),
        ack_policy: AckPolicy.Explicit,
      });
      await relay.js.publish(stationSubject('Packing 1'), JSON.stringify({ shipmentId: 'S-2' }));
      const consumer = await own.js.consumers.get(BOOKINGS_STREAM, stationConsumer('Packing 1'));
      const message = await consumer.next({ expires: 5_000 });
      expect(message?.json()).toEqual({ shipmentId: 'S-2' });
      expect(await message!.ackAck()).toBe(true);
      const keys: string[] = [];
      for await (const key of await own.buckets.stations.keys()) keys.push(key);
      expect(keys).toContain(token('Packing 1'));
    } finally {
      await own.close();
    }
  });

  it('denies a station publishing a booking, writing a decision, or writing in another station’s name', async () => {
    const js = jetstream(station, { timeout: 3_000 });
    const kvm = new Kvm(js);
    await refused(js.publish(stationSubject('Packing 2'), JSON.stringify({ shipmentId: 'S-1' })));
    await refused((await kvm.open('site-decisions')).put(token('S-1'), '{}'));
    await refused((await kvm.open('site-claims')).put(claimKey('ORDER-1', 'Packing 2'), '{}'));
    await refused((await kvm.open('site-claims')).put(token('ORDER-1'), '{}'));
    await refused((await kvm.open('site-stations')).put(token('Ghost'), '{}'));
    await refused((await kvm.open('site-taken')).put(takenKey('S-1', 'Packing 2'), '{}'));
    await refused((await kvm.open('site-rules')).put(token('Packing 2'), '{}'));
  });

  it('denies a station deleting or purging the streams and buckets, or another station’s consumer', async () => {
    const jsm = await jetstreamManager(station, { timeout: 3_000 });
    await refused(jsm.streams.delete(BOOKINGS_STREAM));
    await refused(jsm.streams.purge(BOOKINGS_STREAM));
    await refused(jsm.streams.delete('KV_site-decisions'));
    await refused(jsm.streams.purge('KV_site-decisions'));
    await refused(jsm.streams.add({ name: 'EVIL', subjects: ['evil.>'] }));
    await refused(jsm.consumers.delete(BOOKINGS_STREAM, stationConsumer('Packing 1')));
    await refused(jsm.consumers.info(BOOKINGS_STREAM, stationConsumer('Packing 2')));
    const decisions = await new Kvm(jetstream(station, { timeout: 3_000 })).open('site-decisions');
    await refused(decisions.delete(token('S-1')));
    await refused(decisions.purge(token('S-1')));
    // The stream still holds the relay's booking.
    expect((await (await jetstreamManager(relay.nc)).streams.info(BOOKINGS_STREAM)).state.messages).toBeGreaterThan(0);
  });

  it('denies a station acknowledging or reading another station’s bookings', async () => {
    // A subscription outside its inbox is refused by the server: the subscription ends with the violation.
    const sub = station.subscribe(stationSubject('Packing 2'));
    expect(String(await sub.closed)).toMatch(/Permissions Violation for Subscription/);
    const js = jetstream(station, { timeout: 3_000 });
    await refused(js.consumers.get(BOOKINGS_STREAM, stationConsumer('Packing 2')).then((c) => c.next({ expires: 2_000 })));
    await refused(station.request(`$JS.ACK.${BOOKINGS_STREAM}.${stationConsumer('Packing 2')}.1.1.1.0.0`, '', { timeout: 2_000 }));
  });
});
