import { describe, expect, it } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { parsePaymentChallenge, serializeCredential } from '../../src/purchase/index.js';
import { ManualClock } from '../../src/purchase/testing/index.js';
import { createReferencePlatform } from '../../src/reference/platform.js';
import {
  REFERENCE_OTHER_PRICED_PATH,
  REFERENCE_PRICED_PATH,
  createReferencePurchases,
  referenceProblemBases,
  referenceTermsUrl,
} from '../../src/reference/purchases.js';
import { HEADERS } from '../../src/spec/headers.js';
import { STRIPE_PAYLOAD_MEMBERS } from '../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';

const ORIGIN = 'https://platform.example';

describe("the reference deployment's purchase machine", () => {
  it('publishes its problem types and terms where its configuration says', () => {
    const purchases = createReferencePurchases({ origin: ORIGIN, clock: new ManualClock(1_800_000_000) });
    expect(purchases.config.problemBases).toEqual(referenceProblemBases(ORIGIN));
    expect(purchases.config.terms.url).toBe(referenceTermsUrl(ORIGIN));
  });

  it('reports through its settlement intake what its card processor settles: a token it never charged matches nothing and is refunded', async () => {
    const purchases = createReferencePurchases({ origin: ORIGIN, clock: new ManualClock(1_800_000_000) });
    const reports: string[] = [];
    const intake = purchases.settlementIntake;
    purchases.settlementIntake = (report) => {
      reports.push(report.chargeId);
      return intake(report);
    };
    expect(await purchases.processorFinishes('spt_test_settled_x', 'settled')).toBeUndefined();
    expect(reports).toEqual([]);
    expect(await purchases.processorFinishes('spt_test_settled_x', 'settled', true)).toMatchObject({ credited: false, reason: 'unmatched', refund: 'issued' });
    expect(reports).toHaveLength(1);
    expect(await purchases.store.unreconciledOf('spt_test_settled_x')).toMatchObject({ refund: 'issued' });
  });

  it('sells single calls at two priced resources, each redeeming only its own challenges', async () => {
    const platform = createReferencePlatform({ authority: 'platform.example', clock: { now: () => 1_800_000_000 }, fetcher: createMemoryFetcher({}) });
    const post = (path: string, headers: Record<string, string> = {}) =>
      platform.fetch(new Request(`${ORIGIN}${path}`, { method: 'POST', headers }), { clientAddress: '192.0.2.1' });
    const elsewhere = await post(REFERENCE_OTHER_PRICED_PATH);
    expect(elsewhere.status).toBe(402);
    const parsed = parsePaymentChallenge(elsewhere.headers.get(HEADERS.wwwAuthenticate)!);
    if (!parsed.ok) throw new Error(parsed.detail);
    expect((await post(REFERENCE_PRICED_PATH)).status).toBe(402);
    const answer = await post(REFERENCE_PRICED_PATH, {
      [HEADERS.paymentAuthorization]: serializeCredential({ challenge: parsed.echo, payload: { [STRIPE_PAYLOAD_MEMBERS.spt]: 'spt_test_settled_1' } }),
      [HEADERS.termsAccepted]: elsewhere.headers.get(HEADERS.termsVersion)!,
    });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ error_code: PURCHASE_ERRORS.challenge_origin_mismatch.code });
  });
});
