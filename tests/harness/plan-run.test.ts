import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckIndex } from '../../src/harness/check-index.js';
import { planRun, selectedChecks } from '../../src/harness/run.js';
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

describe('what --skip leaves out', () => {
  const ids = (plan: ReturnType<typeof planRun>) => ('selection' in plan ? [...plan.selection].sort() : []);
  const skipped = (plan: ReturnType<typeof planRun>) => ('skipped' in plan ? (plan.skipped ?? []).map((c) => c.id).sort() : []);
  const ofFile = (file: string) => index.checks.filter((c) => c.file === file).map((c) => c.id);

  it('a skipped section leaves out its files and the checks of other files that name its requirements; the rest run', () => {
    const plan = planRun([], index, ['2.4']);
    expect(files(plan)).not.toContain('suites/2.4-key-directory.test.ts');
    const own = ofFile('suites/2.4-key-directory.test.ts');
    const card = index.checks.filter((c) => c.requirements.includes(REQUIREMENTS.agentCardSelfNaming.id)).map((c) => c.id);
    for (const id of [...own, ...card]) {
      expect(skipped(plan)).toContain(id);
      expect(ids(plan)).not.toContain(id);
    }
    expect(ids(plan).length + skipped(plan).length).toBe(index.checks.length);
    expect(ids(plan)).toContain('purchase.challenge-expired');
  });

  it('a skipped check id leaves out that check alone, beside --only', () => {
    const own = ofFile('suites/2.4-key-directory.test.ts');
    const plan = planRun(['2.4'], index, ['key-directory.media-type']);
    expect(skipped(plan)).toEqual(['key-directory.media-type']);
    expect(ids(plan)).not.toContain('key-directory.media-type');
    for (const id of own.filter((id) => id !== 'key-directory.media-type')) expect(ids(plan)).toContain(id);
  });

  it('a skipped requirement id leaves out every check that names it, and may repeat', () => {
    const named = ['KEY-DIRECTORY-ENTRIES', 'KEY-DIRECTORY-MEDIA-TYPE'];
    const plan = planRun(['2.4'], index, named);
    const carrying = index.checks.filter((c) => c.requirements.some((r) => named.includes(r))).map((c) => c.id);
    expect(carrying).toEqual(expect.arrayContaining(ofFile('suites/2.4-key-directory.test.ts')));
    expect(skipped(plan)).toEqual(carrying.sort());
    for (const id of carrying) expect(ids(plan)).not.toContain(id);
    expect(files(plan)).not.toContain('suites/2.4-key-directory.test.ts');
    expect(ids(plan)).toContain('discovery.card-self-naming');
  });

  it('a skip outside the selection changes nothing', () => {
    expect(planRun(['2.4'], index, ['7.4'])).toEqual(planRun(['2.4'], index));
  });

  it('an unknown word is refused, naming --skip and the nearest known id', () => {
    const plan = planRun([], index, ['key-directory.media-typ']);
    expect('problem' in plan && plan.problem).toBe(
      '--skip key-directory.media-typ: key-directory.media-typ is neither a section, a requirement id nor a check id (did you mean key-directory.media-type?)',
    );
    const section = planRun([], index, ['9.9']);
    expect('problem' in section && section.problem).toBe('--skip 9.9: no suite covers section 9.9');
  });

  it('a skip that leaves nothing of the selection to run is refused', () => {
    const plan = planRun(['key-directory.media-type'], index, ['2.4']);
    expect('problem' in plan && plan.problem).toBe('--skip 2.4 leaves none of the 1 selected checks to run');
  });
});

describe('the checks list prints', () => {
  it('every check of the index without a selection, and what --only and --skip leave', () => {
    const all = selectedChecks([]);
    expect('checks' in all && all.checks.length).toBe(index.checks.length);
    const some = selectedChecks(['2.4'], ['key-directory.media-type']);
    const section = planRun(['2.4'], index);
    const expected = ('selection' in section ? section.selection : []).filter((id) => id !== 'key-directory.media-type');
    expect(expected.length).toBeGreaterThan(3);
    expect('checks' in some && some.checks.map((c) => c.id).sort()).toEqual([...expected].sort());
    const wrong = selectedChecks(['NO-SUCH-THING']);
    expect('problem' in wrong && wrong.problem).toContain('NO-SUCH-THING is neither a requirement id nor a check id');
  });
});
