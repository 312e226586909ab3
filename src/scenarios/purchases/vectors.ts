import { VECTOR_WALLETS } from './credentials.js';
import { unreachableRows } from './coverage.js';
import type { Scenario } from './dsl.js';
import { caseOf } from './generate.js';
import { PACK_CARD_SCENARIOS } from './pack-card.js';
import { PACK_TEMPO_SCENARIOS } from './pack-tempo.js';
import { SALE_SCENARIOS } from './sale.js';
import type { PurchaseVectorGroup, PurchaseVectors } from './types.js';

/** Bump when the generator changes what it writes for the same scenarios. */
const PURCHASE_GENERATOR_VERSION = '1';
const PURCHASE_VECTORS_SCHEMA = 'purchases.schema.json';

const PURCHASE_GROUPS: readonly { readonly comment: string; readonly scenarios: readonly Scenario[] }[] = [
  { comment: 'POST /api/mpp/credits paid by card (method stripe, a shared payment token in payload.spt).', scenarios: PACK_CARD_SCENARIOS },
  {
    comment: 'POST /api/mpp/credits paid by stablecoin (method tempo): real signed Tempo transactions (payload.type transaction) from the fixed test wallet.',
    scenarios: PACK_TEMPO_SCENARIOS,
  },
  {
    comment: 'A priced single-call resource (deployment.sale): calls sold by card, served once per credential; the pack is still bought at /api/mpp/credits.',
    scenarios: SALE_SCENARIOS,
  },
];

const PURCHASE_FLAGS: Readonly<Record<string, string>> = {
  Granted: 'A purchase completes: the pack credited (200) or the call bought and served.',
  SameCredential: 'The same credential presented again (section 3 row 1 and the 503 rows with retry.sameCredential true).',
  Terms: 'Terms acceptance: Service-Terms-Accepted, its coverage, its version (7.4).',
  ConfigChange: 'The deployment changes between events (a `configure` event): switches, terms version, offers.',
  Unauthenticated: 'Acceptance or resumption by a caller that is not the buying agent (401 terms_acceptance_unauthenticated).',
  Switch: 'The deployment switches mpp_disabled and purchases_disabled.',
  Market: 'The card or wallet market: closed markets, unplaceable wallets.',
  Ownerless: 'An agent without an owner at the ownerless balance limit, and X-Service-Owner-Key.',
  Token: 'A shared payment token reused across purchases.',
  Credential: 'The credential itself: unreadable, forged, a method not sold, a payload not admitted.',
  Methods: 'Service-Payment-Methods naming methods the deployment does or does not offer.',
  Expiry: 'The 300 s challenge lifetime (section 8), on and over the boundary.',
  Decline: 'A payment that captured nothing: a decline, an intent cancelled unsettled, a transfer failed on the network (section 3 row 2).',
  ProcessorFault: 'The card processor answers unknown or the call faults.',
  Report: 'A settlement reported by the card processor or the stablecoin network (section 3 last row).',
  Refund: 'A payment refunded: an unreconciled payment, a failed call.',
  Lock: 'One purchase at a time per buyer: the lock held, unavailable, or another charge settling.',
  StoreFault: 'The store fails to record assent or to credit a grant.',
  Transaction: 'A stablecoin transaction that does not pay the quote: never broadcast.',
  Cap: 'Daily caps (429): per wallet, per agent, per address, per card, platform-wide.',
  NetworkFault: 'The stablecoin network unreachable.',
  SingleCall: 'A priced single-call resource (Service-Purchase exact, unsigned callers sized to the call).',
  Balance: 'A call paid from the agent balance, with no purchase.',
  Concurrent: 'Presentations made while the resource serves a call (`whileServing`).',
  Funding: 'The funding step of a call (7.4 funding_failed, funding_unavailable).',
  Origin: 'Where a challenge is redeemed: pack versus call, and which resource issued it.',
};

/** Builds vectors/purchases.json: every scenario run against the machine; refuses a case the machine disagrees with. */
export async function purchaseVectors(): Promise<PurchaseVectors> {
  const testGroups: PurchaseVectorGroup[] = [];
  for (const group of PURCHASE_GROUPS) {
    const cases = [];
    for (const scenario of group.scenarios) cases.push(await caseOf(scenario));
    testGroups.push({ comment: group.comment, cases });
  }
  return {
    algorithm:
      'Machine purchases (sections 3, 4.7, 7.4, 8): event sequences against POST /api/mpp/credits and a priced single-call resource, card (stripe) and stablecoin (tempo)',
    schema: PURCHASE_VECTORS_SCHEMA,
    generatorVersion: PURCHASE_GENERATOR_VERSION,
    numberOfTests: testGroups.reduce((n, g) => n + g.cases.length, 0),
    notes: PURCHASE_FLAGS,
    environment: {
      randomness:
        "Every challenge nonce (16 bytes), stablecoin memo (32 bytes) and balance hold key (16 bytes) is the next bytes of a seeded stream: block i is SHA-256 of the UTF-8 text `<initial.randomSeed>:<i>`, one block per draw, truncated to the length drawn (i counts draws from 0). Challenge ids in expect.challenge.id are the reference run's: informative for an implementation that draws its own nonces.",
      challengeIds:
        "id = base64url(HMAC-SHA256(deployment.challengeSecretHex, JCS of the challenge members but id and description)); request and opaque travel as base64url of their JCS; opaque = {packId, kind, terms, nonce[, userId]}. A credential is `Payment ` + base64url(JCS({challenge: <echo of the wire members>, payload[, source]})). paymentAuthorization.value is the reference run's literal; paymentAuthorization.built says how to build the same credential for the challenge of event `challengeOf` in another implementation.",
      wallets: Object.fromEntries(Object.entries(VECTOR_WALLETS).map(([name, w]) => [name, { privateKey: w.privateKey, address: w.address }])),
      credentialSource:
        'A stablecoin credential names its wallet as source did:pkh:eip155:<chainId>:<address>. built.transaction is a Tempo (type 0x76) transaction signed by the named wallet: one call to the token (the challenge currency unless `token`) of transferWithMemo(recipient, amount, memo) from the challenge quote unless overridden, chainId from the quote, nonce 0, nonceKey 1 unless given, gas 200000, maxFeePerGas 20000000000, maxPriorityFeePerGas 1, validBefore the challenge expiry unless given; signatures are RFC 6979 deterministic.',
    },
    unreachable: unreachableRows(),
    testGroups,
  };
}
