import { MEDIA_TYPES } from '../../spec/media-types.js';
import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { accepted, refused, type Group, type Kit } from '../kit.js';
import { AGENT_SCOPE, PLATFORM_TOKEN_ISSUER, platformToken, platformTokenKeys } from '../platform-tokens.js';

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
  ],
};

export function flip(signature: Uint8Array, index = 0): Uint8Array {
  const copy = new Uint8Array(signature);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}
