import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureUiBuilt, UiBuildError } from '../../../src/main/web/ui-build';

const ROOT = process.cwd();
let dir: string;
const lines: string[] = [];
const log = { info: (line: string) => lines.push(line) };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'print-station-ui-build-'));
  lines.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ensureUiBuilt', () => {
  it('builds the renderer into an empty folder once, however many starts ask at the same time', async () => {
    const outDir = join(dir, 'renderer');
    await mkdir(outDir);
    await Promise.all([1, 2, 3].map(() => ensureUiBuilt({ outDir, projectRoot: ROOT, log })));
    const html = await readFile(join(outDir, 'index.html'), 'utf8');
    expect(html).toMatch(/<script[^>]+src="\.\/assets\/index-[\w-]+\.js"/);
    expect(await readdir(join(outDir, 'assets'))).not.toEqual([]);
    expect(lines).toEqual([`web UI not built yet: building it into ${outDir}`]);
    // Nothing of the staging folder is left beside it.
    expect(await readdir(dir)).toEqual(['renderer']);
  }, 60_000);

  it('leaves a folder that has an index.html alone', async () => {
    await writeFile(join(dir, 'index.html'), 'built before');
    await ensureUiBuilt({ outDir: dir, projectRoot: ROOT, log });
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toBe('built before');
    expect(lines).toEqual([]);
  });

  it('without the sources (an agent copied without its project): a coded error saying what to run', async () => {
    const outDir = join(dir, 'renderer');
    const error = await ensureUiBuilt({ outDir, projectRoot: join(dir, 'not-a-project'), log }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UiBuildError);
    expect((error as UiBuildError).code).toBe('UI_NOT_BUILT');
    expect((error as Error).message).toContain(`The web UI is not built at ${outDir}`);
    expect((error as Error).message).toContain('npm run build:ui');
    expect(existsSync(outDir)).toBe(false);
  });
});
