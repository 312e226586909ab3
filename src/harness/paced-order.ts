import { relative } from 'node:path';
import type { BaseSequencer, TestSpecification } from 'vitest/node';

/**
 * A run from one address waits while its failing signed requests are paced (src/harness/failure-budget.ts). So that
 * the other suite files' requests, which are not expected to fail a signature, go out during those waits, the files
 * that send the most failing requests start first and the run gives a second worker to the rest.
 */
export const PACED_MIN_WORKERS = 2;

/** Files in vitest's own order, except that those planned to send failing requests come first, the most first. */
export function failingFirst(files: readonly TestSpecification[], root: string, failingByFile: ReadonlyMap<string, number>): TestSpecification[] {
  const failing = (spec: TestSpecification) => failingByFile.get(relative(root, spec.moduleId).split('\\').join('/')) ?? 0;
  return files
    .map((spec, i) => ({ spec, i, n: failing(spec) }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .map((e) => e.spec);
}

/** A sequencer class (vitest's `sequence.sequencer`) that sorts as vitest does, then puts the failing files first. */
export function failingFirstSequencer(Base: typeof BaseSequencer, root: string, failingByFile: ReadonlyMap<string, number>): typeof BaseSequencer {
  return class FailingFirst extends Base {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      return failingFirst(await super.sort(files), root, failingByFile);
    }
  };
}
