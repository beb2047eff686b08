#!/usr/bin/env node
// Writes the report (markdown and charts) again from a run's JSON, e.g. after a change to the
// report or the chart writer:  node bench/rewrite-report.mjs bench/results/<date>.json
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { loadCases } from './cases/index.mjs';
import { writeReport } from './report.mjs';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node bench/rewrite-report.mjs bench/results/<date>.json\n');
  process.exit(2);
}
const { analysis, ...results } = JSON.parse(readFileSync(file, 'utf8'));
void analysis;
const { md } = writeReport(results, { resultsDir: dirname(file), date: basename(file, '.json'), cases: await loadCases() });
process.stdout.write(`${md}\n`);
