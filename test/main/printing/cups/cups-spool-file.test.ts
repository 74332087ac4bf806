import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CupsTarget } from '../../../../src/main/printing/cups/cups-target';
import type { ExecFileRunner } from '../../../../src/main/process/exec';

describe('CupsTarget spool through lp', () => {
  it('hands lp a path to the whole PDF (never a pipe it could cut short) and removes the file after', async () => {
    const pdf = new Uint8Array(200_000).fill(0x25); // larger than a pipe buffer
    const seen: { args: readonly string[]; stdin: boolean; bytes: number }[] = [];
    const exec: ExecFileRunner = async (_file, args, options) => {
      const path = args[args.length - 1]!;
      seen.push({ args, stdin: options?.input !== undefined, bytes: existsSync(path) ? readFileSync(path).length : -1 });
      return { stdout: 'request id is Labels-7 (1 file(s))\n', stderr: '', code: 0 };
    };
    const target = new CupsTarget({ uri: 'cups:Labels', queue: 'Labels', exec, checkReadiness: false, spool: 'lp' });
    const result = await target.spool({
      jobId: 'job1',
      title: 'Print Station job1',
      pdf,
      media: 'label',
      copies: 1,
      shipmentId: 's',
      documentType: 'label',
      layout: 'printer',
    });
    expect(result).toEqual({ spoolerJobId: 'Labels-7', completed: false });
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call!.stdin).toBe(false);
    expect(call!.bytes).toBe(pdf.length);
    expect(call!.args.slice(0, 4)).toEqual(['-d', 'Labels', '-t', 'Print Station job1']);
    expect(call!.args).toContain('--');
    expect(existsSync(call!.args[call!.args.length - 1]!)).toBe(false);
  });
});
