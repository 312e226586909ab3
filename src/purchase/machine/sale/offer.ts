import { HEADERS } from '../../../spec/headers.js';
import { deployedHeader } from '../../../spec/naming.js';
import { PAYMENT_METHODS, PURCHASE_KINDS, type PaymentMethodId, type PaymentProblemRecord } from '../../../spec/payments.js';
import type { PurchaseErrorRecord } from '../../../spec/types.js';
import type { PurchaseAnswer } from '../answers.js';
import { decodeBase64urlJson } from '../../wire/base64url-json.js';
import { isJsonObject } from '../../wire/json.js';
import { withFreshChallenge } from '../issue.js';
import type { ChallengeOffer } from '../ports/purchase.js';
import { acceptedMethods, trustedHeader } from '../ports/outcome.js';
import { cardPackOffer, tempoPackOffer } from '../offers.js';
import { TEMPO_MEMO_BYTES } from '../tempo/quote.js';
import { stablecoinOf, type IssuedChallenge, type PurchaseKind, type PurchasePorts } from '../ports/purchase.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';
import { SALE_OPAQUE_MEMBERS } from './wire.js';

/** A single call offered by card: the card request of cardPackOffer, sized to the call, redeemed only at the resource. */
function cardCallOffer(config: SaleConfig, account: string | null): ChallengeOffer {
  const { sale } = config;
  const sized = cardPackOffer({
    ...config,
    pack: {
      packId: sale.offerId,
      price: sale.price,
      creditNano: sale.priceNano,
      ...(config.pack.networkId === undefined ? {} : { networkId: config.pack.networkId }),
    },
  });
  return { ...sized, kind: PURCHASE_KINDS.exact, origin: sale.resource, ...(account === null ? {} : { opaque: { [SALE_OPAQUE_MEMBERS.account]: account } }) };
}

/**
 * A single call offered by stablecoin: the pack's stablecoin request (pack/offer.ts) quoting the call's
 * price in base units, with a fresh memo; credits the call's cost; redeemed only at the resource.
 */
function tempoCallOffer(config: SaleConfig, account: string | null, ports: PurchasePorts): ChallengeOffer {
  const { sale } = config;
  const stablecoin = stablecoinOf(ports, config);
  if (stablecoin === undefined || sale.stablecoinAmount === undefined) throw new TypeError(`${sale.resource} sells no single call by ${PAYMENT_METHODS.tempo}`);
  const sized = tempoPackOffer(
    { ...config, pack: { ...config.pack, packId: sale.offerId, creditNano: sale.priceNano } },
    { ...stablecoin.offer, amount: sale.stablecoinAmount },
    ports.random.bytes(TEMPO_MEMO_BYTES),
  );
  return { ...sized, kind: PURCHASE_KINDS.exact, origin: sale.resource, ...(account === null ? {} : { opaque: { [SALE_OPAQUE_MEMBERS.account]: account } }) };
}

/** How a method sells a single call: whether the deployment sells by it now, and the challenge offer. */
export interface CallOfferMaker {
  available(config: SaleConfig, ports: PurchasePorts): boolean;
  offer(config: SaleConfig, account: string | null, ports: PurchasePorts): ChallengeOffer;
}

/** How each method sells a single call (listed in SingleCallOffer.methods to be sold). */
export const SINGLE_CALL_OFFERS: Readonly<Record<PaymentMethodId, CallOfferMaker>> = Object.freeze({
  [PAYMENT_METHODS.stripe]: { available: () => true, offer: (config: SaleConfig, account: string | null) => cardCallOffer(config, account) },
  [PAYMENT_METHODS.tempo]: {
    available: (config: SaleConfig, ports: PurchasePorts) => stablecoinOf(ports, config) !== undefined && config.sale.stablecoinAmount !== undefined,
    offer: tempoCallOffer,
  },
});

/** Methods this resource sells single calls by now: configured, in the deployment's order, and with an offer available. */
export function callMethodsOffered(config: SaleConfig, ports: PurchasePorts): PaymentMethodId[] {
  return config.sale.methods.filter((method) => SINGLE_CALL_OFFERS[method].available(config, ports));
}

/** The pack a signed agent asked for at this resource: the pack of /api/mpp/credits, issued here and redeemed there (7.4). */
function packOfferHere(config: SaleConfig): ChallengeOffer {
  return { ...cardPackOffer(config), origin: config.sale.resource };
}

/** Service-Purchase (trusted: covered when signed): exact or pack; the resource's default when absent or neither. */
function kindWanted(input: SaleRequest, config: SaleConfig): PurchaseKind {
  const value = trustedHeader(input, deployedHeader(HEADERS.purchase, config.naming))?.trim().toLowerCase();
  return value === PURCHASE_KINDS.exact || value === PURCHASE_KINDS.pack ? value : config.sale.defaultKind;
}

/**
 * The offer a request gets, or undefined when no method it accepts is offered (7.4 mpp_not_configured). An
 * unidentified caller always gets a call sized to it; an agent what its Service-Purchase asks for. A trusted
 * Service-Payment-Methods narrows the methods.
 */
export function offerFor(input: SaleRequest, config: SaleConfig, ports: PurchasePorts): ChallengeOffer | undefined {
  const accepted = acceptedMethods(input, config.naming);
  const account = input.buyer?.agentUrl ?? null;
  if (wantsPack(input, config)) return accepted === undefined || accepted.includes(PAYMENT_METHODS.stripe) ? packOfferHere(config) : undefined;
  // The buyer's order when it lists methods (7.4 Service-Payment-Methods), else the deployment's.
  const offered = callMethodsOffered(config, ports);
  const method = accepted === undefined ? offered[0] : accepted.find((m): m is PaymentMethodId => (offered as string[]).includes(m));
  return method === undefined ? undefined : SINGLE_CALL_OFFERS[method].offer(config, account, ports);
}

/** A signed agent asking for the pack of /api/mpp/credits rather than a call. */
function wantsPack(input: SaleRequest, config: SaleConfig): boolean {
  return input.buyer !== null && kindWanted(input, config) === PURCHASE_KINDS.pack;
}

/**
 * A 402 with one fresh challenge of the offer the request gets (a card call when its methods name none
 * offered). `method`: the method of the credential refused, offered again for a call when it still sells calls.
 */
export function freshSaleChallenge(
  refusal: PaymentProblemRecord | PurchaseErrorRecord,
  input: SaleRequest,
  ports: PurchasePorts,
  config: SaleConfig,
  description?: string,
  method?: PaymentMethodId,
): Promise<PurchaseAnswer> {
  const account = input.buyer?.agentUrl ?? null;
  const again =
    method !== undefined && !wantsPack(input, config) && callMethodsOffered(config, ports).includes(method)
      ? SINGLE_CALL_OFFERS[method].offer(config, account, ports)
      : undefined;
  const offer = again ?? offerFor(input, config, ports) ?? cardCallOffer(config, account);
  return withFreshChallenge(refusal, ports, config, input.now, description, offer);
}

/** The account a single-call challenge names (its opaque `userId`, read from the issued record, never from the buyer's echo); null for none. */
export function accountOf(issued: IssuedChallenge): string | null {
  const decoded = decodeBase64urlJson(issued.echo.opaque ?? '');
  if (!decoded.ok || !isJsonObject(decoded.value)) return null;
  const account = decoded.value[SALE_OPAQUE_MEMBERS.account];
  return typeof account === 'string' ? account : null;
}

/** Whether an issued challenge sells a single call of this resource (the only kind a credential here may resume). */
export function isCallHere(issued: IssuedChallenge, config: SaleConfig): boolean {
  return issued.kind === PURCHASE_KINDS.exact && issued.origin === config.sale.resource;
}

/**
 * The card's fingerprint when the per-call card offer can be paid now (7.4 metered_unavailable_for_card
 * otherwise): per-call card sales open, the call priced as the challenge quoted it, the card's country in the
 * per-call markets, and the card known to the processor.
 */
export async function perCallCardInstrument(
  issued: IssuedChallenge,
  token: string,
  ports: Pick<SalePorts, 'processor' | 'cards'>,
  config: SaleConfig,
): Promise<string | undefined> {
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
