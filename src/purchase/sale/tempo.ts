import { PAYMENT_METHODS, PAYMENT_PROBLEMS, type PaymentProblemRecord } from '../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../spec/types.js';
import { purchaseAnswer } from '../answers.js';
import { sameEcho, type PaymentCredential } from '../credential.js';
import { codeAnswer, surfaceOf } from '../machine/outcome.js';
import { serialisePurchase, type ChargeCandidate } from '../machine/pack-guards.js';
import type { IssuedChallenge } from '../machine/ports.js';
import { termsRefusal } from '../machine/terms.js';
import { countAgainstWalletCap, quoteOf, walletPlacementRefusal } from '../machine/tempo-decide.js';
import { stablecoinOf } from '../machine/tempo-offer.js';
import type { StablecoinOffer, StablecoinPorts, TransferRecord } from '../machine/tempo-ports.js';
import { broadcastTransferStep, resumeTransferStep, sameTransfer, transferGrant, transferRecordFor, type TransferStep } from '../machine/tempo-transfer.js';
import { readTempoPayload } from '../tempo/payload.js';
import { checkTempoTransaction, tempoTransactionHash, type AdmittedTransfer } from '../tempo/transaction-check.js';
import { settledAgainAnswer, type SaleOutcome } from './answer.js';
import { capCounters, takeCaps } from './caps.js';
import { accountOf, freshSaleChallenge, isCallHere } from './offer.js';
import type { SaleConfig, SalePorts, SaleRecord, SaleRequest } from './ports.js';
import { creditAndServe } from './serve.js';
import { UNIDENTIFIED_PAYER_PREFIX } from './wire.js';

const PAY_FRESH = 'pay the fresh challenge on this response.';

type Stablecoin = { readonly offer: StablecoinOffer; readonly ports: StablecoinPorts };

/** A 402 with a fresh challenge for the call, by stablecoin again when the resource still sells calls so. */
function freshTransferCall(refusal: PaymentProblemRecord | PurchaseErrorRecord, input: SaleRequest, ports: SalePorts, config: SaleConfig, description?: string): Promise<SaleOutcome> {
  return freshSaleChallenge(refusal, input, ports, config, description, PAYMENT_METHODS.tempo);
}

/**
 * Section 3 row 1 for a stablecoin call credential, asked before anything else: when its single-call challenge of
 * this resource already has a transfer for this very transaction, the sale resumes. Undefined otherwise.
 */
export async function resumeSaleTransferFirst(credential: PaymentCredential, input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome | undefined> {
  const stablecoin = ports.stablecoin;
  if (credential.challenge.method !== PAYMENT_METHODS.tempo || stablecoin === undefined) return undefined;
  const payload = readTempoPayload(credential.payload);
  if (payload.kind !== 'transaction') return undefined;
  const record = await stablecoin.transfers.transferOf(credential.challenge.id);
  if (!sameTransfer(record, await tempoTransactionHash(payload.serialized))) return undefined;
  const issued = await ports.store.challenge(record.challengeId);
  if (issued === undefined || !isCallHere(issued, config) || !sameEcho(issued.echo, credential.challenge)) return undefined;
  return resumeSaleTransfer(record, issued, input, stablecoin, ports, config);
}

/**
 * A stablecoin (`tempo`) credential for a single call, once decideSale checked the switches, the method, the
 * challenge (issued here, for a call, not redeemed), who buys and the expiry. In order:
 *
 * 1. payload.type other than `transaction`: 402 invalid-payload; terms: 402 terms-acceptance-required or
 *    terms-version-stale (each with a fresh challenge).
 * 2. The call re-priced since the challenge (its stablecoin price or its cost on the balance): 403
 *    metered_unavailable_for_stablecoin; nothing broadcast.
 * 3. The transaction against the quote (tempo/transaction-check.ts), or already used under another challenge:
 *    402 verification-failed with a fresh challenge; nothing broadcast.
 * 4. The wallet's location (403 stablecoin_location_unknown, purchases_unavailable_region).
 * 5. The buyer's lock and recorded assent (503 purchase_lock_unavailable, purchase_in_flight, terms_record_failed);
 *    the daily caps with the wallet as the instrument (429 metered_principal_cap or metered_ip_cap,
 *    metered_instrument_cap, metered_platform_ceiling), then the wallet's own (429 wallet_daily_cap).
 * 6. The transfer and the sale recorded, then broadcast: unreachable 503 tempo_unavailable; pending 503
 *    tempo_settlement_pending; failed 402 verification-failed (caps given back); settled: credited, funded and
 *    served once (serve.ts), the receipt's reference the transaction hash.
 */
export async function decideSaleTransfer(credential: PaymentCredential, issued: IssuedChallenge, account: string | null, input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  const stablecoin = stablecoinOf(ports, config);
  if (stablecoin === undefined) return purchaseAnswer(PURCHASE_ERRORS['method-unsupported'], surfaceOf(config));
  const payload = readTempoPayload(credential.payload);
  if (payload.kind !== 'transaction') return freshTransferCall(PURCHASE_ERRORS['invalid-payload'], input, ports, config, `${payload.detail}; ${PAY_FRESH}`);
  const terms = termsRefusal(input, issued, config);
  if (terms !== undefined) return freshTransferCall(terms, input, ports, config);

  const { sale } = config;
  if (issued.price.amount !== sale.stablecoinAmount || issued.price.currency.toLowerCase() !== stablecoin.offer.token.toLowerCase() || issued.creditNano !== sale.priceNano) {
    return purchaseAnswer(PURCHASE_ERRORS.metered_unavailable_for_stablecoin, surfaceOf(config));
  }

  const quote = quoteOf(issued);
  if (quote === undefined) return freshTransferCall(PAYMENT_PROBLEMS.invalidChallenge, input, ports, config);
  const check = await checkTempoTransaction(payload.serialized, quote, { expiresAt: issued.expiresAt, now: input.now });
  if (!check.ok) return freshTransferCall(PAYMENT_PROBLEMS.verificationFailed, input, ports, config, `The transaction does not pay the challenge (${check.mismatch}): ${check.detail}; nothing was broadcast; ${PAY_FRESH}`);
  const transfer = check.transfer;
  if ((await stablecoin.ports.transfers.transferByHash(transfer.hash)) !== undefined) {
    return freshTransferCall(PAYMENT_PROBLEMS.verificationFailed, input, ports, config, `The transaction was already used for another challenge; nothing was broadcast; ${PAY_FRESH}`);
  }
  const unplaced = await walletPlacementRefusal(transfer, stablecoin, config);
  if (unplaced !== undefined) return unplaced;

  const payer = account ?? UNIDENTIFIED_PAYER_PREFIX + issued.id;
  const candidate: ChargeCandidate = { input, buyer: payer, token: transfer.hash, issued };
  const lock = await serialisePurchase(candidate, ports, config);
  if (!lock.held) return lock.answer;
  let step: TransferStep | SaleOutcome;
  try {
    step = await capAndBroadcast(input, candidate, account, transfer, stablecoin, ports, config);
  } finally {
    await lock.release();
  }
  return 'kind' in step ? afterTransfer(step, input, ports, config) : step;
}

/** Under the buyer's lock: the caps are counted, the transfer and the sale recorded, and the transaction broadcast. */
async function capAndBroadcast(
  input: SaleRequest,
  candidate: ChargeCandidate,
  account: string | null,
  transfer: AdmittedTransfer,
  stablecoin: Stablecoin,
  ports: SalePorts,
  config: SaleConfig,
): Promise<TransferStep | SaleOutcome> {
  const { buyer, issued } = candidate;
  const subject = { account, ...(input.identity === undefined ? {} : { identity: input.identity }), clientAddress: input.clientAddress, instrument: transfer.wallet };
  const counted = await takeCaps(capCounters(subject, config.sale.caps), ports.caps, input.now);
  if (!counted.taken) return purchaseAnswer(counted.refusal, surfaceOf(config), { retryAfterSeconds: counted.retryAfterSeconds });
  const walletCapped = await countAgainstWalletCap(transfer, issued.price.amount, stablecoin.offer, stablecoin.ports, input.now);
  if (walletCapped !== undefined) {
    await ports.caps.release(counted.names, counted.day);
    return codeAnswer(PURCHASE_ERRORS.wallet_daily_cap, config, { retryAfterSeconds: walletCapped });
  }

  const opened = await stablecoin.ports.transfers.openTransfer(transferRecordFor(issued, buyer, transfer, input.now));
  if (!opened.opened) {
    await ports.caps.release(counted.names, counted.day);
    // Another presentation of this very credential opened it a moment ago: resume it.
    if (opened.clash === 'challenge' && sameTransfer(opened.existing, transfer.hash)) return resumeSaleTransfer(opened.existing, issued, input, stablecoin.ports, ports, config);
    if (opened.clash === 'challenge') await stablecoin.ports.walletCaps.release(transfer.hash);
    const what = opened.clash === 'hash' ? 'The transaction was already used for another challenge' : 'The challenge was already redeemed with another transaction';
    return freshTransferCall(opened.clash === 'hash' ? PAYMENT_PROBLEMS.verificationFailed : PAYMENT_PROBLEMS.invalidChallenge, input, ports, config, `${what}; nothing was broadcast; ${PAY_FRESH}`);
  }
  await ports.sales.open(saleOf(issued, account, buyer, input.now, { caps: counted.names, capDay: counted.day }));
  return broadcastTransferStep(opened.record, stablecoin.ports);
}

function saleOf(issued: IssuedChallenge, account: string | null, payer: string, now: number, caps: Pick<SaleRecord, 'caps' | 'capDay'> = {}): SaleRecord {
  return { challengeId: issued.id, resource: issued.origin, account, payer, priceNano: issued.creditNano, state: 'open', ...caps, openedAt: now };
}

/**
 * Section 3 row 1: the same credential resumes its sale; no switch, terms version, price, cap or location is
 * asked again. Only the agent the challenge names may resume a sale for it.
 */
async function resumeSaleTransfer(record: TransferRecord, issued: IssuedChallenge, input: SaleRequest, stablecoin: StablecoinPorts, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  const account = accountOf(issued);
  if (account !== null && input.buyer?.agentUrl !== account) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surfaceOf(config));
  const sale = await ports.sales.open(saleOf(issued, account, record.buyer, input.now));
  if (sale.state !== 'open' && sale.state !== 'declined') return settledAgainAnswer(sale.state, await ports.store.grantOf(record.challengeId), config);
  return afterTransfer(await resumeTransferStep(record, stablecoin, input.now), input, ports, config);
}

/** The network's word on the transfer, turned into the call's answer; a transfer that paid nothing gives its caps back once. */
async function afterTransfer(step: TransferStep, input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  switch (step.kind) {
    case 'settled':
      return creditAndServe(transferGrant(step.record, input.now), input, ports, config);
    case 'failed': {
      const declined = await ports.sales.move(step.record.challengeId, ['open'], 'declined');
      const { caps, capDay } = declined.record;
      if (declined.moved && caps !== undefined && capDay !== undefined) await ports.caps.release(caps, capDay);
      return freshTransferCall(step.refusal, input, ports, config, step.description);
    }
    case 'unavailable':
      return codeAnswer(PURCHASE_ERRORS.tempo_unavailable, config);
    case 'pending':
      return codeAnswer(PURCHASE_ERRORS.tempo_settlement_pending, config);
  }
}
