import { HEADERS } from '../../spec/headers.js';
import { PAYMENT_PROBLEMS as P } from '../../spec/payments.js';
import { PURCHASE_ERRORS as E } from '../../spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS as R } from '../../spec/purchase-requirements.js';
import {
  BUYER,
  CALL_BODY,
  CALL_NANO,
  CREDITS,
  EXACT,
  FUNDING_RETRY_AFTER_S,
  NEXT_VERSION,
  OTHER_ADDRESS,
  OTHER_BUYER,
  OTHER_RESOURCE,
  PACK,
  PAID_COVERAGE,
  PACK_NANO,
  RESOURCE,
  RETRY_AFTER_S,
  SALE,
  STRIPE,
  TO_NEXT_DAY,
  advance,
  call,
  cardReceipt,
  configure,
  granted,
  present,
  problem,
  purchaseBlock,
  row,
  signed,
  unidentified,
  type PresentSpec,
  type Scenario,
  type ScenarioEvent,
  type StatedExpect,
} from './dsl.js';
import type { Caller, SaleDeployment } from './types.js';

const sale = { method: STRIPE, deployment: { sale: SALE } } as const;
const exact = problem(P.paymentRequired, { purchase: EXACT });
const served = (n: number) => `{"served":${n}}`;
const at = { path: RESOURCE, body: CALL_BODY } as const;
/** A call to the priced resource without a credential. */
const callNoCredential = (expect: StatedExpect, spec: Omit<PresentSpec, 'expect'> = {}): ScenarioEvent => present({ ...at, ...spec, expect });
/** A call to the priced resource with a card credential for the challenge carried by event `challengeOf`. */
const callPaid = (challengeOf: number, spt: string, expect: StatedExpect, spec: Omit<PresentSpec, 'expect' | 'credential'> = {}): ScenarioEvent =>
  present({ ...at, ...spec, credential: { challengeOf, spt }, expect });
const paidCall = (n: number, chargeId: string, version?: string) => call(200, served(n), cardReceipt(chargeId), version === undefined ? {} : { version });
const caps = (c: Partial<SaleDeployment['caps']>) => ({
  sale: { ...SALE, caps: { principalPerDay: 9, ipPerDay: 9, instrumentPerDay: 9, platformPerDay: 9, ...c } },
});
const anonymous: Caller = unidentified();

/** A priced single-call resource (7.4 single calls, section 3 rows 5 to 7): sold by card, one call per credential. */
export const SALE_SCENARIOS: readonly Scenario[] = [
  {
    ...sale,
    id: 'sale-unidentified-served-once',
    description:
      'An unidentified caller gets a 402 sized to the call (not a 401); its credential buys the call, served once with the receipt and the terms headers; presented again: 409 call_already_served.',
    flags: ['SingleCall', 'Granted', 'SameCredential'],
    covers: [E.call_already_served.id, R.termsOnFunded.id, R.challengeShape.id],
    events: [
      callNoCredential(exact, { caller: anonymous }),
      callPaid(0, 'spt_1', paidCall(1, 'pi_1'), { caller: anonymous }),
      callPaid(0, 'spt_1', row(E.call_already_served, { body: { receipt: cardReceipt('pi_1') } }), { caller: anonymous }),
    ],
  },
  {
    ...sale,
    id: 'sale-agent-exact-and-balance',
    description:
      'A signed agent sending Service-Purchase exact buys one call; its later call without a credential is paid from a balance once there is one, with the terms headers and no receipt.',
    flags: ['SingleCall', 'Granted', 'Balance'],
    covers: [R.termsOnFunded.id],
    events: [
      callNoCredential(exact, { headers: { [HEADERS.purchase]: EXACT } }),
      callPaid(0, 'spt_1', paidCall(1, 'pi_1')),
      present({ comment: 'a pack bought at /api/mpp/credits', expect: problem(P.paymentRequired) }),
      present({ credential: { challengeOf: 2, spt: 'spt_2' }, expect: granted(String(BigInt(PACK_NANO) + BigInt(CALL_NANO)), cardReceipt('pi_2')) }),
      callNoCredential(call(200, served(2), null)),
    ],
  },
  {
    ...sale,
    id: 'sale-call-in-progress',
    description:
      'The same credential presented while its call is being served from the first presentation: 409 call_in_progress with the receipt; the call runs once.',
    flags: ['SingleCall', 'SameCredential', 'Concurrent'],
    covers: [E.call_in_progress.id],
    events: [
      callNoCredential(exact),
      present({
        ...at,
        credential: { challengeOf: 0, spt: 'spt_1' },
        whileServing: [{ ...at, credential: { challengeOf: 0, spt: 'spt_1' }, expect: row(E.call_in_progress, { body: { receipt: cardReceipt('pi_1') } }) }],
        expect: paidCall(1, 'pi_1'),
      }),
    ],
  },
  {
    ...sale,
    id: 'sale-call-refunded',
    description: 'The call fails: the resource answer (no receipt) and the charge refunded; presented again: 409 call_refunded, never run again.',
    flags: ['SingleCall', 'SameCredential', 'Refund'],
    covers: [E.call_refunded.id, R.receiptOnSuccessOnly.id],
    events: [
      { type: 'server', enqueue: ['failed'] },
      callNoCredential(exact),
      callPaid(1, 'spt_1', call(502, '{"failed":1}', null)),
      callPaid(1, 'spt_1', row(E.call_refunded, { body: { receipt: cardReceipt('pi_1') } })),
    ],
  },
  {
    ...sale,
    id: 'sale-server-throws-refunded',
    description: 'The resource crashes: whether the call started is unknown, so it is refunded and never run again: 409 call_refunded on every presentation.',
    flags: ['SingleCall', 'SameCredential', 'Refund'],
    covers: [E.call_refunded.id],
    events: [
      { type: 'server', enqueue: ['throw'] },
      callNoCredential(exact),
      callPaid(1, 'spt_1', row(E.call_refunded, { body: { receipt: cardReceipt('pi_1') } })),
      callPaid(1, 'spt_1', row(E.call_refunded, { body: { receipt: cardReceipt('pi_1') } })),
    ],
  },
  {
    ...sale,
    id: 'sale-serve-pending',
    description:
      'The call did not start: 503 sale_serve_pending; the same credential serves it once later, skipping every earlier check (switches, terms, price, card sales, expiry); then 409 call_already_served.',
    flags: ['SingleCall', 'SameCredential', 'ConfigChange'],
    covers: [E.sale_serve_pending.id, R.resumeSameCredential.id],
    events: [
      { type: 'server', enqueue: ['not-started', 'not-started'] },
      callNoCredential(exact),
      callPaid(1, 'spt_1', row(E.sale_serve_pending)),
      callPaid(1, 'spt_1', row(E.sale_serve_pending)),
      advance(3600),
      configure({
        mppEnabled: false,
        purchasesOpen: false,
        terms: { version: NEXT_VERSION },
        sale: { cardOpen: false, price: { amount: '99', currency: 'usd' } },
      }),
      callPaid(1, 'spt_1', paidCall(1, 'pi_1', NEXT_VERSION)),
      callPaid(1, 'spt_1', row(E.call_already_served, { body: { receipt: cardReceipt('pi_1') } })),
    ],
  },
  {
    ...sale,
    id: 'sale-funding-failed',
    description:
      'Credited but the call could not be funded: 503 funding_failed with the purchase block; the credential again: 409 purchase_already_granted; the request without a credential is paid from the balance.',
    flags: ['SingleCall', 'Funding', 'SameCredential'],
    covers: [E.funding_failed.id, E.purchase_already_granted.id],
    events: [
      callNoCredential(exact),
      { type: 'fault', fundingFails: true },
      callPaid(0, 'spt_1', row(E.funding_failed, { body: { purchase: purchaseBlock(CALL_NANO, 'pi_1') } })),
      { type: 'fault', fundingFails: false },
      callPaid(0, 'spt_1', row(E.purchase_already_granted, { body: { receipt: cardReceipt('pi_1') } })),
      callNoCredential(call(200, served(1), null)),
    ],
  },
  {
    ...sale,
    id: 'sale-funding-unavailable',
    description:
      'The balance covers the call but the funding step fails: 503 funding_unavailable with Retry-After, nothing charged (do not buy); the same request succeeds once funding works.',
    flags: ['SingleCall', 'Funding', 'Balance'],
    covers: [E.funding_unavailable.id],
    events: [
      present({ expect: problem(P.paymentRequired) }),
      present({ credential: { challengeOf: 0, spt: 'spt_1' }, expect: granted(PACK_NANO, cardReceipt('pi_1')) }),
      { type: 'fault', fundingFails: true },
      callNoCredential(row(E.funding_unavailable, { retryAfter: FUNDING_RETRY_AFTER_S })),
      { type: 'fault', fundingFails: false },
      callNoCredential(call(200, served(1), null)),
    ],
  },
  {
    ...sale,
    id: 'sale-challenge-kind-mismatch',
    description:
      'A pack challenge (Service-Purchase pack) presented for a call: 403 challenge_kind_mismatch; at /api/mpp/credits it is honoured. A call challenge presented at /api/mpp/credits: 403 challenge_kind_mismatch.',
    flags: ['SingleCall', 'Origin'],
    covers: [E.challenge_kind_mismatch.id],
    events: [
      callNoCredential(problem(P.paymentRequired, { purchase: PACK }), { headers: { [HEADERS.purchase]: PACK } }),
      callNoCredential(exact, { headers: { [HEADERS.purchase]: EXACT } }),
      callPaid(0, 'spt_1', row(E.challenge_kind_mismatch)),
      present({ path: CREDITS, credential: { challengeOf: 1, spt: 'spt_2' }, expect: row(E.challenge_kind_mismatch) }),
      present({ path: CREDITS, credential: { challengeOf: 0, spt: 'spt_1' }, expect: granted(PACK_NANO, cardReceipt('pi_1')) }),
    ],
  },
  {
    ...sale,
    id: 'sale-uncovered-purchase-kind',
    description:
      'Service-Purchase counts only when the signature covers it: pack, not covered, gets what a request without Service-Purchase gets (here a call); covered, the pack.',
    flags: ['SingleCall'],
    covers: [R.purchaseKindCovered.id],
    events: [
      callNoCredential(exact),
      callNoCredential(exact, {
        headers: { [HEADERS.purchase]: PACK },
        caller: signed(
          BUYER,
          PAID_COVERAGE.filter((h) => h !== HEADERS.purchase),
        ),
      }),
      callNoCredential(problem(P.paymentRequired, { purchase: PACK }), { headers: { [HEADERS.purchase]: PACK } }),
    ],
  },
  {
    ...sale,
    id: 'sale-challenge-origin-mismatch',
    description: 'A call challenge issued by another priced resource: 403 challenge_origin_mismatch; a single-call challenge is redeemed only where issued.',
    flags: ['SingleCall', 'Origin', 'ConfigChange'],
    covers: [E.challenge_origin_mismatch.id],
    events: [
      configure({ sale: { resource: OTHER_RESOURCE } }, 'the same deployment sells calls of another resource'),
      present({ path: OTHER_RESOURCE, body: CALL_BODY, expect: exact }),
      configure({ sale: { resource: RESOURCE } }),
      callPaid(1, 'spt_1', row(E.challenge_origin_mismatch)),
    ],
  },
  {
    ...sale,
    id: 'sale-buyer-inactive-and-unauthenticated',
    description:
      'A challenge naming an agent presented by another agent or nobody: 401 terms_acceptance_unauthenticated; by the agent while it is not active: 403 buyer_inactive; nothing charged.',
    flags: ['SingleCall', 'Unauthenticated'],
    initial: { inactiveAgents: [BUYER] },
    covers: [E.buyer_inactive.id, E.terms_acceptance_unauthenticated.id],
    events: [
      callNoCredential(exact),
      callPaid(0, 'spt_1', row(E.terms_acceptance_unauthenticated), { caller: signed(OTHER_BUYER) }),
      callPaid(0, 'spt_1', row(E.terms_acceptance_unauthenticated), { caller: anonymous }),
      callPaid(0, 'spt_1', row(E.buyer_inactive)),
    ],
  },
  {
    ...sale,
    id: 'sale-metered-not-ready',
    description:
      'Single calls without an agent identity not sold: 503 metered_not_ready for an unidentified caller, and for an unidentified challenge issued before they stopped.',
    flags: ['SingleCall', 'ConfigChange'],
    covers: [E.metered_not_ready.id],
    events: [
      callNoCredential(exact, { caller: anonymous }),
      configure({ sale: { anonymous: false } }),
      callNoCredential(row(E.metered_not_ready), { caller: anonymous }),
      callPaid(0, 'spt_1', row(E.metered_not_ready), { caller: anonymous }),
    ],
  },
  {
    ...sale,
    id: 'sale-metered-unavailable-for-card',
    description:
      'Per-call card sales closed, then the call re-priced since the challenge, then a card from outside the per-call markets: 403 metered_unavailable_for_card, nothing charged.',
    flags: ['SingleCall', 'ConfigChange'],
    initial: { cardCountries: { spt_de: 'DE' } },
    covers: [E.metered_unavailable_for_card.id],
    events: [
      callNoCredential(exact),
      configure({ sale: { cardOpen: false } }),
      callPaid(0, 'spt_1', row(E.metered_unavailable_for_card)),
      configure({ sale: { cardOpen: true, price: { amount: '30', currency: 'usd' }, priceNano: '300000000' } }),
      callPaid(0, 'spt_1', row(E.metered_unavailable_for_card)),
      configure({ sale: { price: SALE.price, priceNano: CALL_NANO, cardCountries: ['US'] } }),
      callPaid(0, 'spt_de', row(E.metered_unavailable_for_card)),
      callPaid(0, 'spt_1', paidCall(1, 'pi_1')),
    ],
  },
  {
    ...sale,
    id: 'sale-principal-cap',
    description:
      'The agent reached its daily exact purchases: 429 metered_principal_cap (no Retry-After in the catalogue), nothing charged; the next day it buys again.',
    flags: ['SingleCall', 'Cap'],
    deployment: caps({ principalPerDay: 1 }),
    covers: [E.metered_principal_cap.id],
    events: [
      callNoCredential(exact),
      callPaid(0, 'spt_1', paidCall(1, 'pi_1')),
      callNoCredential(exact),
      callPaid(2, 'spt_2', row(E.metered_principal_cap)),
      advance(TO_NEXT_DAY),
      callNoCredential(exact),
      callPaid(5, 'spt_3', paidCall(2, 'pi_2')),
    ],
  },
  {
    ...sale,
    id: 'sale-ip-cap',
    description: 'Unidentified purchases per network address over the daily limit: 429 metered_ip_cap; another address is not counted.',
    flags: ['SingleCall', 'Cap'],
    deployment: caps({ ipPerDay: 1 }),
    covers: [E.metered_ip_cap.id],
    events: [
      callNoCredential(exact, { caller: anonymous }),
      callPaid(0, 'spt_1', paidCall(1, 'pi_1'), { caller: anonymous }),
      callNoCredential(exact, { caller: anonymous }),
      callPaid(2, 'spt_2', row(E.metered_ip_cap), { caller: anonymous }),
      callPaid(2, 'spt_2', paidCall(2, 'pi_2'), { caller: unidentified(OTHER_ADDRESS) }),
    ],
  },
  {
    ...sale,
    id: 'sale-instrument-and-platform-caps',
    description:
      'One card over its daily limit: 429 metered_instrument_cap; the platform over its daily ceiling: 429 metered_platform_ceiling; both with Retry-After until the day ends.',
    flags: ['SingleCall', 'Cap'],
    deployment: caps({ instrumentPerDay: 1, platformPerDay: 2 }),
    initial: { cardInstruments: { spt_1: 'card_A', spt_2: 'card_A' } },
    covers: [E.metered_instrument_cap.id, E.metered_platform_ceiling.id],
    events: [
      callNoCredential(exact),
      callPaid(0, 'spt_1', paidCall(1, 'pi_1')),
      callNoCredential(exact),
      callPaid(2, 'spt_2', row(E.metered_instrument_cap, { retryAfter: TO_NEXT_DAY })),
      callPaid(2, 'spt_3', paidCall(2, 'pi_2')),
      callNoCredential(exact),
      callPaid(5, 'spt_4', row(E.metered_platform_ceiling, { retryAfter: TO_NEXT_DAY })),
    ],
  },
  {
    ...sale,
    id: 'sale-region-and-foreign-token',
    description: 'A card from a closed market: 403 purchases_unavailable_region; a token that already paid a call, presented for another: 403 foreign_token.',
    flags: ['SingleCall', 'Market', 'Token'],
    deployment: { sale: SALE, closedMarkets: ['FR'] },
    initial: { cardCountries: { spt_fr: 'FR' } },
    covers: [E.purchases_unavailable_region.id, E.foreign_token.id],
    events: [
      callNoCredential(exact),
      callPaid(0, 'spt_fr', row(E.purchases_unavailable_region)),
      callPaid(0, 'spt_1', paidCall(1, 'pi_1')),
      callNoCredential(exact),
      callPaid(3, 'spt_1', row(E.foreign_token)),
    ],
  },
  {
    ...sale,
    id: 'sale-credential-checks',
    description:
      'A payload without a token (402 invalid-payload), the echo naming a method single calls are not sold by (400 method-unsupported), no assent (402 terms-acceptance-required), a challenge past 300 s (402 payment-expired); each 402 with a fresh call challenge.',
    flags: ['SingleCall', 'Credential', 'Terms', 'Expiry'],
    covers: [E['invalid-payload'].id, E['method-unsupported'].id, E['terms-acceptance-required'].id, E['terms-version-stale'].id, R.expiredFreshChallenge.id],
    events: [
      callNoCredential(exact),
      present({ ...at, credential: { challengeOf: 0, payload: {} }, expect: row(E['invalid-payload'], { purchase: EXACT }) }),
      present({ ...at, credential: { challengeOf: 0, spt: 'spt_1', echoOverride: { method: 'tempo' } }, expect: row(E['method-unsupported']) }),
      callPaid(0, 'spt_1', row(E['terms-acceptance-required'], { purchase: EXACT }), { assent: null }),
      callPaid(0, 'spt_1', row(E['terms-version-stale'], { purchase: EXACT }), { assent: '2025-01-01' }),
      advance(301),
      callPaid(0, 'spt_1', problem(P.paymentExpired, { purchase: EXACT })),
    ],
  },
  {
    ...sale,
    id: 'sale-switches-and-methods',
    description:
      'Buying closed: 403 mpp_disabled, purchases closed: 403 purchases_disabled; a covered Service-Payment-Methods naming no method calls are sold by: 503 mpp_not_configured.',
    flags: ['SingleCall', 'Switch', 'Methods', 'ConfigChange'],
    covers: [E.mpp_disabled.id, E.purchases_disabled.id, E.mpp_not_configured.id],
    events: [
      callNoCredential(row(E.mpp_not_configured), { headers: { [HEADERS.paymentMethods]: 'tempo' } }),
      callNoCredential(exact),
      configure({ mppEnabled: false }),
      callNoCredential(row(E.mpp_disabled)),
      callPaid(1, 'spt_1', row(E.mpp_disabled)),
      configure({ mppEnabled: true, purchasesOpen: false }),
      callNoCredential(row(E.purchases_disabled)),
    ],
  },
  {
    ...sale,
    id: 'sale-charge-states',
    description:
      'The charge processing (503 charge_processing), a second purchase meanwhile (503 purchase_in_flight), a fault (503 charge_outcome_unknown), a decline (402 verification-failed with a fresh call challenge); each completes or ends on the same credential.',
    flags: ['SingleCall', 'ProcessorFault', 'Decline', 'Lock', 'SameCredential'],
    covers: [E.charge_processing.id, E.purchase_in_flight.id, E.charge_outcome_unknown.id, R.declineFreshChallenge.id],
    events: [
      { type: 'processor', enqueue: ['processing', { reply: 'throw', actual: 'settled' }, 'declined'] },
      callNoCredential(exact),
      callPaid(1, 'spt_1', row(E.charge_processing)),
      callNoCredential(exact),
      callPaid(3, 'spt_2', row(E.purchase_in_flight)),
      { type: 'processor', resolve: { chargeId: 'pi_1', state: 'settled' } },
      callPaid(1, 'spt_1', paidCall(1, 'pi_1')),
      callPaid(3, 'spt_2', row(E.charge_outcome_unknown)),
      callPaid(3, 'spt_2', paidCall(2, 'pi_2')),
      callNoCredential(exact),
      callPaid(9, 'spt_3', problem(P.verificationFailed, { purchase: EXACT })),
    ],
  },
  {
    ...sale,
    id: 'sale-lock-assent-grant-faults',
    description:
      'Lock down (503 purchase_lock_unavailable), assent not recorded (503 terms_record_failed), crediting failed (503 grant_failed); the same credential then credits once and serves the call once.',
    flags: ['SingleCall', 'Lock', 'StoreFault', 'SameCredential'],
    covers: [E.purchase_lock_unavailable.id, E.terms_record_failed.id, E.grant_failed.id],
    events: [
      callNoCredential(exact),
      { type: 'fault', lockUnavailable: true },
      callPaid(0, 'spt_1', row(E.purchase_lock_unavailable)),
      { type: 'fault', lockUnavailable: false, assentFails: true },
      callPaid(0, 'spt_1', row(E.terms_record_failed, { retryAfter: RETRY_AFTER_S })),
      { type: 'fault', assentFails: false, grantFailures: 1 },
      callPaid(0, 'spt_1', row(E.grant_failed)),
      callPaid(0, 'spt_1', paidCall(1, 'pi_1')),
    ],
  },
  {
    ...sale,
    id: 'sale-settlement-reported',
    description:
      'Section 3 last row for a call: the processor reports the charge settled; the agent is credited once; presented later, the credential serves its own call once, then 409 call_already_served.',
    flags: ['SingleCall', 'Report', 'SameCredential'],
    covers: [R.settledCreditedOnce.id, E.call_already_served.id],
    events: [
      { type: 'processor', enqueue: ['processing'] },
      callNoCredential(exact),
      callPaid(1, 'spt_1', row(E.charge_processing)),
      { type: 'processor', resolve: { chargeId: 'pi_1', state: 'settled' } },
      { type: 'report-settled', by: 'processor', chargeId: 'pi_1', expect: { credited: true, reason: null, balanceNano: CALL_NANO, refund: null } },
      callPaid(1, 'spt_1', paidCall(1, 'pi_1')),
      callPaid(1, 'spt_1', row(E.call_already_served, { body: { receipt: cardReceipt('pi_1') } })),
    ],
  },
];
