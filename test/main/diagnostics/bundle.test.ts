import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleFileName, scrubSecrets, withoutSecrets, writeBundle, type DiagnosticsBundle } from '../../../src/main/diagnostics/bundle';
import { RecentRequestIds } from '../../../src/main/api/request-ids';

const SECRET = 'k3y-Of-The-Station!/+=';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'print-station-bundle-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function bundle(overrides: Partial<DiagnosticsBundle> = {}): DiagnosticsBundle {
  return {
    kind: 'print-station-diagnostics',
    formatVersion: 1,
    createdAt: '2026-11-24T05:40:12.345Z',
    source: 'agent',
    versions: { app: '0.1.0', node: '20', electron: null, os: 'Linux 6', platform: 'linux', arch: 'x64' },
    dataDir: '/d',
    notes: [],
    status: null,
    printers: [],
    settings: {},
    ledgerCounts: null,
    recentRequests: [],
    logTail: [],
    ...overrides,
  };
}

describe('scrubSecrets', () => {
  it('removes a secret in every spelling: plain, base64 (padded or not), base64url, hex, URL- and JSON-escaped', () => {
    const b = Buffer.from(SECRET);
    const base64 = b.toString('base64');
    const hex = b.toString('hex');
    const forms = [SECRET, base64, base64.replace(/=+$/, ''), b.toString('base64url'), hex, hex.toUpperCase(), encodeURIComponent(SECRET)];
    for (const form of forms) expect(scrubSecrets(`before ${form} after`, [SECRET])).toBe('before *** after');
    expect(scrubSecrets(JSON.stringify({ v: 'a"' + SECRET }), ['a"' + SECRET])).toBe('{"v":"***"}');
  });

  it('leaves text alone for missing or too-short secrets', () => {
    expect(scrubSecrets('a abc b', [null, undefined, '', 'abc'])).toBe('a abc b');
  });
});

describe('withoutSecrets', () => {
  it('drops string fields named like secrets at any depth and keeps the rest', () => {
    const out = withoutSecrets({
      apiKeySet: true,
      encryptedApiKey: 'v1:abc',
      intake: { webhookSecret: 'x', port: 1 },
      list: [{ token: 't', name: 'n' }],
    });
    expect(out).toEqual({
      apiKeySet: true,
      encryptedApiKey: '(removed)',
      intake: { webhookSecret: '(removed)', port: 1 },
      list: [{ token: '(removed)', name: 'n' }],
    });
  });
});

describe('writeBundle', () => {
  it('writes readable JSON to a file path, scrubbed, mode 0600', async () => {
    const written = writeBundle(bundle({ logTail: [`oops ${SECRET}`] }), join(dir, 'sub', 'out.json'), [SECRET]);
    expect(written.path).toBe(join(dir, 'sub', 'out.json'));
    const text = await readFile(written.path, 'utf8');
    expect(text).toBe(written.content);
    expect(JSON.parse(text).logTail).toEqual(['oops ***']);
    expect(text).not.toContain('k3y');
    if (process.platform !== 'win32') {
      expect((await stat(written.path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, 'sub'))).mode & 0o777).toBe(0o700);
    }
  });

  it('puts the default name inside an existing directory', () => {
    const written = writeBundle(bundle(), dir, []);
    expect(written.fileName).toBe(bundleFileName(new Date('2026-11-24T05:40:12.345Z')));
    expect(written.fileName).toBe('print-station-diagnostics-2026-11-24T05-40-12Z.json');
    expect(written.path).toBe(join(dir, written.fileName));
  });
});

describe('RecentRequestIds', () => {
  it('keeps the last N ids, newest first', () => {
    const ids = new RecentRequestIds(3, () => new Date('2026-11-24T05:00:00Z'));
    for (let i = 1; i <= 5; i++) ids.add({ requestId: `req-${i}`, method: 'GET', path: '/status', status: 200 });
    expect(ids.list().map((r) => r.requestId)).toEqual(['req-5', 'req-4', 'req-3']);
    expect(ids.list()[0]).toEqual({ requestId: 'req-5', method: 'GET', path: '/status', status: 200, at: '2026-11-24T05:00:00.000Z' });
  });

  it('lists fewer than N in order', () => {
    const ids = new RecentRequestIds(3);
    ids.add({ requestId: 'a', method: 'GET', path: '/x', status: 503 });
    ids.add({ requestId: 'b', method: 'POST', path: '/y', status: 200 });
    expect(ids.list().map((r) => r.requestId)).toEqual(['b', 'a']);
  });
});
