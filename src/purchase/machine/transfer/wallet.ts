import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import type { PurchaseAnswer } from '../answers.js';
import { decodeBase64urlJson } from '../../wire/base64url-json.js';
import { isJsonObject } from '../../wire/json.js';
import { codeAnswer } from '../ports/outcome.js';
import type { IssuedChallenge, PurchaseConfig, Stablecoin } from '../ports/purchase.js';
import type { StablecoinOffer, StablecoinPorts } from '../ports/stablecoin.js';
import { tempoQuoteOf, type TempoQuote } from '../tempo/quote.js';
import type { AdmittedTransfer } from '../tempo/transaction-check.js';

const DAY_S = 86_400;

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
export async function walletPlacementRefusal(transfer: AdmittedTransfer, stablecoin: Stablecoin, config: PurchaseConfig): Promise<PurchaseAnswer | undefined> {
  const placed = await placeWallet(transfer, stablecoin.ports);
  if (placed === undefined && !stablecoin.offer.sellsToUnplaceableBuyers) return codeAnswer(PURCHASE_ERRORS.stablecoin_location_unknown, config);
  if (placed !== undefined && (config.closedMarkets ?? []).includes(placed.toUpperCase()))
    return codeAnswer(PURCHASE_ERRORS.purchases_unavailable_region, config);
  return undefined;
}

/** Counts the transfer of `amount` base units against the wallet's total for today (UTC); the seconds until tomorrow when it would pass the cap (7.4 wallet_daily_cap). */
export async function countAgainstWalletCap(
  transfer: AdmittedTransfer,
  amount: string,
  offer: StablecoinOffer,
  stablecoin: StablecoinPorts,
  now: number,
): Promise<number | undefined> {
  if (offer.walletDailyCap === undefined) return undefined;
  const day = now - (now % DAY_S);
  const counted = await stablecoin.walletCaps.count(transfer.wallet, day, transfer.hash, amount, offer.walletDailyCap);
  return counted === 'over-cap' ? day + DAY_S - now : undefined;
}
