import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bridgeFilePath, readBridgeFile, writeBridgeFile } from '../../../src/main/web/bridge-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'print-station-bridge-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const info = { pid: process.pid, origin: 'http://127.0.0.1:4780', token: 'tok-123' };

describe('ui-bridge.json', () => {
  it('is written owner-only, read back while its agent lives, and removed by its own agent', () => {
    const remove = writeBridgeFile(dir, info);
    expect(statSync(bridgeFilePath(dir)).mode & 0o777).toBe(0o600);
    expect(readBridgeFile(dir)).toEqual(info);
    remove();
    expect(existsSync(bridgeFilePath(dir))).toBe(false);
    expect(readBridgeFile(dir)).toBeNull();
  });

  it("leaves a newer agent's file alone when the earlier one stops", () => {
    const removeOld = writeBridgeFile(dir, { ...info, pid: 999_999_999 });
    writeBridgeFile(dir, info);
    removeOld();
    expect(readBridgeFile(dir)).toEqual(info);
  });

  it('ignores a file a crashed agent left, and one that is not the bridge of a loopback agent', () => {
    const write = (value: unknown): void => writeFileSync(bridgeFilePath(dir), JSON.stringify(value));
    write({ ...info, pid: 999_999_999 }); // no such process
    expect(readBridgeFile(dir)).toBeNull();
    write({ ...info, origin: 'http://192.0.2.7:4780' }); // the token never leaves this machine
    expect(readBridgeFile(dir)).toBeNull();
    write({ pid: process.pid, origin: info.origin });
    expect(readBridgeFile(dir)).toBeNull();
    writeFileSync(bridgeFilePath(dir), '{not json');
    expect(readBridgeFile(dir)).toBeNull();
  });
});
