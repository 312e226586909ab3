import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUE } from '../src/harness/coverage.js';
import { MUTANTS, UNTESTABLE } from '../src/mutants/index.js';
import { mutantDepth } from '../src/mutants/types.js';
import { VARIANTS } from '../src/variants/catalogue.js';

/**
 * The figures README.md and the docs state, each computed from a file the project generates or keeps: the vectors,
 * the check index, the catalogues of mutants and variants, Stryker's incremental files, the committed bench results. `npm run vectors` writes them
 * between `<!-- figure:NAME -->` and `<!-- /figure -->` markers, and a test fails when a document drifts from them.
 */
const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const json = (path: string) => JSON.parse(readFileSync(root(path), 'utf8')) as Record<string, unknown>;
const thousands = (n: number) => n.toLocaleString('en-US');

function vectorCount(name: string): string {
  return thousands(json(`vectors/${name}`).numberOfTests as number);
}

/** Stryker's mutation score of a committed incremental file: killed and timed out of everything it tested. */
function mutationScore(name: string): { score: string; mutants: number; killed: number; notKilled: number; ignored: number } {
  const files = json(`mutation/${name}.incremental.json`).files as Record<string, { mutants: Array<{ status: string }> }>;
  const count = (...statuses: string[]) => Object.values(files).reduce((n, f) => n + f.mutants.filter((m) => statuses.includes(m.status)).length, 0);
  const killed = count('Killed', 'Timeout');
  const notKilled = count('Survived', 'NoCoverage');
  const ignored = count('Ignored');
  return { score: `${((100 * killed) / (killed + notKilled)).toFixed(2)}%`, mutants: killed + notKilled + ignored, killed, notKilled, ignored };
}

/** The floor CI holds a run's score at (mutation/floors.json, read by the Stryker configurations). */
function mutationFloor(name: string): string {
  return String(json('mutation/floors.json')[name]);
}

/** How many `Stryker disable` marks the source holds: each a real equivalence, with its reason beside it. */
function strykerMarks(): string {
  const count = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce(
      (n, entry) =>
        n +
        (entry.isDirectory()
          ? count(join(dir, entry.name))
          : entry.name.endsWith('.ts')
            ? (readFileSync(join(dir, entry.name), 'utf8').match(/Stryker disable/g) ?? []).length
            : 0),
      0,
    );
  return String(count(root('src')));
}

/** What the self-test demands of the catalogues, which every CI run proves (a survivor or a false fail fails it). */
function selfTestCatalogue() {
  const deep = MUTANTS.filter((m) => mutantDepth(m) === 'deep');
  const untestable = new Set(UNTESTABLE.map((u) => u.id));
  const named = (mutants: typeof MUTANTS) => new Set(mutants.flatMap((m) => m.requirements));
  const byDeep = named(deep);
  const byAny = named(MUTANTS);
  const testable = CATALOGUE.filter((r) => !untestable.has(r.id));
  return {
    mutants: MUTANTS.length,
    deep: deep.length,
    variants: VARIANTS.length,
    requirements: CATALOGUE.length,
    guarded: testable.filter((r) => byDeep.has(r.id)).length,
    answerOnly: testable.filter((r) => !byDeep.has(r.id) && byAny.has(r.id)).length,
    noMutant: testable.filter((r) => !byAny.has(r.id)).length,
    untestable: untestable.size,
  };
}

const counts = (s: ReturnType<typeof mutationScore>) =>
  `${thousands(s.mutants)} mutants: ${thousands(s.killed)} killed, ${thousands(s.notKilled)} not, ${thousands(s.ignored)} ignored as words or marked equivalent`;

/** The ratios of the last committed run of bench/stores.bench.ts, as the bench wrote them (bench/results/stores.md). */
function storesBench(): string {
  return `\n${readFileSync(root('bench/results/stores.md'), 'utf8').trim()}\n`;
}

/** Every figure by name. */
export function figures(): Readonly<Record<string, string>> {
  const verifier = mutationScore('verifier');
  const purchase = mutationScore('purchase');
  const catalogue = selfTestCatalogue();
  const checks = (json('suites/checks.json').checks as unknown[]).length;
  return {
    'vectors/signed-requests': vectorCount('signed-requests.json'),
    'vectors/sdk-tokens': vectorCount('sdk-tokens.json'),
    'vectors/access': vectorCount('access.json'),
    'vectors/widgets': vectorCount('widgets.json'),
    'vectors/purchases': vectorCount('purchases.json'),
    checks: thousands(checks),
    'mutation/verifier': verifier.score,
    'mutation/purchase': purchase.score,
    'mutation/purchase-counts': counts(purchase),
    'mutation/verifier-counts': counts(verifier),
    'mutation/verifier-floor': mutationFloor('verifier'),
    'mutation/purchase-floor': mutationFloor('purchase'),
    'mutation/marks': strykerMarks(),
    'self-test/mutants': `${thousands(catalogue.mutants)} mutants (${thousands(catalogue.deep)} deep)`,
    'self-test/variants': thousands(catalogue.variants),
    'bench/stores': storesBench(),
    'self-test/requirements': `of ${catalogue.requirements} requirements ${catalogue.guarded} are guarded by a deep mutant, ${catalogue.answerOnly} by answer mutants only, ${catalogue.noMutant} have checks but no mutant, ${catalogue.untestable} are untestable with a reason`,
  };
}

const MARKED = /<!-- figure:([a-z0-9/-]+) -->([\s\S]*?)<!-- \/figure -->/g;

/** `text` with every marked figure written anew; throws on a marker naming no figure. */
export function withFigures(text: string, values: Readonly<Record<string, string>> = figures()): string {
  return text.replace(MARKED, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no figure named ${name} (scripts/figures.ts)`);
    return `<!-- figure:${name} -->${value}<!-- /figure -->`;
  });
}

/** The documents that carry figures. */
export const FIGURE_DOCUMENTS = ['README.md', 'docs/running.md', 'docs/testing.md', 'docs/mutation.md', 'bench/README.md'] as const;
