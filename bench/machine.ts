/** The machine a benchmark ran on, for the JSON and docs/BENCHMARKS.md. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  readonly summary: string;
  readonly cpus: number;
  readonly cpuModel: string;
  readonly ramGb: number;
  readonly node: string;
  readonly os: string;
  /** 1-minute load average when the run started: other work on a shared machine skews every figure. */
  readonly loadAverage: number;
}

export function machineInfo(): MachineInfo {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // not Linux: os.cpus() it is
  }
  const cpus = os.availableParallelism?.() ?? os.cpus().length;
  const ramGb = Math.round((os.totalmem() / 2 ** 30) * 10) / 10;
  const loadAverage = Math.round(os.loadavg()[0]! * 100) / 100;
  const osName = `${os.type()} ${os.release()}`;
  return {
    summary: `${cpus} × ${cpuModel}, ${ramGb} GB RAM, Node ${process.version}, ${osName}`,
    cpus,
    cpuModel,
    ramGb,
    node: process.version,
    os: osName,
    loadAverage,
  };
}
