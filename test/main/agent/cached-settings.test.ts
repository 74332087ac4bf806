import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CachedSettingsStore } from '../../../src/main/agent/cached-settings';
import { silentLogger } from '../../../src/main/log';
import { createConfSettingsStore } from '../../../src/main/settings/conf-settings-store';
import type { SettingsStore } from '../../../src/main/settings/settings-store';

const API_URL = 'http://127.0.0.1:9/external/v1';

/** The conf store with its reads counted. */
function countingStore(dir: string): SettingsStore & { reads: number } {
  const store = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger: silentLogger });
  const counted = {
    reads: 0,
    get: () => {
      counted.reads++;
      return store.get();
    },
    update: store.update.bind(store),
    onChange: store.onChange.bind(store),
  };
  return counted;
}

describe('CachedSettingsStore', () => {
  let dir: string;
  let clock: number;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ps-cached-settings-'));
    clock = 1_000_000;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the file once for many reads within maxAgeMs', () => {
    const backing = countingStore(dir);
    const cached = new CachedSettingsStore(backing, { maxAgeMs: 1000, now: () => clock });
    for (let i = 0; i < 50; i++) expect(cached.get().routing.copies).toBe(1);
    clock += 999;
    cached.get();
    expect(backing.reads).toBe(1);
  });

  it('an update, through it or through the store it wraps, is read at once', () => {
    const backing = countingStore(dir);
    const cached = new CachedSettingsStore(backing, { maxAgeMs: 60_000, now: () => clock });
    cached.get();
    expect(cached.update({ routing: { copies: 2 } }).routing.copies).toBe(2);
    expect(cached.get().routing.copies).toBe(2);
    backing.update({ routing: { copies: 3 } });
    expect(cached.get().routing.copies).toBe(3);
    // A listener told of a change reads the new settings through the cache.
    const seen: number[] = [];
    cached.onChange(() => seen.push(cached.get().routing.copies));
    cached.update({ routing: { copies: 4 } });
    expect(seen).toEqual([4]);
  });

  it('a hand edit of the file is read once the cached read is maxAgeMs old', async () => {
    const backing = countingStore(dir);
    const cached = new CachedSettingsStore(backing, { maxAgeMs: 1000, now: () => clock });
    backing.update({ routing: { copies: 1 } });
    expect(cached.get().routing.copies).toBe(1);
    const file = join(dir, 'settings.json');
    const text = JSON.parse(await readFile(file, 'utf8')) as { routing: { copies: number } };
    text.routing.copies = 5;
    await writeFile(file, JSON.stringify(text));
    expect(cached.get().routing.copies).toBe(1);
    clock += 1000;
    expect(cached.get().routing.copies).toBe(5);
  });
});
