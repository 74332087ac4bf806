/** The desktop app's logger writes the same rotating file, in Electron's userData folder (electron mocked). */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({ userData: '' }));
vi.mock('electron', () => ({
  app: { getPath: (name: string) => (name === 'userData' ? state.userData : '/nowhere') },
  BrowserWindow: class {},
  Menu: {},
  Notification: class {},
  Tray: class {},
  dialog: {},
  ipcMain: {},
  safeStorage: {},
  session: {},
}));

beforeAll(async () => {
  state.userData = await mkdtemp(join(tmpdir(), 'print-station-desktop-log-'));
});
afterAll(async () => {
  await rm(state.userData, { recursive: true, force: true });
});

describe('createDesktopLogger', () => {
  it('logs to <userData>/logs/agent.log with redaction', async () => {
    const { createDesktopLogger } = await import('../../../src/main/electron/desktop-app');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const log = createDesktopLogger();
      log.redact('desktop-secret-key-99');
      log.warn('tray: could not reach the service with desktop-secret-key-99');
      // stderr takes a turn's lines at the turn's end (log.ts): wait for it, so none reaches the test's output.
      await new Promise((resolve) => setImmediate(resolve));
      expect(stderr.mock.calls.map(([chunk]) => String(chunk)).join('')).toMatch(/WARN +tray: could not reach the service with \*\*\*\n$/);
    } finally {
      stderr.mockRestore();
    }
    const text = await readFile(join(state.userData, 'logs', 'agent.log'), 'utf8');
    expect(text).toMatch(/^\S+Z WARN {2}tray: could not reach the service with \*\*\*\n$/);
  });
});
