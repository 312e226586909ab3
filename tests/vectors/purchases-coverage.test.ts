import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  ROW_METHODS,
  UNREACHABLE_REQUIREMENTS,
  unreachableRows,
  type AnswerExpect,
  type PresentEvent,
  type PurchaseCase,
  type PurchaseVectors,
} from '../../src/scenarios/purchases/index.js';
import { PAYMENT_PROBLEMS } from '../../src/spec/payments.js';
import { PURCHASE_ERROR_LIST } from '../../src/spec/purchase-errors.js';
import { PURCHASE_REQUIREMENT_LIST, PURCHASE_REQUIREMENTS } from '../../src/spec/purchase-requirements.js';
import { PROJECT_ROOT } from '../paths.js';

const vectors = JSON.parse(readFileSync(`${PROJECT_ROOT}vectors/purchases.json`, 'utf8')) as PurchaseVectors;
const cases = vectors.testGroups.flatMap((g) => g.cases);

/** Every presentation of a case, concurrent ones included, in order. */
function presentations(c: PurchaseCase): PresentEvent[] {
  const out: PresentEvent[] = [];
  const visit = (event: PresentEvent) => {
    out.push(event);
    for (const inner of event.whileServing ?? []) visit(inner);
  };
  for (const event of c.events) if (event.type === 'present') visit(event);
  return out;
}
const answers = (c: PurchaseCase): AnswerExpect[] => presentations(c).map((p) => p.expect);
const allAnswers = cases.flatMap(answers);
const answersCode = (c: PurchaseCase, code: string) => answers(c).some((a) => a.code === code);
const claiming = (id: string) => cases.filter((c) => c.covers.includes(id));

describe('vectors/purchases.json covers every row of 7.4 and every move of section 3', () => {
  test('every catalogue row is either reached for each method it applies to, or listed unreachable with a reason', () => {
    expect(Object.keys(ROW_METHODS).sort()).toEqual(PURCHASE_ERROR_LIST.map((r) => r.code).sort());
    for (const record of PURCHASE_ERROR_LIST) {
      const methods = ROW_METHODS[record.code as keyof typeof ROW_METHODS];
      if ('unreachable' in methods) continue;
      for (const method of methods) {
        const reaching = cases.filter((c) => c.method === method && answersCode(c, record.code));
        expect(reaching.length, `${record.code} (${record.id}) by ${method}`).toBeGreaterThan(0);
      }
    }
  });

  test('the file lists exactly the unreachable rows and requirements, each with its reason', () => {
    expect(vectors.unreachable).toEqual(unreachableRows());
    for (const row of vectors.unreachable) expect(row.reason.length, row.id).toBeGreaterThan(20);
    const unreachableCodes = vectors.unreachable.flatMap((r) => (r.code === undefined ? [] : [r.code]));
    for (const code of unreachableCodes)
      expect(
        allAnswers.some((a) => a.code === code),
        `${code} is listed unreachable but answered`,
      ).toBe(false);
  });

  test('a case claiming a 7.4 row answers it', () => {
    for (const record of PURCHASE_ERROR_LIST)
      for (const c of claiming(record.id)) expect(answersCode(c, record.code), `${c.id} claims ${record.id}`).toBe(true);
  });

  test('every requirement of PURCHASE_REQUIREMENTS is claimed by a case or listed unreachable', () => {
    for (const requirement of PURCHASE_REQUIREMENT_LIST) {
      const claimed = claiming(requirement.id).length > 0;
      expect(claimed || requirement.id in UNREACHABLE_REQUIREMENTS, requirement.id).toBe(true);
      expect(claimed && requirement.id in UNREACHABLE_REQUIREMENTS, `${requirement.id} both claimed and unreachable`).toBe(false);
    }
  });

  test('move 1 (resume): a credential presented again after a 503 completes (200 or the call) in every case claiming it', () => {
    for (const c of claiming(PURCHASE_REQUIREMENTS.resumeSameCredential.id)) {
      const seen = new Map<string, AnswerExpect[]>();
      for (const p of presentations(c))
        if (p.paymentAuthorization) seen.set(p.paymentAuthorization.value, [...(seen.get(p.paymentAuthorization.value) ?? []), p.expect]);
      const resumed = [...seen.values()].some((list) => {
        const first503 = list.findIndex((a) => a.status === 503);
        return first503 >= 0 && list.slice(first503 + 1).some((a) => a.answer === 'granted' || a.answer === 'call');
      });
      expect(resumed, c.id).toBe(true);
    }
  });

  test('move 2 (decline): a credential whose payment captured nothing is answered verification-failed with a fresh challenge', () => {
    for (const c of claiming(PURCHASE_REQUIREMENTS.declineFreshChallenge.id)) {
      const failed = answers(c).filter((a) => a.code === PAYMENT_PROBLEMS.verificationFailed.slug);
      expect(failed.length, c.id).toBeGreaterThan(0);
      for (const a of failed) expect(a.challenge, c.id).not.toBeNull();
    }
  });

  test('move 3 (expired): payment-expired with a fresh challenge, nothing credited by that presentation', () => {
    for (const c of claiming(PURCHASE_REQUIREMENTS.expiredFreshChallenge.id)) {
      const expired = answers(c).filter((a) => a.code === PAYMENT_PROBLEMS.paymentExpired.slug);
      expect(expired.length, c.id).toBeGreaterThan(0);
      for (const a of expired) expect(a.challenge, c.id).not.toBeNull();
    }
    const lifetime = claiming(PURCHASE_REQUIREMENTS.challengeLifetime.id);
    expect(lifetime.some((c) => c.events.some((e) => e.type === 'advance' && e.seconds === 300))).toBe(true);
  });

  test('last move (settled, credited once): a settlement report credits, a second credits nothing', () => {
    for (const c of claiming(PURCHASE_REQUIREMENTS.settledCreditedOnce.id)) {
      const reports = c.events.flatMap((e) => (e.type === 'report-settled' ? [e.expect] : []));
      expect(
        reports.some((r) => r.credited),
        c.id,
      ).toBe(true);
      const later = answers(c).filter((a) => a.code !== null);
      expect(reports.filter((r) => r.credited)).toHaveLength(1);
      expect(later.length + reports.length, c.id).toBeGreaterThan(1);
    }
  });

  test('shape rules hold on every answer: a 402 carries one challenge and the terms; 403 and 503 carry none; every 503 the retry object; funded answers the terms', () => {
    for (const a of allAnswers) {
      if (a.status === 402) expect(a.challenge !== null && a.terms !== null, JSON.stringify(a)).toBe(true);
      if (a.status === 403 || a.status === 503) expect(a.challenge, JSON.stringify(a)).toBeNull();
      if (a.status === 503) expect(a.retry, JSON.stringify(a)).not.toBeNull();
      if (a.answer === 'granted' || a.answer === 'call') expect(a.terms, JSON.stringify(a)).not.toBeNull();
    }
  });
});
