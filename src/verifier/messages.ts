import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { ED25519_JWK, WEB_BOT_AUTH_TAG, WELL_KNOWN } from '../spec/wire.js';

const skew = LIMITS.clockSkew.value;
const window = LIMITS.signatureValidity.value;
const nonceMax = LIMITS.nonceMaxLength.value;

/**
 * What a refusal tells the person at the other end: what is wrong and what to do, one or two sentences.
 * Kept apart from the checks so the wording can be read (and reviewed) in one place.
 */
export const MESSAGES = {
  tooManyFailures: (count: number) =>
    `${count} signed requests from this network address failed to verify in the last ${LIMITS.failedSignaturesWindow.value} seconds; nothing was read. Fix the signer, then retry after a minute.`,
  missingCredential: (otherScheme: string | null) =>
    otherScheme
      ? `The Authorization header uses the ${otherScheme} scheme, which this platform does not accept. Sign the request (Signature-Agent, Signature-Input, Signature) or send a platform token as Authorization: Bearer.`
      : 'The request carries no credential. Sign it (Signature-Agent, Signature-Input, Signature; Accept-Signature lists the components to cover) or send a platform token as Authorization: Bearer.',
  malformedToken: 'The Bearer token is not a JWT (three base64url segments separated by dots). Send the platform token exactly as it was issued.',
  tokenInvalid: (why: string) =>
    `The Bearer token is not a valid platform token: ${why}. Obtain a fresh platform token; a JWT an agent signs for itself is not accepted here.`,
  tokenScope: (needed: string) => `The platform token does not carry the "${needed}" scope agents need (it is restricted). Use a token issued for agent use.`,
  bodyConsumed:
    'The platform read the request body before checking its signature, so nothing could be evaluated. This is a fault of the platform route, not of the request.',
  notDictionaries:
    'Signature-Input and Signature must be RFC 9651 dictionaries whose members match label for label, each Signature member a byte sequence (:base64:).',
  // The label lists, the spans of time and the missing names below are worked out here, not by the checks:
  // they change only the words of error_description, which the spec leaves open (see docs/mutation.md).
  labelsDiffer: (inputs: ReadonlyMap<string, unknown>, signatures: ReadonlyMap<string, unknown>) => {
    const onlyInput = [...inputs.keys()].filter((l) => !signatures.has(l));
    const onlySignature = [...signatures.keys()].filter((l) => !inputs.has(l));
    return `Signature-Input and Signature must name the same labels; ${[
      onlyInput.length ? `only Signature-Input has ${onlyInput.join(', ')}` : '',
      onlySignature.length ? `only Signature has ${onlySignature.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' and ')}.`;
  },
  noTag: `No signature carries tag="${WEB_BOT_AUTH_TAG}" (a quoted string). Set that tag on the Signature-Input member this platform should verify.`,
  tooManyLabels: (n: number, max: number) => `${n} signatures carry tag="${WEB_BOT_AUTH_TAG}"; at most ${max} may (one per held key).`,
  signatureSize: (label: string, size: number) => `Signature ${label} is ${size} bytes; an Ed25519 signature is exactly ${LIMITS.signatureSize.value} bytes.`,
  componentNotAllowed: (label: string, id: string) =>
    `Signature ${label} covers ${id}, which this profile does not allow. Cover only @method, @authority, @path, @query, plain header fields and "signature-agent";key="${label}".`,
  componentNotString: (label: string) => `Signature ${label} covers an item that is not a quoted component name.`,
  paramCreated: 'The created parameter is required and must be an integer number of seconds since the epoch.',
  paramExpires: 'The expires parameter is required and must be an integer number of seconds since the epoch.',
  paramKeyid: 'The keyid parameter must be the RFC 7638 SHA-256 thumbprint of the signing key: a base64url string of 43 characters without padding.',
  paramAlg: (alg: string) => `The alg parameter says ${JSON.stringify(alg)}; when sent it must be "ed25519".`,
  paramNonce: `The nonce parameter is required: a string of 1 to ${nonceMax} characters, fresh for every request.`,
  paramOrder: 'The expires parameter must be later than created.',
  paramWindow: (created: number, expires: number) =>
    `The signature is valid for ${expires - created} seconds; expires - created may be at most ${window} seconds.`,
  createdAhead: (created: number, now: number) =>
    `The created parameter is ${created - now} seconds in the future (more than ${skew} s of tolerated skew); check the signer's clock.`,
  expired: (expires: number, now: number) =>
    `The signature expired ${now - expires} seconds ago (more than ${skew} s of tolerated skew); sign a fresh request.`,
  authority: (got: string, own: string) =>
    `The request was signed for ${JSON.stringify(got)}, but this platform verifies signatures made for its own host only; sign the request for ${own} and send it there, not to an alias or custom domain.`,
  bodyTooLarge: () =>
    `The body is larger than ${LIMITS.signedRequestBody.value} bytes (4 MiB), the most a signed request may carry; send less or split the request.`,
  agentHeaderMissing:
    'The request is signed but carries no Signature-Agent header; send Signature-Agent: sig1="https://<agent>/.well-known/jwks.json";type=jwks_uri and cover it.',
  agentHeaderNotDictionary:
    'Signature-Agent must be an RFC 9651 dictionary such as sig1="https://<agent>/.well-known/jwks.json";type=jwks_uri (the bare-string legacy form is not accepted).',
  coverageMissing: (label: string, derived: readonly string[], agentMember: boolean) =>
    `Signature ${label} does not cover ${[...derived.map((n) => `"${n}"`), ...(agentMember ? [`"${HEADERS.signatureAgent}";key="${label}"`] : [])].join(', ')}; Accept-Signature lists every component this platform needs.`,
  coverageBody: (label: string) =>
    `The request has a body, so signature ${label} must cover "content-digest" and the request must send Content-Digest (sha-256 or sha-512 over the body bytes).`,
  coverageAgentTwice: (label: string) =>
    `Signature ${label} covers the Signature-Agent member more than once; cover "signature-agent";key="${label}" exactly once.`,
  memberMissing: (key: string) => `The Signature-Agent dictionary has no member keyed ${key}, the member this signature covers.`,
  memberNotString: (key: string) => `The Signature-Agent member ${key} must be a quoted string holding a URL.`,
  memberUrl: (key: string, why: string) => `The Signature-Agent member ${key} is not usable: ${why}.`,
  agentsDiffer: (urls: string[]) => `All signatures on one request must name the same agent, but they name ${urls.join(' and ')}.`,
  refusedAgent: 'This credential cannot authenticate here.',
  digestMissing: 'The signature covers content-digest but the request carries no Content-Digest header.',
  digestMismatch: (detail: string) => `Content-Digest does not match the request body: ${detail}. Compute it over the exact body bytes sent.`,
  coveredFieldAbsent: (label: string, detail: string) => `Signature ${label} cannot be checked: ${detail}.`,
  keySetUnreachable: (detail: string) => `The key set could not be read: ${detail}.`,
  keySetInvalid: (url: string, detail: string) => `The document at ${url} is not a valid key set: ${detail}.`,
  keyUnknown: (label: string, keyid: string, url: string) =>
    `No key in the key set at ${url} has the thumbprint ${keyid} that signature ${label} names as keyid. Publish the key there (the key set is re-read at most every ${LIMITS.keySetRereadInterval.value / 60} minutes).`,
  signatureInvalid: (label: string) =>
    `Signature ${label} does not verify under the published key; the signature base built here differs from the one signed (check @authority, @path, @query and every covered header).`,
  continuity: `The key set carries the signing key, but this agent is registered with other keys and none of them signed. Sign with a key the registration already holds as well (a second label), or send the operator's platform key in X-Service-Owner-Key.`,
  replayed: (label: string) => `The nonce of signature ${label} was already used for this agent; sign every request afresh.`,
  cardUnreachable: (detail: string) => `The agent card could not be read: ${detail}. No other address is tried.`,
  cardNotJson: (url: string) => `The agent card at ${url} is not a JSON object.`,
  cardClientId: (url: string, got: unknown) => `The agent card must name itself: client_id must be ${url}, but it is ${JSON.stringify(got)}.`,
  cardUrl: (agentUrl: string, got: unknown) =>
    `The agent card must name the agent: url must be ${agentUrl} (no trailing slash), but it is ${JSON.stringify(got)}.`,
  cardBothKeySets: 'The agent card carries both jwks_uri and an inline jwks; it must carry exactly one of them.',
  cardNoKeySet: (keySetUrl: string) => `The agent card names no key set; jwks_uri must be ${keySetUrl}.`,
  cardKeySet: (keySetUrl: string, got: unknown) =>
    `The agent card's jwks_uri must be ${keySetUrl}, the key set this request names, but it is ${JSON.stringify(got)}.`,
  rememberedCard: (description: string) =>
    `${description} (remembered from an earlier attempt; the card is read again after about ${LIMITS.cardRefusalMemory.value / 60} minutes)`,
  directorySuffix: WELL_KNOWN.keyDirectory,
} as const;

/** Why a Signature-Agent member names no agent (signature-agent.ts), for error_description. */
export const AGENT_URL_WHY = {
  notAbsolute: 'the value must be an absolute URL',
  notHttps: 'the value must use https',
  userInfo: 'the URL must not carry user information',
  queryOrFragment: 'the URL must not carry a query or fragment',
  directoryNotOrigin: 'with type=directory the value must be an origin such as https://agent.example',
  notNormalized: (href: string) => `the URL must be written in normalized form (${href})`,
  notCardUrl: `with type=cimd the value must be a card URL ending in ${WELL_KNOWN.agentCard}`,
  unknownType: (type: string) => `the type ${JSON.stringify(type)} is not one of jwks_uri, cimd or directory`,
  notKeySetUrl: `the value must be a key set URL ending in ${WELL_KNOWN.jwks}`,
} as const;

/** What is wrong with a key set document (key-set.ts), for error_description. */
export const KEY_SET_DETAIL = {
  notObject: (index: number) => `keys[${index}] is not an object`,
  notEd25519: (index: number, kty: unknown, crv: unknown) =>
    `keys[${index}] has kty ${JSON.stringify(kty)} and crv ${JSON.stringify(crv)}; only ${ED25519_JWK.kty} ${ED25519_JWK.crv} keys sign requests`,
  use: (index: number, use: unknown) => `keys[${index}] says use ${JSON.stringify(use)}, not "${ED25519_JWK.use}"`,
  useMissing: (index: number) => `keys[${index}] has no use member; 2.4 writes use "${ED25519_JWK.use}"`,
  privateKey: (index: number) => `keys[${index}] carries a private key (d); publish the public key only`,
  x: (index: number) => `keys[${index}] has no valid x (32 bytes, base64url)`,
  testKey: (index: number) => `keys[${index}] is an RFC 9421 test key, which is public and never admitted`,
  rsa: (index: number) => `keys[${index}] is an RSA key, which signs no request to the platform`,
  duplicate: (index: number, thumbprint: string) => `keys[${index}] repeats the key ${thumbprint}`,
  duplicateKid: (index: number, kid: string) => `keys[${index}] reuses the kid ${JSON.stringify(kid)} of another key`,
  notJsonObject: 'it is not a JSON object',
  noKeysArray: 'it has no "keys" array',
  noEd25519Key: (entries: number) => (entries ? 'it holds no Ed25519 key usable for signatures' : 'its "keys" array is empty'),
  tooManyKeys: (n: number, max: number) => `it holds ${n} Ed25519 keys; a key set may hold at most ${max}`,
  tooManyEntries: (entries: number, keys: number, max: number) =>
    `it holds ${entries} entries (${keys} of them Ed25519 keys usable for signatures); a key set may hold at most ${max} keys`,
  notJson: 'the body is not JSON',
} as const;
