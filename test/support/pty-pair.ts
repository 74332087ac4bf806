import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A serial cable in software: `socat -d -d pty,raw,echo=0,link=A pty,raw,echo=0,link=B`
 * (Debian's socat). Whatever is written to one end comes out of the other, and either end
 * opens as a serial port. `unplug()` kills socat (SIGKILL, as a pulled cable gives no
 * warning) and removes the links; `replug()` starts it again on the same links.
 */
export interface PtyPair {
  /** The end the station opens (its scale port). */
  readonly stationEnd: string;
  /** The end the simulated scale speaks on. */
  readonly scaleEnd: string;
  unplug(): Promise<void>;
  replug(): Promise<void>;
  close(): Promise<void>;
}

export const SOCAT = process.env.SOCAT ?? '/usr/bin/socat';

export function socatUnavailable(): string | null {
  return existsSync(SOCAT) ? null : `socat is not installed at ${SOCAT} (apt-get install socat; .ci/run installs it)`;
}

export async function startPtyPair(): Promise<PtyPair> {
  const dir = mkdtempSync(join(tmpdir(), 'ps-scale-'));
  const stationEnd = join(dir, 'station');
  const scaleEnd = join(dir, 'scale');
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    const proc = spawn(SOCAT, ['-d', '-d', `pty,raw,echo=0,link=${stationEnd}`, `pty,raw,echo=0,link=${scaleEnd}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = proc;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`socat did not start within 5 s: ${output}`)), 5000);
      proc.stderr!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // Both links exist once socat says it is transferring data.
        if (output.includes('starting data transfer loop')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`socat exited (${code}): ${output}`));
      });
    });
  };
  const kill = async (): Promise<void> => {
    const proc = child;
    child = null;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
    }
    // A dangling link could later point at another program's pseudo-terminal.
    rmSync(stationEnd, { force: true });
    rmSync(scaleEnd, { force: true });
  };

  await start();
  return {
    stationEnd,
    scaleEnd,
    unplug: kill,
    replug: start,
    async close() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
