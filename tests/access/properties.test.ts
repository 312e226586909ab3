import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decideScope, type Caller } from '../../src/access/index.js';
import { ENDPOINT_SCOPES } from '../../src/spec/sdk-auth.js';

const RUNS = { numRuns: 400, seed: Number(process.env.CONFORMANCE_SEED ?? 20261122) };
const GROUPS = ['friends', 'family', 'staff'];
const HELD = ['project', 'read'];

const entry = fc.oneof(
  fc.constantFrom<string>(...Object.values(ENDPOINT_SCOPES), '', 'group:'),
  fc.constantFrom(...GROUPS).map((g) => `group:${g}`),
  fc.constantFrom(...HELD),
);
const caller: fc.Arbitrary<Caller | null> = fc.option(
  fc.record({
    authenticated: fc.boolean(),
    id: fc.option(fc.string(), { nil: null }),
    isOwner: fc.boolean(),
    isAdmin: fc.boolean(),
    groups: fc.subarray(GROUPS),
    scopes: fc.subarray(HELD),
  }),
  { nil: null },
);

describe('a scope list admits exactly the union of its entries (5.4)', () => {
  test('list verdict = any entry admits; a refusal is 401 exactly when no caller can be verified', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 5 }), caller, fc.boolean(), fc.boolean(), (list, who, verifies, presented) => {
        const agent = { verifiesCallers: verifies };
        const verdict = decideScope(list, who, agent, presented);
        const union = list.some((e) => decideScope(e, who, agent, presented).allowed);
        expect(verdict.allowed).toBe(union);
        if (!verdict.allowed) expect(verdict.status).toBe(!verifies || !who?.authenticated ? 401 : 403);
      }),
      RUNS,
    );
  });

  test('adding an entry never takes anyone out, and the order of entries does not matter', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), entry, caller, (list, extra, who) => {
        const agent = { verifiesCallers: true };
        if (decideScope(list, who, agent).allowed) expect(decideScope([...list, extra], who, agent).allowed).toBe(true);
        expect(decideScope([...list].reverse(), who, agent).allowed).toBe(decideScope(list, who, agent).allowed);
      }),
      RUNS,
    );
  });
});
