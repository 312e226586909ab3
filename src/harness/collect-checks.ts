import { relative } from 'node:path';
import type { CheckIdentity } from '../contract/check.js';
import { DEFAULT_RUN_CONTEXT } from '../contract/run-context.js';
import type { IndexedCheck } from './check-index.js';

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
    return checks;
  } finally {
    await vitest.close();
  }
}
