/**
 * Bundles the agent's CLI into one plain JavaScript file with esbuild. A service should
 * run compiled JavaScript: through tsx, the TypeScript loader's module-hooks thread alone
 * holds about 35 MB of a ~130 MB idle agent. `npm run agent` runs this first (well under a
 * second), and the benchmarks measure the same file. Native and optional modules stay
 * external and resolve from the project's node_modules, as does mupdf (its WebAssembly file
 * is read from beside its module, and it is imported only when a raw ZPL printer prints).
 *
 *   tsx scripts/bundle-agent.ts [OUTFILE]   (default out/agent/agent.mjs)
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_AGENT_BUNDLE = path.join(ROOT, 'out/agent/agent.mjs');

export async function bundleAgentCli(outfile: string = DEFAULT_AGENT_BUNDLE): Promise<string> {
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'pdf-to-printer', 'electron', 'vite', 'mupdf'],
    // CommonJS dependencies call require(); an ESM bundle has none of its own.
    banner: { js: "import { createRequire as __psCreateRequire } from 'node:module'; const require = __psCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  };
  await Promise.all([
    build({ ...common, entryPoints: [path.join(ROOT, 'src/main/cli/agent.ts')], outfile }),
    // The raw ZPL printers' rendering thread, found beside the agent (src/main/printing/zpl-raster-pool.ts).
    build({
      ...common,
      entryPoints: [path.join(ROOT, 'src/main/printing/zpl-raster-worker.ts')],
      outfile: path.join(path.dirname(outfile), 'zpl-raster-worker.mjs'),
    }),
  ]);
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleAgentCli(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
