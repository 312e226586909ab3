import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CheckIdentity } from '../contract/check.js';
import { DEFAULT_RUN_CONTEXT } from '../contract/run-context.js';
import type { IndexedCheck } from './check-index.js';
import { DECLARABLE_NEEDS } from './not-run-needs.js';

/** What each check needs to run live beyond --base-url, as scripts/derive-needs.ts found it by running the suites. */
export const NEEDS_FILE = 'suites/needs.json';

/** suites/needs.json, held to the checks it names and to the needs a check can declare. */
function readNeeds(root: string, ids: ReadonlySet<string>): ReadonlyMap<string, readonly string[]> {
  const file = join(root, NEEDS_FILE);
  if (!existsSync(file)) return new Map();
  const entries = Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, readonly string[]>);
  const stale = entries.filter(([id]) => !ids.has(id)).map(([id]) => id);
  if (stale.length) throw new Error(`${NEEDS_FILE} names checks the suites do not declare: ${stale.join(', ')} (run scripts/derive-needs.ts)`);
  const declarable: ReadonlySet<string> = new Set(DECLARABLE_NEEDS);
  for (const [id, needs] of entries) {
    const unknown = needs.filter((n) => !declarable.has(n));
    if (unknown.length) throw new Error(`${NEEDS_FILE}: ${id} needs what is not a need: ${unknown.join(', ')} (src/harness/not-run-needs.ts)`);
  }
  return new Map(entries.filter(([, needs]) => needs.length));
}

/**
 * Every check the suites declare, read by loading each suite file without running a check (vitest's collect).
 * Throws when a file fails to load or a check is declared twice, since the index would then be wrong.
 */
export async function collectChecks(root: string): Promise<IndexedCheck[]> {
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest('test', {
    root,
    config: false,
    watch: false,
    include: ['suites/**/*.test.ts'],
    reporters: [],
    provide: { conformance: DEFAULT_RUN_CONTEXT },
  });
  try {
    const result = await vitest.collect();
    const problems = [
      ...result.unhandledErrors.map(String),
      ...result.testModules.flatMap((m) => m.errors().map((e) => `${relative(root, m.moduleId)}: ${e.message}`)),
    ];
    if (problems.length) throw new Error(`the suites did not load: ${problems.join('; ')}`);
    const checks: IndexedCheck[] = [];
    for (const module of result.testModules) {
      for (const test of module.children.allTests()) {
        const identity = (test.meta() as { check?: CheckIdentity }).check;
        if (!identity) throw new Error(`${relative(root, module.moduleId)}: "${test.name}" is a test but not a check`);
        checks.push({ ...identity, title: test.name, file: relative(root, module.moduleId) });
      }
    }
    const ids = checks.map((c) => c.id);
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (twice.length) throw new Error(`check ids declared twice: ${[...new Set(twice)].join(', ')}`);
    const needs = readNeeds(root, new Set(ids));
    return checks.map((c) => (needs.has(c.id) ? { ...c, needs: needs.get(c.id)! } : c));
  } finally {
    await vitest.close();
  }
}
