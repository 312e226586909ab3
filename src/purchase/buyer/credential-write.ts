import { CREDENTIAL_MEMBERS } from '../../spec/payments.js';
import { AUTH_SCHEMES } from '../../spec/wire.js';
import { jcsBase64url } from '../wire/canonical-json.js';
import { challengeEcho, type PaymentChallenge } from '../wire/challenge.js';
import type { PaymentCredential } from '../wire/credential.js';
import type { JsonObject } from '../wire/json.js';

/*
 * The buyer's side of a credential: what a buyer sends (the suites build their paid retries with it). It is held by
 * its unit tests: a deployment reads credentials, it never writes one.
 */

/** The credential answering a challenge: its wire members echoed, with the payload and optional source. */
export function credentialFor(challenge: PaymentChallenge, payload: JsonObject, source?: string): PaymentCredential {
  return Object.freeze({ challenge: challengeEcho(challenge), payload, ...(source === undefined ? {} : { source }) });
}

/** The header value: `Payment ` and base64url without padding of the JCS of `{challenge, payload, source?}`. */
export function serializeCredential(credential: PaymentCredential): string {
  const body: JsonObject = {
    [CREDENTIAL_MEMBERS.challenge]: credential.challenge,
    [CREDENTIAL_MEMBERS.payload]: credential.payload,
    ...(credential.source === undefined ? {} : { [CREDENTIAL_MEMBERS.source]: credential.source }),
  };
  return `${AUTH_SCHEMES.payment} ${jcsBase64url(body)}`;
}
