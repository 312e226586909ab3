import { describe, expect, it } from 'vitest';
import { planClientRun } from '../../../src/harness/client/run-client.js';
import { clientSelfTest } from '../../../src/harness/client/self-test.js';
import { CLIENT_RULE_LIST } from '../../../src/client-judge/rules.js';
import { CLIENT_MUTANTS, clientMutantDepth } from '../../../src/mutants/client.js';
import { CLIENT_CASES } from '../../../src/scenarios/clients/cases.js';
import { CLIENT_REQUIREMENT_LIST } from '../../../src/spec/client-requirements.js';
import { CLIENT_VARIANTS } from '../../../src/variants/client.js';

describe("client mode's self-test", () => {
  it('catches every client mutant with a check naming its requirement, and passes every client variant', async () => {
    const { results, selfTest } = await clientSelfTest({ cases: CLIENT_CASES, all: CLIENT_CASES, selection: [] });
    expect(selfTest.problems).toEqual([]);
    expect(selfTest.passed).toBe(true);
    expect(selfTest.mutants).toMatchObject({ total: CLIENT_MUTANTS.length, killed: CLIENT_MUTANTS.length, survived: 0 });
    expect(selfTest.variants).toMatchObject({ total: CLIENT_VARIANTS.length, conformant: CLIENT_VARIANTS.length, falseFails: 0 });
    expect(results.every((r) => r.verdict === 'pass')).toBe(true);
    // Every client requirement has a check, and is guarded by a deep mutant or at least an answer mutant.
    expect(selfTest.requirementCounts.total).toBe(CLIENT_REQUIREMENT_LIST.length);
    expect(selfTest.requirementCounts['no-check'] + selfTest.requirementCounts['no-mutant'] + selfTest.requirementCounts.survivor).toBe(0);
  }, 60_000);

  it('fails when a fault survives: a mutant naming a rule no case breaks', async () => {
    const harmless = { id: 'client-harmless', description: 'changes nothing', requirements: ['CLIENT-SIGNER-WINDOW'], fault: () => ({}) };
    const { selfTest } = await clientSelfTest({
      cases: CLIENT_CASES.slice(0, 1),
      all: CLIENT_CASES,
      selection: ['CLIENT-SIGNER-WINDOW'],
      mutants: [harmless],
      variants: [],
    });
    expect(selfTest.passed).toBe(false);
    expect(selfTest.problems[0]).toMatch(/^mutant client-harmless survived/);
  });

  it('fails when a conformant variant is failed: a "variant" that is in fact a fault', async () => {
    const fault = {
      id: 'client-window-too-long',
      description: 'a 4000 s window',
      readings: [],
      requirements: ['CLIENT-SIGNER-WINDOW'],
      choices: { windowS: 4000 },
    };
    const { selfTest } = await clientSelfTest({
      cases: CLIENT_CASES.slice(0, 1),
      all: CLIENT_CASES,
      selection: ['CLIENT-SIGNER-WINDOW'],
      mutants: [],
      variants: [fault],
    });
    expect(selfTest.problems.some((p) => p.startsWith('variant client-window-too-long'))).toBe(true);
  });

  it('names each mutant deep unless it only rewrites the request already signed', () => {
    const depth = Object.fromEntries(CLIENT_MUTANTS.map((m) => [m.id, clientMutantDepth(m)]));
    expect(depth['client-nonce-reused']).toBe('deep');
    expect(depth['client-fresh-credential']).toBe('deep');
    expect(depth['client-content-digest-dropped']).toBe('answer');
  });
});

describe('planClientRun: what --only selects in client mode', () => {
  it('selects every case and rule without a selection', () => {
    const plan = planClientRun([]);
    expect('cases' in plan && plan.cases.length).toBe(CLIENT_CASES.length);
    expect('rules' in plan && plan.rules.length).toBe(CLIENT_RULE_LIST.length);
  });

  it('a case id selects that case, judged for every rule; a check or requirement id selects the cases that judge it', () => {
    expect(planClientRun(['pack-card'])).toMatchObject({ cases: [{ id: 'pack-card' }] });
    const upstream = planClientRun(['client.buyer-upstream']);
    expect('cases' in upstream && upstream.cases.map((c) => c.id)).toEqual(['upstream-not-relayed']);
    expect('rules' in upstream && upstream.rules.map((r) => r.id)).toEqual(['client.buyer-upstream']);
    const byRequirement = planClientRun(['CLIENT-BUYER-RESEND-UNPAID']);
    expect('cases' in byRequirement && byRequirement.cases.map((c) => c.id)).toEqual(['sale-already-granted', 'sale-funding-failed']);
  });

  it('a section selects the rules of that section', () => {
    const plan = planClientRun(['3']);
    expect('rules' in plan && plan.rules.map((r) => r.id)).toEqual(['client.buyer-one-credential']);
  });

  it('refuses what it does not know, with the nearest id', () => {
    expect(planClientRun(['pack-crad'])).toEqual({ problem: expect.stringMatching(/pack-crad is neither .* \(did you mean pack-card\?\)/) });
    expect(planClientRun(['9.9'])).toEqual({ problem: 'no client rule is of section 9.9' });
  });
});
