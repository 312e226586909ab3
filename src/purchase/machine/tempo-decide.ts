import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import { decodeBase64urlJson } from '../base64url-json.js';
import { sameEcho, type PaymentCredential } from '../credential.js';
import { isJsonObject } from '../json.js';
import { readTempoPayload } from '../tempo/payload.js';
import { tempoQuoteOf, type TempoQuote } from '../tempo/quote.js';
import { checkTempoTransaction, tempoTransactionHash, type AdmittedTransfer } from '../tempo/transaction-check.js';
import { codeAnswer, type PurchaseOutcome, type PurchaseRequest } from './outcome.js';
import { ownerlessCapRefusal, serialisePurchase } from './pack-guards.js';
import type { PurchaseAnswer } from '../answers.js';
import type { IssuedChallenge, PurchaseConfig, PurchasePorts } from './ports.js';
import { termsRefusal } from './terms.js';
import { stablecoinOf } from './tempo-offer.js';
import type { StablecoinOffer, StablecoinPorts } from './tempo-ports.js';
import { broadcastTransfer, freshTransferChallenge, resumeTransfer, sameTransfer, transferRecordFor } from './tempo-transfer.js';

const DAY_S = 86_400;
const PAY_FRESH = 'pay the fresh challenge on this response.';

/**
 * Section 3 row 1 for a stablecoin credential, asked before anything else: when the credential's challenge
 * already has a transfer record for this very transaction, the transfer resumes. Undefined when there is none
 * (or transfers are not configured), and the request goes on to the other checks.
 */
export async function resumeTransferFirst(credential: PaymentCredential, input: PurchaseRequest, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome | undefined> {
  const stablecoin = ports.stablecoin;
  if (credential.challenge.method !== PAYMENT_METHODS.tempo || stablecoin === undefined) return undefined;
  const payload = readTempoPayload(credential.payload);
  if (payload.kind !== 'transaction') return undefined;
  const record = await stablecoin.transfers.transferOf(credential.challenge.id);
  if (!sameTransfer(record, await tempoTransactionHash(payload.serialized))) return undefined;
  const issued = await ports.store.challenge(record.challengeId);
  // A single-call transfer resumes only where it was issued (sale/), never as a pack here.
  if (issued === undefined || issued.kind !== PURCHASE_KINDS.pack || !sameEcho(issued.echo, credential.challenge)) return undefined;
  return resumeTransfer(record, input, stablecoin, ports, config);
}

/**
 * Decides a stablecoin (`tempo`) credential at /api/mpp/credits once the switches passed, the credential
 * parsed and the buyer authenticated. In order:
 *
 * 1. Transfers not offered here: 400 method-unsupported (no challenge).
 * 2. A challenge not issued here as a stablecoin challenge, or already redeemed: 402 invalid-challenge; a
 *    single-call challenge: 403 challenge_kind_mismatch.
 * 3. The challenge older than its 300 s: 402 payment-expired.
 * 4. payload.type other than `transaction` (hash, proof, anything else): 402 invalid-payload.
 * 5. Terms (terms-acceptance-required, terms-version-stale).
 * 6. The transaction against the quote (transaction-check.ts): any mismatch is 402 verification-failed
 *    naming it; a transaction already used under another challenge likewise. Nothing is broadcast.
 * 7. The paying wallet cannot be placed and the deployment does not sell to unplaceable buyers: 403
 *    stablecoin_location_unknown; placed in a closed market: 403 purchases_unavailable_region; an ownerless
 *    agent at its cap: 403 ownerless_balance_cap (pack-guards.ts ownerlessCapRefusal).
 * 8. One purchase at a time per buyer, assent recorded (pack-guards.ts serialisePurchase).
 * 9. The wallet's daily cap: 429 wallet_daily_cap with Retry-After until the next UTC day; nothing broadcast.
 * 10. The transfer recorded (claiming the hash), then broadcast: unreachable 503 tempo_unavailable;
 *     pending 503 tempo_settlement_pending; failed 402 verification-failed; settled 200, the pack credited once.
 * Every fresh challenge here offers the stablecoin again. Every 402 carries one; no 4xx/5xx code row does.
 */
export async function decideTransfer(credential: PaymentCredential, buyer: string, input: PurchaseRequest, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome> {
  const { now } = input;
  const stablecoin = stablecoinOf(ports, config);
  if (stablecoin === undefined) return codeAnswer(PURCHASE_ERRORS['method-unsupported'], config);
  const fresh = (refusal: Parameters<typeof freshTransferChallenge>[0], description?: string) => freshTransferChallenge(refusal, ports, config, now, description);
  const echo = credential.challenge;

  const issued = await ports.store.challenge(echo.id);
  if (issued === undefined || issued.method !== PAYMENT_METHODS.tempo || !sameEcho(issued.echo, echo)) return fresh(PAYMENT_PROBLEMS.invalidChallenge);
  // A single-call challenge is redeemed only where it was issued (7.4), whatever its method.
  if (issued.kind !== PURCHASE_KINDS.pack) return codeAnswer(PURCHASE_ERRORS.challenge_kind_mismatch, config);
  if ((await stablecoin.ports.transfers.transferOf(issued.id)) !== undefined) return fresh(PAYMENT_PROBLEMS.invalidChallenge, `The challenge was already redeemed with another transaction; ${PAY_FRESH}`);
  if (now > issued.expiresAt) return fresh(PAYMENT_PROBLEMS.paymentExpired);

  const payload = readTempoPayload(credential.payload);
  if (payload.kind !== 'transaction') return fresh(PURCHASE_ERRORS['invalid-payload'], `${payload.detail}; ${PAY_FRESH}`);

  const terms = termsRefusal(input, issued, config);
  if (terms !== undefined) return fresh(terms);

  const quote = quoteOf(issued);
  if (quote === undefined) return fresh(PAYMENT_PROBLEMS.invalidChallenge);
  const check = await checkTempoTransaction(payload.serialized, quote, { expiresAt: issued.expiresAt, now });
  if (!check.ok) return fresh(PAYMENT_PROBLEMS.verificationFailed, `The transaction does not pay the challenge (${check.mismatch}): ${check.detail}; nothing was broadcast; ${PAY_FRESH}`);
  const transfer = check.transfer;
  if ((await stablecoin.ports.transfers.transferByHash(transfer.hash)) !== undefined) return fresh(PAYMENT_PROBLEMS.verificationFailed, `The transaction was already used for another challenge; nothing was broadcast; ${PAY_FRESH}`);

  const unplaced = await walletPlacementRefusal(transfer, stablecoin, config);
  if (unplaced !== undefined) return unplaced;
  const ownerless = await ownerlessCapRefusal({ input, buyer }, ports, config);
  if (ownerless !== undefined) return ownerless;

  const lock = await serialisePurchase({ input, buyer, token: transfer.hash, issued }, ports, config);
  if (!lock.held) return lock.answer;
  try {
    const capped = await countAgainstWalletCap(transfer, stablecoin.offer.amount, stablecoin.offer, stablecoin.ports, now);
    if (capped !== undefined) return codeAnswer(PURCHASE_ERRORS.wallet_daily_cap, config, { retryAfterSeconds: capped });
    return await openAndBroadcast(transfer, buyer, issued, input, stablecoin.ports, ports, config);
  } finally {
    await lock.release();
  }
}

/** The quote a stablecoin challenge was issued with, read back from its `request`; undefined when it is not one. */
export function quoteOf(issued: IssuedChallenge): TempoQuote | undefined {
  const decoded = decodeBase64urlJson(issued.echo.request);
  if (!decoded.ok || !isJsonObject(decoded.value)) return undefined;
  const read = tempoQuoteOf(decoded.value);
  return read.ok ? read.quote : undefined;
}

async function placeWallet(transfer: AdmittedTransfer, stablecoin: StablecoinPorts): Promise<string | undefined> {
  try {
    return await stablecoin.locations.locate(transfer.wallet);
  } catch {
    return undefined;
  }
}

/**
 * Where the paying wallet is, as 7.4 refuses it: it cannot be placed and the deployment does not sell to
 * unplaceable buyers (403 stablecoin_location_unknown), or it is placed in a closed market (403
 * purchases_unavailable_region). Undefined when the transfer may go on.
 */
export async function walletPlacementRefusal(transfer: AdmittedTransfer, stablecoin: { readonly offer: StablecoinOffer; readonly ports: StablecoinPorts }, config: PurchaseConfig): Promise<PurchaseAnswer | undefined> {
  const placed = await placeWallet(transfer, stablecoin.ports);
  if (placed === undefined && !stablecoin.offer.sellsToUnplaceableBuyers) return codeAnswer(PURCHASE_ERRORS.stablecoin_location_unknown, config);
  if (placed !== undefined && (config.closedMarkets ?? []).includes(placed.toUpperCase())) return codeAnswer(PURCHASE_ERRORS.purchases_unavailable_region, config);
  return undefined;
}

/** Counts the transfer of `amount` base units against the wallet's total for today (UTC); the seconds until tomorrow when it would pass the cap (7.4 wallet_daily_cap). */
export async function countAgainstWalletCap(transfer: AdmittedTransfer, amount: string, offer: StablecoinOffer, stablecoin: StablecoinPorts, now: number): Promise<number | undefined> {
  if (offer.walletDailyCap === undefined) return undefined;
  const day = now - (now % DAY_S);
  const counted = await stablecoin.walletCaps.count(transfer.wallet, day, transfer.hash, amount, offer.walletDailyCap);
  return counted === 'over-cap' ? day + DAY_S - now : undefined;
}

/** Records the transfer (claiming its hash) before the first broadcast, so every broadcast transfer has a record, then broadcasts it. */
async function openAndBroadcast(
  transfer: AdmittedTransfer,
  buyer: string,
  issued: IssuedChallenge,
  input: PurchaseRequest,
  stablecoin: StablecoinPorts,
  ports: PurchasePorts,
  config: PurchaseConfig,
): Promise<PurchaseOutcome> {
  const opened = await stablecoin.transfers.openTransfer(transferRecordFor(issued, buyer, transfer, input.now));
  if (!opened.opened) {
    // Another presentation of this very credential opened it a moment ago: resume it.
    if (opened.clash === 'challenge' && sameTransfer(opened.existing, transfer.hash)) return resumeTransfer(opened.existing, input, stablecoin, ports, config);
    if (opened.clash === 'challenge') await stablecoin.walletCaps.release(transfer.hash);
    const what = opened.clash === 'hash' ? 'The transaction was already used for another challenge' : 'The challenge was already redeemed with another transaction';
    return freshTransferChallenge(opened.clash === 'hash' ? PAYMENT_PROBLEMS.verificationFailed : PAYMENT_PROBLEMS.invalidChallenge, ports, config, input.now, `${what}; nothing was broadcast; ${PAY_FRESH}`);
  }
  return broadcastTransfer(opened.record, stablecoin, ports, config, input.now);
}
