/**
 * `npm run agent -- report` while the agent runs: the ledger is the agent's alone, so the
 * report asks the running agent (the CLI agent, started as a station starts it, with its UI
 * on loopback) through the bridge file it leaves in the data directory, and says where to
 * get the report when the agent serves no UI.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDay } from '../../../src/main/report/day-window';
import { BRIDGE_FILE_NAME } from '../../../src/main/web/bridge-file';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { runCli } from '../../support/cli-run';
import { AGENT_CLI, agentArgs, startAgentProcess, type AgentProcess } from '../../support/reliability/agent-process';

const SECRET = 'whsec-report-running-agent';
let sandbox: Sandbox;
let dir: string;
let dataDir: string;
let printDir: string;
let agent: AgentProcess | null = null;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'print-station-report-running-'));
  dataDir = join(dir, 'data');
  printDir = join(dir, 'prints');
});
afterEach(async () => {
  await agent?.stop();
  agent = null;
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function startAgent(uiPort: number | null): Promise<AgentProcess> {
  const args = agentArgs({
    apiUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    printer: `folder:${printDir}`,
    dataDir,
    webhookPort: 0,
    webhookSecret: SECRET,
    uiPort,
  });
  agent = await startAgentProcess({ args });
  sandbox.setWebhooks([{ url: agent.webhookUrl!, secret: SECRET }]);
  return agent;
}

async function waitForPrints(count: number): Promise<void> {
  const end = Date.now() + 20_000;
  while ((await readdir(printDir).catch(() => [])).filter((f) => f.endsWith('.pdf')).length < count) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${count} print(s)`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const report = (...args: string[]) => runCli(AGENT_CLI, ['report', '--day', localDay(), '--data-dir', dataDir, ...args]);

describe('report while the agent runs', () => {
  it('asks the running agent through its UI and prints its report, in English or in Danish with a Danish CSV', async () => {
    const running = await startAgent(0);
    const printed = await sandbox.bookShipment({ source: 'API', reference_id: 'LIVE-PRINTED' });
    await waitForPrints(1);
    sandbox.setWebhooks([]); // the next booking never reaches the station
    const missing = await sandbox.bookShipment({ source: 'API', reference_id: 'LIVE-MISSING' });
    const bridge = join(dataDir, BRIDGE_FILE_NAME);
    expect((await stat(bridge)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(bridge, 'utf8')).pid).toBe(running.pid);

    const english = await report();
    expect(english.stderr).toBe('');
    expect(english.code).toBe(0);
    expect(english.stdout).toContain(
      `End of day ${localDay()}\nbooked 2 · printed 1 · may have printed 0 · failed 0 · not printed 1 · canceled 0\n`,
    );
    // The folder printer named by its folder, as docs/OPERATIONS.md names printers (not `folder:…`).
    expect(english.stdout).toMatch(
      new RegExp(
        `^LIVE-PRINTED\\tPostNord\\t${printed.trackingId}\\tprinted \\d\\d:\\d\\d on ${printDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
        'm',
      ),
    );
    expect(english.stdout).toContain(`LIVE-MISSING\tPostNord\t${missing.trackingId}\tnot printed: never reached this station`);

    const csv = join(dir, 'dagsafslutning.csv');
    const danish = await report('--lang', 'da', '--csv', csv);
    expect(danish.stderr).toBe('');
    expect(danish.code).toBe(0);
    expect(danish.stdout).toContain(
      `Dagsafslutning ${localDay()}\nbookede 2 · udskrevet 1 · kan være udskrevet 0 · mislykkedes 0 · ikke udskrevet 1`,
    );
    expect(danish.stdout).toContain(`LIVE-MISSING\tPostNord\t${missing.trackingId}\tikke udskrevet: never reached this station`);
    expect(danish.stdout).toContain(`CSV-fil: ${csv}`);
    const text = await readFile(csv, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Referencenummer;Fragtfirma;Sporings-id;Forsendelses-id;Booket kl.;Status;Udskrevet kl.;Printer;Detaljer;Kendt af',
    );
    expect(lines.find((l) => l.startsWith('LIVE-MISSING;'))).toMatch(
      new RegExp(
        `^LIVE-MISSING;PostNord;${missing.trackingId};${missing.shipmentId};\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d;ikke udskrevet;;;`,
      ),
    );
    expect((await stat(csv)).mode & 0o777).toBe(0o600);

    await running.stop();
    expect(existsSync(bridge)).toBe(false); // a clean stop takes the address away with it
  });

  it('says in one line where to get the report when the running agent serves no UI, or its UI does not answer', async () => {
    await startAgent(null);
    const noUi = await report();
    expect(noUi.code).toBe(1);
    expect(noUi.stdout).toBe('');
    expect(noUi.stderr.trim().split('\n')).toEqual([
      `error: The agent is running on ${dataDir} and holds its ledger, and serves no UI to ask (start it with --ui-port N): ` +
        'open the End of day tab in its UI (it has CSV export), or stop the agent and run the report again. [AGENT_RUNNING]',
    ]);

    // A bridge file whose UI is gone (or was never this agent's) is not trusted blindly: one line again.
    await writeFile(join(dataDir, BRIDGE_FILE_NAME), JSON.stringify({ pid: agent!.pid, origin: 'http://127.0.0.1:9', token: 'x' }));
    const deaf = await report();
    expect(deaf.code).toBe(1);
    const [line, ...more] = deaf.stderr.trim().split('\n');
    expect(more).toEqual([]);
    expect(line).toMatch(
      /^error: The agent is running on .* and holds its ledger, and the agent's UI at http:\/\/127\.0\.0\.1:9 did not answer/,
    );
    expect(line).toMatch(/open the End of day tab in its UI .*\[AGENT_RUNNING\]$/);
    expect(line).not.toMatch(/SQLITE/);
  });
});
