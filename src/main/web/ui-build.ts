/**
 * Builds the web UI on demand. A fresh clone has no out/renderer, and a printed `ui:`
 * address must never answer "Not found": when the folder the UI server will serve has no
 * index.html, the renderer is built into it with vite's programmatic API (about a second)
 * before the address is printed. A folder that already has an index.html is served as is
 * (`npm run build:ui` rebuilds it after a change to the renderer).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CodedError } from '../errors';
import { makeDir } from '../fs/make-dir';
import type { Logger } from '../log';

export interface EnsureUiBuiltOptions {
  /** The folder the UI server serves; built into when it has no index.html. */
  readonly outDir: string;
  /** The project checkout holding vite.ui.config.ts and src/renderer. */
  readonly projectRoot: string;
  readonly log: Pick<Logger, 'info'>;
}

export class UiBuildError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('UI_NOT_BUILT', message, options);
  }
}

// One build per folder per process, however many agents start at once.
const inFlight = new Map<string, Promise<void>>();

export async function ensureUiBuilt(options: EnsureUiBuiltOptions): Promise<void> {
  if (existsSync(join(options.outDir, 'index.html'))) return;
  let pending = inFlight.get(options.outDir);
  if (!pending) {
    pending = buildUi(options).finally(() => inFlight.delete(options.outDir));
    inFlight.set(options.outDir, pending);
  }
  await pending;
}

async function buildUi({ outDir, projectRoot, log }: EnsureUiBuiltOptions): Promise<void> {
  const configFile = join(projectRoot, 'vite.ui.config.ts');
  const hint = `run \`npm run build:ui\` in ${projectRoot}`;
  if (!existsSync(configFile)) {
    throw new UiBuildError(`The web UI is not built at ${outDir} and its sources are not here: ${hint} and copy out/renderer along.`);
  }
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch (error) {
    const message = `The web UI is not built at ${outDir}, and building it needs the dev dependencies: run \`npm ci\`, then ${hint}.`;
    throw new UiBuildError(message, { cause: error });
  }
  log.info(`web UI not built yet: building it into ${outDir}`);
  // Built beside the target and renamed into place, so a second process starting at the
  // same time never serves (or empties) a half-written folder.
  const staging = `${outDir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  await makeDir(dirname(outDir));
  try {
    await vite.build({
      configFile,
      root: join(projectRoot, 'src/renderer'),
      logLevel: 'error', // the build's own warnings belong to `npm run build:ui`, not the agent's log
      build: { outDir: staging, emptyOutDir: true },
    });
    await moveIntoPlace(staging, outDir);
  } catch (error) {
    if (error instanceof UiBuildError) throw error;
    throw new UiBuildError(`Building the web UI into ${outDir} failed (${(error as Error).message}): ${hint}.`, { cause: error });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function moveIntoPlace(staging: string, outDir: string): Promise<void> {
  try {
    await rename(staging, outDir);
    return;
  } catch {
    // Another process finished first, or outDir is an empty folder (Windows will not rename onto it).
  }
  if (existsSync(join(outDir, 'index.html'))) return;
  await rmdir(outDir).catch(() => undefined);
  await rename(staging, outDir);
}
