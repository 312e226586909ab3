import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `npm run mutation:survivors -- verifier|purchase|cores [path-part]`: the mutants a committed incremental file
 * records as not killed, one line each (file:line, mutator, replacement, the line as written), to read for checks
 * or unit tests worth adding. Stryker's HTML report (reports/mutation/) shows the same after a run.
 */
interface Mutant {
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly location: { readonly start: { readonly line: number } };
}
interface IncrementalFile {
  readonly files: Record<string, { readonly source: string; readonly mutants: readonly Mutant[] }>;
}

const RUNS = ['verifier', 'purchase', 'cores'];
const [run, part = ''] = process.argv.slice(2);
if (run === undefined || !RUNS.includes(run)) {
  console.error(`usage: npm run mutation:survivors -- ${RUNS.join('|')} [a part of a file path]`);
  process.exit(2);
}
const path = fileURLToPath(new URL(`../mutation/${run}.incremental.json`, import.meta.url));
if (!existsSync(path)) {
  console.error(`no incremental file at ${path}: run npm run mutation:${run} first`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(path, 'utf8')) as IncrementalFile;
let shown = 0;
for (const [file, { source, mutants }] of Object.entries(report.files)) {
  if (!file.includes(part)) continue;
  const lines = source.split('\n');
  for (const m of mutants) {
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
    const line = m.location.start.line;
    const written = (lines[line - 1] ?? '').trim().slice(0, 100);
    const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 60);
    console.log(`${file}:${line} ${m.status === 'NoCoverage' ? '(no test reaches it) ' : ''}${m.mutatorName} => ${replacement} | ${written}`);
    shown++;
  }
}
console.error(`${shown} mutants not killed`);
