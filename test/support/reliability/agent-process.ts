/**
 * The agent as a child process, the way a station runs it: `src/main/cli/agent.ts` (the
 * CLI of docs/INTERFACES.md) or the suite's own launcher with tuning (tuned-agent.ts). Node
 * runs the TypeScript through `--import tsx` in one process, so a SIGKILL reaches the
 * agent itself and not a wrapper that would leave it running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const AGENT_CLI = path.join(REPO_ROOT, 'src/main/cli/agent.ts');
export const TUNED_AGENT = path.join(REPO_ROOT, 'test/support/reliability/tuned-agent.ts');

export interface AgentProcessOptions {
  /** @default the CLI, src/main/cli/agent.ts */
  readonly script?: string;
  /** Node options before the script. @default ['--import', 'tsx'] (plain JS: []) */
  readonly execArgv?: readonly string[];
  readonly args: readonly string[];
  /** Added to process.env (CUPS_SERVER, tuning). */
  readonly env?: NodeJS.ProcessEnv;
  /** @default 90_000 (a cold tsx start on a loaded two-core machine is slow) */
  readonly readyTimeoutMs?: number;
}

export interface AgentExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface AgentProcess {
  readonly pid: number;
  /** From the `webhooks:` ready line. */
  readonly webhookUrl: string | null;
  /** From the `ui:` ready line (includes the token). */
  readonly uiUrl: string | null;
  /** Every line the agent wrote (stdout and stderr), in order. */
  readonly lines: readonly string[];
  readonly exited: Promise<AgentExit>;
  readonly running: boolean;
  /** Sends `signal` and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<AgentExit>;
  /** SIGTERM (a clean stop), SIGKILL if it takes longer than `graceMs`. */
  stop(graceMs?: number): Promise<AgentExit>;
}

/** Starts the agent and resolves once it has printed its ready lines (`printer: ...`). */
export async function startAgentProcess(options: AgentProcessOptions): Promise<AgentProcess> {
  const script = options.script ?? AGENT_CLI;
  const child: ChildProcess = spawn(process.execPath, [...(options.execArgv ?? ['--import', 'tsx']), script, ...options.args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let webhookUrl: string | null = null;
  let uiUrl: string | null = null;
  let ready = false;
  let onReady: (() => void) | null = null;
  let exit: AgentExit | null = null;

  const collect = (stream: NodeJS.ReadableStream | null): void => {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (line.startsWith('webhooks: ')) webhookUrl = line.slice('webhooks: '.length).trim();
        if (line.startsWith('ui: ')) uiUrl = line.slice('ui: '.length).trim();
        if (line.startsWith('printer: ') && !ready) {
          ready = true;
          onReady?.();
        }
      }
    });
    stream?.on('end', () => {
      if (rest) lines.push(rest);
    });
  };
  collect(child.stdout);
  collect(child.stderr);

  const exited = new Promise<AgentExit>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      lines.push(`[agent process exited: ${signal ?? `code ${code}`}]`);
      resolve(exit);
    });
  });

  const timeoutMs = options.readyTimeoutMs ?? 90_000;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`agent did not print its ready lines within ${timeoutMs} ms:\n${lines.slice(-30).join('\n')}`));
    }, timeoutMs);
    onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    if (ready) onReady();
    void exited.then((e) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`agent exited (${e.code ?? e.signal}) before it was ready:\n${lines.slice(-30).join('\n')}`));
    });
  });

  const kill = async (signal: NodeJS.Signals = 'SIGKILL'): Promise<AgentExit> => {
    if (exit) return exit;
    child.kill(signal);
    return exited;
  };

  return {
    pid: child.pid!,
    get webhookUrl() {
      return webhookUrl;
    },
    get uiUrl() {
      return uiUrl;
    },
    lines,
    exited,
    get running() {
      return exit === null;
    },
    kill,
    async stop(graceMs = 15_000) {
      if (exit) return exit;
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await kill('SIGTERM');
      clearTimeout(timer);
      return result;
    },
  };
}

/** CLI arguments of docs/INTERFACES.md for an agent on `apiUrl`, printing to `printer`. */
export function agentArgs(o: {
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly printer: string;
  readonly dataDir: string;
  readonly webhookPort?: number | null;
  readonly webhookSecret?: string;
  readonly pollIntervalSeconds?: number;
  readonly uiPort?: number | null;
  /** --batch-max (src/main/jobs/batching.ts); absent = the default: batching on, up to 25 labels a job. */
  readonly batchMax?: number;
}): string[] {
  const args = ['--api-url', o.apiUrl, '--api-key', o.apiKey, '--printer', o.printer, '--data-dir', o.dataDir];
  if (o.webhookPort != null) args.push('--webhook-port', String(o.webhookPort), '--webhook-secret', o.webhookSecret ?? 'whsec-reliability');
  args.push('--poll-interval', String(o.pollIntervalSeconds ?? 0));
  if (o.uiPort != null) args.push('--ui-port', String(o.uiPort));
  if (o.batchMax !== undefined) args.push('--batch-max', String(o.batchMax));
  return args;
}

/** The job lines the agent logs (src/main/jobs/job-log.ts): `job <id> <state> ... shipment <sid> ... [trigger]`. */
export interface JobLine {
  readonly jobId: string;
  readonly state: string;
  readonly shipmentId: string;
  readonly trigger: string;
}

export function parseJobLines(lines: readonly string[]): JobLine[] {
  const out: JobLine[] = [];
  for (const line of lines) {
    const m = / job (\S+) (\S+) \S+ shipment (\S+) .*\[(\w+)\]/.exec(line);
    if (m) out.push({ jobId: m[1]!, state: m[2]!, shipmentId: m[3]!, trigger: m[4]! });
  }
  return out;
}
