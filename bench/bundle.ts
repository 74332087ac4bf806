/**
 * The agent's CLI bundled into one plain JavaScript file with esbuild (tsx's own
 * dependency), to measure the agent without the TypeScript loader: `npm run agent` runs
 * through tsx, whose module hooks thread alone holds about 35 MB, while a packaged agent
 * runs compiled JavaScript. Written under node_modules/.cache so the native and external
 * modules (better-sqlite3, pdf-to-printer) resolve from the project's node_modules.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from '../test/reliability/support/agent-process';

export async function bundleAgentCli(): Promise<string> {
  const outfile = path.join(REPO_ROOT, 'node_modules/.cache/print-station-bench/agent.mjs');
  await build({
    entryPoints: [path.join(REPO_ROOT, 'src/main/cli/agent.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external: ['better-sqlite3', 'pdf-to-printer', 'electron'],
    // CommonJS dependencies call require(); an ESM bundle has none of its own.
    banner: { js: "import { createRequire as __psCreateRequire } from 'node:module'; const require = __psCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return outfile;
}
