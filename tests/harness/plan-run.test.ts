import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckIndex } from '../../src/harness/check-index.js';
import { planRun } from '../../src/harness/run.js';
import { REQUIREMENTS } from '../../src/spec/requirements.js';
import { PROJECT_ROOT } from '../paths.js';

const index = readCheckIndex(PROJECT_ROOT)!;
const files = (plan: ReturnType<typeof planRun>) => ('files' in plan ? plan.files.map((f) => relative(PROJECT_ROOT, f)).sort() : []);

describe('what a selection loads', () => {
  it('a section loads its own files, and the checks of other files that name its requirements', () => {
    const plan = planRun(['2.4'], index);
    expect(files(plan)).toContain('suites/2.4-key-directory.test.ts');
    const card = index.checks.filter((c) => c.requirements.includes(REQUIREMENTS.agentCardSelfNaming.id) && !c.file.startsWith('suites/2.4'));
    expect(card.length, 'a check outside 2.4 judges the agent card of 2.4').toBeGreaterThan(0);
    for (const c of card) expect(files(plan)).toContain(c.file);
    const selection = 'selection' in plan ? plan.selection : [];
    for (const c of card) expect(selection).toContain(c.id);
    for (const c of index.checks.filter((c) => c.file === 'suites/2.4-key-directory.test.ts')) expect(selection).toContain(c.id);
    // Other checks of those other files stay out.
    const other = index.checks.find((c) => card.some((k) => k.file === c.file) && !c.requirements.some((r) => r.startsWith('AGENT-') || r.startsWith('KEY-')));
    if (other) expect(selection).not.toContain(other.id);
  });

  it('a whole run loads every suite file and selects nothing narrower', () => {
    const plan = planRun([], index);
    expect('selection' in plan && plan.selection).toEqual([]);
    expect(files(plan).length).toBe(new Set(index.checks.map((c) => c.file)).size);
  });

  it('an unknown id is refused, naming the nearest known one', () => {
    const plan = planRun(['AUTH-SIGNATURE-EXPIRD'], index);
    expect('problem' in plan && plan.problem).toContain('did you mean AUTH-SIGNATURE-EXPIRED');
  });
});
