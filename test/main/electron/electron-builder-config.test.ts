import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// electron-builder's own YAML parser and schema validator (its dependencies), so the file
// is checked exactly as `electron-builder` would check it before packaging.
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, debugLogger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const ROOT = resolve(import.meta.dirname, '../../..');
type Config = Record<string, any>;
const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Config;

function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's schema validation (and a typo would not)", async () => {
    await expect(validateConfiguration(structuredClone(config), new DebugLogger(false))).resolves.toBeUndefined();
    const broken = structuredClone(config);
    broken.nsis.oneClik = false;
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/configuration/i);
  });

  it('names the app and packages the electron-vite output', () => {
    expect(config.appId).toMatch(/^[a-z0-9.-]+$/);
    expect(config.productName).toBe('Print Station');
    expect(config.files).toContain('out/**');
  });

  it('unpacks SumatraPDF from the asar, and the pattern matches the real file', () => {
    expect(config.asarUnpack).toContain('node_modules/pdf-to-printer/dist/*.exe');
    const exes = readdirSync(join(ROOT, 'node_modules/pdf-to-printer/dist')).filter((f) => f.endsWith('.exe'));
    expect(exes.length).toBeGreaterThan(0);
  });

  it('builds NSIS, dmg, AppImage and deb', () => {
    const targets = (list: Array<string | { target: string }>) => list.map((t) => (typeof t === 'string' ? t : t.target));
    expect(targets(config.win.target)).toContain('nsis');
    expect(targets(config.mac.target)).toContain('dmg');
    expect(targets(config.linux.target)).toEqual(expect.arrayContaining(['AppImage', 'deb']));
  });

  it('flips the security fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it('has an auto-update provider', () => {
    expect(config.publish.provider).toBe('generic');
    expect(config.publish.url).toMatch(/^https:\/\//);
  });

  it('points at icons that exist: a 512 px app icon and 16/32 px tray icons per state', () => {
    for (const key of ['win', 'mac', 'linux']) {
      const icon = join(ROOT, config[key].icon as string);
      expect(existsSync(icon)).toBe(true);
      expect(pngSize(icon)).toEqual({ width: 512, height: 512 });
    }
    const trayDir = join(ROOT, config.extraResources[0].from as string);
    for (const state of ['ok', 'paused', 'error', 'offline']) {
      expect(pngSize(join(trayDir, `tray-${state}.png`))).toEqual({ width: 16, height: 16 });
      expect(pngSize(join(trayDir, `tray-${state}@2x.png`))).toEqual({ width: 32, height: 32 });
    }
  });
});
