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
function boundary(...names) {
  const restrictions = names.map((name) => FORBIDDEN[name]);
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

const DEMO_ENTRIES = ['src/main/cli/demo.ts', 'src/main/demo/**'];

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
  {
    files: ['src/main/**'],
    ignores: ['src/main/electron/**', ...DEMO_ENTRIES],
    rules: boundary('electron', 'renderer', 'preload', 'sandbox'),
  },
  { files: ['src/main/electron/**'], rules: boundary('renderer', 'preload', 'sandbox') },
  { files: DEMO_ENTRIES, rules: boundary('electron', 'renderer', 'preload') },
  { files: ['src/preload/**'], rules: boundary('main', 'renderer', 'sandbox') },
  { files: ['src/renderer/**'], rules: boundary('electron', 'main', 'preload', 'sandbox', 'nodeBuiltins') },
  { files: ['src/shared/**'], rules: boundary('electron', 'main', 'renderer', 'preload', 'sandbox', 'nodeBuiltins') },
  { files: ['src/sandbox/**'], rules: boundary('electron', 'main', 'shared', 'renderer', 'preload') },
);
