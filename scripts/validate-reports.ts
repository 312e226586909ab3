import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { validateReport } from '../src/harness/report-schema.js';

/** `tsx scripts/validate-reports.ts DIR`: validates the newest report.json under DIR and checks its siblings exist. */
const dir = process.argv[2] ?? 'reports';
const runs = readdirSync(dir)
  .filter((d) => statSync(join(dir, d)).isDirectory())
  .sort();
const newest = runs.at(-1);
if (!newest) {
  console.error(`no run under ${dir}`);
  process.exit(1);
}
const runDir = join(dir, newest);
const result = validateReport(JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')));
for (const file of ['junit.xml', 'summary.md', 'report.html']) statSync(join(runDir, file));
if (!result.valid) {
  console.error(`${runDir}/report.json does not validate:\n${result.errors.join('\n')}`);
  process.exit(1);
}
console.log(`${runDir}: report.json validates; junit.xml, summary.md and report.html present`);
