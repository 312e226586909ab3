import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { READINGS } from '../../spec/readings.js';
import { SIGNATURE_AGENT_TYPES, WELL_KNOWN } from '../../spec/wire.js';
import type { CaseDocument } from '../../cases/types.js';
import { agentAt, cardDocument, keySetDocument } from '../identities.js';
import { accepted, allowing, refused, type Group, type Kit, type Scenario } from '../kit.js';
import { signatureAgentHeader } from '../request-builder.js';

/** A 200 answer whose body is `value` as JSON, whatever its shape. */
const jsonBody = (value: unknown): CaseDocument => ({ status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.json }, body: JSON.stringify(value) });

const withKeySet = (k: Kit, document: CaseDocument) => ({ ...k.docs(), [k.alice.keySetUrl]: document });
const withCard = (k: Kit, document: CaseDocument) => ({ ...k.docs(), [k.alice.cardUrl]: document });
const withMember = (k: Kit, value: string, type: string | null = SIGNATURE_AGENT_TYPES.jwksUri) =>
  k.request({ signatureAgent: signatureAgentHeader(['sig1'], value, type) });

/**
 * A key set of alice's signing key and one entry beside it that no verifier can use: passed over (RFC 7517 section 5),
 * or the whole set refused key_set_invalid (READING-KEY-SET-UNUSABLE-ENTRY).
 */
const keySetWithEntry = (id: string, description: string, entry: (k: Kit) => unknown): Scenario => ({
  id,
  description: `beside the signing key, ${description}: passed over (the request accepted), or the whole set refused key_set_invalid`,
  flags: ['KeySet'],
  build: (k) => ({
    documents: withKeySet(k, keySetDocument([k.A.publicJwk, entry(k)])),
    steps: [k.step(k.request(), allowing(accepted(k.alice.agentUrl), [AUTH_CODES.key_set_invalid], READINGS.keySetUnusableEntry))],
  }),
});

/** 31 bytes: not an Ed25519 public key (32 bytes, RFC 8037). */
const SHORT_X = Buffer.alloc(31, 7).toString('base64url');
/** 32 bytes written in base64 with `+` and `/`, which base64url (RFC 8037 `x`) does not use. */
const BASE64_X = Buffer.alloc(32, 0xfb).toString('base64').replace(/=+$/, '');

const keySets: Scenario[] = [
  {
    id: 'key-set-json-null',
    description: 'a key set whose JSON body is null: read under the fetch rules, not a JWK Set, key_set_invalid',
    flags: ['KeySet'],
    build: (k) => ({ documents: withKeySet(k, jsonBody(null)), steps: [k.step(k.request(), refused(AUTH_CODES.key_set_invalid))] }),
  },
  {
    id: 'key-set-json-array',
    description: 'a key set whose JSON body is a bare array of keys, not a JWK Set object: key_set_invalid',
    flags: ['KeySet'],
    build: (k) => ({ documents: withKeySet(k, jsonBody([k.A.publicJwk])), steps: [k.step(k.request(), refused(AUTH_CODES.key_set_invalid))] }),
  },
  {
    id: 'key-set-keys-not-array',
    description: 'a key set whose keys member is one key object, not an array: key_set_invalid',
    flags: ['KeySet'],
    build: (k) => ({ documents: withKeySet(k, jsonBody({ keys: k.A.publicJwk })), steps: [k.step(k.request(), refused(AUTH_CODES.key_set_invalid))] }),
  },
  keySetWithEntry('key-set-entry-null', 'a keys entry that is null, not a key object', () => null),
  keySetWithEntry('key-set-entry-other-crv', 'an OKP key with crv X25519, not Ed25519', (k) => ({ ...k.B.publicJwk, crv: 'X25519' })),
  keySetWithEntry('key-set-entry-other-kty', 'a key with kty EC, not OKP', (k) => ({ ...k.B.publicJwk, kty: 'EC' })),
  keySetWithEntry('key-set-entry-x-31-bytes', 'an Ed25519 key whose x is 31 bytes, not 32', (k) => ({ ...k.B.publicJwk, x: SHORT_X })),
  keySetWithEntry('key-set-entry-x-not-base64url', 'an Ed25519 key whose x is written in base64 (+ and /), not base64url', (k) => ({
    ...k.B.publicJwk,
    x: BASE64_X,
  })),
  keySetWithEntry('key-set-entry-x-missing', 'an Ed25519 key without x', (k) => ({ ...k.B.publicJwk, x: undefined })),
  keySetWithEntry('key-set-entry-use-enc', 'an Ed25519 key whose use is enc, not sig', (k) => ({ ...k.B.publicJwk, use: 'enc' })),
  {
    id: 'key-set-signing-key-without-use',
    description: 'the signing key published without use (2.4 writes use sig): used as it is, or passed over or refused (READING-KEY-SET-UNUSABLE-ENTRY)',
    flags: ['KeySet'],
    build: (k) => ({
      documents: withKeySet(k, keySetDocument([{ ...k.A.publicJwk, use: undefined }])),
      steps: [
        k.step(k.request(), allowing(accepted(k.alice.agentUrl), [AUTH_CODES.key_set_invalid, AUTH_CODES.signature_key_unknown], READINGS.keySetUnusableEntry)),
      ],
    }),
  },
];

const cards: Scenario[] = [
  {
    id: 'card-json-null',
    description: 'first sight: a card whose JSON body is null has no client_id: card_not_self_naming',
    flags: ['Card'],
    build: (k) => ({ documents: withCard(k, jsonBody(null)), steps: [k.step(k.request(), refused(AUTH_CODES.card_not_self_naming))] }),
  },
  {
    id: 'card-json-array',
    description: 'first sight: a card whose JSON body is an array holding the card has no client_id: card_not_self_naming',
    flags: ['Card'],
    build: (k) => ({
      documents: withCard(k, jsonBody([JSON.parse(cardDocument(k.alice).body!)])),
      steps: [k.step(k.request(), refused(AUTH_CODES.card_not_self_naming))],
    }),
  },
  {
    id: 'card-no-key-set',
    description: 'first sight: a card naming neither jwks_uri nor an inline jwks',
    flags: ['Card'],
    build: (k) => ({
      documents: withCard(k, cardDocument(k.alice, { jwks_uri: undefined })),
      steps: [k.step(k.request(), allowing(refused(AUTH_CODES.card_key_set_mismatch), [AUTH_CODES.card_not_self_naming], READINGS.cardNoKeySet))],
    }),
  },
  {
    id: 'card-jwks-uri-array',
    description: 'first sight: a card whose jwks_uri is an array holding the key set URL, not that URL: card_key_set_mismatch',
    flags: ['Card'],
    build: (k) => ({
      documents: withCard(k, cardDocument(k.alice, { jwks_uri: [k.alice.keySetUrl] })),
      steps: [k.step(k.request(), refused(AUTH_CODES.card_key_set_mismatch))],
    }),
  },
];

const members: Scenario[] = [
  {
    id: 'agent-not-absolute-url',
    description: 'a Signature-Agent member that is a path, not an absolute https URL',
    flags: ['SignatureAgent'],
    build: (k) => ({
      documents: k.docs(),
      steps: [k.step(withMember(k, new URL(k.alice.keySetUrl).pathname), refused(AUTH_CODES.signature_agent_invalid))],
    }),
  },
  {
    id: 'agent-user-information',
    description: 'a key set URL carrying user information (RFC 9110 4.2.4: a recipient SHOULD treat it as an error), its documents served at that URL',
    flags: ['SignatureAgent', 'Should'],
    build: (k) => {
      const url = new URL(k.alice.agentUrl);
      url.username = 'alice';
      const agent = agentAt(url.href);
      return {
        documents: { ...k.docs(), [agent.keySetUrl]: keySetDocument([k.A.publicJwk]), [agent.cardUrl]: cardDocument(agent) },
        steps: [
          k.step(
            withMember(k, agent.keySetUrl),
            allowing(refused(AUTH_CODES.signature_agent_invalid), [AUTH_CODES.key_set_unreachable], READINGS.agentUrlUserInfo),
          ),
        ],
      };
    },
  },
  {
    id: 'agent-key-set-url-with-query',
    description: 'a key set URL with a query: it does not end in /.well-known/jwks.json',
    flags: ['SignatureAgent'],
    build: (k) => ({ documents: k.docs(), steps: [k.step(withMember(k, `${k.alice.keySetUrl}?v=1`), refused(AUTH_CODES.signature_agent_invalid))] }),
  },
  {
    id: 'agent-key-set-url-with-fragment',
    description: 'a key set URL with a fragment: it does not end in /.well-known/jwks.json',
    flags: ['SignatureAgent'],
    build: (k) => ({ documents: k.docs(), steps: [k.step(withMember(k, `${k.alice.keySetUrl}#key-1`), refused(AUTH_CODES.signature_agent_invalid))] }),
  },
  {
    id: 'agent-directory-with-query',
    description: 'type=directory naming an origin followed by a query: not an origin',
    flags: ['SignatureAgent', 'Directory'],
    build: (k) => {
      const origin = new URL(k.alice.agentUrl).origin;
      return {
        documents: k.docs(),
        steps: [k.step(withMember(k, `${origin}/?v=1`, SIGNATURE_AGENT_TYPES.directory), refused(AUTH_CODES.signature_agent_invalid))],
      };
    },
  },
  {
    id: 'agent-directory-origin-trailing-slash',
    description: 'type=directory naming an origin written with a trailing slash',
    flags: ['SignatureAgent', 'Directory'],
    build: (k) => {
      const origin = k.directoryAgent;
      return {
        documents: k.directoryDocs(),
        steps: [
          k.step(
            withMember(k, `${origin.agentUrl}/`, SIGNATURE_AGENT_TYPES.directory),
            allowing(accepted(origin.agentUrl), [AUTH_CODES.signature_agent_invalid], READINGS.directoryTrailingSlash),
          ),
        ],
      };
    },
  },
  {
    id: 'valid-directory-card-names-key-directory',
    description: "type=directory: the card's jwks_uri names the key directory, the key set this Signature-Agent names",
    flags: ['Valid', 'Directory', 'Card'],
    build: (k) => {
      const origin = k.directoryAgent;
      const keyDirectory = origin.agentUrl + WELL_KNOWN.keyDirectory;
      return {
        documents: k.directoryDocs({ mediaType: MEDIA_TYPES.keyDirectory, card: { jwks_uri: keyDirectory } }),
        steps: [k.step(withMember(k, origin.agentUrl, SIGNATURE_AGENT_TYPES.directory), accepted(origin.agentUrl))],
      };
    },
  },
];

/**
 * The shape of what is read, not only its content: key sets and cards that are JSON but not the object 2.4 names,
 * key entries of another kind beside a good one, and Signature-Agent values that are not the URL form 5.2 names.
 */
export const documentForms: Group = {
  comment: 'Documents that are JSON but not the object 2.4 names, key entries of another kind, and Signature-Agent values of another URL form.',
  scenarios: [...keySets, ...cards, ...members],
};
