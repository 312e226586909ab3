import { describe, expect, it } from 'vitest';
import reportSchema from '../../vectors/schema/report.schema.json' with { type: 'json' };
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { VARIANTS } from '../../src/variants/catalogue.js';

/** The ids a self-test report carries must be ids its schema accepts, or the report of a passing self-test is invalid. */
const ID = new RegExp(reportSchema.$defs.variantOutcome.properties.id.pattern);
const MUTANT_ID = new RegExp(reportSchema.$defs.mutantOutcome.properties.id.pattern);

describe('the variant catalogue', () => {
  it('gives every variant a unique id the report schema accepts', () => {
    for (const v of VARIANTS) expect(v.id, v.id).toMatch(ID);
    expect(new Set(VARIANTS.map((v) => v.id)).size).toBe(VARIANTS.length);
  });

  it('gives every mutant an id the report schema accepts', () => {
    for (const m of MUTANTS) expect(m.id, m.id).toMatch(MUTANT_ID);
  });

  it('gives no variant the id of a mutant', () => {
    const mutants = new Set(MUTANTS.map((m) => m.id));
    for (const v of VARIANTS) expect(mutants.has(v.id), v.id).toBe(false);
  });
});
