/** Parent side of sandbox-child.ts: a promise per IPC command. */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestLogEntry } from '../src/sandbox/server';
import type { Booked, SandboxCommand } from './sandbox-child';

export type { Booked } from './sandbox-child';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sandbox-child.ts');

export class SandboxProcess {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {
    child.on('message', (m: { id: number; value: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error));
      else p.resolve(m.value);
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(apiKey = 'bench-key'): Promise<SandboxProcess> {
    const child = fork(CHILD, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_API_KEY: apiKey },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
      child.once('message', (m: { value: { baseUrl: string; apiKey: string } }) => resolve(m.value));
      child.once('exit', (code) => reject(new Error(`sandbox child exited with ${code}`)));
    });
    return new SandboxProcess(child, ready.baseUrl, ready.apiKey);
  }

  private call<T>(command: SandboxCommand): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, command });
    });
  }

  book(count: number, prefix: string): Promise<Booked[]> {
    return this.call({ op: 'book', count, prefix });
  }
  seed(count: number): Promise<void> {
    return this.call({ op: 'seed', count });
  }
  setFaults(faults: Record<string, number>): Promise<void> {
    return this.call({ op: 'faults', faults });
  }
  /** Where the sandbox pushes its signed webhooks (none: []). */
  setWebhooks(endpoints: ReadonlyArray<{ readonly url: string; readonly secret: string }>): Promise<void> {
    return this.call({ op: 'webhooks', endpoints });
  }
  clearLog(): Promise<void> {
    return this.call({ op: 'clearLog' });
  }
  log(): Promise<RequestLogEntry[]> {
    return this.call({ op: 'log' });
  }
  rss(): Promise<number> {
    return this.call({ op: 'rss' });
  }
  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.call({ op: 'close' }).catch(() => undefined);
    await exited;
  }
}
