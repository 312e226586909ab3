import { describe, expect, it } from 'vitest';
import { judgeExpectation } from '../../src/cases/expectation.js';
import type { CaseExpect } from '../../src/cases/types.js';

const refusedWith = (error_code: string) => ({ ok: false, status: 401, error_code, agent_url: null });
const acceptedAs = (agent_url: string) => ({ ok: true, status: 200, error_code: null, agent_url });

describe("judgeExpectation: the reference's answer, or another the spec allows", () => {
  const either: CaseExpect = {
    ok: false,
    status: 401,
    error_code: 'signature_expired',
    also_allowed: ['signature_authority_mismatch'],
    reading: 'READING-CHECK-ORDER',
  };

  it("matches the reference's own code without a note", () => {
    expect(judgeExpectation(either, refusedWith('signature_expired'))).toEqual({ matches: true, mismatches: [] });
  });

  it('matches another allowed code, naming the reading', () => {
    const judged = judgeExpectation(either, refusedWith('signature_authority_mismatch'));
    expect(judged.matches).toBe(true);
    expect(judged.reading).toBe('signature_authority_mismatch: allowed by READING-CHECK-ORDER (the reference answers signature_expired)');
  });

  it('refuses a code neither the reference nor the reading gives, and says what was allowed', () => {
    const judged = judgeExpectation(either, refusedWith('signature_invalid'));
    expect(judged.matches).toBe(false);
    expect(judged.mismatches).toEqual([
      'error_code: expected "signature_expired", got "signature_invalid"',
      'the spec also allows signature_authority_mismatch here (READING-CHECK-ORDER), and this is none of them',
    ]);
  });

  it('null among the alternatives allows acceptance', () => {
    const spent: CaseExpect = { ok: true, status: 200, error_code: null, also_allowed: ['signature_replayed'], reading: 'READING-REFUSED-NONCE' };
    expect(judgeExpectation(spent, acceptedAs('https://a.example')).matches).toBe(true);
    expect(judgeExpectation(spent, refusedWith('signature_replayed')).matches).toBe(true);
    expect(judgeExpectation(spent, refusedWith('signature_invalid')).matches).toBe(false);
    const orAccepted: CaseExpect = { ok: false, status: 401, error_code: 'signature_replayed', also_allowed: [null], reading: 'READING-REFUSED-NONCE' };
    expect(judgeExpectation(orAccepted, acceptedAs('https://a.example')).matches).toBe(true);
  });

  it('states no verdict without an expectation', () => {
    expect(judgeExpectation(undefined, refusedWith('x'))).toEqual({ matches: null, mismatches: [] });
  });
});
