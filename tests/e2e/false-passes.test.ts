import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type RunOutcome } from '../../src/harness/run.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { mutantDepth } from '../../src/mutants/types.js';

/**
 * The five faults an outside implementer switched on together, once reported CONFORMANT: each is now a deep mutant
 * of the catalogue, and a check naming the requirement it breaks fails with it switched on.
 */
const FAULTS = [
  'verifier-coverage-without-method-authority-path',
  'purchase-challenges-expire-in-10s',
  'key-directory-lists-no-key',
  'verifier-nonce-capped-at-128',
  'agent-token-endpoint-405',
];

describe('the faults that once passed', () => {
  const mutants = FAULTS.map((id) => MUTANTS.find((m) => m.id === id));
  let outcome: RunOutcome;
  beforeAll(async () => {
    const requirements = [...new Set(mutants.flatMap((m) => m?.requirements ?? []))];
    outcome = await runConformance({ only: requirements, selfTest: {}, seed: 3, out: mkdtempSync(join(tmpdir(), 'apc-false-passes-')) });
  }, 240_000);

  it('are deep mutants of the catalogue, breaking the rule where it is decided', () => {
    expect(mutants.map((m, i) => m?.id ?? `missing: ${FAULTS[i]}`)).toEqual(FAULTS);
    for (const m of mutants) expect(mutantDepth(m!), m!.id).toBe('deep');
  });

  it('are each caught by a check naming the requirement it breaks', () => {
    const outcomes = outcome.report!.selfTest!.outcomes;
    for (const id of FAULTS)
      expect(
        outcomes.find((o) => o.id === id),
        id,
      ).toMatchObject({ verdict: 'killed' });
  });
});
