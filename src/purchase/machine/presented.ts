import { HEADERS } from '../../spec/headers.js';
import { tokenOf } from '../wire/credential.js';
import { parseCredential, type CredentialParse, type PaymentCredential } from '../wire/credential.js';
import { headerOf, type PurchaseRequest } from './ports/outcome.js';

/** What a request presents in Payment-Authorization: the parse, the readable credential, and its card token. */
export interface PresentedCredential {
  readonly parsed: CredentialParse | undefined;
  readonly credential: PaymentCredential | undefined;
  readonly token: string | undefined;
}

export function presentedCredential(input: PurchaseRequest): PresentedCredential {
  const raw = headerOf(input.headers, HEADERS.paymentAuthorization);
  const parsed = raw === undefined ? undefined : parseCredential(raw);
  const credential = parsed?.ok ? parsed.credential : undefined;
  return { parsed, credential, token: credential === undefined ? undefined : tokenOf(credential) };
}
