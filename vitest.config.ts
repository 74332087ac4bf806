import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/reliability/**', 'node_modules/**'],
    pool: 'forks',
    // JSON beside the console output: .ci/run sums the suites into one closing line.
    reporters: ['default', ['json', { outputFile: 'reports/unit.json' }]],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
