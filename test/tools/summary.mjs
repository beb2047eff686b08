// Prints the plain closing line CI reads ("N passed, N failed") from vitest's JSON report.
import { readFileSync } from 'node:fs';

try {
  const report = JSON.parse(readFileSync('.test-results/vitest.json', 'utf8'));
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
} catch (error) {
  console.log(`tests: 0 passed, 1 failed (no vitest report: ${error.message})`);
}
