/**
 * Helpers shared by the benchmark sections that run the agent's CLI as a child process.
 */
import { join } from 'node:path';
import { Ledger } from '../src/main/ledger/ledger';
import { parseJobLines, type AgentProcess } from '../test/support/reliability/agent-process';
import type { SandboxProcess } from './sandbox-process';
import { until } from '../test/support/reliability/wait';

/** Waits for the agent's start-up reconciliation poll (GET /shipments) to have been answered. */
export async function waitForStartupPoll(sandbox: SandboxProcess): Promise<void> {
  await until(
    'the agent start-up poll',
    async () => (await sandbox.log()).some((r) => r.method === 'GET' && r.url.startsWith('/external/v1/shipments?') && r.status === 200),
    {
      timeoutMs: 30_000,
      intervalMs: 100,
    },
  );
}

/** Time (epoch ms, from the agent's own log timestamps) at which each shipment's job logged `state`. */
export function loggedAt(agent: AgentProcess, state: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of agent.lines) {
    const m = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) /.exec(line);
    if (!m) continue;
    const [job] = parseJobLines([line]);
    if (job && job.state === state && !out.has(job.shipmentId)) out.set(job.shipmentId, Date.parse(m[1]!));
  }
  return out;
}

/**
 * Gives a new agent data dir a poll mark at "now", so the agent's start-up reconciliation
 * does not print the sandbox's whole recent history (the benchmark books thousands of
 * shipments). Relies on the agent's ledger file name (`ledger.sqlite`) and cursor name
 * (`poll:<api url>`) in src/main/agent/create-agent.ts.
 */
export function presetPollMark(dataDir: string, apiUrl: string): void {
  const ledger = Ledger.open({ path: join(dataDir, 'ledger.sqlite'), pruneIntervalMs: 0 });
  try {
    ledger.setCursor(`poll:${apiUrl}`, JSON.stringify({ mark: new Date().toISOString(), seen: [] }));
  } finally {
    ledger.close();
  }
}
