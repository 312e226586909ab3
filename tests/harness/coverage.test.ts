import { REQUIREMENT_LIST } from '../../src/spec/requirements.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';
import { CATALOGUE, coverageStatus, WIDGET_BUNDLE_RULES, requirementCoverage, sectionsOfCheck, type Coverage } from '../../src/harness/coverage.js';
import { AUTH_ERROR_LIST } from '../../src/spec/auth-errors.js';
import { BRIDGE_ERROR_LIST } from '../../src/spec/bridge-errors.js';
import { ENDPOINT_ERROR_LIST } from '../../src/spec/endpoint-errors.js';
import { LIMIT_LIST } from '../../src/spec/limits.js';
import { PURCHASE_ERROR_LIST } from '../../src/spec/purchase-errors.js';
import { check } from './sample-reports.js';

const entry = (coverage: Coverage, id: string) => coverage.requirements.find((r) => r.id === id)!;

describe('requirement coverage', () => {
  it('lists every catalogue record once, section by section, in document order', () => {
    const all = [
      ...REQUIREMENT_LIST,
      ...WIDGET_BUNDLE_RULES,
      ...BRIDGE_ERROR_LIST,
      ...ENDPOINT_ERROR_LIST,
      ...AUTH_ERROR_LIST,
      ...PURCHASE_ERROR_LIST,
      ...LIMIT_LIST,
    ];
    expect(CATALOGUE.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(new Set(CATALOGUE.map((r) => r.id)).size).toBe(CATALOGUE.length);
    const coverage = requirementCoverage([]);
    expect(coverage.requirements.map((r) => r.id)).toEqual(all.map((r) => r.id));
    const sections = coverage.sections.map((s) => s.section);
    expect(new Set(sections)).toEqual(new Set(all.map((r) => r.section)));
    const documentOrder = [...readFileSync(`${PROJECT_ROOT}spec/agent-platform-interface.md`, 'utf8').matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map(
      (m) => m[1],
    );
    expect(sections).toEqual([...sections].sort((a, b) => documentOrder.indexOf(a) - documentOrder.indexOf(b)));
    expect(
      sections.every((s) => documentOrder.includes(s)),
      'every section is a heading of the spec',
    ).toBe(true);
    expect(coverage.counts).toEqual({ covered: 0, failing: 0, 'not-run': 0, 'no-check': all.length, total: all.length });
  });

  it('grades a requirement covered only when every check naming it passed', () => {
    expect(coverageStatus([])).toBe('no-check');
    expect(coverageStatus(['pass', 'pass'])).toBe('covered');
    expect(coverageStatus(['pass', 'not-run'])).toBe('not-run');
    expect(coverageStatus(['not-run'])).toBe('not-run');
    expect(coverageStatus(['pass', 'fail', 'not-run'])).toBe('failing');
    expect(coverageStatus(['pass', 'warn'])).toBe('failing');
    expect(coverageStatus(['pass', 'error'])).toBe('failing');
  });

  it('computes covered, failing, not-run and no-check on a hand-made run', () => {
    const results = [
      check('a', ['AUTH-SIGNATURE-EXPIRED'], 'pass'),
      check('b', ['AUTH-SIGNATURE-EXPIRED', 'LIMIT-CLOCK-SKEW'], 'pass'),
      check('c', ['AUTH-SIGNATURE-REPLAYED'], 'pass'),
      check('d', ['AUTH-SIGNATURE-REPLAYED'], 'fail'),
      check('e', ['LIMIT-CLOCK-SKEW'], 'not-run'),
      check('f', ['PURCHASE-CALL-REFUNDED'], 'error'),
      check('g', ['BRIDGE-TIMEOUT'], 'warn'),
      check('h', ['AUTH-NO-SUCH-CODE', 'AUTH-SIGNATURE-INVALID'], 'pass'),
      check('i', [], 'fail'),
    ];
    const coverage = requirementCoverage(results);

    const expired = entry(coverage, 'AUTH-SIGNATURE-EXPIRED');
    expect(expired.status).toBe('covered');
    expect(expired.checks.map((c) => [c.name, c.index, c.verdict])).toEqual([
      ['a', 0, 'pass'],
      ['b', 1, 'pass'],
    ]);
    expect(expired.verdicts).toEqual({ pass: 2, fail: 0, warn: 0, 'not-run': 0, error: 0 });
    expect(expired).toMatchObject({ section: '7.3', level: 'MUST' });
    expect(expired.condition).toBe(AUTH_ERROR_LIST.find((r) => r.id === 'AUTH-SIGNATURE-EXPIRED')!.condition);

    expect(entry(coverage, 'AUTH-SIGNATURE-REPLAYED').status).toBe('failing');
    expect(entry(coverage, 'AUTH-SIGNATURE-REPLAYED').verdicts).toMatchObject({ pass: 1, fail: 1 });
    expect(entry(coverage, 'LIMIT-CLOCK-SKEW').status).toBe('not-run');
    expect(entry(coverage, 'LIMIT-CLOCK-SKEW').checks.map((c) => c.name)).toEqual(['b', 'e']);
    expect(entry(coverage, 'PURCHASE-CALL-REFUNDED').status).toBe('failing');
    expect(entry(coverage, 'BRIDGE-TIMEOUT').status).toBe('failing');
    expect(entry(coverage, 'AUTH-SIGNATURE-INVALID').status).toBe('covered');
    expect(entry(coverage, 'AUTH-CARD-UNREACHABLE')).toMatchObject({ status: 'no-check', checks: [] });
    expect(entry(coverage, 'ENDPOINT-FORBIDDEN').status).toBe('no-check');

    expect(coverage.counts).toEqual({ covered: 2, failing: 3, 'not-run': 1, 'no-check': CATALOGUE.length - 6, total: CATALOGUE.length });
    const s73 = coverage.sections.find((s) => s.section === '7.3')!;
    expect(s73.counts).toEqual({ covered: 2, failing: 1, 'not-run': 0, 'no-check': AUTH_ERROR_LIST.length - 3, total: AUTH_ERROR_LIST.length });
    expect(coverage.sections.find((s) => s.section === '8')!.counts).toMatchObject({ 'not-run': 1, covered: 0 });

    expect(coverage.uncatalogued).toEqual([
      {
        id: 'AUTH-NO-SUCH-CODE',
        status: 'covered',
        checks: [expect.objectContaining({ name: 'h', index: 7 })],
        verdicts: expect.objectContaining({ pass: 1 }),
      },
    ]);
    expect(coverage.untagged.map((c) => [c.name, c.verdict])).toEqual([['i', 'fail']]);
  });

  it('counts a check once per requirement even when it names the id twice', () => {
    const coverage = requirementCoverage([check('twice', ['AUTH-SIGNATURE-EXPIRED', 'AUTH-SIGNATURE-EXPIRED'], 'pass')]);
    expect(entry(coverage, 'AUTH-SIGNATURE-EXPIRED').checks).toHaveLength(1);
  });

  it('places a check in the sections of the requirements it names, else in its suite file section', () => {
    expect(sectionsOfCheck({ requirements: ['AUTH-SIGNATURE-EXPIRED', 'LIMIT-CLOCK-SKEW'], suite: 'suites/x.test.ts' })).toEqual(['7.3', '8']);
    expect(sectionsOfCheck({ requirements: ['AUTH-NOT-IN-THE-CATALOGUE'], suite: 'suites/7.3-signed-requests.test.ts' })).toEqual(['7.3']);
    expect(sectionsOfCheck({ requirements: [], suite: 'suites/8-limits.test.ts' })).toEqual(['8']);
    expect(sectionsOfCheck({ requirements: [], suite: 'suites/misc.test.ts' })).toEqual([]);
  });
});
