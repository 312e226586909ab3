import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateReport } from '../../src/harness/report-schema.js';
import { runConformance, type RunOutcome } from '../../src/harness/run.js';
import { REQUIREMENTS } from '../../src/spec/requirements.js';

/**
 * The gate can fail: a self-test of KEY-DIRECTORY-ENTRIES with one extra mutant whose fault (an extra response header) no
 * check observes. The catalogue's own mutants of that requirement are caught; the extra one survives, so the run exits 1.
 */
describe('run --self-test with a fault no check observes', () => {
  let outcome: RunOutcome;
  let out: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'apc-self-test-'));
    outcome = await runConformance({
      only: [REQUIREMENTS.keyDirectoryEntries.id],
      out,
      seed: 1,
      selfTest: {
        extra: [
          {
            id: 'unobserved-header',
            description: 'adds a header no rule forbids',
            requirements: [REQUIREMENTS.keyDirectoryEntries.id],
            addHeader: { name: 'x-unobserved', value: '1' },
          },
        ],
      },
    });
  }, 120_000);

  it('fails the run and names the survivor', () => {
    expect(outcome.report?.counts.fail, outcome.problem).toBe(0);
    expect(outcome.exitCode).toBe(1);
    const selfTest = outcome.report!.selfTest!;
    expect(selfTest.passed).toBe(false);
    expect(selfTest.outcomes.find((o) => o.id === 'unobserved-header')).toMatchObject({ verdict: 'survived' });
    expect(selfTest.problems).toContainEqual(
      expect.stringMatching(
        new RegExp(`^mutant unobserved-header survived: \\d+ check\\(s\\) naming ${REQUIREMENTS.keyDirectoryEntries.id} passed with it switched on$`),
      ),
    );
  });

  it('catches the catalogue mutants of the requirement, and the survivor is the only problem', () => {
    const selfTest = outcome.report!.selfTest!;
    const catalogue = selfTest.outcomes.filter((o) => o.id !== 'unobserved-header');
    expect(catalogue.length).toBeGreaterThan(1);
    expect(catalogue.filter((o) => o.verdict !== 'killed').map((o) => o.id)).toEqual([]);
    expect(selfTest.problems).toHaveLength(1);
  });

  it('writes the self-test into a report.json that validates', () => {
    const written: unknown = JSON.parse(readFileSync(join(out, readdirSync(out)[0]!, 'report.json'), 'utf8'));
    expect(validateReport(written).errors).toEqual([]);
  });
});
