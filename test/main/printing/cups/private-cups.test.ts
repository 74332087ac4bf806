import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfPageSizes, startPrivateCups } from '../../../support/cups';

const run = promisify(execFile);

async function cupsdPids(): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pid,args']).catch(() => ({ stdout: '' }));
  return stdout
    .split('\n')
    .filter((l) => /cupsd -f -c /.test(l))
    .map((l) => l.trim());
}

describe('startPrivateCups', () => {
  it('runs its own scheduler, prints to sink and pdf queues, and leaves nothing behind', async () => {
    const printersConf = existsSync('/etc/cups/printers.conf') ? await fs.readFile('/etc/cups/printers.conf', 'utf8') : null;
    const cups = await startPrivateCups({
      queues: [
        { name: 'sink', kind: 'sink' },
        { name: 'pdf', kind: 'pdf' },
      ],
    });
    const mine = (await cupsdPids()).filter((l) => l.includes(cups.root));
    expect(mine).toHaveLength(1);
    expect(cups.server).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(cups.env.CUPS_SERVER).toBe(cups.server);

    const { stdout } = await run('lpstat', ['-v'], { env: cups.env });
    expect(stdout).toContain(`device for sink: sink:${cups.outputDir('sink')}`);
    expect(stdout).toMatch(/device for pdf: cups-pdf:\/psh\d+_/);

    const doc = await PDFDocument.create();
    doc.addPage([288, 432]);
    const pdf = Buffer.from(await doc.save());
    const file = `${cups.root}/in.pdf`;
    await fs.writeFile(file, pdf);
    for (const title of ['first', 'second', 'third']) await run('lp', ['-d', 'sink', '-t', title, file], { env: cups.env });
    await run('lp', ['-d', 'pdf', '-t', 'geom', '-o', 'media=Custom.4x6in', '-o', 'print-scaling=none', file], { env: cups.env });
    await cups.waitForJobs();
    const sinkOut = await cups.outputs('sink');
    expect(sinkOut.map((f) => f.replace(/^.*\/\d{6}-/, ''))).toEqual(['first.pdf', 'second.pdf', 'third.pdf']);
    expect(Buffer.compare(await fs.readFile(sinkOut[0]!), pdf)).toBe(0);
    const pdfOut = await cups.waitForOutputs('pdf', 1);
    expect(await pdfPageSizes(pdfOut[0]!)).toEqual([{ width: 288, height: 432 }]);

    await cups.disable('sink');
    await run('lp', ['-d', 'sink', '-t', 'held', file], { env: cups.env });
    await expect(cups.waitForJobs({ queue: 'sink', timeoutMs: 300 })).rejects.toThrow(/still active/);
    await cups.enable('sink');
    await cups.waitForOutputs('sink', 4);

    const confs = (await fs.readdir('/etc/cups')).filter((n) => n.includes(`psh${process.pid}_`));
    expect(confs).toHaveLength(1);
    await cups.stop();
    expect(existsSync(cups.root)).toBe(false);
    expect((await fs.readdir('/etc/cups')).filter((n) => n.includes(`psh${process.pid}_`))).toEqual([]);
    expect((await cupsdPids()).filter((l) => l.includes(cups.root))).toEqual([]);
    const after = existsSync('/etc/cups/printers.conf') ? await fs.readFile('/etc/cups/printers.conf', 'utf8') : null;
    expect(after).toBe(printersConf);
  });

  it('runs two schedulers side by side on different ports', async () => {
    const [a, b] = await Promise.all([
      startPrivateCups({ queues: [{ name: 'q', kind: 'sink' }] }),
      startPrivateCups({ queues: [{ name: 'q', kind: 'sink' }] }),
    ]);
    try {
      expect(a.server).not.toBe(b.server);
      expect(a.outputDir('q')).not.toBe(b.outputDir('q'));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
