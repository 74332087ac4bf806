/**
 * Memory and CPU of another process, read from /proc (Linux): what the suite uses to
 * show a child agent's memory stays bounded, and what the benchmark reports as idle cost.
 */
import { readFileSync } from 'node:fs';

/** Resident set size of `pid` in MiB, or null once the process is gone. */
export function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** User + system CPU time of `pid` in seconds (USER_HZ is 100 on Linux), or null once gone. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return (utime + stime) / 100;
  } catch {
    return null;
  }
}

export interface RssSampler {
  /** Samples so far, in MiB. */
  readonly samples: readonly number[];
  stop(): number[];
}

/** Samples the RSS of `pid` every `intervalMs`; a gone process simply adds no samples. */
export function sampleRss(pid: () => number | null, intervalMs = 250): RssSampler {
  const samples: number[] = [];
  const take = (): void => {
    const p = pid();
    const mb = p === null ? null : rssMb(p);
    if (mb !== null) samples.push(mb);
  };
  take();
  const timer = setInterval(take, intervalMs);
  timer.unref();
  return {
    samples,
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}
