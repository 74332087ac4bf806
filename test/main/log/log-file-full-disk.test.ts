import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogFile } from '../../../src/main/log-file';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../../support/small-disk';

const unavailable = smallDiskUnavailable();

/** The log file on a real small disk that fills up: the lines of the outage reach the file once there is room. */
describe.skipIf(unavailable !== null)(`the log file on a full disk${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let disk: SmallDisk;
  beforeAll(() => {
    disk = mountSmallDisk(256 * 1024);
  });
  afterAll(() => disk.close());

  const read = (dir: string): string[] => fs.readFileSync(join(dir, 'agent.log'), 'utf8').trimEnd().split('\n');

  it('keeps the lines it could not write and writes them, in order, before the next line once there is room', () => {
    const dir = join(disk.dir, 'logs-kept');
    const errors: string[] = [];
    const log = createLogFile({ dir, onError: (e) => errors.push(e.message) });
    log.write('info', 'before');
    disk.fill();
    // Whatever room the last block had left is taken first: write until the file says no.
    const padding = 'x'.repeat(1000);
    for (let i = 0; i < 100 && errors.length === 0; i++) log.write('info', `pad ${i} ${padding}`);
    expect(errors).toHaveLength(1);
    log.write('error', 'Cannot write the job ledger (SQLITE_FULL): free space');
    log.write('info', 'still full');
    expect(read(dir).some((l) => l.includes('Cannot write the job ledger'))).toBe(false);

    disk.empty();
    log.write('info', 'ledger: writes go through again; printing resumes');
    const lines = read(dir).map((l) => l.replace(/^\S+ +\S+ +/, ''));
    const at = lines.indexOf('Cannot write the job ledger (SQLITE_FULL): free space');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at)).toEqual([
      'Cannot write the job ledger (SQLITE_FULL): free space',
      'still full',
      'ledger: writes go through again; printing resumes',
    ]);
    expect(errors).toHaveLength(1);
    log.close();
  });

  it('keeps at most backlogLines, and says how many were lost', () => {
    const dir = join(disk.dir, 'logs-lost');
    const errors: string[] = [];
    const log = createLogFile({ dir, backlogLines: 2, onError: (e) => errors.push(e.message) });
    log.write('info', 'before');
    disk.fill();
    const padding = 'x'.repeat(1000);
    for (let i = 0; i < 100 && errors.length === 0; i++) log.write('info', `pad ${i} ${padding}`);
    for (const n of [1, 2, 3, 4, 5]) log.write('info', `during ${n}`);

    disk.empty();
    log.write('info', 'after');
    const lines = read(dir).map((l) => l.replace(/^\S+ +\S+ +/, ''));
    expect(lines.slice(-4)).toEqual([
      'during 4',
      'during 5',
      expect.stringMatching(/^log file: \d+ line\(s\) could not be written \(the disk was full or not writable\) and are lost$/),
      'after',
    ]);
    log.close();
  });
});
