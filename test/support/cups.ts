/**
 * A private CUPS scheduler for tests: its own cupsd (`cupsd -f`) with its own ServerRoot,
 * spool, log, cache and state directories in a temp dir, listening on a free port on
 * 127.0.0.1. Never touches the machine's own cupsd (running or not) or its queues.
 *
 * Queue kinds:
 * - `sink`: a raw queue on a tiny shell backend that copies each job byte-exact into the
 *   queue's output dir as `<job id, 6 digits>-<title>.pdf` (about 30 ms a job).
 * - `pdf`: cups-pdf behind the CUPS filter chain, so the output shows the page geometry
 *   CUPS produced from the job's media options. cups-pdf reads its settings only from
 *   /etc/cups (compiled in; a PPD `Out` option crashes Debian's 3.0.1 build), so each pdf
 *   queue gets a uniquely named instance file `/etc/cups/cups-pdf-<instance>.conf`
 *   (cups-pdf's documented per-instance config, device URI `cups-pdf:/<instance>`).
 *   stop() removes them; files left by a killed test run are swept on the next start.
 *
 * Needs root (cupsd and the backends run as root here) and the Debian packages cups,
 * cups-client, printer-driver-cups-pdf.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SpoolRequest } from '../../src/main/printing/target';
import { freePort } from './net';

const execFileAsync = promisify(execFile);

export type QueueKind = 'pdf' | 'sink';

export interface PrivateCupsOptions {
  readonly queues?: ReadonlyArray<{ readonly name: string; readonly kind: QueueKind; readonly description?: string }>;
  /** @default 'warn' (set 'debug' to see filter command lines in `<root>/log/error_log`) */
  readonly logLevel?: string;
  /**
   * What cupsd does when a backend fails. CUPS's own default, `stop-printer`, disables the
   * queue and keeps the job; tests want a failed job to end as aborted. (A job whose
   * filters fail, e.g. a damaged PDF, is retried by cupsd regardless.)
   * @default 'abort-job'
   */
  /**
   * `open`: every user sees every job's name. `default`: CUPS's stock policy, where job
   * names are visible to their owner only (as on a real station).
   * @default 'open'
   */
  readonly jobPrivacy?: 'open' | 'default';
  readonly errorPolicy?: 'abort-job' | 'retry-job' | 'retry-current-job' | 'stop-printer';
  /**
   * Also listen on a Unix domain socket (`<root>/cups.sock`), as a station's cupsd does
   * (`lpstat -H` then names the socket path). @default false
   */
  readonly unixSocket?: boolean;
}

export interface PrivateCups {
  /** `127.0.0.1:PORT` */
  readonly server: string;
  /** process.env plus CUPS_SERVER (and the C locale) for lp, lpstat and the agent. */
  readonly env: NodeJS.ProcessEnv & { CUPS_SERVER: string };
  /** The temp dir holding everything. */
  readonly root: string;
  /** The Unix domain socket cupsd also listens on (options.unixSocket), else null. */
  readonly socketPath: string | null;
  outputDir(queue: string): string;
  addQueue(name: string, kind: QueueKind, description?: string): Promise<void>;
  /**
   * A raw queue (no PPD, the PDF passes through) whose device is an IPP printer, e.g. a
   * private ippeveprinter (test/support/ippeveprinter.ts): CUPS's own ipp backend sends it
   * each job and follows it there, as for a network printer.
   */
  addIppQueue(name: string, deviceUri: string): Promise<void>;
  enable(queue: string): Promise<void>;
  disable(queue: string, reason?: string): Promise<void>;
  accept(queue: string): Promise<void>;
  reject(queue: string, reason?: string): Promise<void>;
  /** Files written for the queue, oldest job first. */
  outputs(queue: string): Promise<string[]>;
  /** Waits until the scheduler has no pending or processing jobs (on `queue`, or anywhere). */
  waitForJobs(options?: { readonly queue?: string; readonly timeoutMs?: number }): Promise<void>;
  /** Waits until `queue` has at least `count` output files; returns them. */
  waitForOutputs(queue: string, count: number, timeoutMs?: number): Promise<string[]>;
  stop(): Promise<void>;
}

const CUPS_LIB = '/usr/lib/cups';
const CUPS_PDF_CONF_DIR = '/etc/cups';
const CUPS_PDF_PPD = '/usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd';
const INSTANCE_PREFIX = 'cups-pdf-psh';
// cupsd, lpadmin and cupsenable live in /usr/sbin, which a non-login PATH may lack.
const PATH = [process.env.PATH, '/usr/sbin', '/sbin', '/usr/bin'].filter(Boolean).join(':');

// Raw queue backend. CUPS runs a 0700 root-owned backend as root and passes: job-id user
// title copies options [file]; without a file the job arrives on stdin. Writing to a
// dot-file and renaming means a test never sees half a job.
const SINK_BACKEND = `#!/bin/sh
if [ $# -eq 0 ]; then echo 'direct sink "Unknown" "Print Station test sink"'; exit 0; fi
dir="\${DEVICE_URI#sink:}"
id=$(printf '%06d' "$1")
title=$(printf '%s' "$3" | tr -c 'A-Za-z0-9._-' '_' | cut -c1-120)
copies="\${4:-1}"
tmp="$dir/.$id.tmp"
if [ -n "$6" ]; then cat "$6" > "$tmp" || exit 1; else cat > "$tmp" || exit 1; fi
n=1
while [ "$n" -le "$copies" ]; do
  if [ "$n" -eq 1 ]; then out="$dir/$id-$title.pdf"; else out="$dir/$id-$title.copy$n.pdf"; fi
  cp "$tmp" "$dir/.$id.$n.tmp" && mv "$dir/.$id.$n.tmp" "$out" || exit 1
  n=$((n + 1))
done
rm -f "$tmp"
exit 0
`;

// cupsd runs under a tiny shell watchdog that holds our end of a pipe: when the test
// process ends for any reason (even SIGKILL) the pipe closes and the watchdog stops cupsd,
// so no scheduler outlives its test run.
const WATCHDOG = `exec 3<&0
"$0" -f -c "$1" -s "$2" </dev/null &
pid=$!
{ cat <&3 >/dev/null; kill -TERM "$pid" 2>/dev/null; } &
watcher=$!
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT
wait "$pid"
status=$?
kill "$watcher" 2>/dev/null
exit $status
`;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes cups-pdf instance files and temp dirs whose owning test process is gone (SIGKILL). */
async function sweepStale(): Promise<void> {
  const names = await fs.readdir(CUPS_PDF_CONF_DIR).catch(() => [] as string[]);
  for (const name of names) {
    const m = new RegExp(`^${INSTANCE_PREFIX}(\\d+)_`).exec(name);
    if (m && !pidAlive(Number(m[1]))) await fs.rm(path.join(CUPS_PDF_CONF_DIR, name), { force: true });
  }
  for (const name of await fs.readdir(os.tmpdir()).catch(() => [] as string[])) {
    if (!name.startsWith('pscups-')) continue;
    const dir = path.join(os.tmpdir(), name);
    const owner = Number(await fs.readFile(path.join(dir, 'owner.pid'), 'utf8').catch(() => ''));
    if (owner > 0 && !pidAlive(owner)) await fs.rm(dir, { recursive: true, force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function startPrivateCups(options: PrivateCupsOptions = {}): Promise<PrivateCups> {
  if (process.getuid?.() !== 0) throw new Error('startPrivateCups needs root: cupsd and its backends run as root here');
  await sweepStale();
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pscups-'));
  // Filters run as the unprivileged `lp` user and must reach the spool dir inside.
  await fs.chmod(root, 0o755);
  await fs.writeFile(path.join(root, 'owner.pid'), String(process.pid));
  const dirs = {
    etc: path.join(root, 'etc'),
    bin: path.join(root, 'bin'),
    backend: path.join(root, 'bin', 'backend'),
    spool: path.join(root, 'spool'),
    tmp: path.join(root, 'spool', 'tmp'),
    log: path.join(root, 'log'),
    cache: path.join(root, 'cache'),
    state: path.join(root, 'state'),
    out: path.join(root, 'out'),
    pdfSpool: path.join(root, 'cups-pdf-spool'),
  };
  for (const dir of Object.values(dirs)) await fs.mkdir(dir, { recursive: true, mode: 0o755 });

  // Our own ServerBin: the system's filters and backends, plus the sink backend.
  for (const entry of await fs.readdir(CUPS_LIB)) {
    if (entry !== 'backend') await fs.symlink(path.join(CUPS_LIB, entry), path.join(dirs.bin, entry));
  }
  for (const entry of await fs.readdir(path.join(CUPS_LIB, 'backend'))) {
    await fs.symlink(path.join(CUPS_LIB, 'backend', entry), path.join(dirs.backend, entry));
  }
  await fs.writeFile(path.join(dirs.backend, 'sink'), SINK_BACKEND, { mode: 0o700 });

  await fs.writeFile(
    path.join(dirs.etc, 'cups-files.conf'),
    [
      `ServerRoot ${dirs.etc}`,
      `ServerBin ${dirs.bin}`,
      'DataDir /usr/share/cups',
      `RequestRoot ${dirs.spool}`,
      `TempDir ${dirs.tmp}`,
      `CacheDir ${dirs.cache}`,
      `StateDir ${dirs.state}`,
      `ErrorLog ${dirs.log}/error_log`,
      `AccessLog ${dirs.log}/access_log`,
      `PageLog ${dirs.log}/page_log`,
      'User lp',
      'Group lp',
      'SystemGroup root',
      'FileDevice No',
      '',
    ].join('\n'),
  );

  const instances: string[] = [];
  const queueDirs = new Map<string, string>();
  let child: ChildProcess | null = null;
  let port = 0;
  let server = '';
  const cupsdLog: string[] = [];

  const writeCupsdConf = async (): Promise<void> => {
    await fs.writeFile(
      path.join(dirs.etc, 'cupsd.conf'),
      [
        `LogLevel ${options.logLevel ?? 'warn'}`,
        `Listen 127.0.0.1:${port}`,
        ...(options.unixSocket ? [`Listen ${path.join(root, 'cups.sock')}`] : []),
        'Browsing No',
        'BrowseLocalProtocols none',
        'DefaultAuthType None',
        'WebInterface No',
        'JobRetryInterval 1',
        `ErrorPolicy ${options.errorPolicy ?? 'abort-job'}`,
        'PreserveJobHistory Yes',
        'PreserveJobFiles No',
        'MaxJobs 0',
        'MaxJobsPerPrinter 0',
        'MaxJobsPerUser 0',
        // Job privacy: see PrivateCupsOptions.jobPrivacy.
        '<Location />',
        '  Order allow,deny',
        '  Allow all',
        '</Location>',
        '<Policy default>',
        ...(options.jobPrivacy === 'default'
          ? [
              '  JobPrivateAccess default',
              '  JobPrivateValues default',
              '  SubscriptionPrivateAccess default',
              '  SubscriptionPrivateValues default',
            ]
          : ['  JobPrivateAccess all', '  JobPrivateValues none', '  SubscriptionPrivateAccess all', '  SubscriptionPrivateValues none']),
        '  <Limit All>',
        '    Order deny,allow',
        '  </Limit>',
        '</Policy>',
        '',
      ].join('\n'),
    );
  };

  const env = (): NodeJS.ProcessEnv & { CUPS_SERVER: string } => ({ ...process.env, PATH, CUPS_SERVER: server, LANG: 'C', LC_ALL: 'C' });

  const run = async (file: string, args: string[]): Promise<string> => {
    try {
      const { stdout } = await execFileAsync(file, args, { env: env() });
      return stdout;
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`${file} ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`, { cause: error });
    }
  };

  const started = async (): Promise<boolean> => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (!child || child.exitCode !== null) return false;
      const ok = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (ok) return true;
      await sleep(25);
    }
    return false;
  };

  const cupsdPath = await fs.access('/usr/sbin/cupsd').then(
    () => '/usr/sbin/cupsd',
    () => 'cupsd',
  );
  // A free port can be taken between picking it and cupsd binding it: try a few.
  for (let attempt = 0; attempt < 5 && !server; attempt++) {
    port = await freePort();
    await writeCupsdConf();
    child = spawn('/bin/sh', ['-c', WATCHDOG, cupsdPath, path.join(dirs.etc, 'cupsd.conf'), path.join(dirs.etc, 'cups-files.conf')], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, PATH, LANG: 'C', LC_ALL: 'C' },
    });
    child.stdout?.on('data', (d: Buffer) => cupsdLog.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => cupsdLog.push(d.toString()));
    child.on('error', (error) => cupsdLog.push(String(error)));
    if (await started()) server = `127.0.0.1:${port}`;
    else {
      child.stdin?.end();
      child.kill('SIGKILL');
      child = null;
    }
  }
  if (!server || !child) {
    await fs.rm(root, { recursive: true, force: true });
    throw new Error(`private cupsd did not start: ${cupsdLog.join('').slice(-2000)}`);
  }
  const cupsd = child;

  const outputDir = (queue: string): string => {
    const dir = queueDirs.get(queue);
    if (!dir) throw new Error(`no queue ${queue} in this private CUPS`);
    return dir;
  };

  const addQueue = async (name: string, kind: QueueKind, description?: string): Promise<void> => {
    const dir = path.join(dirs.out, String(queueDirs.size + 1));
    await fs.mkdir(dir, { recursive: true, mode: 0o755 });
    const describe = description ? ['-D', description] : [];
    if (kind === 'sink') {
      await run('lpadmin', ['-p', name, ...describe, '-v', `sink:${dir}`, '-m', 'raw', '-E']).catch(async () =>
        // CUPS 2.4 dropped `-m raw` on some builds: a queue without a PPD is raw anyway.
        run('lpadmin', ['-p', name, ...describe, '-v', `sink:${dir}`, '-E']),
      );
    } else {
      const instance = `psh${process.pid}_${path.basename(root).replace(/[^A-Za-z0-9]/g, '')}_${queueDirs.size + 1}`;
      const conf = path.join(CUPS_PDF_CONF_DIR, `cups-pdf-${instance}.conf`);
      await fs.writeFile(
        conf,
        [
          `Out ${dir}`,
          `Spool ${dirs.pdfSpool}`,
          `Log ${dirs.log}`,
          'LogType 1',
          'Grp lp',
          // File names `job_<id>-<title>.pdf`: ordered and traceable to the job.
          'Label 1',
          'TitlePref 1',
          'LowerCase 0',
          'Truncate 200',
          'UserUMask 0022',
          '',
        ].join('\n'),
      );
      instances.push(conf);
      await run('lpadmin', ['-p', name, ...describe, '-v', `cups-pdf:/${instance}`, '-E', '-P', CUPS_PDF_PPD]);
    }
    queueDirs.set(name, dir);
  };

  const addIppQueue = async (name: string, deviceUri: string): Promise<void> => {
    await run('lpadmin', ['-p', name, '-v', deviceUri, '-E']);
  };

  const activeJobs = async (queue?: string): Promise<number> => {
    const stdout = await run('lpstat', ['-o', ...(queue ? [queue] : [])]);
    return stdout.split('\n').filter((l) => l.trim()).length;
  };

  const jobNumber = (file: string): number => {
    // sink: `000123-title.pdf`; cups-pdf: `title-job_123.pdf` or `job_123-title.pdf`.
    const base = path.basename(file);
    const m = /-job_(\d+)\.pdf$/.exec(base) ?? /^job_(\d+)-/.exec(base) ?? /^(\d+)-/.exec(base);
    return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
  };

  const outputs = async (queue: string): Promise<string[]> => {
    const dir = outputDir(queue);
    const files = (await fs.readdir(dir)).filter((f) => !f.startsWith('.') && f.endsWith('.pdf'));
    return files.sort((a, b) => jobNumber(a) - jobNumber(b) || a.localeCompare(b)).map((f) => path.join(dir, f));
  };

  const cups: PrivateCups = {
    server,
    get env() {
      return env();
    },
    root,
    socketPath: options.unixSocket ? path.join(root, 'cups.sock') : null,
    outputDir,
    addQueue,
    addIppQueue,
    enable: async (q) => void (await run('cupsenable', [q])),
    disable: async (q, reason) => void (await run('cupsdisable', [...(reason ? ['-r', reason] : []), q])),
    accept: async (q) => void (await run('cupsaccept', [q])),
    reject: async (q, reason) => void (await run('cupsreject', [...(reason ? ['-r', reason] : []), q])),
    outputs,
    waitForJobs: async ({ queue, timeoutMs = 20_000 } = {}) => {
      const deadline = Date.now() + timeoutMs;
      while ((await activeJobs(queue)) > 0) {
        if (Date.now() > deadline) throw new Error(`jobs still active on ${queue ?? 'the private CUPS'} after ${timeoutMs} ms`);
        await sleep(50);
      }
    },
    waitForOutputs: async (queue, count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const files = await outputs(queue);
        if (files.length >= count) return files;
        if (Date.now() > deadline) throw new Error(`${queue} has ${files.length} of ${count} outputs after ${timeoutMs} ms`);
        await sleep(50);
      }
    },
    stop: async () => {
      if (cupsd.exitCode === null) {
        const exited = new Promise<void>((resolve) => cupsd.once('exit', () => resolve()));
        // Closing the watchdog's stdin makes it stop cupsd (SIGTERM) and exit.
        cupsd.stdin?.end();
        const timer = setTimeout(() => cupsd.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      for (const conf of instances) await fs.rm(conf, { force: true });
      await fs.rm(root, { recursive: true, force: true });
    },
  };

  try {
    for (const q of options.queues ?? []) await addQueue(q.name, q.kind, q.description);
  } catch (error) {
    await cups.stop();
    throw error;
  }
  return cups;
}

/** Page size in points of each page of a PDF, read with pdfinfo (poppler-utils). */
export async function pdfPageSizes(file: string): Promise<Array<{ width: number; height: number }>> {
  const { stdout } = await execFileAsync('pdfinfo', ['-l', '1000', file], { env: { ...process.env, LANG: 'C', LC_ALL: 'C' } });
  const sizes: Array<{ width: number; height: number }> = [];
  for (const m of stdout.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)) {
    sizes.push({ width: Math.round(Number(m[1])), height: Math.round(Number(m[2])) });
  }
  if (sizes.length === 0) {
    const m = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(stdout);
    if (m) sizes.push({ width: Math.round(Number(m[1])), height: Math.round(Number(m[2])) });
  }
  return sizes;
}

let labelSeq = 0;
/** A 4x6 label spool request with a fresh job id (`prefix` tells a test's jobs apart in the queue). */
export function labelSpoolRequest(prefix: string, pdf: Uint8Array): SpoolRequest {
  const jobId = `${prefix}${Date.now().toString(36)}x${++labelSeq}`;
  return {
    jobId,
    title: `ps ${jobId}`,
    pdf,
    media: 'label',
    copies: 1,
    shipmentId: `SHP-${labelSeq}`,
    documentType: 'label',
    layout: 'printer',
  };
}
