import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_KINDS, STRIPE_PAYLOAD_MEMBERS } from '../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import { sameEcho } from '../credential.js';
import { chargeGrant, chargeOfSameCredential, chargeRecordFor, presentedCredential } from '../machine/card-charge.js';
import { chargeStep, resumeSend, type ChargeStep } from '../machine/charge-step.js';
import { withFreshChallenge } from '../machine/issue.js';
import { codeAnswer, surfaceOf } from '../machine/outcome.js';
import { refusalBeforeCharge, serialisePurchase, type ChargeCandidate } from '../machine/pack-guards.js';
import type { ChargeRecord, IssuedChallenge } from '../machine/ports.js';
import { termsRefusal } from '../machine/terms.js';
import { settledAgainAnswer, type SaleOutcome } from './answer.js';
import { serveFromBalance } from './balance.js';
import { capCounters, takeCaps } from './caps.js';
import { accountOf, freshSaleChallenge, isCallHere, offerFor, callMethodsOffered } from './offer.js';
import type { SaleConfig, SalePorts, SaleRecord, SaleRequest } from './ports.js';
import { creditAndServe } from './serve.js';
import { decideSaleTransfer, resumeSaleTransferFirst } from './tempo.js';
import { UNIDENTIFIED_PAYER_PREFIX } from './wire.js';

/**
 * Decides a call to a priced single-call resource (7.4 single calls; section 3). The order of checks:
 *
 * 1. A readable credential whose single-call challenge of this resource already has a charge for the same
 *    token (or a transfer for the same transaction, sale/tempo.ts) resumes its sale (section 3 row 1) before anything else: 409 call_in_progress, call_already_served,
 *    call_refunded or purchase_already_granted once the sale moved on, else the charge resumed and the call
 *    served once. Only the agent the challenge names may resume it (401 terms_acceptance_unauthenticated).
 * 2. No credential:
 *    - an agent whose balance covers the call is served from it (503 funding_unavailable when it is held by
 *      in-flight calls or the funding step fails);
 *    - an unidentified caller while single calls without an agent identity are not sold: 503 metered_not_ready;
 *    - switches: 403 mpp_disabled, purchases_disabled; no method the trusted Service-Payment-Methods accepts
 *      offered: 503 mpp_not_configured;
 *    - else 402 payment-required: a challenge sized to the call (an unidentified caller, or an agent sending
 *      Service-Purchase exact), or the pack of /api/mpp/credits (an agent sending pack).
 * 3. A credential: switches (403); unreadable 402 malformed-credential; a method this resource does not sell
 *    calls by 400 method-unsupported; a challenge not issued (or not as echoed) 402 invalid-challenge; a pack
 *    challenge 403 challenge_kind_mismatch; a call challenge of another resource 403
 *    challenge_origin_mismatch; already redeemed with another token or transaction 402 invalid-challenge.
 * 4. Who buys: a challenge naming an agent is redeemed only by a request authenticated as that agent (401
 *    terms_acceptance_unauthenticated), and only while it is an active agent (403 buyer_inactive); one naming
 *    no agent only while unidentified calls are sold (503 metered_not_ready).
 * 5. Expired 402 payment-expired. A stablecoin (`tempo`) credential goes on in sale/tempo.ts (transaction,
 *    403 metered_unavailable_for_stablecoin, location, caps, broadcast). A card one: no shared payment token 402 invalid-payload; terms (machine/terms.ts) 402
 *    terms-acceptance-required or terms-version-stale.
 * 6. Before charging: the pack's guards (503 payment_unreconciled, 403 purchases_unavailable_region); the
 *    per-call card offer (403 metered_unavailable_for_card: per-call sales by card closed, the call re-priced
 *    since the challenge, the card's country outside the per-call markets or unknown, the card unknown); the
 *    buyer's lock and recorded assent (503 purchase_lock_unavailable, purchase_in_flight, terms_record_failed);
 *    the daily caps (429 metered_principal_cap or metered_ip_cap, metered_instrument_cap,
 *    metered_platform_ceiling).
 * 7. The charge, recorded before it is sent (403 foreign_token for a token that paid another purchase):
 *    declined 402 verification-failed with a fresh challenge (caps given back), processing 503
 *    charge_processing, unknown 503 charge_outcome_unknown, settled: credited, funded and served (serve.ts).
 */
export async function decideSale(input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  if (input.resource !== config.sale.resource) throw new TypeError(`the sale of ${config.sale.resource} was asked to decide a call to ${input.resource}`);
  const surface = surfaceOf(config);
  const { now } = input;
  const presented = presentedCredential(input);
  const { parsed, credential, token } = presented;

  const earlier = await chargeOfSameCredential(presented, ports.store);
  if (earlier !== undefined && isCallHere(earlier.issued, config)) return resumeSale(earlier.record, earlier.issued, input, ports, config);
  const resumedTransfer = credential === undefined ? undefined : await resumeSaleTransferFirst(credential, input, ports, config);
  if (resumedTransfer !== undefined) return resumedTransfer;

  if (parsed === undefined) {
    if (input.buyer !== null) {
      const fromBalance = await serveFromBalance(input.buyer.agentUrl, input, ports, config);
      if (fromBalance !== undefined) return fromBalance;
    } else if (!config.sale.anonymous) return codeAnswer(PURCHASE_ERRORS.metered_not_ready, config);
    if (!config.mppEnabled) return purchaseAnswer(PURCHASE_ERRORS.mpp_disabled, surface);
    if (!config.purchasesOpen) return purchaseAnswer(PURCHASE_ERRORS.purchases_disabled, surface);
    const offer = offerFor(input, config, ports);
    if (offer === undefined) return codeAnswer(PURCHASE_ERRORS.mpp_not_configured, config);
    return withFreshChallenge(PAYMENT_PROBLEMS.paymentRequired, ports, config, now, undefined, offer);
  }

  if (!config.mppEnabled) return purchaseAnswer(PURCHASE_ERRORS.mpp_disabled, surface);
  if (!config.purchasesOpen) return purchaseAnswer(PURCHASE_ERRORS.purchases_disabled, surface);
  if (!parsed.ok) return freshSaleChallenge(PAYMENT_PROBLEMS.malformedCredential, input, ports, config, `${PAYMENT_PROBLEMS.malformedCredential.condition} (${parsed.detail})`);
  const echo = parsed.credential.challenge;

  if (!callMethodsOffered(config, ports).some((method) => method === echo.method)) return purchaseAnswer(PURCHASE_ERRORS['method-unsupported'], surface);
  const issued = await ports.store.challenge(echo.id);
  if (issued === undefined || !sameEcho(issued.echo, echo)) return freshSaleChallenge(PAYMENT_PROBLEMS.invalidChallenge, input, ports, config);
  if (issued.kind !== PURCHASE_KINDS.exact) return purchaseAnswer(PURCHASE_ERRORS.challenge_kind_mismatch, surface);
  if (issued.origin !== input.resource) return purchaseAnswer(PURCHASE_ERRORS.challenge_origin_mismatch, surface);
  const paid = echo.method === PAYMENT_METHODS.tempo ? await ports.stablecoin?.transfers.transferOf(issued.id) : await ports.store.chargeOf(issued.id);
  if (paid !== undefined) {
    return freshSaleChallenge(PAYMENT_PROBLEMS.invalidChallenge, input, ports, config, 'The challenge was already redeemed with another payment; pay the fresh challenge on this response.');
  }

  const account = accountOf(issued);
  if (account !== null) {
    if (input.buyer?.agentUrl !== account) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surface);
    if (!(await ports.accounts.isActiveAgent(account))) return purchaseAnswer(PURCHASE_ERRORS.buyer_inactive, surface);
  } else if (!config.sale.anonymous) return codeAnswer(PURCHASE_ERRORS.metered_not_ready, config);

  if (now > issued.expiresAt) return freshSaleChallenge(PAYMENT_PROBLEMS.paymentExpired, input, ports, config, undefined, echo.method === PAYMENT_METHODS.tempo ? PAYMENT_METHODS.tempo : undefined);
  if (echo.method === PAYMENT_METHODS.tempo) return decideSaleTransfer(parsed.credential, issued, account, input, ports, config);
  if (token === undefined) {
    return freshSaleChallenge(PURCHASE_ERRORS['invalid-payload'], input, ports, config, `A card credential's payload carries the shared payment token in ${STRIPE_PAYLOAD_MEMBERS.spt}; pay the fresh challenge on this response.`);
  }
  const terms = termsRefusal(input, issued, config);
  if (terms !== undefined) return freshSaleChallenge(terms, input, ports, config);

  const payer = account ?? UNIDENTIFIED_PAYER_PREFIX + issued.id;
  const candidate: ChargeCandidate = { input, buyer: payer, token, issued };
  // Ownerless balances are a pack matter: an exact purchase is spent on the call it pays for.
  const { ownerlessBalanceCapNano: _packOnly, ...guardConfig } = config;
  const guarded = await refusalBeforeCharge(candidate, ports, guardConfig);
  if (guarded !== undefined) return guarded;
  const instrument = await perCallCardInstrument(issued, token, ports, config);
  if (instrument === undefined) return purchaseAnswer(PURCHASE_ERRORS.metered_unavailable_for_card, surface);

  const lock = await serialisePurchase(candidate, ports, config);
  if (!lock.held) return lock.answer;
  let step: ChargeStep | SaleOutcome;
  try {
    step = await capAndCharge(input, candidate, account, instrument, ports, config);
  } finally {
    await lock.release();
  }
  return 'kind' in step ? afterCharge(step, input, ports, config) : step;
}

/**
 * The card's fingerprint when the per-call card offer can be paid now (7.4 metered_unavailable_for_card
 * otherwise): per-call card sales open, the call priced as the challenge quoted it, the card's country in the
 * per-call markets, and the card known to the processor.
 */
async function perCallCardInstrument(issued: IssuedChallenge, token: string, ports: SalePorts, config: SaleConfig): Promise<string | undefined> {
  const { sale } = config;
  if (!sale.cardOpen) return undefined;
  if (issued.price.amount !== sale.price.amount || issued.price.currency !== sale.price.currency || issued.creditNano !== sale.priceNano) return undefined;
  if (sale.cardCountries !== undefined) {
    let country: string | undefined;
    try {
      country = await ports.processor.instrumentCountry(token);
    } catch {
      country = undefined;
    }
    if (country === undefined || !sale.cardCountries.some((c) => c.toUpperCase() === country.toUpperCase())) return undefined;
  }
  try {
    return await ports.cards.instrumentOf(token);
  } catch {
    return undefined;
  }
}

/** Under the buyer's lock: the caps are counted, the sale and the charge record opened, and the charge sent. */
async function capAndCharge(input: SaleRequest, candidate: ChargeCandidate, account: string | null, instrument: string, ports: SalePorts, config: SaleConfig): Promise<ChargeStep | SaleOutcome> {
  const { buyer, token, issued } = candidate;
  const counted = await takeCaps(
    capCounters({ account, ...(input.identity === undefined ? {} : { identity: input.identity }), clientAddress: input.clientAddress, instrument }, config.sale.caps),
    ports.caps,
    input.now,
  );
  if (!counted.taken) return purchaseAnswer(counted.refusal, surfaceOf(config), { retryAfterSeconds: counted.retryAfterSeconds });

  const opened = await ports.store.openCharge(chargeRecordFor(issued, buyer, token, input.now));
  if (!opened.opened) {
    await ports.caps.release(counted.names, counted.day);
    if (opened.clash === 'token') return purchaseAnswer(PURCHASE_ERRORS.foreign_token, surfaceOf(config));
    // Another presentation of this very credential opened the charge a moment ago: resume it.
    if (opened.existing.token === token) return resumeSale(opened.existing, issued, input, ports, config);
    return freshSaleChallenge(PAYMENT_PROBLEMS.invalidChallenge, input, ports, config);
  }
  await ports.sales.open(saleOf(issued, account, buyer, input.now, { caps: counted.names, capDay: counted.day }));
  const record = opened.record;
  return chargeStep(record, () => ports.processor.charge(record.token, record.price, record.idempotencyKey), ports);
}

function saleOf(issued: IssuedChallenge, account: string | null, payer: string, now: number, caps: Pick<SaleRecord, 'caps' | 'capDay'> = {}): SaleRecord {
  return { challengeId: issued.id, resource: issued.origin, account, payer, priceNano: issued.creditNano, state: 'open', ...caps, openedAt: now };
}

/**
 * Section 3 row 1: the same credential resumes its sale; no switch, terms version, price, cap or market check
 * is asked again. Only the agent the challenge names may resume a sale for it.
 */
async function resumeSale(record: ChargeRecord, issued: IssuedChallenge, input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  const account = accountOf(issued);
  if (account !== null && input.buyer?.agentUrl !== account) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surfaceOf(config));
  // Opened with the charge; opened here when a fault came between the two (no caps to give back then).
  const sale = await ports.sales.open(saleOf(issued, account, record.buyer, input.now));
  if (sale.state !== 'open' && sale.state !== 'declined') return settledAgainAnswer(sale.state, await ports.store.grantOf(record.challengeId), config);
  if (record.state === 'failed') return freshSaleChallenge(PAYMENT_PROBLEMS.verificationFailed, input, ports, config);
  if (record.state === 'settled') return creditAndServe(chargeGrant(record, record.chargeId ?? record.idempotencyKey, input.now), input, ports, config);
  return afterCharge(await chargeStep(record, resumeSend(record, ports), ports), input, ports, config);
}

/** The processor's word on the charge, turned into the answer; a charge that captured nothing gives its caps back once. */
async function afterCharge(step: ChargeStep, input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  switch (step.kind) {
    case 'settled':
      return creditAndServe(chargeGrant(step.record, step.chargeId, input.now), input, ports, config);
    case 'failed': {
      const declined = await ports.sales.move(step.record.challengeId, ['open'], 'declined');
      const { caps, capDay } = declined.record;
      if (declined.moved && caps !== undefined && capDay !== undefined) await ports.caps.release(caps, capDay);
      return freshSaleChallenge(PAYMENT_PROBLEMS.verificationFailed, input, ports, config);
    }
    case 'processing':
      return codeAnswer(PURCHASE_ERRORS.charge_processing, config);
    case 'unknown':
      return codeAnswer(PURCHASE_ERRORS.charge_outcome_unknown, config);
  }
}
