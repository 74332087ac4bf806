// Sums the JSON reports of the unit, reliability and E2E suites into one closing line,
// "Tests: N passed, N failed, N skipped", so a reader of the CI log sees the whole run.
import { existsSync, readFileSync } from 'node:fs';

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null);
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const suite of ['unit', 'reliability']) {
  const r = read(`reports/${suite}.json`);
  if (!r) missing.push(suite);
  else {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
  }
}
const e2e = read('reports/e2e.json');
if (!e2e) missing.push('e2e');
else {
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
  skipped += e2e.stats.skipped;
}
if (missing.length > 0) console.log(`summary: no report from ${missing.join(', ')} (that suite did not run to the end)`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
