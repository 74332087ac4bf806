import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSite } from '../../../../src/main/site/bus/connection';
import { writeSiteSetup } from '../../../../src/main/site/setup/site-setup';
import { freePort } from '../../../support/net';
import { startNatsServer, type NatsServer } from '../../../support/nats';
import { startTestSite, type TestSite } from '../../../support/site';
import { waitFor } from '../../../support/agent-harness';

/*
 * The TLS recipe of docs/OPERATIONS.md ("Security", TLS), step by step: a private CA, a
 * server certificate it signs for the server's address (openssl, as there), site-setup with
 * --tls-cert/--tls-key (the server then requires TLS), and relay and stations at tls:// with
 * --site-ca and their credentials.
 */

let site: TestSite | null = null;
let nats: NatsServer | null = null;
let dir: string | null = null;
afterEach(async () => {
  await site?.close();
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  site = null;
  nats = null;
  dir = null;
});

function openssl(cwd: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd, stdio: 'ignore' });
}

/** ca.pem (the private CA) and server.pem / server-key.pem for 127.0.0.1, made as OPERATIONS says. */
function makeCertificates(cwd: string): void {
  openssl(
    cwd,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca-key.pem',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Site CA',
  );
  openssl(cwd, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server-key.pem', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(cwd, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    cwd,
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca-key.pem',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  );
}

/** The server as site-setup writes it with `--tls-cert server.pem --tls-key server-key.pem`, and each one's credential. */
async function tlsServer(): Promise<{ server: NatsServer; port: number; ca: string; creds: (name: string) => string }> {
  dir = mkdtempSync(join(tmpdir(), 'ps-site-tls-'));
  makeCertificates(dir);
  const port = await freePort();
  const store = join(dir, 'store');
  const setup = await writeSiteSetup({
    out: join(dir, 'site'),
    stations: ['Packing 1'],
    port,
    store,
    tls: { cert: join(dir, 'server.pem'), key: join(dir, 'server-key.pem') },
  });
  const server = await startNatsServer({ config: { file: setup.config, port, store } });
  const creds = (name: string): string => setup.creds.find((c) => c.name === name)!.file;
  return { server, port, ca: join(dir, 'ca.pem'), creds };
}

describe('a site over TLS with a private CA (--site-ca)', () => {
  it('relay and station connect with tls:// and the CA; bookings print; the link reports TLS', async () => {
    const { server, port, ca, creds } = await tlsServer();
    nats = server;
    site = await startTestSite({ natsServer: server, servers: [`tls://127.0.0.1:${port}`], caFile: ca, creds });
    // On a protected site the relay sets the site up; the station binds to it.
    const relay = await site.startRelay();
    const one = site.station('Packing 1');
    await one.start();
    expect(relay.site.tls).toBe(true);
    expect((await one.agent!.agent.api.siteStatus({})).missingProtection).toEqual([]);
    const booked = await site.sandbox.bookShipment({ reference_id: 'OVER-TLS' });
    await waitFor(async () => (await one.printed()).includes(booked.shipmentId), 'the booking printed at Packing 1', 20_000);
  }, 60_000);

  it('a connection without the CA is refused at once, saying the certificate is not trusted and to give --site-ca', async () => {
    const { server, port } = await tlsServer();
    nats = server;
    for (const address of [`nats://127.0.0.1:${port}`, `tls://127.0.0.1:${port}`]) {
      const startedAt = Date.now();
      const error = await connectSite({ servers: [address], name: 'no-ca' }).then(
        () => null,
        (e: unknown) => e as Error & { code?: string },
      );
      expect(error?.code).toBe('SITE_UNAVAILABLE');
      expect(error?.message).toContain('TLS certificate that is not trusted here');
      expect(error?.message).toContain('--site-ca FILE');
      expect(Date.now() - startedAt).toBeLessThan(5_000);
    }
  }, 60_000);

  it('a client that does not speak TLS is turned away by the server', async () => {
    const { server, port } = await tlsServer();
    nats = server;
    const { connect } = await import('@nats-io/transport-node');
    // tls: null: the client's plain-text link, as an old or misconfigured client would try it.
    const error = await connect({ servers: [`nats://127.0.0.1:${port}`], tls: null, waitOnFirstConnect: false }).then(
      async (nc) => {
        await nc.close();
        return null;
      },
      (e: unknown) => e as Error,
    );
    expect(String(error)).toMatch(/tls/i);
  }, 30_000);
});
