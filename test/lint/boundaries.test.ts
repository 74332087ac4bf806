import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The repository's own eslint.config.js, run through ESLint's Node API on snippets placed
// (by filePath) in each area: a forbidden import must fail lint, an allowed one must not.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BOUNDARY_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: fileURLToPath(new URL('../../eslint.config.js', import.meta.url)) });
});

/** The boundary findings for `code` placed at `filePath` (relative to the repository). */
async function boundaryFindings(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath: `${ROOT}/${filePath}` });
  expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  return (result?.messages ?? []).filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId)).map((m) => m.message);
}

describe('import boundaries (eslint.config.js)', () => {
  it.each([
    // Only src/main/electron/ (and the preload) import electron.
    ['src/main/agent/x.ts', "import { x } from 'electron';", 'electron'],
    ['src/main/jobs/deep/x.ts', "import type { x } from 'electron/main';", 'electron'],
    ['src/main/web/x.ts', "const { x } = await import('electron');", 'electron'],
    ['src/renderer/views/x.ts', "import { x } from 'electron';", 'electron'],
    ['src/shared/x.ts', "import { x } from 'electron';", 'electron'],
    ['src/sandbox/x.ts', "import { x } from 'electron';", 'electron'],
    // The renderer imports only src/shared (and itself).
    ['src/renderer/x.ts', "import { x } from '../main/errors';", 'src/main'],
    ['src/renderer/views/x.ts', "import { x } from '../../main/agent/agent-service';", 'src/main'],
    ['src/renderer/views/x.ts', "import { x } from '../../preload/agent-client';", 'preload'],
    ['src/renderer/views/x.ts', "import { x } from '../../sandbox/server';", 'sandbox'],
    ['src/renderer/x.ts', "import { x } from 'node:fs';", 'Node built-ins'],
    // src/shared: no main, renderer, sandbox, Node.
    ['src/shared/x.ts', "import { x } from '../main/errors';", 'src/main'],
    ['src/shared/x.ts', "import { x } from '../renderer/app';", 'renderer'],
    ['src/shared/x.ts', "import { x } from '../sandbox/server';", 'sandbox'],
    ['src/shared/x.ts', "import { x } from 'node:path';", 'Node built-ins'],
    ['src/shared/x.ts', "import { x } from 'fs/promises';", 'Node built-ins'],
    ['src/shared/x.ts', "export { x } from '../main/errors';", 'src/main'],
    // The sandbox is an outside party: nothing from main or shared.
    ['src/sandbox/webhooks/x.ts', "import { x } from '../../main/errors';", 'src/main'],
    ['src/sandbox/documents/x.ts', "import type { x } from '../../shared/domain';", 'outside party'],
    ['src/sandbox/x.ts', "import { x } from '../shared/agent-api';", 'outside party'],
    // Product code reaches the sandbox only through the demo entry points.
    ['src/main/agent/x.ts', "import { x } from '../../sandbox/server';", 'demo entry points'],
    ['src/main/agent/x.ts', "const { x } = await import('../../sandbox/server');", 'demo entry points'],
    ['src/main/cli/agent.ts', "import type { x } from '../../sandbox/server';", 'demo entry points'],
    ['src/main/electron/x.ts', "import { x } from '../../sandbox/server';", 'demo entry points'],
    ['src/preload/x.ts', "import { x } from '../sandbox/server';", 'sandbox'],
    ['src/preload/x.ts', "import { x } from '../main/errors';", 'src/main'],
    // The layers of src/main: nothing imports a layer above it, or a neighbour in its own layer.
    ['src/main/api/x.ts', "import { x } from '../agent/create-agent';", 'a lower layer never imports a higher one'],
    ['src/main/api/schema/x.ts', "import type { x } from '../../agent/create-agent';", 'a lower layer never imports a higher one'],
    ['src/main/printing/ipp/x.ts', "import { x } from '../../jobs/pipeline';", 'a lower layer never imports a higher one'],
    ['src/main/jobs/x.ts', "const { x } = await import('../intake/poller');", 'a lower layer never imports a higher one'],
    ['src/main/errors.ts', "import { x } from './printing/errors';", 'a lower layer never imports a higher one'],
    ['src/main/ledger/x.ts', "import { x } from '../api/client';", 'do not import each other'],
    ['src/main/agent/x.ts', "import { x } from '../headless';", 'a lower layer never imports a higher one'],
    // Main never imports the renderer or the preload.
    ['src/main/web/x.ts', "import { x } from '../../renderer/app';", 'renderer'],
    ['src/main/electron/x.ts', "import { x } from '../../preload/agent-client';", 'preload'],
  ])('%s: %s fails lint', async (filePath, code, why) => {
    const findings = await boundaryFindings(filePath, code);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain(why);
  });

  it.each([
    ['src/main/electron/x.ts', "import { x } from 'electron';"],
    ['src/main/electron/x.ts', "import { x } from '../agent/create-agent';"],
    ['src/preload/x.ts', "import { x } from 'electron';"],
    ['src/preload/x.ts', "import { x } from '../shared/agent-api';"],
    ['src/renderer/views/x.ts', "import { x } from '../../shared/agent-api';"],
    ['src/renderer/views/x.ts', "import { x } from '../bridge/http-client';"],
    ['src/shared/x.ts', "import { x } from 'zod';"],
    ['src/shared/x.ts', "import { x } from './domain';"],
    ['src/sandbox/routes/x.ts', "import { x } from '../documents/layout';"],
    ['src/sandbox/x.ts', "import { x } from 'node:http';"],
    ['src/main/agent/x.ts', "import { x } from '../../shared/domain';"],
    ['src/main/agent/x.ts', "import { x } from 'node:fs';"],
    ['src/main/cli/demo.ts', "import { x } from '../../sandbox/server';"],
    ['src/main/demo/x.ts', "const { x } = await import('../../sandbox/server');"],
    ['src/main/agent/x.ts', "import { x } from '../api/client';"],
    ['src/main/jobs/x.ts', "import { x } from '../printing/target';"],
    ['src/main/cli/x.ts', "import { x } from '../headless';"],
    ['src/main/headless.ts', "import { x } from './agent/create-agent';"],
    ['src/main/fs/x.ts', "import { x } from '../errors';"],
    ['test/main/x.test.ts', "import { x } from '../../src/sandbox/server';"],
    ['bench/x.ts', "import { x } from '../src/sandbox/server';"],
  ])('%s: %s passes', async (filePath, code) => {
    expect(await boundaryFindings(filePath, code)).toEqual([]);
  });
});
