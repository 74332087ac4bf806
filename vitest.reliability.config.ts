import { defineConfig } from 'vitest/config';

// The reliability suite (chaos, faults, storm, outage). `npm test` runs it bounded to a
// few minutes; RELIABILITY_LONG=1 runs the long version.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    pool: 'forks',
    // JSON beside the console output: .ci/run sums the suites into one closing line.
    reporters: ['default', ['json', { outputFile: 'reports/reliability.json' }]],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
