// ESLint flat config: recommended rules plus the import boundaries of docs/ARCHITECTURE.md
// ("Boundaries"). Formatting is Prettier's job (.prettierrc), so no style rules here.
//
// The boundaries are `no-restricted-imports` (static imports and re-exports) and
// `no-restricted-syntax` (dynamic `import()`), one config block per area. In flat config
// the last block matching a file wins for a rule, so the areas below are disjoint (each
// block ignores the areas that have their own block) and every block lists all of its
// area's restrictions. The patterns match the import specifier: every import in this
// repository is relative (there are no path aliases), so `../../main/x` from anywhere
// under src/ names src/main.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

/** A specifier that climbs out of its own folder into src/<dir>. */
const into = (dir) => `^(\\.\\./)+${dir}(/|$)`;

const FORBIDDEN = {
  electron: {
    regex: '^electron(/|$)',
    message: 'Only src/main/electron/ (and src/preload/) may import electron: keep this code runnable in plain Node.',
  },
  main: {
    regex: into('main'),
    message: 'Only src/main imports src/main: the sandbox (an outside party), the contract, the preload and the renderer do not.',
  },
  renderer: { regex: into('renderer'), message: 'Only the renderer imports the renderer: share code through src/shared.' },
  preload: { regex: into('preload'), message: 'Nothing imports the preload: it is an Electron entry point.' },
  shared: {
    regex: into('shared'),
    message: 'The sandbox is an outside party: it keeps its own types and errors, so the contract tests see drift.',
  },
  sandbox: {
    regex: into('sandbox'),
    message: 'Product code reaches the sandbox only through the demo entry points (src/main/cli/demo.ts, src/main/demo/).',
  },
  nodeBuiltins: {
    regex: `^(node:.*|(${builtinModules.filter((m) => !m.startsWith('_')).join('|')})(/.*)?)$`,
    message: 'The renderer runs in a browser, and src/shared with it: no Node built-ins.',
  },
};

/** Both rules for one area: static imports and `import('…')`. */
function boundary(names, extra = []) {
  const restrictions = [...names.map((name) => FORBIDDEN[name]), ...extra];
  return {
    'no-restricted-imports': ['error', { patterns: restrictions.map(({ regex, message }) => ({ regex, message })) }],
    'no-restricted-syntax': [
      'error',
      ...restrictions.map(({ regex, message }) => ({
        // esquery reads `/` as the end of a regex literal: match a slash as \x2F instead.
        selector: `ImportExpression > Literal.source[value=/${regex.replaceAll('/', '\\x2F')}/]`,
        message,
      })),
    ],
  };
}

/**
 * The layers of src/main, low to high (docs/ARCHITECTURE.md, "Layers", draws them). A layer's
 * code imports its own layer and the layers below it, never one above ("up"); members of one
 * layer do not import each other ("across") unless the layer says `across: true`. A member is a
 * folder of src/main or a file at its top (named without `.ts`).
 */
export const MAIN_LAYERS = [
  {
    name: 'foundation',
    folders: ['retry', 'fs', 'http', 'process'],
    files: [
      'errors',
      'log',
      'log-text',
      'log-file',
      'process-alive',
      'windows-powershell',
      'node-version',
      'data-dir',
      'data-dir-acl',
      'default-data-dir',
      'secret-mask',
    ],
    across: true,
  },
  { name: 'service, ledger and devices', folders: ['api', 'ledger', 'devices'] },
  { name: 'printing', folders: ['printing'] },
  { name: 'job engine', folders: ['jobs'] },
  { name: 'intake and settings', folders: ['intake', 'settings'] },
  { name: 'site, scan, report and diagnostics', folders: ['site', 'scan', 'report', 'diagnostics'] },
  { name: 'pack and ship', folders: ['pack'] },
  { name: 'agent', folders: ['agent'] },
  { name: 'web bridge', folders: ['web'] },
  { name: 'headless agent', files: ['headless', 'headless-words'], across: true },
  { name: 'demo', folders: ['demo'] },
  { name: 'entry points', folders: ['cli', 'electron'] },
];

/** The import specifiers that reach a member from anywhere in src/main (every import is relative). */
const memberPattern = (member) => (member.folder ? `^(\\./|(\\.\\./)+)${member.folder}(/|$)` : `^(\\./|(\\.\\./)+)${member.file}$`);
const membersOf = (layer) => [
  ...(layer.folders ?? []).map((folder) => ({ folder, glob: `src/main/${folder}/**` })),
  ...(layer.files ?? []).map((file) => ({ file, glob: `src/main/${file}.ts` })),
];

/** For one member of a layer: what it may not import (higher layers, and its layer's other members). */
function layerRestrictions(index, member) {
  const layer = MAIN_LAYERS[index];
  const above = MAIN_LAYERS.slice(index + 1).flatMap((higher) =>
    membersOf(higher).map((m) => ({
      regex: memberPattern(m),
      message: `Layers: ${m.folder ?? m.file} (${higher.name}) is above ${member.folder ?? member.file} (${layer.name}): a lower layer never imports a higher one (docs/ARCHITECTURE.md, Layers).`,
    })),
  );
  const across = layer.across
    ? []
    : membersOf(layer)
        .filter((m) => m !== member && (m.folder ?? m.file) !== (member.folder ?? member.file))
        .map((m) => ({
          regex: memberPattern(m),
          message: `Layers: ${m.folder ?? m.file} and ${member.folder ?? member.file} are both in the ${layer.name} layer and do not import each other (docs/ARCHITECTURE.md, Layers).`,
        }));
  return [...above, ...across];
}

export default defineConfig(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'reports/**',
      'test-results/**',
      'playwright-report/**',
      'demo-prints/**',
      '.data/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // A disable comment that no longer silences anything is an error: no stale ones.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read raw JSON answers (the sandbox's, the service's): `any` is their honest type.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },

  // ── Boundaries ────────────────────────────────────────────────────────────────────
  // No import circle in src/ (value imports; test/lint/import-graph.test.ts also counts type imports).
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['tsconfig.node.json', 'tsconfig.web.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // src/main: one block per member of each layer (a folder or a top-level file), each with the
  // process walls above and the layer walls of MAIN_LAYERS.
  { files: ['src/main/**'], rules: boundary(['electron', 'renderer', 'preload', 'sandbox']) },
  ...MAIN_LAYERS.flatMap((layer, index) =>
    membersOf(layer).map((member) => {
      const demoEntry = member.folder === 'demo';
      const processWalls =
        member.folder === 'electron'
          ? ['renderer', 'preload', 'sandbox']
          : demoEntry
            ? ['electron', 'renderer', 'preload']
            : ['electron', 'renderer', 'preload', 'sandbox'];
      return {
        files: [member.glob],
        ...(member.folder === 'cli' ? { ignores: ['src/main/cli/demo.ts'] } : {}),
        rules: boundary(processWalls, layerRestrictions(index, member)),
      };
    }),
  ),
  {
    files: ['src/main/cli/demo.ts'],
    rules: boundary(['electron', 'renderer', 'preload'], layerRestrictions(MAIN_LAYERS.length - 1, { folder: 'cli' })),
  },
  { files: ['src/preload/**'], rules: boundary(['main', 'renderer', 'sandbox']) },
  { files: ['src/renderer/**'], rules: boundary(['electron', 'main', 'preload', 'sandbox', 'nodeBuiltins']) },
  { files: ['src/shared/**'], rules: boundary(['electron', 'main', 'renderer', 'preload', 'sandbox', 'nodeBuiltins']) },
  { files: ['src/sandbox/**'], rules: boundary(['electron', 'main', 'shared', 'renderer', 'preload']) },
);
