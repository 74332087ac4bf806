/**
 * The agent CLI with an ipp:// printer that drips its answers one byte every 5 s (a printer
 * or proxy that hangs mid-answer): the station still comes up. The `ui:` line is printed
 * within a few seconds (the start-up check's wait, not the printer's 10 s deadline), the bridge answers `getStatus` and the printer list within
 * 2 s, and the printer shows as not ready, saying why.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { START_CHECK_WAIT_MS } from '../../../src/main/printing/startup-check';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { freePort } from '../../support/net';
import { AGENT_CLI, REPO_ROOT, agentArgs } from '../../support/reliability/agent-process';
import { bridgeCall } from '../../support/reliability/bridge';

const DRIP_EVERY_MS = 5000;

/** A TCP peer that reads requests and answers each with a valid IPP response, one byte every 5 s. */
async function startDripPeer(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => {
      const body = Buffer.from([0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x03]);
      const answer = Buffer.concat([
        Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/ipp\r\nContent-Length: ${body.length}\r\n\r\n`, 'latin1'),
        body,
      ]);
      let sent = 0;
      const drip = setInterval(() => {
        if (sent >= answer.length || socket.destroyed) return clearInterval(drip);
        socket.write(answer.subarray(sent, sent + 1));
        sent += 1;
      }, DRIP_EVERY_MS);
      timers.add(drip);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => accepted,
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let sandbox: Sandbox;
let dir: string;
let peer: Awaited<ReturnType<typeof startDripPeer>>;
let child: ChildProcess | null = null;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
  peer = await startDripPeer();
  dir = await mkdtemp(join(tmpdir(), 'print-station-ipp-drip-'));
});
afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  child = null;
  await peer.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** Calls a bridge operation and says how long it took. */
async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await call();
  return { value, ms: performance.now() - started };
}

describe('the agent CLI with an ipp:// printer that drips its answers', () => {
  it('prints its ui: line within a few seconds, answers the bridge within 2 s, and shows the printer not ready with a reason', async () => {
    const printer = `ipp://127.0.0.1:${peer.port}/ipp/print`;
    const uiPort = await freePort();
    const args = agentArgs({ apiUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, printer, dataDir: join(dir, 'data'), uiPort });
    const lines: Array<{ at: number; line: string }> = [];
    const started = performance.now();
    child = spawn(process.execPath, ['--import', 'tsx', AGENT_CLI, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout!, child.stderr!]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        for (const line of parts) lines.push({ at: performance.now() - started, line });
      });
    }
    // A cold tsx start takes its own seconds: measured from the agent's first line.
    await expect.poll(() => lines.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    await expect.poll(() => lines.find((l) => l.line.startsWith('ui: ')), { timeout: 30_000, interval: 50 }).toBeDefined();
    const first = lines[0]!.at;
    const ui = lines.find((l) => l.line.startsWith('ui: '))!;
    console.log(`first line after ${Math.round(first)} ms, ui: line ${Math.round(ui.at - first)} ms later`);
    console.log(lines.map((l) => `${Math.round(l.at)} ${l.line}`).join('\n'));
    // The start waits START_CHECK_WAIT_MS for the printer's check, not the IPP deadline (10 s).
    expect(ui.at - first, 'the ui: line came late').toBeLessThan(START_CHECK_WAIT_MS + 2500);
    expect(peer.connections(), 'the printer was not asked').toBeGreaterThan(0);
    expect(
      lines.some((l) => new RegExp(`WARN printer ${printer} has not answered its check within \\d+ s: the agent starts`).test(l.line)),
    ).toBe(true);

    const uiUrl = ui.line.slice('ui: '.length).trim();
    const status = await timed(() => bridgeCall(uiUrl, 'getStatus', {}));
    const printers = await timed(() => bridgeCall(uiUrl, 'listPrinters', {}));
    console.log(`getStatus ${Math.round(status.ms)} ms, listPrinters ${Math.round(printers.ms)} ms`);
    expect(status.ms).toBeLessThan(2000);
    expect(printers.ms).toBeLessThan(2000);
    expect(printers.value.find((p) => p.uri === printer)).toMatchObject({ kind: 'ipp', ready: false, detail: expect.stringMatching(/\S/) });
    // Asked again while the printer is still dripping: still within 2 s.
    const again = await timed(() => bridgeCall(uiUrl, 'listConfiguredPrinters', {}));
    expect(again.ms).toBeLessThan(2000);

    // Once the printer's deadline has passed, the list says why in words that fit a printer that hangs.
    await expect
      .poll(async () => (await bridgeCall(uiUrl, 'listPrinters', {})).find((p) => p.uri === printer), { timeout: 30_000, interval: 500 })
      .toMatchObject({
        kind: 'ipp',
        ready: false,
        detail: expect.stringMatching(/took the connection but did not answer within 10 s: check that it is not stuck/),
      });
    // And the start-up check's finding was logged when it came.
    await expect
      .poll(() => lines.some((l) => /WARN printer ipp:.*took the connection but did not answer within 10 s/.test(l.line)), {
        timeout: 15_000,
      })
      .toBe(true);
    const late = await timed(() => bridgeCall(uiUrl, 'listPrinters', {}));
    expect(late.ms).toBeLessThan(2000);
    console.log(`listPrinters while still dripping: ${Math.round(late.ms)} ms`);
  }, 120_000);
});
