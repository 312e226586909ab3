import { encodeBase64url } from '../../httpsig/base64url.js';
import { PAYMENT_CHALLENGE_LIFETIME_S } from '../../spec/limits.js';
import type { PaymentProblemRecord } from '../../spec/payments.js';
import type { PurchaseErrorRecord } from '../../spec/types.js';
import { paymentProblemAnswer, purchaseAnswer, type PurchaseAnswer } from './answers.js';
import { challengeEcho, createChallenge, type PaymentChallenge } from '../wire/challenge.js';
import { cardPackOffer } from './offers.js';
import { surfaceOf } from './ports/outcome.js';
import type { ChallengeOffer, PurchaseConfig, PurchasePorts } from './ports/purchase.js';
import { CHALLENGE_NONCE_BYTES, OPAQUE_MEMBERS } from '../wire/wire.js';

/** Issues and records one fresh challenge for the offer (the card pack by default), expiring the challenge lifetime (8: 300 s) after `now`. */
export async function issueChallenge(
  ports: PurchasePorts,
  config: PurchaseConfig,
  now: number,
  offer: ChallengeOffer = cardPackOffer(config),
): Promise<PaymentChallenge> {
  const lifetime = config.challengeLifetimeSeconds ?? PAYMENT_CHALLENGE_LIFETIME_S;
  const challenge = createChallenge(
    {
      realm: config.realm,
      method: offer.method,
      request: offer.request,
      createdAt: now,
      lifetimeSeconds: lifetime,
      opaque: {
        ...offer.opaque,
        [OPAQUE_MEMBERS.packId]: offer.packId,
        [OPAQUE_MEMBERS.kind]: offer.kind,
        [OPAQUE_MEMBERS.terms]: config.terms.version,
        [OPAQUE_MEMBERS.nonce]: encodeBase64url(ports.random.bytes(CHALLENGE_NONCE_BYTES)),
      },
    },
    config.challengeSecret === undefined ? {} : { secret: config.challengeSecret },
  );
  await ports.store.issue({
    id: challenge.id,
    echo: challengeEcho(challenge),
    issuedAt: now,
    expiresAt: now + lifetime,
    termsVersion: config.terms.version,
    method: offer.method,
    kind: offer.kind,
    origin: offer.origin,
    packId: offer.packId,
    price: offer.price,
    creditNano: offer.creditNano,
  });
  return challenge;
}

/** A 402 with exactly one fresh challenge: a Payment scheme problem, or a 7.4 problem row that carries one. */
export async function withFreshChallenge(
  refusal: PaymentProblemRecord | PurchaseErrorRecord,
  ports: PurchasePorts,
  config: PurchaseConfig,
  now: number,
  description?: string,
  offer?: ChallengeOffer,
): Promise<PurchaseAnswer> {
  const challenge = await issueChallenge(ports, config, now, offer);
  const extra = description === undefined ? {} : { description };
  if ('slug' in refusal) return paymentProblemAnswer(refusal, surfaceOf(config), challenge, extra);
  return purchaseAnswer(refusal, surfaceOf(config), { challenge, ...extra });
}
