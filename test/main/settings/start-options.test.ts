import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createConfSettingsStore } from '../../../src/main/settings/conf-settings-store';
import { applyStartOptions } from '../../../src/main/settings/start-options';
import { InvalidSettingsError, SettingsNotSavedError } from '../../../src/main/settings/settings-store';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../../support/small-disk';

const API_URL = 'http://127.0.0.1:9/external/v1';
const unavailable = smallDiskUnavailable();
const quiet = { info() {}, error() {}, redact() {} };

/** The start's options against a settings file on a real small disk that fills up. */
describe.skipIf(unavailable !== null)(`applyStartOptions${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let disk: SmallDisk;
  beforeAll(() => {
    disk = mountSmallDisk(1024 * 1024);
  });
  afterAll(() => disk.close());

  it('runs with the options unsaved on a full disk, says so once, and saves them with the next change once there is room', () => {
    const dataDir = join(disk.dir, 'data');
    const warnings: string[] = [];
    const log = { ...quiet, warn: (m: string) => warnings.push(m) };
    createConfSettingsStore({ dataDir, apiUrl: API_URL, logger: log }).update({ intake: { pollIntervalSeconds: 15 } });

    disk.fill();
    const stored = createConfSettingsStore({ dataDir, apiUrl: API_URL, logger: log });
    // The same options again write nothing: no warning, the store itself (also a printer and an address, as a start passes them).
    expect(applyStartOptions(stored, { intake: { pollIntervalSeconds: 15 } }, log)).toBe(stored);
    expect(warnings).toEqual([]);
    const settings = applyStartOptions(stored, { intake: { pollIntervalSeconds: 60 } }, log);
    expect(settings.get().intake.pollIntervalSeconds).toBe(60);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not be saved .*ENOSPC.*free space on that disk/);
    // An invalid option is still refused, full disk or not.
    expect(() => applyStartOptions(stored, { intake: { pollIntervalSeconds: -1 } }, log)).toThrow(InvalidSettingsError);
    // A save from the window meanwhile says what is wrong and what to do, not a bare ENOSPC.
    expect(() => stored.update({ paused: true })).toThrow(SettingsNotSavedError);
    expect(() => stored.update({ paused: true })).toThrow(
      /^Settings were not saved: .*settings\.json cannot be written \(ENOSPC; its disk is full or read-only\)\. Free space on that disk, then save again\.$/,
    );

    disk.empty();
    settings.update({ paused: true });
    const reread = createConfSettingsStore({ dataDir, apiUrl: API_URL, logger: log }).get();
    expect(reread.intake.pollIntervalSeconds).toBe(60);
    expect(reread.paused).toBe(true);
  });
});
