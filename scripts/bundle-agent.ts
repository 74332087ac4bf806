/**
 * Bundles the agent's CLI into one plain JavaScript file with esbuild. A service should
 * run compiled JavaScript: through tsx, the TypeScript loader's module-hooks thread alone
 * holds about 35 MB of a ~130 MB idle agent. `npm run agent` runs this first (well under a
 * second), and the benchmarks measure the same file. Native and optional modules stay
 * external and resolve from the project's node_modules, as does mupdf (its WebAssembly file
 * is read from beside its module, and it is imported only when a raw ZPL printer prints).
 *
 * Idle memory (docs/BENCHMARKS.md, issue 20): the bundle is split, so what an agent may
 * never need (pdf-lib for a test page, about 1 MB with its fonts and pako) is a chunk in
 * `chunks/` loaded on first use, not source the process holds from the start; and it is
 * minified (whitespace and syntax; names kept, so stack traces still name the functions),
 * which halves the source V8 keeps, and kept ASCII (V8 holds a source with a single other
 * character as UTF-16, twice the size). Run it with AGENT_NODE_FLAGS.
 *
 * Several `npm run agent` started at once (a relay and stations of a site) each bundle: every
 * file is written beside its place and renamed over it, so no node ever runs a half-written
 * bundle (a rename replaces the file whole; each starter runs a complete one). Chunks carry a
 * hash of their content, so a rebuild of the same source writes the same names; chunks no
 * build has written for an hour are removed (an agent still running loads its own lazily).
 *
 *   tsx scripts/bundle-agent.ts [OUTFILE]   (default out/agent/agent.mjs)
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_AGENT_BUNDLE = path.join(ROOT, 'out/agent/agent.mjs');

/** Node flags the bundled agent runs with (src/main/cli/agent-node-flags.ts). */
export { AGENT_NODE_FLAGS } from '../src/main/cli/agent-node-flags';

/**
 * `import ... from 'undici'` gets undici's classes without its index (which loads fetch,
 * WebSocket, the mocks, and with them Node's own built-in undici): scripts/undici-agent.cjs.
 * Only the bare name: the shim itself imports undici's modules by path.
 */
const undiciWithoutIndex: Plugin = {
  name: 'undici-without-index',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: path.join(ROOT, 'scripts/undici-agent.cjs') }));
  },
};

/**
 * `import ... from 'node:http'` in ES module code makes Node build the module's ES facade,
 * which reads every export, and among them are the lazy getters `http.WebSocket`,
 * `CloseEvent` and `MessageEvent`: that loads Node's built-in undici (about 17 MB of an idle
 * agent, for classes it never uses). Required as CommonJS, `http` is read only where used.
 */
const httpAsCommonJs: Plugin = {
  name: 'http-as-commonjs',
  setup(b) {
    b.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.namespace === 'http-as-commonjs' ? { path: 'node:http', external: true } : { path: 'node:http', namespace: 'http-as-commonjs' },
    );
    b.onLoad({ filter: /.*/, namespace: 'http-as-commonjs' }, () => ({ contents: "module.exports = require('node:http');", loader: 'js' }));
  },
};

export async function bundleAgentCli(outfile: string = DEFAULT_AGENT_BUNDLE): Promise<string> {
  const outdir = path.dirname(outfile);
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outdir,
    outExtension: { '.js': '.mjs' },
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    // Licence comments go to agent.mjs.LEGAL.txt beside it: one of them holds a non-ASCII
    // letter, and a single one makes V8 keep the whole 2 MB source as UTF-16, twice the size.
    legalComments: 'external',
    // mupdf and the NATS client load from node_modules, only where a raw printer or a site is configured.
    plugins: [undiciWithoutIndex, httpAsCommonJs],
    external: ['better-sqlite3', 'pdf-to-printer', 'electron', 'vite', 'mupdf', '@nats-io/*'],
    // CommonJS dependencies call require(); an ESM bundle has none of its own.
    banner: { js: "import { createRequire as __psCreateRequire } from 'node:module'; const require = __psCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    write: false,
  };
  const results = await Promise.all([
    build({
      ...common,
      entryPoints: { [path.basename(outfile, '.mjs')]: path.join(ROOT, 'src/main/cli/agent.ts') },
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
    }),
    // The raw ZPL printers' rendering thread, found beside the agent (src/main/printing/zpl/zpl-raster-pool.ts).
    build({ ...common, entryPoints: { 'zpl-raster-worker': path.join(ROOT, 'src/main/printing/zpl/zpl-raster-worker.ts') } }),
  ]);
  const written = new Set<string>();
  for (const file of results.flatMap((r) => r.outputFiles ?? [])) {
    await mkdir(path.dirname(file.path), { recursive: true });
    // Unique per call, not only per process: bundles started together in one process (the tests) too.
    const temporary = `${file.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
    written.add(file.path);
  }
  await removeOldChunks(path.join(outdir, 'chunks'), written);
  return outfile;
}

/** Chunks of earlier builds (other content hashes) that no build has written for an hour. */
async function removeOldChunks(dir: string, written: ReadonlySet<string>): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(dir, name);
    if (written.has(file)) continue;
    const modified = await stat(file).then(
      (s) => s.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - modified > 3_600_000) await unlink(file).catch(() => undefined);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleAgentCli(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
