import { HEADERS } from '../../spec/headers.js';
import { PAYMENT_PROBLEMS as P, TEMPO_PAYLOAD_MEMBERS, TEMPO_PAYLOAD_TYPES } from '../../spec/payments.js';
import { PURCHASE_ERRORS as E } from '../../spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS as R } from '../../spec/purchase-requirements.js';
import {
  BUYER,
  NEXT_VERSION,
  OTHER_BUYER,
  PACK_NANO,
  RETRY_AFTER_S,
  STABLECOIN,
  TEMPO,
  TEMPO_AMOUNT,
  TO_NEXT_DAY,
  WALLET,
  advance,
  ask,
  configure,
  granted,
  payTempo,
  present,
  problem,
  row,
  signed,
  unidentified,
  type Scenario,
  type StatedExpect,
} from './dsl.js';
import { txOf } from './generate.js';

const tempo = { method: TEMPO, deployment: { stablecoin: STABLECOIN } } as const;
const methods = { headers: { [HEADERS.paymentMethods]: TEMPO } };
/** Asks for a stablecoin challenge (Service-Payment-Methods: tempo, covered). */
const askTempo = (expect: StatedExpect = problem(P.paymentRequired, { method: TEMPO })) => ask(expect, methods);
const fresh = (record: Parameters<typeof problem>[0], version?: string) => problem(record, { method: TEMPO, ...(version === undefined ? {} : { version }) });
const tempoRow = (record: Parameters<typeof row>[0], options: Parameters<typeof row>[1] = {}) => row(record, { method: TEMPO, ...options });
const receipt = (event: number) => ({ method: TEMPO, reference: txOf(event) });
const twice = (nano: string): string => String(2n * BigInt(nano));
const settled = (event: number, balance = PACK_NANO, version?: string) => granted(balance, receipt(event), version === undefined ? {} : { version });

/** POST /api/mpp/credits paid by stablecoin (the `tempo` method): real signed Tempo transactions from a fixed test key. */
export const PACK_TEMPO_SCENARIOS: readonly Scenario[] = [
  {
    ...tempo,
    id: 'pack-tempo-granted-then-already-granted',
    description:
      'A stablecoin challenge (Service-Payment-Methods: tempo); the matching transaction is broadcast once and credited, the receipt reference is its hash; the same credential again: 409 purchase_already_granted.',
    flags: ['Granted', 'SameCredential'],
    covers: [R.challengeShape.id, E.purchase_already_granted.id],
    events: [askTempo(), payTempo(0, settled(1)), payTempo(0, tempoRow(E.purchase_already_granted, { body: { receipt: receipt(1) } }))],
  },
  {
    ...tempo,
    id: 'pack-tempo-terms',
    description:
      'No assent: 402 terms-acceptance-required; an old version: terms-version-stale; a challenge issued before new terms: terms-version-stale; each with a fresh stablecoin challenge, nothing broadcast.',
    flags: ['Terms', 'ConfigChange'],
    covers: [E['terms-acceptance-required'].id, E['terms-version-stale'].id],
    events: [
      askTempo(),
      payTempo(0, tempoRow(E['terms-acceptance-required']), { assent: null }),
      payTempo(1, tempoRow(E['terms-version-stale']), { assent: '2025-01-01' }),
      configure({ terms: { version: NEXT_VERSION } }),
      payTempo(2, tempoRow(E['terms-version-stale'], { version: NEXT_VERSION }), { assent: NEXT_VERSION }),
      payTempo(4, settled(5, PACK_NANO, NEXT_VERSION), { assent: NEXT_VERSION }),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-acceptance-unauthenticated',
    description: 'A stablecoin credential from an unauthenticated caller: 401 terms_acceptance_unauthenticated, nothing broadcast.',
    flags: ['Terms', 'Unauthenticated'],
    covers: [E.terms_acceptance_unauthenticated.id],
    events: [askTempo(), payTempo(0, row(E.terms_acceptance_unauthenticated), { caller: unidentified() })],
  },
  {
    ...tempo,
    id: 'pack-tempo-switches',
    description:
      'Buying closed (403 mpp_disabled), then purchases closed in every market (403 purchases_disabled): a stablecoin credential is refused, nothing broadcast.',
    flags: ['Switch', 'ConfigChange'],
    covers: [E.mpp_disabled.id, E.purchases_disabled.id],
    events: [
      askTempo(),
      configure({ mppEnabled: false }),
      payTempo(0, row(E.mpp_disabled)),
      configure({ mppEnabled: true, purchasesOpen: false }),
      payTempo(0, row(E.purchases_disabled)),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-region',
    description: 'The paying wallet is placed in a closed market: 403 purchases_unavailable_region, nothing broadcast.',
    flags: ['Market'],
    deployment: { ...tempo.deployment, closedMarkets: ['FR'] },
    initial: { walletLocations: { [WALLET]: 'FR' } },
    covers: [E.purchases_unavailable_region.id],
    events: [askTempo(), payTempo(0, row(E.purchases_unavailable_region))],
  },
  {
    ...tempo,
    id: 'pack-tempo-location-unknown',
    description:
      'The paying wallet cannot be placed and the deployment does not sell to unplaceable buyers: 403 stablecoin_location_unknown; once it does, the transfer is credited.',
    flags: ['Market', 'ConfigChange'],
    initial: { walletLocations: {} },
    covers: [E.stablecoin_location_unknown.id],
    events: [
      askTempo(),
      payTempo(0, row(E.stablecoin_location_unknown)),
      configure({ stablecoin: { sellsToUnplaceableBuyers: true } }),
      payTempo(0, settled(3)),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-ownerless-balance-cap',
    description: 'An ownerless agent at the ownerless limit pays by stablecoin: 403 ownerless_balance_cap, nothing broadcast.',
    flags: ['Ownerless'],
    deployment: { ...tempo.deployment, ownerlessBalanceCapNano: PACK_NANO },
    initial: { ownerless: [BUYER] },
    covers: [E.ownerless_balance_cap.id],
    events: [askTempo(), payTempo(0, settled(1)), askTempo(), payTempo(2, row(E.ownerless_balance_cap))],
  },
  {
    ...tempo,
    id: 'pack-tempo-method-unsupported',
    description: 'A stablecoin credential where transfers are no longer offered: 400 method-unsupported, no challenge, nothing broadcast.',
    flags: ['Credential', 'ConfigChange'],
    covers: [E['method-unsupported'].id],
    events: [askTempo(), configure({ stablecoin: null }, 'the deployment stops selling transfers'), payTempo(0, row(E['method-unsupported']))],
  },
  {
    ...tempo,
    id: 'pack-tempo-invalid-payload',
    description:
      'payload.type hash, then proof: readable but not admitted for a priced purchase, 402 invalid-payload with a fresh stablecoin challenge each time, nothing broadcast.',
    flags: ['Credential'],
    covers: [E['invalid-payload'].id],
    events: [
      askTempo(),
      ...[TEMPO_PAYLOAD_TYPES.hash, TEMPO_PAYLOAD_TYPES.proof].map((type) =>
        present({
          credential: {
            challengeOf: 0,
            payload: { [TEMPO_PAYLOAD_MEMBERS.type]: type, hash: `0x${'ab'.repeat(32)}`, [TEMPO_PAYLOAD_MEMBERS.signature]: '0x00' },
          },
          expect: tempoRow(E['invalid-payload']),
        }),
      ),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-non-matching-transaction',
    description:
      'A transaction paying the wrong amount, the wrong recipient, or valid after the challenge expiry: 402 verification-failed with a fresh challenge, never broadcast.',
    flags: ['Transaction'],
    covers: [],
    events: [
      askTempo(),
      payTempo(0, fresh(P.verificationFailed), { transaction: { amount: '1' } }),
      payTempo(0, fresh(P.verificationFailed), { transaction: { to: '0x1111111111111111111111111111111111111111' } }),
      payTempo(0, fresh(P.verificationFailed), { transaction: { validBefore: 1_789_732_800 + 3600 } }),
      payTempo(0, settled(4)),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-wallet-daily-cap',
    description:
      'The paying wallet reached its daily limit: 429 wallet_daily_cap with Retry-After until the next UTC day, nothing broadcast; the next day it pays.',
    flags: ['Cap'],
    deployment: { stablecoin: { ...STABLECOIN, walletDailyCap: String(2n * BigInt(TEMPO_AMOUNT) - 1n) } },
    covers: [E.wallet_daily_cap.id],
    events: [
      askTempo(),
      payTempo(0, settled(1)),
      askTempo(),
      payTempo(2, row(E.wallet_daily_cap, { retryAfter: TO_NEXT_DAY })),
      advance(TO_NEXT_DAY),
      askTempo(),
      payTempo(5, settled(6, twice(PACK_NANO))),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-network-unavailable',
    description:
      'The network is unreachable: 503 tempo_unavailable with Retry-After, nothing broadcast; the same credential completes once it is back, without asking the terms again.',
    flags: ['NetworkFault', 'SameCredential', 'ConfigChange'],
    covers: [E.tempo_unavailable.id, R.resumeSameCredential.id],
    events: [
      askTempo(),
      { type: 'network', unreachable: true },
      payTempo(0, row(E.tempo_unavailable, { retryAfter: RETRY_AFTER_S })),
      { type: 'network', unreachable: false },
      configure({ terms: { version: NEXT_VERSION } }),
      advance(5),
      payTempo(0, settled(2, PACK_NANO, NEXT_VERSION)),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-unavailable-until-expiry',
    description:
      'The broadcast reached nothing and the challenge and transaction expired meanwhile: the network is read, and a transfer that never landed ends in 402 payment-expired with a fresh challenge.',
    flags: ['NetworkFault', 'Expiry'],
    covers: [E.tempo_unavailable.id, R.expiredFreshChallenge.id],
    events: [
      askTempo(),
      { type: 'network', unreachableBroadcasts: 1 },
      payTempo(0, row(E.tempo_unavailable, { retryAfter: RETRY_AFTER_S })),
      advance(301),
      payTempo(0, fresh(P.paymentExpired)),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-settlement-pending',
    description:
      'Broadcast but not settled: 503 tempo_settlement_pending (no Retry-After); the same credential completes against the same transfer after the challenge expired, credited once; then 409.',
    flags: ['SameCredential', 'Expiry'],
    covers: [E.tempo_settlement_pending.id, R.resumeSameCredential.id, E.purchase_already_granted.id],
    events: [
      { type: 'network', pendingReads: 2 },
      askTempo(),
      payTempo(1, row(E.tempo_settlement_pending)),
      advance(400),
      payTempo(1, row(E.tempo_settlement_pending)),
      payTempo(1, settled(2)),
      payTempo(1, tempoRow(E.purchase_already_granted, { body: { receipt: receipt(2) } })),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-resume-skips-earlier-checks',
    description:
      'Section 3 row 1 for a transfer: a pending transfer resumes after the switches closed and the challenge expired; only its buyer may resume it (401 otherwise).',
    flags: ['SameCredential', 'ConfigChange'],
    covers: [R.resumeSameCredential.id, E.terms_acceptance_unauthenticated.id],
    events: [
      { type: 'network', pendingReads: 1 },
      askTempo(),
      payTempo(1, row(E.tempo_settlement_pending)),
      payTempo(1, row(E.terms_acceptance_unauthenticated), { caller: signed(OTHER_BUYER) }),
      configure({ mppEnabled: false, purchasesOpen: false }),
      advance(600),
      payTempo(1, settled(2)),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-failed-on-network',
    description: 'The transfer fails on the network: 402 verification-failed with a fresh challenge, and again on the same credential; nothing credited.',
    flags: ['Decline', 'SameCredential'],
    covers: [R.declineFreshChallenge.id],
    events: [{ type: 'network', finalOutcome: 'failed' }, askTempo(), payTempo(1, fresh(P.verificationFailed)), payTempo(1, fresh(P.verificationFailed))],
  },
  {
    ...tempo,
    id: 'pack-tempo-settlement-reported',
    description:
      'The network reports the transfer settled while the credential is never presented again: credited once; a second report credits nothing; a later presentation is 409.',
    flags: ['Report', 'SameCredential'],
    covers: [R.settledCreditedOnce.id, E.purchase_already_granted.id],
    events: [
      { type: 'network', pendingReads: 5 },
      askTempo(),
      payTempo(1, row(E.tempo_settlement_pending)),
      { type: 'report-settled', by: 'network', hashOfEvent: 2, expect: { credited: true, reason: null, balanceNano: PACK_NANO, refund: null } },
      { type: 'report-settled', by: 'network', hashOfEvent: 2, expect: { credited: false, reason: 'already-credited', balanceNano: null, refund: null } },
      payTempo(1, tempoRow(E.purchase_already_granted, { body: { receipt: receipt(2) } })),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-expired',
    description:
      'A stablecoin challenge older than 300 s with no transfer behind it: 402 payment-expired with a fresh stablecoin challenge, nothing broadcast.',
    flags: ['Expiry'],
    covers: [R.expiredFreshChallenge.id],
    events: [askTempo(), advance(301), payTempo(0, fresh(P.paymentExpired))],
  },
  {
    ...tempo,
    id: 'pack-tempo-lock-and-assent-faults',
    description:
      'Lock down (503 purchase_lock_unavailable), lock held (503 purchase_in_flight), assent not recorded (503 terms_record_failed): nothing broadcast; the same credential then completes.',
    flags: ['Lock', 'StoreFault', 'SameCredential'],
    covers: [E.purchase_lock_unavailable.id, E.purchase_in_flight.id, E.terms_record_failed.id],
    events: [
      askTempo(),
      { type: 'fault', lockUnavailable: true },
      payTempo(0, row(E.purchase_lock_unavailable)),
      { type: 'fault', lockUnavailable: false, assentFails: true },
      payTempo(0, row(E.terms_record_failed, { retryAfter: RETRY_AFTER_S })),
      { type: 'fault', assentFails: false, holdLock: BUYER },
      payTempo(0, row(E.purchase_in_flight)),
    ],
  },
  {
    ...tempo,
    id: 'pack-tempo-grant-failed',
    description: 'The transfer settled but crediting failed: 503 grant_failed; the same credential credits it once, never broadcasting another transfer.',
    flags: ['StoreFault', 'SameCredential'],
    covers: [E.grant_failed.id],
    events: [askTempo(), { type: 'fault', grantFailures: 1 }, payTempo(0, row(E.grant_failed)), payTempo(0, settled(2))],
  },
  {
    method: TEMPO,
    id: 'pack-tempo-not-offered',
    description: 'A covered Service-Payment-Methods naming only tempo where no transfer is offered: 503 mpp_not_configured.',
    flags: ['Methods'],
    covers: [E.mpp_not_configured.id],
    events: [askTempo(row(E.mpp_not_configured))],
  },
];
