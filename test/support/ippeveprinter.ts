/**
 * A private IPP Everywhere printer for tests: CUPS's reference printer `ippeveprinter`
 * (Debian cups-ipp-utils) on a free loopback port, configured as a 4x6 in, 203 dpi label
 * printer that takes PDF. Each "printed" job runs a tiny shell command that waits
 * `printSeconds` (changeable while the printer runs) and copies the document into the
 * printer's output dir, so a test can see what came out and kill the printer mid-job.
 *
 * ippeveprinter registers itself with Avahi over the D-Bus system bus and aborts when
 * there is no bus at all: each printer gets a private `dbus-daemon` (own config, own socket
 * in the temp dir; DBUS_SYSTEM_BUS_ADDRESS points there) and runs with `-r off` (no
 * DNS-SD registration). Both run under a watchdog shell holding a pipe from the test
 * process, so neither outlives its test run, even on SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './net';

/** The media a 4x6 label printer declares: the PWG index card name CUPS uses, and the label name. */
export const LABEL_MEDIA = ['na_index-4x6_4x6in', 'oe_4x6-label_4x6in'] as const;

export interface IppEvePrinterOptions {
  /** `media-supported` (and `media-ready`); the first is `media-default`. @default LABEL_MEDIA */
  readonly media?: readonly string[];
  /** Seconds each job "prints" (the command's sleep). @default 0.2 */
  readonly printSeconds?: number;
  /** The printer's name (`printer-name`, `printer-info`). @default 'Label 4x6' */
  readonly name?: string;
  /** Whether it takes PDF (`document-format-supported`). @default true */
  readonly pdf?: boolean;
}

export interface IppEvePrinter {
  /** `localhost:PORT` */
  readonly host: string;
  readonly port: number;
  /** `ipp://localhost:PORT/ipp/print`: what a CUPS queue's device URI or a direct printer URI names. */
  readonly uri: string;
  readonly root: string;
  /** Documents the printer finished, oldest first (one file per job). */
  outputs(): Promise<string[]>;
  waitForOutputs(count: number, timeoutMs?: number): Promise<string[]>;
  /** Changes how long the next jobs take to print. */
  setPrintSeconds(seconds: number): Promise<void>;
  /** Kills the printer (SIGKILL, its print command too): its port then refuses connections. */
  kill(): Promise<void>;
  /** Starts it again on the same port (new attributes if given); it remembers no job from before. */
  restart(options?: Pick<IppEvePrinterOptions, 'media'>): Promise<void>;
  /**
   * printer-state-reasons the next job's print command reports, as CUPS filters do
   * (`+media-empty-error` adds, `-media-empty-error` clears): the printer keeps them after
   * that job.
   */
  setStateReasons(changes: readonly string[]): Promise<void>;
  /** Whether a job's print command is running right now. */
  printing(): Promise<boolean>;
  stop(): Promise<void>;
}

// Holds our end of a pipe on fd 3: when the test process ends (or closes the pipe), the
// program ("$@") is killed with its process group (setsid gives it its own), so a job's
// print command dies with the printer.
const WATCHDOG = `exec 3<&0
setsid "$@" </dev/null &
pid=$!
{ cat <&3 >/dev/null; kill -KILL -"$pid" 2>/dev/null; } &
watcher=$!
trap 'kill -KILL -"$pid" 2>/dev/null' TERM INT
wait "$pid"
status=$?
kill "$watcher" 2>/dev/null
exit $status
`;

const DBUS_CONF = (socket: string): string => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
    <allow user="*"/>
  </policy>
</busconfig>
`;

// The print command ippeveprinter runs per job with the document's path. `printing` marks a
// job in progress; the copy is written under a dot name and renamed, so a test never sees
// half a document.
const COMMAND = (root: string): string => `#!/bin/sh
touch "${root}/printing"
if [ -s "${root}/state" ]; then cat "${root}/state" >&2; : > "${root}/state"; fi
sleep "$(cat "${root}/print-seconds")"
name=$(basename "$1")
cp "$1" "${root}/out/.$name" && mv "${root}/out/.$name" "${root}/out/$name"
rm -f "${root}/printing"
exit 0
`;

/** A media-size value (ipptool syntax): the PWG name's size in hundredths of mm. */
function mediaSize(name: string): string | null {
  const m = /_(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(mm|in)$/.exec(name);
  if (!m) return null;
  const scale = m[3] === 'in' ? 2540 : 100;
  return `{MEMBER integer x-dimension ${Math.round(Number(m[1]) * scale)} MEMBER integer y-dimension ${Math.round(Number(m[2]) * scale)}}`;
}

/** A media-col value (ipptool syntax): the PWG name's size, zero margins. */
function mediaCol(name: string): string | null {
  const size = mediaSize(name);
  if (!size) return null;
  const margins = ['bottom', 'left', 'right', 'top'].map((side) => `MEMBER integer media-${side}-margin 0`).join(' ');
  return `{MEMBER collection media-size ${size} ${margins} MEMBER keyword media-source main}`;
}

/** ippeveprinter's attributes file (ipptool syntax, `-a`): a 4x6 203 dpi PDF label printer. */
function attributes(media: readonly string[], pdf: boolean): string {
  const cols = media.flatMap((name) => mediaCol(name) ?? []);
  const sizes = [...new Set(media.flatMap((name) => mediaSize(name) ?? []))];
  return [
    // What ippeveprinter checks a job's media-col against: the sizes, and borderless margins.
    ...(sizes.length > 0 ? [`ATTR collection media-size-supported ${sizes.join(',')}`] : []),
    ...['bottom', 'left', 'right', 'top'].map((side) => `ATTR integer media-${side}-margin-supported 0`),
    ...(cols.length > 0 ? [`ATTR collection media-col-default ${cols[0]}`, `ATTR collection media-col-database ${cols.join(',')}`] : []),
    'ATTR rangeOfInteger copies-supported 1-999',
    `ATTR keyword media-default ${media[0] ?? 'na_index-4x6_4x6in'}`,
    `ATTR keyword media-supported ${media.join(',')}`,
    `ATTR keyword media-ready ${media[0] ?? 'na_index-4x6_4x6in'}`,
    'ATTR resolution printer-resolution-default 203dpi',
    'ATTR resolution printer-resolution-supported 203dpi',
    'ATTR keyword print-scaling-supported auto,auto-fit,fill,fit,none',
    'ATTR keyword print-scaling-default none',
    // ippeveprinter adds its own list after this one (image/pwg-raster, image/urf); the first
    // is the one it checks Print-Job against, and a client reads both.
    `ATTR mimeMediaType document-format-supported ${pdf ? 'application/pdf,' : ''}image/pwg-raster,image/urf`,
    '',
  ].join('\n');
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

function watched(args: readonly string[], env: NodeJS.ProcessEnv, log: string[]): ChildProcess {
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'watchdog', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
  child.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
  child.on('error', (error) => log.push(String(error)));
  return child;
}

async function end(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

export async function startIppEvePrinter(options: IppEvePrinterOptions = {}): Promise<IppEvePrinter> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'psippeve-'));
  await fs.chmod(root, 0o755);
  for (const dir of ['out', 'spool']) await fs.mkdir(path.join(root, dir), { mode: 0o755 });
  await fs.writeFile(path.join(root, 'print-seconds'), String(options.printSeconds ?? 0.2));
  await fs.writeFile(path.join(root, 'print.sh'), COMMAND(root), { mode: 0o755 });
  await fs.writeFile(path.join(root, 'dbus.conf'), DBUS_CONF(path.join(root, 'bus.sock')));
  const log: string[] = [];
  const baseEnv = { ...process.env, LANG: 'C', LC_ALL: 'C' };
  const dbus = watched(['dbus-daemon', `--config-file=${path.join(root, 'dbus.conf')}`, '--nofork'], baseEnv, log);
  const bus = `unix:path=${path.join(root, 'bus.sock')}`;
  for (let i = 0; i < 200 && !(await fs.stat(path.join(root, 'bus.sock')).catch(() => null)); i++) await sleep(10);
  const env = { ...baseEnv, DBUS_SYSTEM_BUS_ADDRESS: bus };

  let printer: ChildProcess | null = null;
  let port = 0;
  const name = options.name ?? 'Label 4x6';

  const launch = async (media: readonly string[]): Promise<boolean> => {
    await fs.writeFile(path.join(root, 'attributes.conf'), attributes(media, options.pdf ?? true));
    await fs.rm(path.join(root, 'printing'), { force: true });
    const args = ['ippeveprinter', '-r', 'off', '-n', 'localhost', '-p', String(port)];
    args.push('-a', path.join(root, 'attributes.conf'), '-k', '-d', path.join(root, 'spool'), '-c', path.join(root, 'print.sh'), name);
    printer = watched(args, env, log);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (printer.exitCode !== null) return false;
      if (await connects(port)) return true;
      await sleep(25);
    }
    return false;
  };

  let media = options.media ?? LABEL_MEDIA;
  let up = false;
  for (let attempt = 0; attempt < 5 && !up; attempt++) {
    port = await freePort();
    up = await launch(media);
    if (!up) await end(printer);
  }
  if (!up) {
    await end(dbus);
    await fs.rm(root, { recursive: true, force: true });
    throw new Error(`ippeveprinter did not start: ${log.join('').slice(-2000)}`);
  }

  const outputs = async (): Promise<string[]> => {
    const dir = path.join(root, 'out');
    const files = (await fs.readdir(dir)).filter((f) => !f.startsWith('.'));
    const stats = await Promise.all(files.map(async (f) => ({ f, t: (await fs.stat(path.join(dir, f))).mtimeMs })));
    return stats.sort((a, b) => a.t - b.t || a.f.localeCompare(b.f)).map((s) => path.join(dir, s.f));
  };

  return {
    host: `localhost:${port}`,
    port,
    uri: `ipp://localhost:${port}/ipp/print`,
    root,
    outputs,
    waitForOutputs: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const files = await outputs();
        if (files.length >= count) return files;
        if (Date.now() > deadline) throw new Error(`ippeveprinter has ${files.length} of ${count} outputs after ${timeoutMs} ms`);
        await sleep(50);
      }
    },
    setPrintSeconds: (seconds) => fs.writeFile(path.join(root, 'print-seconds'), String(seconds)),
    kill: async () => {
      const child = printer;
      await end(child);
      for (let i = 0; i < 100 && (await connects(port)); i++) await sleep(20);
    },
    restart: async (next) => {
      await end(printer);
      media = next?.media ?? media;
      if (!(await launch(media))) throw new Error(`ippeveprinter did not start again: ${log.join('').slice(-2000)}`);
    },
    setStateReasons: (changes) => fs.writeFile(path.join(root, 'state'), changes.map((c) => `STATE: ${c}\n`).join('')),
    printing: async () => Boolean(await fs.stat(path.join(root, 'printing')).catch(() => null)),
    stop: async () => {
      await end(printer);
      await end(dbus);
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}
