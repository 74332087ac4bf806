import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  checkFeedUrl,
  notifyWhenReady,
  queueEmptyFrom,
  startDesktopUpdates,
  UpdateController,
  type UpdaterPort,
  type UpdateState,
} from '../../../src/main/electron/updater';
import type { AgentStatus } from '../../../src/shared/domain';
import type { Logger } from '../../../src/main/log';

// Neither the Electron binary nor a packaged app exist here: electron-updater's autoUpdater
// is replaced by a recording fake (electron is mocked too, since electron-updater imports it).
const fakes = vi.hoisted(() => {
  // vi.hoisted runs before the file's imports and must stay synchronous: require is the only way in.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EventEmitter } = require('node:events') as typeof import('node:events');
  class FakeAutoUpdater extends EventEmitter {
    autoDownload = true;
    autoInstallOnAppQuit = false;
    readonly calls: Array<[string, ...unknown[]]> = [];
    checkResult: () => Promise<unknown> = async () => null;
    setFeedURL(options: unknown): void {
      this.calls.push(['setFeedURL', options]);
    }
    checkForUpdates(): Promise<unknown> {
      this.calls.push(['checkForUpdates']);
      return this.checkResult();
    }
    downloadUpdate(): Promise<unknown> {
      this.calls.push(['downloadUpdate']);
      return Promise.resolve([]);
    }
    quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
      this.calls.push(['quitAndInstall', isSilent, isForceRunAfter]);
    }
  }
  return { autoUpdater: new FakeAutoUpdater(), FakeAutoUpdater };
});
vi.mock('electron', () => ({ app: { isPackaged: true, getVersion: () => '1.0.0' } }));
vi.mock('electron-updater', () => ({ autoUpdater: fakes.autoUpdater, default: { autoUpdater: fakes.autoUpdater } }));

type FakeUpdater = InstanceType<typeof fakes.FakeAutoUpdater>;

function logger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (line: string) => void lines.push(line);
  return { lines, info: log, warn: log, error: log, redact: () => undefined } as unknown as Logger & { lines: string[] };
}

const settle = () => new Promise((r) => setTimeout(r, 0));
const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
};

describe('UpdateController (staged: check, download in the background, install only when the queue is empty)', () => {
  let updater: FakeUpdater;
  let queue: number;
  let looks: number;
  let states: UpdateState[];
  let controller: UpdateController;
  const make = (extra: Partial<ConstructorParameters<typeof UpdateController>[0]> = {}) => {
    controller = new UpdateController({
      updater: updater as unknown as UpdaterPort,
      feedUrl: 'https://updates.example.com/print-station/win/x64',
      enabled: true,
      isQueueEmpty: async () => {
        looks += 1;
        return queue === 0;
      },
      logger: logger(),
      queuePollMs: 5,
      onChange: (s) => states.push(s),
      ...extra,
    });
    return controller;
  };

  beforeEach(() => {
    updater = new fakes.FakeAutoUpdater();
    queue = 0;
    looks = 0;
    states = [];
  });
  afterEach(() => controller?.stop());

  it('points electron-updater at the generic feed, downloads itself (no auto-download), and checks at start', async () => {
    make().start();
    await settle();
    expect(updater.calls).toEqual([
      ['setFeedURL', { provider: 'generic', url: 'https://updates.example.com/print-station/win/x64' }],
      ['checkForUpdates'],
    ]);
    expect(updater.autoDownload).toBe(false);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(controller.current.phase).toBe('checking');
    updater.emit('update-not-available', { version: '1.0.0' });
    expect(controller.current.phase).toBe('idle');
  });

  it('downloads an available update in the background, then waits while jobs are in flight and installs once the queue is empty', async () => {
    make().start();
    await settle();
    updater.emit('update-available', { version: '1.2.0' });
    expect(updater.calls.at(-1)).toEqual(['downloadUpdate']);
    expect(controller.current).toMatchObject({ phase: 'downloading', version: '1.2.0' });

    queue = 3; // labels queued, fetching or spooling
    updater.emit('update-downloaded', { version: '1.2.0' });
    await until(() => looks >= 5);
    expect(controller.current.phase).toBe('waiting-for-queue');
    expect(updater.calls.some(([name]) => name === 'quitAndInstall')).toBe(false);

    queue = 0;
    await until(() => updater.calls.some(([name]) => name === 'quitAndInstall'));
    expect(updater.calls.filter(([name]) => name === 'quitAndInstall')).toEqual([['quitAndInstall', true, true]]);
    expect(controller.current.phase).toBe('installing');
    expect(states.map((s) => s.phase)).toEqual(['checking', 'downloading', 'downloaded', 'waiting-for-queue', 'installing']);
  });

  it('does not restart in the gap between two labels of a burst: the queue must stay empty for two looks', async () => {
    const pattern = [0, 2, 0, 1, 0, 0];
    let i = 0;
    make({
      isQueueEmpty: async () => {
        looks += 1;
        return pattern[Math.min(i++, pattern.length - 1)] === 0;
      },
    }).start();
    updater.emit('update-downloaded', { version: '1.2.0' });
    await until(() => updater.calls.some(([name]) => name === 'quitAndInstall'));
    expect(looks).toBe(6);
  });

  it('with installWhenIdle off, waits for "restart to update", then still waits for the queue to empty', async () => {
    make({ installWhenIdle: false }).start();
    expect(controller.restartWhenIdle()).toBe(false); // nothing downloaded yet
    updater.emit('update-downloaded', { version: '2.0.0' });
    await new Promise((r) => setTimeout(r, 30));
    expect(looks).toBe(0);
    expect(controller.current.phase).toBe('downloaded');

    queue = 1;
    expect(controller.restartWhenIdle()).toBe(true);
    await until(() => looks >= 3);
    expect(updater.calls.some(([name]) => name === 'quitAndInstall')).toBe(false);
    queue = 0;
    // Asked for by a person: the first empty look is enough.
    await until(() => updater.calls.some(([name]) => name === 'quitAndInstall'));
  });

  it('a failed check or download is logged and tried again at the next check; a downloaded update is not checked over', async () => {
    updater.checkResult = async () => {
      throw new Error('net::ERR_NAME_NOT_RESOLVED');
    };
    make().start();
    await settle();
    expect(controller.current).toMatchObject({ phase: 'idle', error: 'net::ERR_NAME_NOT_RESOLVED' });
    updater.checkResult = async () => null;
    await controller.check();
    expect(updater.calls.filter(([name]) => name === 'checkForUpdates')).toHaveLength(2);

    updater.emit('update-available', { version: '1.3.0' });
    updater.emit('error', new Error('sha512 checksum mismatch'));
    expect(controller.current).toMatchObject({ phase: 'idle', error: 'sha512 checksum mismatch' });

    queue = 1;
    updater.emit('update-downloaded', { version: '1.3.0' });
    await controller.check();
    expect(updater.calls.filter(([name]) => name === 'checkForUpdates')).toHaveLength(2);
    expect(controller.current).toMatchObject({ phase: 'waiting-for-queue', version: '1.3.0' });
  });

  it('is off outside a packaged app and refuses a feed that is not https', async () => {
    make({ enabled: false }).start();
    await settle();
    expect(controller.current.phase).toBe('disabled');
    expect(updater.calls).toEqual([]);

    make({ feedUrl: 'http://updates.example.com/ps' }).start();
    expect(controller.current.phase).toBe('disabled');
    expect(controller.current.error).toContain('must be https');
    expect(updater.calls).toEqual([]);
    expect(checkFeedUrl('http://127.0.0.1:8080/updates')).toBe('http://127.0.0.1:8080/updates');
    expect(() => checkFeedUrl('updates')).toThrow(/is not a URL: set PRINT_STATION_UPDATE_URL/);
  });
});

describe('startDesktopUpdates with electron-updater mocked', () => {
  afterEach(() => {
    fakes.autoUpdater.removeAllListeners();
    fakes.autoUpdater.calls.length = 0;
  });

  it("uses electron-updater's autoUpdater in a packaged app, with the feed from PRINT_STATION_UPDATE_URL", async () => {
    let queued = 1;
    const controller = await startDesktopUpdates({
      isPackaged: true,
      isQueueEmpty: async () => queued === 0,
      logger: logger(),
      env: { PRINT_STATION_UPDATE_URL: ' https://updates.example.com/ps/win/x64 ', PRINT_STATION_UPDATE_RESTART: 'prompt' },
    });
    await settle();
    expect(fakes.autoUpdater.calls.slice(0, 2)).toEqual([
      ['setFeedURL', { provider: 'generic', url: 'https://updates.example.com/ps/win/x64' }],
      ['checkForUpdates'],
    ]);
    fakes.autoUpdater.emit('update-downloaded', { version: '1.1.0' });
    queued = 0;
    await new Promise((r) => setTimeout(r, 30));
    // prompt: nothing installs until "restart to update".
    expect(fakes.autoUpdater.calls.some(([name]) => name === 'quitAndInstall')).toBe(false);
    expect(controller.restartWhenIdle()).toBe(true);
    await until(() => fakes.autoUpdater.calls.some(([name]) => name === 'quitAndInstall'));
    controller.stop();
  });

  it('keeps the URL built into the app when PRINT_STATION_UPDATE_URL is not set, and does nothing when not packaged', async () => {
    const built = await startDesktopUpdates({ isPackaged: true, isQueueEmpty: async () => true, logger: logger(), env: {} });
    await settle();
    expect(fakes.autoUpdater.calls).toEqual([['checkForUpdates']]);
    built.stop();
    fakes.autoUpdater.calls.length = 0;
    const dev = await startDesktopUpdates({
      isPackaged: false,
      isQueueEmpty: async () => true,
      logger: logger(),
      env: { PRINT_STATION_UPDATE_URL: 'https://x.example' },
    });
    expect(dev.current.phase).toBe('disabled');
    expect(fakes.autoUpdater.calls).toEqual([]);
  });
});

describe('desktop hooks', () => {
  it("reads an empty queue from the agent's counts (queued + fetching + spooling)", async () => {
    let queued = 2;
    const isEmpty = queueEmptyFrom({ getStatus: async () => ({ queued }) as AgentStatus });
    expect(await isEmpty()).toBe(false);
    queued = 0;
    expect(await isEmpty()).toBe(true);
  });

  it('notifies once per downloaded version; a click is "restart to update"', () => {
    const shown: Array<{ title: string; body: string; click?: () => void }> = [];
    let restarts = 0;
    const onChange = notifyWhenReady(
      (options) => {
        const n: { title: string; body: string; click?: () => void } = { ...options };
        shown.push(n);
        return { show: () => undefined, on: (_event, listener) => (n.click = listener) };
      },
      () => true,
      () => {
        restarts += 1;
        return true;
      },
    );
    onChange({ phase: 'downloading', version: '1.2.0', error: null });
    onChange({ phase: 'downloaded', version: '1.2.0', error: null });
    onChange({ phase: 'downloaded', version: '1.2.0', error: 'offline' });
    expect(shown).toEqual([
      {
        title: 'Update ready',
        body: 'Print Station 1.2.0 installs when the print queue is empty. Click to install then.',
        click: expect.any(Function),
      },
    ]);
    shown[0]!.click!();
    expect(restarts).toBe(1);
    onChange({ phase: 'downloaded', version: '1.3.0', error: null });
    expect(shown).toHaveLength(2);
  });

  it("says it in the window's language at the time", () => {
    const shown: Array<{ title: string; body: string }> = [];
    let language: 'sv' | 'nb' = 'sv';
    const onChange = notifyWhenReady(
      (options) => {
        shown.push(options);
        return { show: () => undefined, on: () => undefined };
      },
      () => true,
      () => true,
      () => language,
    );
    onChange({ phase: 'downloaded', version: '1.2.0', error: null });
    language = 'nb';
    onChange({ phase: 'downloaded', version: null, error: null });
    expect(shown).toEqual([
      { title: 'Uppdatering klar', body: 'Print Station 1.2.0 installeras när utskriftskön är tom. Klicka för att installera då.' },
      { title: 'Oppdatering klar', body: 'Print Station installeres når utskriftskøen er tom. Klikk for å installere den da.' },
    ]);
  });
});

describe('electron-builder.yml feeds electron-updater', () => {
  it('publishes to an https generic folder named at build time, and keeps the assisted (per-user or per-machine) installer', async () => {
    const { readFileSync } = await import('node:fs');
    const { createRequire } = await import('node:module');
    const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): Record<string, any> };
    const config = yaml.load(readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8'));
    expect(config.publish).toEqual({
      provider: 'generic',
      url: 'https://${env.PRINT_STATION_UPDATE_FOLDER}/${os}/${arch}',
      channel: 'latest',
    });
    // /allusers and /currentuser exist only in the assisted, multi-user installer.
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false });
    expect(config.win.verifyUpdateCodeSignature).toBe(true);
    expect(config.mac.hardenedRuntime).toBe(true);
    // Signing comes from the environment (CSC_LINK...), never from the file.
    expect(JSON.stringify(config)).not.toMatch(/cscLink|certificatePassword|cscKeyPassword/i);
  });
});
