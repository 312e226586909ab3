import { MEDIA_TYPES } from '../../spec/media-types.js';
import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { accepted, allowing, refused, type Group, type Kit } from '../kit.js';
import { READINGS } from '../../spec/readings.js';
import { AGENT_SCOPE, PLATFORM_TOKEN_ISSUER, PORTAL_AUTHORITY, platformToken, platformTokenKeys } from '../platform-tokens.js';

const tokenPlatform = () => ({ token_keys: platformTokenKeys(), token_issuer: PLATFORM_TOKEN_ISSUER, agent_scope: AGENT_SCOPE });

function bare(k: Kit, headers: Array<[string, string]>, body = '{}') {
  return { method: 'POST', url: k.url(), headers, ...(body ? { body_base64: Buffer.from(body).toString('base64') } : {}) };
}

const claims = (k: Kit, extra: Record<string, unknown> = {}) => ({
  iss: PLATFORM_TOKEN_ISSUER,
  sub: 'agent:alice',
  iat: k.now - 10,
  exp: k.now + 600,
  jti: 'token-1',
  scope: AGENT_SCOPE,
  ...extra,
});

/**
 * A Payment credential as the platform SDK writes it (7.4): "Payment " and the base64url JSON of the challenge it
 * answers and its payload. It looks valid; no challenge of the platform's stands behind it.
 */
const PAYMENT_TOKEN = `Payment ${Buffer.from(
  JSON.stringify({
    challenge: { id: 'ch_conformance', realm: 'platform.example', method: 'card', intent: 'charge', request: 'eyJhbW91bnQiOiIxMDAwIn0' },
    payload: { spt: 'spt_conformance_0001' },
  }),
).toString('base64url')}`;
/** A session cookie of the kind a browser login leaves. */
const SESSION_COOKIE = 'session=s%3Aconformance-session.9f8e7d6c5b4a; Path=/';

const badSignature = (k: Kit) => [{ label: 'sig1', key: k.A, tamper: (s: Uint8Array) => flip(s) }];

export const credentials: Group = {
  comment: 'Requests without a signature: no credential, and platform bearer tokens (5.3).',
  scenarios: [
    {
      id: 'missing-credential-nothing',
      description: 'no signature headers and no Authorization header',
      flags: ['Credential'],
      build: (k) => ({ documents: {}, steps: [k.step(bare(k, [[HEADERS.contentType, MEDIA_TYPES.json]]), refused(AUTH_CODES.missing_credential))] }),
    },
    {
      id: 'missing-credential-other-scheme',
      description: 'an Authorization header of another scheme lands on missing_credential',
      flags: ['Credential'],
      build: (k) => ({ documents: {}, steps: [k.step(bare(k, [[HEADERS.authorization, 'Basic YWxpY2U6c2VjcmV0']]), refused(AUTH_CODES.missing_credential))] }),
    },
    {
      id: 'missing-credential-no-body',
      description: 'a GET without credential is asked for the components without content-digest',
      flags: ['Credential'],
      build: (k) => ({ documents: {}, steps: [k.step({ method: 'GET', url: k.url(), headers: [] }, refused(AUTH_CODES.missing_credential))] }),
    },
    {
      id: 'malformed-token-one-segment',
      description: 'a Bearer that is not a three-segment JWT',
      flags: ['Bearer'],
      build: (k) => ({ documents: {}, steps: [k.step(bare(k, [[HEADERS.authorization, 'Bearer not-a-jwt']]), refused(AUTH_CODES.malformed_token))] }),
    },
    {
      id: 'malformed-token-two-segments',
      description: 'a Bearer with two segments',
      flags: ['Bearer'],
      build: (k) => ({
        documents: {},
        steps: [k.step(bare(k, [[HEADERS.authorization, 'Bearer eyJhbGciOiJFZERTQSJ9.e30']]), refused(AUTH_CODES.malformed_token))],
      }),
    },
    {
      id: 'platform-token-valid',
      description: 'a platform token with the agent-use scope is a credential',
      flags: ['Bearer', 'Valid'],
      build: async (k) => ({
        documents: {},
        platform: tokenPlatform(),
        steps: [k.step(bare(k, [[HEADERS.authorization, `Bearer ${await platformToken(claims(k))}`]]), accepted(null))],
      }),
    },
    {
      id: 'platform-token-self-signed',
      description: 'a JWT an agent signs for itself is not a platform token',
      flags: ['Bearer'],
      build: async (k) => ({
        documents: {},
        platform: tokenPlatform(),
        steps: [k.step(bare(k, [[HEADERS.authorization, `Bearer ${await platformToken(claims(k), k.A)}`]]), refused(AUTH_CODES.platform_token_invalid))],
      }),
    },
    {
      id: 'platform-token-portal-authority',
      description:
        'a JWT a Portal authority issued to the agent (5.1: this mode cannot authenticate to the platform), carrying the agent-use scope, is not a platform token',
      flags: ['Bearer'],
      build: async (k) => ({
        documents: {},
        platform: tokenPlatform(),
        steps: [
          k.step(
            bare(k, [
              [
                HEADERS.authorization,
                `Bearer ${await platformToken(
                  claims(k, { iss: PORTAL_AUTHORITY.issuer, aud: k.alice.agentUrl, scope: `${AGENT_SCOPE} namespace:team`, client_id: 'alice' }),
                  PORTAL_AUTHORITY.key,
                )}`,
              ],
            ]),
            allowing(refused(AUTH_CODES.platform_token_invalid), [AUTH_CODES.credential_refused], READINGS.checkOrder),
          ),
        ],
      }),
    },
    {
      id: 'platform-token-expired',
      description: 'an expired platform token',
      flags: ['Bearer'],
      build: async (k) => ({
        documents: {},
        platform: tokenPlatform(),
        steps: [
          k.step(
            bare(k, [[HEADERS.authorization, `Bearer ${await platformToken(claims(k, { iat: k.now - 700, exp: k.now - 100 }))}`]]),
            refused(AUTH_CODES.platform_token_invalid),
          ),
        ],
      }),
    },
    {
      id: 'platform-token-revoked',
      description: 'a revoked platform token',
      flags: ['Bearer'],
      build: async (k) => ({
        documents: {},
        platform: { ...tokenPlatform(), revoked_token_ids: ['token-1'] },
        steps: [k.step(bare(k, [[HEADERS.authorization, `Bearer ${await platformToken(claims(k))}`]]), refused(AUTH_CODES.platform_token_invalid))],
      }),
    },
    {
      id: 'insufficient-scope-restricted',
      description: 'a platform token restricted to another use carries no agent-use scope',
      flags: ['Bearer'],
      build: async (k) => ({
        documents: {},
        platform: tokenPlatform(),
        steps: [
          k.step(
            bare(k, [[HEADERS.authorization, `Bearer ${await platformToken(claims(k, { scope: 'billing:read' }))}`]]),
            refused(AUTH_CODES.insufficient_scope),
          ),
        ],
      }),
    },
    {
      id: 'insufficient-scope-none',
      description: 'a platform token with no scope at all',
      flags: ['Bearer'],
      build: async (k) => ({
        documents: {},
        platform: tokenPlatform(),
        steps: [
          k.step(bare(k, [[HEADERS.authorization, `Bearer ${await platformToken(claims(k, { scope: undefined }))}`]]), refused(AUTH_CODES.insufficient_scope)),
        ],
      }),
    },
    {
      id: 'signed-request-ignores-valid-bearer',
      description: 'a request carrying Signature-Input is a signed request; a valid bearer beside a bad signature decides nothing',
      flags: ['Bearer', 'Precedence'],
      build: async (k) => {
        const token = await platformToken(claims(k));
        return {
          documents: k.docs(),
          platform: tokenPlatform(),
          steps: [
            k.step(
              k.request({ headers: [[HEADERS.authorization, `Bearer ${token}`]], labels: [{ label: 'sig1', key: k.A, tamper: (s) => flip(s) }] }),
              refused(AUTH_CODES.signature_invalid),
            ),
          ],
        };
      },
    },
    {
      id: 'signed-request-ignores-payment-token',
      description: 'a valid-looking Payment-Authorization beside a bad signature decides nothing: signature_invalid',
      flags: ['Precedence'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ headers: [[HEADERS.paymentAuthorization, PAYMENT_TOKEN]], labels: badSignature(k) }), refused(AUTH_CODES.signature_invalid)),
        ],
      }),
    },
    {
      id: 'signed-request-ignores-cookie',
      description: 'a session cookie beside a bad signature decides nothing: signature_invalid',
      flags: ['Precedence'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ headers: [[HEADERS.cookie, SESSION_COOKIE]], labels: badSignature(k) }), refused(AUTH_CODES.signature_invalid))],
      }),
    },
    {
      id: 'valid-signed-request-beside-cookie-and-payment-token',
      description: 'a good signature with a session cookie and a Payment-Authorization beside it is accepted: they decide nothing',
      flags: ['Valid'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              headers: [
                [HEADERS.cookie, SESSION_COOKIE],
                [HEADERS.paymentAuthorization, PAYMENT_TOKEN],
              ],
            }),
            accepted(k.alice.agentUrl),
          ),
        ],
      }),
    },
  ],
};

export function flip(signature: Uint8Array, index = 0): Uint8Array {
  const copy = new Uint8Array(signature);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}
