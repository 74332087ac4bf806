/**
 * Bundles the agent's CLI into one plain JavaScript file with esbuild. A service should
 * run compiled JavaScript: through tsx, the TypeScript loader's module-hooks thread alone
 * holds about 35 MB of a ~130 MB idle agent. `npm run agent` runs this first (well under a
 * second), and the benchmarks measure the same file. Native and optional modules stay
 * external and resolve from the project's node_modules, as does mupdf (its WebAssembly file
 * is read from beside its module, and it is imported only when a raw ZPL printer prints).
 *
 * Several `npm run agent` started at once (a relay and stations of a site) each bundle: the
 * file is written beside its place and renamed over it, so no node ever runs a half-written
 * bundle (a rename replaces the file whole; each starter runs a complete one).
 *
 *   tsx scripts/bundle-agent.ts [OUTFILE]   (default out/agent/agent.mjs)
 */
import { rename, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_AGENT_BUNDLE = path.join(ROOT, 'out/agent/agent.mjs');

export async function bundleAgentCli(outfile: string = DEFAULT_AGENT_BUNDLE): Promise<string> {
  const result = await build({
    entryPoints: [path.join(ROOT, 'src/main/cli/agent.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external: ['better-sqlite3', 'pdf-to-printer', 'electron', 'vite', 'mupdf'],
    // CommonJS dependencies call require(); an ESM bundle has none of its own.
    banner: { js: "import { createRequire as __psCreateRequire } from 'node:module'; const require = __psCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    write: false,
  });
  await mkdir(path.dirname(outfile), { recursive: true });
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleAgentCli(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
