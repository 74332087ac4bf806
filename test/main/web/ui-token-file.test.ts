/** The web UI's token kept in the data dir (src/main/web/ui-token-file.ts): private, lasting, replaced on demand. */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateUiToken, readUiToken, rotateUiToken, uiAddress, uiTokenFilePath } from '../../../src/main/web/ui-token-file';

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'print-station-ui-token-')), 'data');
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

describe('the kept UI token', () => {
  it('is made once, owner-only in an owner-only data dir, and the same at every later start', () => {
    const first = loadOrCreateUiToken(dir);
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(uiTokenFilePath(dir)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(loadOrCreateUiToken(dir)).toBe(first);
    expect(readUiToken(dir)).toBe(first);
  });

  it('is replaced by rotate, and the old one is gone', () => {
    const first = loadOrCreateUiToken(dir);
    const next = rotateUiToken(dir);
    expect(next).not.toBe(first);
    expect(loadOrCreateUiToken(dir)).toBe(next);
    expect(readFileSync(uiTokenFilePath(dir), 'utf8')).not.toContain(first);
  });

  it('is made private again when a copy or restore left it readable by others', () => {
    const first = loadOrCreateUiToken(dir);
    chmodSync(uiTokenFilePath(dir), 0o644);
    expect(loadOrCreateUiToken(dir)).toBe(first);
    expect(statSync(uiTokenFilePath(dir)).mode & 0o777).toBe(0o600);
  });

  it('replaces a file that holds no token (empty, damaged) with a new one', () => {
    loadOrCreateUiToken(dir);
    writeFileSync(uiTokenFilePath(dir), 'x\n');
    const made = loadOrCreateUiToken(dir);
    expect(made).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(readUiToken(dir)).toBe(made);
  });

  it('makes the address the agent prints', () => {
    expect(uiAddress('http://127.0.0.1:8123', 'abc_-1')).toBe('http://127.0.0.1:8123/?token=abc_-1');
  });
});
