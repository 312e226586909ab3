import { HEADERS } from '../../spec/headers.js';
import { PAYMENT_METHODS, PURCHASE_KINDS, type PaymentMethodId, type PaymentProblemRecord } from '../../spec/payments.js';
import type { PurchaseErrorRecord } from '../../spec/types.js';
import type { PurchaseAnswer } from '../answers.js';
import { decodeBase64urlJson } from '../base64url-json.js';
import { isJsonObject } from '../json.js';
import { cardPackOffer, withFreshChallenge, type ChallengeOffer } from '../machine/issue.js';
import { acceptedMethods, trustedHeader } from '../machine/outcome.js';
import type { IssuedChallenge, PurchaseKind, PurchasePorts } from '../machine/ports.js';
import type { SaleConfig, SaleRequest } from './ports.js';
import { SALE_OPAQUE_MEMBERS } from './wire.js';

/** A single call offered by card: the card request of cardPackOffer, sized to the call, redeemed only at the resource. */
function cardCallOffer(config: SaleConfig, account: string | null): ChallengeOffer {
  const { sale } = config;
  const sized = cardPackOffer({ ...config, pack: { packId: sale.offerId, price: sale.price, creditNano: sale.priceNano, ...(config.pack.networkId === undefined ? {} : { networkId: config.pack.networkId }) } });
  return { ...sized, kind: PURCHASE_KINDS.exact, origin: sale.resource, ...(account === null ? {} : { opaque: { [SALE_OPAQUE_MEMBERS.account]: account } }) };
}

/** How each method sells a single call. The stablecoin method joins here (and in SingleCallOffer.methods). */
export const SINGLE_CALL_OFFERS: Readonly<Partial<Record<PaymentMethodId, (config: SaleConfig, account: string | null) => ChallengeOffer>>> = Object.freeze({
  [PAYMENT_METHODS.stripe]: cardCallOffer,
});

/** Methods this resource sells single calls by now: configured and with an offer. */
export function callMethodsOffered(config: SaleConfig): PaymentMethodId[] {
  return config.sale.methods.filter((method) => SINGLE_CALL_OFFERS[method] !== undefined);
}

/** The pack a signed agent asked for at this resource: the pack of /api/mpp/credits, issued here and redeemed there (7.4). */
export function packOfferHere(config: SaleConfig): ChallengeOffer {
  return { ...cardPackOffer(config), origin: config.sale.resource };
}

/** Service-Purchase (trusted: covered when signed): exact or pack; the resource's default when absent or neither. */
export function kindWanted(input: SaleRequest, config: SaleConfig): PurchaseKind {
  const value = trustedHeader(input, HEADERS.purchase)?.trim().toLowerCase();
  return value === PURCHASE_KINDS.exact || value === PURCHASE_KINDS.pack ? value : config.sale.defaultKind;
}

/**
 * The offer a request gets, or undefined when no method it accepts is offered (7.4 mpp_not_configured). An
 * unidentified caller always gets a call sized to it; an agent what its Service-Purchase asks for. A trusted
 * Service-Payment-Methods narrows the methods.
 */
export function offerFor(input: SaleRequest, config: SaleConfig): ChallengeOffer | undefined {
  const accepted = acceptedMethods(input);
  const account = input.buyer?.agentUrl ?? null;
  if (account !== null && kindWanted(input, config) === PURCHASE_KINDS.pack) {
    return accepted === undefined || accepted.includes(PAYMENT_METHODS.stripe) ? packOfferHere(config) : undefined;
  }
  const method = callMethodsOffered(config).find((m) => accepted === undefined || accepted.includes(m));
  return method === undefined ? undefined : SINGLE_CALL_OFFERS[method]!(config, account);
}

/** A 402 with one fresh challenge of the offer the request gets (a card call when its methods name none offered). */
export function freshSaleChallenge(
  refusal: PaymentProblemRecord | PurchaseErrorRecord,
  input: SaleRequest,
  ports: PurchasePorts,
  config: SaleConfig,
  description?: string,
): Promise<PurchaseAnswer> {
  const offer = offerFor(input, config) ?? cardCallOffer(config, input.buyer?.agentUrl ?? null);
  return withFreshChallenge(refusal, ports, config, input.now, description, offer);
}

/** The account a single-call challenge names (its opaque `userId`, read from the issued record, never from the buyer's echo); null for none. */
export function accountOf(issued: IssuedChallenge): string | null {
  if (issued.echo.opaque === undefined) return null;
  const decoded = decodeBase64urlJson(issued.echo.opaque);
  if (!decoded.ok || !isJsonObject(decoded.value)) return null;
  const account = decoded.value[SALE_OPAQUE_MEMBERS.account];
  return typeof account === 'string' ? account : null;
}

/** Whether an issued challenge sells a single call of this resource (the only kind a credential here may resume). */
export function isCallHere(issued: IssuedChallenge, config: SaleConfig): boolean {
  return issued.kind === PURCHASE_KINDS.exact && issued.origin === config.sale.resource;
}
