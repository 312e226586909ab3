import { serializeDictionary } from 'structured-headers';
import { AUTH_ERRORS, AUTH_ERROR_BODY_ERROR, type AuthErrorCode } from '../spec/auth-errors.js';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { namedText, NEUTRAL_NAMING, type ServiceNaming } from '../spec/naming.js';
import { BEARER_CHALLENGE, COMPONENTS, SIGNATURE_LABELS, WEB_BOT_AUTH_TAG } from '../spec/wire.js';
import type { Refusal } from './types.js';

/** An RFC 9110 quoted-string: backslash and double quote escaped, anything outside visible ASCII replaced. */
function quoted(text: string): string {
  const visible = text.replace(/[^\x20-\x7e]/g, '?');
  return `"${visible.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** The 7.3 challenge of a refusal; `realm` is the deployment's name for Service (the neutral `service` by default). */
export function bearerChallenge(description: string, realm: string = BEARER_CHALLENGE.realm): string {
  return `${BEARER_CHALLENGE.scheme} realm=${quoted(realm)}, error=${quoted(BEARER_CHALLENGE.error)}, error_description=${quoted(description)}`;
}

/** The covered components the platform asks for (5.2), content-digest only when the request has a body. */
export function acceptSignatureValue(hasBody: boolean): string {
  const label = SIGNATURE_LABELS[0];
  const plain = (name: string) => [name, new Map()] as [string, Map<string, never>];
  const items = [
    plain(COMPONENTS.method),
    plain(COMPONENTS.authority),
    plain(COMPONENTS.path),
    plain(COMPONENTS.query),
    ...(hasBody ? [plain(HEADERS.contentDigest)] : []),
    [HEADERS.signatureAgent, new Map([['key', label]])] as [string, Map<string, string>],
  ];
  return serializeDictionary(new Map([[label, [items, new Map([['tag', WEB_BOT_AUTH_TAG]])]]]));
}

export function refuse(
  code: AuthErrorCode,
  descriptionText: string,
  context: { hasBody: boolean; agentUrl?: string | null; naming?: ServiceNaming | undefined },
): Refusal {
  const record = AUTH_ERRORS[code];
  const naming = context.naming ?? NEUTRAL_NAMING;
  const description = namedText(descriptionText, naming);
  const headers: Record<string, string> = {
    [HEADERS.wwwAuthenticate]: bearerChallenge(description, naming.realm),
    [HEADERS.contentType]: MEDIA_TYPES.json,
    [HEADERS.cacheControl]: 'no-store',
  };
  if (record.acceptSignature) headers[HEADERS.acceptSignature] = acceptSignatureValue(context.hasBody);
  return Object.freeze({
    ok: false,
    status: record.status,
    code,
    description,
    headers: Object.freeze(headers),
    body: Object.freeze({ error: AUTH_ERROR_BODY_ERROR, error_code: code, error_description: description }),
    agentUrl: context.agentUrl ?? null,
  });
}
