import { CARD_MEMORY_TOLERANCE_S, READINGS } from '../../spec/readings.js';
import { HEADERS } from '../../spec/headers.js';
import { AUTH_CODES } from '../../spec/auth-errors.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { LIMITS } from '../../spec/limits.js';
import { SIGNATURE_AGENT_TYPES } from '../../spec/wire.js';
import type { CaseDocument } from '../../cases/types.js';
import { cardDocument, keyFromName, keySetDocument } from '../identities.js';
import { accepted, allowing, refused, type Group, type Kit } from '../kit.js';
import { signatureAgentHeader } from '../request-builder.js';

/**
 * One second past the key set re-read interval: "read at most once per 5 minutes" allows a read at exactly 300 s and
 * does not ask one, so a step demanding what only a new read shows comes a second later.
 */
const REREAD = LIMITS.keySetRereadInterval.value + 1;

/** The RFC 9421 Appendix B.1.4 public key: published test material, never admitted (2.4). */
const RFC9421_TEST_KEY = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', use: 'sig' };

/** A public RSA key, which 2.4 lets a key set carry between SDK agents. */
const RSA_PUBLIC_KEY = {
  kty: 'RSA',
  e: 'AQAB',
  n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
  use: 'sig',
};

const withKeySet = (k: Kit, document: CaseDocument) => ({ ...k.docs(), [k.alice.keySetUrl]: document });
const withCard = (k: Kit, document: CaseDocument) => ({ ...k.docs(), [k.alice.cardUrl]: document });

export const documents: Group = {
  comment: 'Key sets and cards read under the fetch rules (5.2, 2.4), key selection, and what is cached and remembered.',
  scenarios: [
    // key_set_unreachable
    {
      id: 'key-set-redirect',
      description: 'a key set answered with a redirect is unreachable (redirects are not followed)',
      flags: ['FetchRules'],
      build: (k) => ({
        documents: {
          ...withKeySet(k, { status: 302, headers: { location: 'https://elsewhere.example/jwks.json' }, body: '' }),
          'https://elsewhere.example/jwks.json': keySetDocument([k.A.publicJwk]),
        },
        steps: [k.step(k.request(), refused(AUTH_CODES.key_set_unreachable))],
      }),
    },
    {
      id: 'key-set-404',
      description: 'a key set answered with 404',
      flags: ['FetchRules'],
      build: (k) => ({ documents: withKeySet(k, { status: 404, body: 'not found' }), steps: [k.step(k.request(), refused(AUTH_CODES.key_set_unreachable))] }),
    },
    {
      id: 'key-set-500',
      description: 'a key set answered with 500',
      flags: ['FetchRules'],
      build: (k) => ({ documents: withKeySet(k, { status: 500, body: '' }), steps: [k.step(k.request(), refused(AUTH_CODES.key_set_unreachable))] }),
    },
    {
      id: 'key-set-slow',
      description: 'a key set answered after more than 5 s',
      flags: ['FetchRules'],
      build: (k) => ({
        documents: withKeySet(k, { ...keySetDocument([k.A.publicJwk]), delay_ms: LIMITS.documentFetchTimeout.value + 1000 }),
        steps: [k.step(k.request(), refused(AUTH_CODES.key_set_unreachable))],
      }),
    },
    {
      id: 'key-set-answered-in-4500-ms',
      description: 'a key set answered after 4.5 s, within the 5 s of the fetch rules, is read',
      flags: ['FetchRules', 'Boundary', 'Valid'],
      build: (k) => ({
        documents: withKeySet(k, { ...keySetDocument([k.A.publicJwk]), delay_ms: LIMITS.documentFetchTimeout.value - 500 }),
        steps: [k.step(k.request(), accepted(k.alice.agentUrl))],
      }),
    },
    {
      id: 'key-set-over-64-kib',
      description: 'a key set body over 64 KiB',
      flags: ['FetchRules', 'Boundary'],
      build: (k) => ({
        documents: withKeySet(k, {
          status: 200,
          headers: { [HEADERS.contentType]: MEDIA_TYPES.json },
          body: JSON.stringify({ keys: [k.A.publicJwk], padding: 'x'.repeat(LIMITS.documentSize.value) }),
        }),
        steps: [k.step(k.request(), allowing(refused(AUTH_CODES.key_set_unreachable), [AUTH_CODES.key_set_invalid], READINGS.keySetUnreadable))],
      }),
    },
    {
      id: 'key-set-connection-refused',
      description: 'nothing answers at the key set URL',
      flags: ['FetchRules'],
      build: (k) => {
        const docs = { ...k.docs() };
        delete (docs as Record<string, unknown>)[k.alice.keySetUrl];
        return { documents: docs, steps: [k.step(k.request(), refused(AUTH_CODES.key_set_unreachable))] };
      },
    },
    {
      id: 'key-set-not-json',
      description: 'a key set whose body is not JSON',
      flags: ['FetchRules'],
      build: (k) => ({
        documents: withKeySet(k, { status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.html }, body: '<html>keys</html>' }),
        steps: [k.step(k.request(), allowing(refused(AUTH_CODES.key_set_unreachable), [AUTH_CODES.key_set_invalid], READINGS.keySetUnreadable))],
      }),
    },
    // key_set_invalid
    {
      id: 'key-set-17-keys',
      description: 'a key set of 17 keys (at most 16)',
      flags: ['KeySet', 'Boundary'],
      build: (k) => {
        const extra = Array.from({ length: 16 }, (_, i) => keyFromName(`filler-${i}`).publicJwk);
        return { documents: withKeySet(k, keySetDocument([k.A.publicJwk, ...extra])), steps: [k.step(k.request(), refused(AUTH_CODES.key_set_invalid))] };
      },
    },
    {
      id: 'key-set-16-keys',
      description: 'a key set of exactly 16 keys is valid',
      flags: ['KeySet', 'Boundary', 'Valid'],
      build: (k) => {
        const extra = Array.from({ length: 15 }, (_, i) => keyFromName(`filler-${i}`).publicJwk);
        return { documents: withKeySet(k, keySetDocument([...extra, k.A.publicJwk])), steps: [k.step(k.request(), accepted(k.alice.agentUrl))] };
      },
    },
    {
      id: 'key-set-rfc9421-test-key',
      description: 'a key set holding the RFC 9421 test key',
      flags: ['KeySet'],
      build: (k) => ({
        documents: withKeySet(k, keySetDocument([k.A.publicJwk, RFC9421_TEST_KEY])),
        steps: [k.step(k.request(), refused(AUTH_CODES.key_set_invalid))],
      }),
    },
    {
      id: 'key-set-rsa-key',
      description: 'a key set holding an RSA key beside the Ed25519 key that signed: accepted (2.4 allows it between SDK agents)',
      flags: ['KeySet', 'Valid'],
      build: (k) => ({
        documents: withKeySet(k, keySetDocument([k.A.publicJwk, RSA_PUBLIC_KEY])),
        steps: [k.step(k.request(), accepted(k.alice.agentUrl))],
      }),
    },
    {
      id: 'key-set-16-keys-and-rsa',
      description: '16 Ed25519 keys and an RSA key: accepted (16 counts the Ed25519 keys), or key_set_invalid (section 8 counts 17 keys; READING-KEY-SET-RSA)',
      flags: ['KeySet', 'Boundary'],
      build: (k) => {
        const extra = Array.from({ length: 15 }, (_, i) => keyFromName(`filler-${i}`).publicJwk);
        return {
          documents: withKeySet(k, keySetDocument([...extra, k.A.publicJwk, RSA_PUBLIC_KEY])),
          steps: [k.step(k.request(), allowing(accepted(k.alice.agentUrl), [AUTH_CODES.key_set_invalid], READINGS.keySetRsa))],
        };
      },
    },
    {
      id: 'key-set-use-enc',
      description: 'a key whose use is enc, not sig',
      flags: ['KeySet'],
      build: (k) => ({
        documents: withKeySet(k, keySetDocument([{ ...k.A.publicJwk, use: 'enc' }])),
        steps: [k.step(k.request(), refused(AUTH_CODES.key_set_invalid))],
      }),
    },
    {
      id: 'key-set-no-keys-array',
      description: 'a JSON document without a keys array',
      flags: ['KeySet'],
      build: (k) => ({
        documents: withKeySet(k, { status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.json }, body: JSON.stringify({ key: k.A.publicJwk }) }),
        steps: [k.step(k.request(), refused(AUTH_CODES.key_set_invalid))],
      }),
    },
    {
      id: 'key-set-private-key-published',
      description: 'a key set publishing a private key (d)',
      flags: ['KeySet'],
      build: (k) => ({
        documents: withKeySet(k, keySetDocument([{ ...k.A.publicJwk, d: k.A.privateJwk.d }])),
        steps: [k.step(k.request(), refused(AUTH_CODES.key_set_invalid))],
      }),
    },
    {
      id: 'key-directory-wrong-media-type',
      description: 'a key directory served as application/json instead of its media type',
      flags: ['KeySet', 'Directory'],
      build: (k) => {
        const origin = k.directoryAgent;
        return {
          documents: k.directoryDocs({ mediaType: undefined }),
          steps: [
            k.step(
              k.request({ signatureAgent: signatureAgentHeader(['sig1'], origin.agentUrl, SIGNATURE_AGENT_TYPES.directory) }),
              refused(AUTH_CODES.key_set_invalid),
            ),
          ],
        };
      },
    },
    // signature_key_unknown
    {
      id: 'key-unknown-other-key-published',
      description: 'the key set does not carry the key the keyid names',
      flags: ['KeySelection'],
      build: (k) => ({ documents: k.docs(k.alice, [k.B]), steps: [k.step(k.request(), refused(AUTH_CODES.signature_key_unknown))] }),
    },
    {
      id: 'key-unknown-one-of-two-labels',
      description: 'one of two labels names a key the set does not carry; the whole request is refused',
      flags: ['KeySelection', 'KeyRotation'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              labels: [
                { label: 'sig1', key: k.A },
                { label: 'sig2', key: k.A2 },
              ],
            }),
            refused(AUTH_CODES.signature_key_unknown),
          ),
        ],
      }),
    },
    // signature_invalid
    {
      id: 'invalid-path-changed',
      description: 'the path changed after signing',
      flags: ['Signature'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              after: (r) => {
                r.url = r.url.replace('/cli/token', '/cli/tokens');
              },
            }),
            refused(AUTH_CODES.signature_invalid),
          ),
        ],
      }),
    },
    {
      id: 'invalid-method-changed',
      description: 'the method changed after signing',
      flags: ['Signature'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              after: (r) => {
                r.method = 'PUT';
              },
            }),
            refused(AUTH_CODES.signature_invalid),
          ),
        ],
      }),
    },
    {
      id: 'invalid-query-added',
      description: 'a query string added after signing',
      flags: ['Signature'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              after: (r) => {
                r.url += '?admin=1';
              },
            }),
            refused(AUTH_CODES.signature_invalid),
          ),
        ],
      }),
    },
    {
      id: 'invalid-signed-by-other-key',
      description: 'signed with another key under the thumbprint of a published key',
      flags: ['Signature'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [{ label: 'sig1', key: { ...k.A, privateJwk: k.B.privateJwk } }] }), refused(AUTH_CODES.signature_invalid))],
      }),
    },
    // card
    {
      id: 'card-404',
      description: 'first sight: the card answers 404',
      flags: ['Card', 'FetchRules'],
      build: (k) => ({ documents: withCard(k, { status: 404, body: '' }), steps: [k.step(k.request(), refused(AUTH_CODES.card_unreachable))] }),
    },
    {
      id: 'card-redirect',
      description: 'first sight: the card answers with a redirect',
      flags: ['Card', 'FetchRules'],
      build: (k) => ({
        documents: withCard(k, { status: 301, headers: { location: 'https://agents.example/card.json' }, body: '' }),
        steps: [k.step(k.request(), refused(AUTH_CODES.card_unreachable))],
      }),
    },
    {
      id: 'card-client-id-wrong',
      description: "the card's client_id is not the card's own URL",
      flags: ['Card'],
      build: (k) => ({
        documents: withCard(k, cardDocument(k.alice, { client_id: 'alice' })),
        steps: [k.step(k.request(), refused(AUTH_CODES.card_not_self_naming))],
      }),
    },
    {
      id: 'card-url-trailing-slash',
      description: "the card's url has a trailing slash",
      flags: ['Card'],
      build: (k) => ({
        documents: withCard(k, cardDocument(k.alice, { url: `${k.alice.agentUrl}/` })),
        steps: [k.step(k.request(), refused(AUTH_CODES.card_not_self_naming))],
      }),
    },
    {
      id: 'card-jwks-uri-differs',
      description: "the card's jwks_uri names another key set",
      flags: ['Card'],
      build: (k) => ({
        documents: withCard(k, cardDocument(k.alice, { jwks_uri: k.bob.keySetUrl })),
        steps: [k.step(k.request(), refused(AUTH_CODES.card_key_set_mismatch))],
      }),
    },
    {
      id: 'card-both-jwks-uri-and-jwks',
      description: 'the card carries both jwks_uri and an inline jwks',
      flags: ['Card'],
      build: (k) => ({
        documents: withCard(k, cardDocument(k.alice, { jwks: { keys: [k.A.publicJwk] } })),
        steps: [k.step(k.request(), refused(AUTH_CODES.card_key_set_mismatch))],
      }),
    },
    {
      id: 'card-carries-key-signed-by-it',
      description: "first sight: the card also carries a key (keys: [bob's]) the key set does not, and the request is signed with it: refused",
      flags: ['Card', 'KeySelection'],
      build: (k) => ({
        documents: withCard(k, cardDocument(k.alice, { keys: [k.B.publicJwk] })),
        steps: [
          k.step(
            k.request({ labels: [{ label: 'sig1', key: k.B }] }),
            allowing(refused(AUTH_CODES.signature_key_unknown), [AUTH_CODES.credential_refused], READINGS.cardCarryingKey),
          ),
        ],
      }),
    },
    {
      id: 'card-cimd-carries-key-signed-by-it',
      description: "type=cimd: the card names the key set and also carries a key (jwk: bob's) the set does not; the request is signed with it: refused",
      flags: ['Card', 'Cimd', 'KeySelection'],
      build: (k) => ({
        documents: withCard(k, cardDocument(k.alice, { jwk: k.B.publicJwk })),
        steps: [
          k.step(
            k.request({ signatureAgent: signatureAgentHeader(['sig1'], k.alice.cardUrl, SIGNATURE_AGENT_TYPES.cimd), labels: [{ label: 'sig1', key: k.B }] }),
            allowing(refused(AUTH_CODES.signature_key_unknown), [AUTH_CODES.credential_refused], READINGS.cardCarryingKey),
          ),
        ],
      }),
    },
    {
      id: 'card-refusal-remembered',
      description: 'a card refusal is remembered about 10 minutes: a fixed card is not read 9 minutes on, and is read again 11 minutes on',
      flags: ['Card', 'Caching', 'Boundary'],
      build: (k) => {
        // READING-CARD-MEMORY: "about 10 minutes" is probed a tolerance away on each side, never at 600 s itself.
        const remembered = LIMITS.cardRefusalMemory.value - CARD_MEMORY_TOLERANCE_S - 1;
        const forgotten = LIMITS.cardRefusalMemory.value + CARD_MEMORY_TOLERANCE_S;
        return {
          documents: withCard(k, cardDocument(k.alice, { client_id: 'alice' })),
          steps: [
            k.step(k.request(), refused(AUTH_CODES.card_not_self_naming)),
            k.step(k.request({ created: k.now + remembered, expires: k.now + remembered + 60 }), refused(AUTH_CODES.card_not_self_naming), {
              at: k.now + remembered,
              documents: { [k.alice.cardUrl]: cardDocument(k.alice) },
            }),
            k.step(k.request({ created: k.now + forgotten, expires: k.now + forgotten + 60 }), accepted(k.alice.agentUrl), { at: k.now + forgotten }),
          ],
        };
      },
    },
    {
      id: 'key-set-failure-cached',
      description: 'a failed key set read is reused for 5 minutes, then read again',
      flags: ['KeySet', 'Caching'],
      build: (k) => ({
        documents: withKeySet(k, { status: 503, body: '' }),
        steps: [
          k.step(k.request(), refused(AUTH_CODES.key_set_unreachable)),
          k.step(k.request({ created: k.now + 299, expires: k.now + 359 }), refused(AUTH_CODES.key_set_unreachable), { at: k.now + 299, documents: k.docs() }),
          k.step(k.request({ created: k.now + REREAD, expires: k.now + REREAD + 60 }), accepted(k.alice.agentUrl), { at: k.now + REREAD }),
        ],
      }),
    },
    {
      id: 'key-set-success-cached',
      description: 'a key set is read at most once per 5 minutes: a key added meanwhile is unknown until the next read',
      flags: ['KeySet', 'Caching', 'KeyRotation'],
      build: (k) => ({
        documents: k.docs(),
        registrations: { [k.alice.agentUrl]: { thumbprints: [k.A.thumbprint] } },
        steps: [
          k.step(k.request(), accepted(k.alice.agentUrl)),
          k.step(
            k.request({
              labels: [
                { label: 'sig1', key: k.A },
                { label: 'sig2', key: k.A2 },
              ],
              created: k.now + 100,
              expires: k.now + 160,
            }),
            refused(AUTH_CODES.signature_key_unknown),
            { at: k.now + 100, documents: k.docs(k.alice, [k.A, k.A2]) },
          ),
          k.step(
            k.request({
              labels: [
                { label: 'sig1', key: k.A },
                { label: 'sig2', key: k.A2 },
              ],
              created: k.now + REREAD,
              expires: k.now + REREAD + 60,
            }),
            accepted(k.alice.agentUrl),
            { at: k.now + REREAD },
          ),
        ],
      }),
    },
  ],
};
