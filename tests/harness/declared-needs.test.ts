import { describe, expect, it } from 'vitest';
import { readCheckIndex } from '../../src/harness/check-index.js';
import { DECLARABLE_NEEDS, needLabel, notRunNeed } from '../../src/harness/not-run-needs.js';
import { CAPABILITY_REASONS } from '../../src/harness/target.js';
import { PROJECT_ROOT } from '../paths.js';

const checks = readCheckIndex(PROJECT_ROOT)!.checks;

/**
 * The needs checks declare (suites/needs.json from scripts/derive-needs.ts, folded into suites/checks.json) are the needs a not-run result names
 * (src/harness/not-run-needs.ts). tests/e2e/declared-needs.test.ts holds the declarations to what a live run reports.
 */
describe("the checks' declared needs", () => {
  it('use only the needs a not-run reason can name, each once, in the order of the table', () => {
    for (const c of checks) {
      const needs = c.needs ?? [];
      if (c.needs !== undefined) expect(needs.length, `${c.id}: no needs is written as no member`).toBeGreaterThan(0);
      for (const n of needs) expect(DECLARABLE_NEEDS, c.id).toContain(n);
      expect(new Set(needs).size, c.id).toBe(needs.length);
      expect(
        [...needs].sort((a, b) => DECLARABLE_NEEDS.indexOf(a as never) - DECLARABLE_NEEDS.indexOf(b as never)),
        c.id,
      ).toEqual(needs);
    }
  });

  it("never name a run's course, which no check can know ahead", () => {
    for (const id of ['interrupted', 'skip', 'other']) expect(DECLARABLE_NEEDS).not.toContain(id);
  });

  it('cover every capability a live target lacks: each names a need a check can declare', () => {
    for (const [capability, reason] of Object.entries(CAPABILITY_REASONS)) expect(DECLARABLE_NEEDS, capability).toContain(notRunNeed(reason).id);
  });

  it('are declared by the checks that cannot run on --base-url alone', () => {
    const declaring = checks.filter((c) => c.needs?.length);
    // Measured by scripts/derive-needs.ts on 2026-11-29: 219 of 467.
    expect(declaring.length).toBeGreaterThan(checks.length / 3);
    const of = (id: string) => checks.find((c) => c.id === id)?.needs ?? [];
    expect(of('key-directory.media-type')).toEqual([]);
    expect(of('key-directory.lists-hosted-agents')).toEqual(['agent-url']);
    expect(of('bridge.permission')).toEqual(['widget-host-url', 'chromium']);
    expect(of('purchase.mpp-disabled')).toEqual(['allow-spend', 'control-url']);
  });

  it('are named in list the way the verdict line names them', () => {
    expect(needLabel('agent-url')).toBe('--agent-url');
    expect(needLabel('in-process')).toBe('the in-process run');
    expect(needLabel('spend-cap')).toBe('a higher --spend-cap');
    expect(() => needLabel('nope')).toThrow('"nope" is not a need');
  });
});
