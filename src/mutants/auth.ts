import { PLATFORM_ERROR_CODES } from '../reference/routes.js';
import { AUTH_CODES, AUTH_ERRORS, AUTH_ERROR_BODY_ERROR, AUTH_ERROR_LIST, type AuthErrorCode } from '../spec/auth-errors.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { PLATFORM_MCP_REQUIREMENTS } from '../spec/platform-mcp.js';
import { BEARER_CHALLENGE, PLATFORM_ROUTES } from '../spec/wire.js';
import type { MemoryDocument } from '../fetch/index.js';
import { PORTAL_AUTHORITY } from '../scenarios/platform-tokens.js';
import { SIGNED_REQUIREMENTS } from '../spec/signed-requirements.js';
import type { DocumentFetcher, KeySetCacheEntry } from '../verifier/ports.js';
import { jsonAnswer, jsonOf, pathOf, rewrite, setJson, type OpenAnswer } from './answer.js';
import type { Mutant } from './types.js';

/** Section 7.3 (with 5.2, 5.3 and the limits of section 8): faults of the platform's verifier and its refusals. */

const REFUSED = 401;
const ALL_AUTH = AUTH_ERROR_LIST.map((r) => r.id);
const codeOf = (a: OpenAnswer): string | undefined => {
  const code = jsonOf(a)?.error_code;
  return typeof code === 'string' ? code : undefined;
};
const refusal = (code?: AuthErrorCode) => (a: OpenAnswer) => a.status === REFUSED && codeOf(a) !== undefined && (code === undefined || codeOf(a) === code);
const ids = (...codes: AuthErrorCode[]) => codes.map((c) => AUTH_ERRORS[c].id);

/** What the platform answers a request it let through to a path it has no route for. */
function letThrough(a: OpenAnswer): void {
  jsonAnswer(a, 404, { error: { code: PLATFORM_ERROR_CODES.notFound, message: 'No route.' } });
}

/** A refusal as the verifier writes it, for faults that refuse what must be accepted. */
function refuseWith(a: OpenAnswer, code: AuthErrorCode): void {
  jsonAnswer(a, REFUSED, { error: AUTH_ERROR_BODY_ERROR, error_code: code, error_description: 'Refused by a fault.' });
  a.headers.set(
    HEADERS.wwwAuthenticate,
    `${BEARER_CHALLENGE.scheme} realm="${BEARER_CHALLENGE.realm}", error="${BEARER_CHALLENGE.error}", error_description="Refused by a fault."`,
  );
}

/** Every row answers another row's code: the one 7.3 fault each code can suffer alone. */
const renamed: Mutant[] = AUTH_ERROR_LIST.map((record) => {
  const other = record.code === AUTH_CODES.signature_invalid ? AUTH_CODES.credential_refused : AUTH_CODES.signature_invalid;
  return {
    id: `auth-${record.code}-answers-${other}`,
    description: `refuses with error_code ${other} where 7.3 gives ${record.code}`,
    requirements: [record.id],
    platform: { answer: rewrite(refusal(record.code as AuthErrorCode), (a) => setJson(a, { ...jsonOf(a), error_code: other })) },
  };
});

/** A fetcher that follows the redirects the case's documents answer with (5.2 says never to). */
function followingRedirects(fetcher: DocumentFetcher, documents: () => Readonly<Record<string, MemoryDocument>>): DocumentFetcher {
  return {
    async fetch(url) {
      const outcome = await fetcher.fetch(url);
      if (outcome.ok || outcome.reason !== 'redirect') return outcome;
      const document = documents()[url];
      const location = document?.headers?.[HEADERS.location] ?? document?.headers?.Location;
      if (location) return this.fetch(new URL(location, url).href);
      return outcome;
    },
  };
}

const specific: Mutant[] = [
  {
    id: 'auth-refusal-answered-200',
    description: 'lets every refused request through (answers as if it verified)',
    requirements: ALL_AUTH,
    platform: { answer: rewrite(refusal(), letThrough) },
  },
  {
    id: 'auth-refusal-answered-403',
    description: 'refuses with 403 instead of 401',
    requirements: ALL_AUTH,
    platform: { answer: rewrite(refusal(), (a) => void (a.status = 403)) },
  },
  {
    id: 'auth-refusal-without-www-authenticate',
    description: 'drops the Bearer challenge (WWW-Authenticate) from every 401',
    requirements: ALL_AUTH,
    platform: { answer: rewrite(refusal(), (a) => a.headers.delete(HEADERS.wwwAuthenticate)) },
  },
  {
    id: 'auth-refusal-basic-challenge',
    description: 'challenges with the Basic scheme instead of Bearer',
    requirements: ALL_AUTH,
    platform: { answer: rewrite(refusal(), (a) => a.headers.set(HEADERS.wwwAuthenticate, 'Basic realm="service"')) },
  },
  {
    id: 'auth-refusal-body-error-renamed',
    description: 'writes body.error "Forbidden" instead of "Unauthorized"',
    requirements: ALL_AUTH,
    platform: { answer: rewrite(refusal(), (a) => setJson(a, { ...jsonOf(a), error: 'Forbidden' })) },
  },
  {
    id: 'auth-refusal-without-description',
    description: 'drops error_description from the 401 body',
    requirements: ALL_AUTH,
    platform: {
      answer: rewrite(refusal(), (a) => {
        const { error_description: _dropped, ...rest } = jsonOf(a)!;
        setJson(a, rest);
      }),
    },
  },
  {
    id: 'auth-refusal-as-text',
    description: 'labels the 401 body text/plain',
    requirements: ALL_AUTH,
    platform: { answer: rewrite(refusal(), (a) => a.headers.set(HEADERS.contentType, MEDIA_TYPES.html)) },
  },
  {
    id: 'auth-accept-signature-dropped',
    description: 'drops Accept-Signature from the 401s that must carry it',
    requirements: ids(AUTH_CODES.missing_credential, AUTH_CODES.signature_coverage_insufficient),
    platform: { answer: rewrite(refusal(), (a) => a.headers.delete(HEADERS.acceptSignature)) },
  },
  {
    id: 'auth-accept-signature-without-digest',
    description: 'leaves content-digest out of Accept-Signature although the request has a body',
    requirements: ids(AUTH_CODES.missing_credential, AUTH_CODES.signature_coverage_insufficient),
    platform: {
      answer: rewrite(refusal(), (a) => {
        const value = a.headers.get(HEADERS.acceptSignature);
        if (value) a.headers.set(HEADERS.acceptSignature, value.replace(/\s*"content-digest"/g, ''));
      }),
    },
  },
  {
    id: 'auth-accept-signature-without-query',
    description: 'leaves @query out of Accept-Signature',
    requirements: ids(AUTH_CODES.missing_credential, AUTH_CODES.signature_coverage_insufficient),
    platform: {
      answer: rewrite(refusal(), (a) => {
        const value = a.headers.get(HEADERS.acceptSignature);
        if (value) a.headers.set(HEADERS.acceptSignature, value.replace(/\s*"@query"/g, ''));
      }),
    },
  },
  {
    id: 'auth-throttle-with-retry-after',
    description: 'adds Retry-After to too_many_failed_signatures',
    requirements: ids(AUTH_CODES.too_many_failed_signatures),
    platform: { answer: rewrite(refusal(AUTH_CODES.too_many_failed_signatures), (a) => a.headers.set(HEADERS.retryAfter, '60')) },
  },
  {
    id: 'auth-verifier-clock-slow',
    description: "the verifier's clock runs two minutes slow, so signatures that expired a minute ago are accepted",
    requirements: [...ids(AUTH_CODES.signature_expired), LIMITS.clockSkew.id],
    platform: { ports: (ports) => ({ ...ports, clock: { now: () => ports.clock.now() - 120 } }) },
  },
  {
    id: 'auth-nonce-store-forgets',
    description: 'the nonce store forgets every nonce, so replays are accepted',
    requirements: ids(AUTH_CODES.signature_replayed),
    platform: { ports: (ports) => ({ ...ports, nonces: { spend: () => true } }) },
  },
  {
    id: 'auth-failures-never-counted',
    description: 'failed signatures are never counted, so an address is never throttled',
    requirements: [...ids(AUTH_CODES.too_many_failed_signatures), LIMITS.failedSignatures.id],
    platform: { ports: (ports) => ({ ...ports, failures: { count: () => 0, record: () => undefined } }) },
  },
  {
    id: 'auth-failures-counted-globally',
    description: 'failed signatures are counted for all addresses together',
    requirements: [...ids(AUTH_CODES.too_many_failed_signatures), LIMITS.failedSignatures.id],
    platform: {
      ports: (ports) => ({
        ...ports,
        failures: { count: (_address, now, window) => ports.failures.count('*', now, window), record: (_address, now) => ports.failures.record('*', now) },
      }),
    },
  },
  {
    id: 'auth-failure-window-never-ends',
    description: 'failed signatures are counted forever instead of for 60 seconds',
    requirements: [...ids(AUTH_CODES.too_many_failed_signatures), LIMITS.failedSignaturesWindow.id],
    platform: {
      ports: (ports) => {
        // Its own tally that never drops a failure, whatever window the store keeps.
        const ever = new Map<string, number>();
        return {
          ...ports,
          failures: {
            count: (address) => ever.get(address) ?? 0,
            record: (address) => void ever.set(address, (ever.get(address) ?? 0) + 1),
          },
        };
      },
    },
  },
  {
    id: 'auth-key-set-cache-forgets',
    description: 'key sets (and their failures) are never cached, so every request reads them again',
    requirements: [...ids(AUTH_CODES.key_set_unreachable, AUTH_CODES.signature_key_unknown), LIMITS.keySetRereadInterval.id],
    platform: { ports: (ports) => ({ ...ports, keySets: { get: () => undefined, set: () => undefined } }) },
  },
  {
    id: 'auth-card-refusals-forgotten',
    description: 'card refusals are not remembered',
    requirements: [...ids(AUTH_CODES.card_not_self_naming), LIMITS.cardRefusalMemory.id],
    platform: { ports: (ports) => ({ ...ports, cardRefusals: { get: () => undefined, set: () => undefined } }) },
  },
  {
    id: 'auth-registrations-forgotten',
    description: 'agent registrations are not kept, so key continuity is never asked',
    requirements: ids(AUTH_CODES.key_continuity_required),
    platform: { ports: (ports) => ({ ...ports, registrations: { get: () => undefined, put: () => undefined } }) },
  },
  {
    id: 'auth-revocations-ignored',
    description: 'revoked platform tokens still verify',
    requirements: ids(AUTH_CODES.platform_token_invalid),
    platform: { ports: (ports) => ({ ...ports, revocations: { isRevoked: () => false } }) },
  },
  {
    id: 'auth-blocked-agents-ignored',
    description: 'the platform forgets its blocked agents',
    requirements: ids(AUTH_CODES.credential_refused),
    platform: { config: ({ blockedAgents: _dropped, ...config }) => config },
  },
  {
    id: 'auth-owner-keys-ignored',
    description: 'X-Service-Owner-Key never vouches for a new key',
    requirements: ids(AUTH_CODES.key_continuity_required),
    platform: { config: ({ ownerKeys: _dropped, ...config }) => config },
  },
  {
    id: 'auth-plain-http-agent-urls',
    description: 'plain-http agent URLs are accepted',
    requirements: ids(AUTH_CODES.signature_agent_invalid),
    platform: { config: (config) => ({ ...config, allowInsecureAgentUrls: true }) },
  },
  {
    id: 'auth-fetcher-follows-redirects',
    description: 'key sets and cards are read through redirects',
    requirements: [...ids(AUTH_CODES.key_set_unreachable, AUTH_CODES.card_unreachable), LIMITS.documentSize.id],
    fetcher: { wrap: followingRedirects },
  },
  {
    id: 'auth-fetcher-ignores-size-limit',
    description: 'key sets over 64 KiB are read',
    requirements: [...ids(AUTH_CODES.key_set_unreachable), LIMITS.documentSize.id],
    fetcher: { limits: { maxBytes: 1 << 30 } },
  },
  {
    id: 'auth-fetcher-ignores-timeout',
    description: 'key sets slower than 5 seconds are waited for',
    requirements: [...ids(AUTH_CODES.key_set_unreachable), LIMITS.documentFetchTimeout.id],
    fetcher: { limits: { timeoutMs: 1 << 30 } },
  },
  {
    id: 'mcp-401-accept-signature-where-7-3-asks-only',
    description:
      'the MCP endpoint adds Accept-Signature only where 7.3 asks it of every route (missing_credential, signature_coverage_insufficient) and to signature_invalid',
    requirements: [PLATFORM_MCP_REQUIREMENTS.acceptSignatureOn401.id],
    platform: {
      answer: rewrite(
        (a, r) =>
          pathOf(r) === PLATFORM_ROUTES.mcp &&
          refusal()(a) &&
          !AUTH_ERRORS[codeOf(a) as AuthErrorCode]?.acceptSignature &&
          codeOf(a) !== AUTH_CODES.signature_invalid,
        (a) => a.headers.delete(HEADERS.acceptSignature),
      ),
    },
  },
  {
    id: 'auth-fetcher-timeout-4-seconds',
    description: 'key sets and cards slower than 4 seconds are given up on (5.2 allows 5)',
    requirements: [LIMITS.documentFetchTimeout.id, REQUIREMENTS.signedRequestAccepted.id],
    fetcher: { limits: { timeoutMs: LIMITS.documentFetchTimeout.value - 1000 } },
  },
  {
    id: 'auth-key-set-never-reread',
    description: 'a key set once read is used for ever: a key removed from it keeps verifying',
    requirements: [SIGNED_REQUIREMENTS.keyRemovalRevokes.id, LIMITS.keySetRereadInterval.id, ...ids(AUTH_CODES.signature_key_unknown)],
    platform: {
      ports: (ports) => {
        // Its own store that never drops an entry, each read as if made this very second.
        const kept = new Map<string, KeySetCacheEntry>();
        return {
          ...ports,
          keySets: {
            get: (url) => {
              const entry = kept.get(url);
              return entry && { ...entry, at: ports.clock.now() };
            },
            set: (url, entry) => void kept.set(url, entry),
          },
        };
      },
    },
  },
  {
    id: 'auth-portal-authority-trusted',
    description: "the platform also trusts the key set of an agent's Portal authority for its bearer tokens",
    requirements: [SIGNED_REQUIREMENTS.agentJwtRefused.id, ...ids(AUTH_CODES.platform_token_invalid)],
    platform: {
      config: ({ platformToken, ...config }) =>
        platformToken
          ? {
              ...config,
              platformToken: { agentScope: platformToken.agentScope, keys: { keys: [...platformToken.keys.keys, ...PORTAL_AUTHORITY.keys().keys] } },
            }
          : config,
    },
  },
  {
    id: 'auth-body-cap-off-by-one',
    description: 'a signed body of 4 MiB + 1 byte is accepted',
    requirements: [...ids(AUTH_CODES.signature_body_too_large), LIMITS.signedRequestBody.id],
    platform: {
      answer: rewrite((a, r) => refusal(AUTH_CODES.signature_body_too_large)(a) && (r.body?.byteLength ?? 0) <= LIMITS.signedRequestBody.value + 1, letThrough),
    },
  },
  {
    id: 'auth-sha-512-digest-refused',
    description: 'refuses requests whose Content-Digest uses sha-512',
    requirements: [REQUIREMENTS.signedRequestAccepted.id],
    platform: {
      answer: rewrite(
        (a, r) => a.status !== REFUSED && /sha-512=/.test(r.headers.get(HEADERS.contentDigest) ?? ''),
        (a) => refuseWith(a, AUTH_CODES.content_digest_mismatch),
      ),
    },
  },
  {
    id: 'auth-two-labels-refused',
    description: 'refuses requests signed with two labels (key rotation)',
    requirements: [REQUIREMENTS.signedRequestAccepted.id],
    platform: {
      answer: rewrite(
        (a, r) => a.status !== REFUSED && (r.headers.get(HEADERS.signatureInput) ?? '').split(/,\s*(?=[a-z][a-z0-9_-]*=\()/).length > 1,
        (a) => refuseWith(a, AUTH_CODES.signature_malformed),
      ),
    },
  },
  {
    id: 'auth-platform-token-refused',
    description: 'refuses valid platform bearer tokens',
    requirements: [REQUIREMENTS.signedRequestAccepted.id],
    platform: {
      answer: rewrite(
        (a, r) => a.status !== REFUSED && /^Bearer /i.test(r.headers.get(HEADERS.authorization) ?? ''),
        (a) => refuseWith(a, AUTH_CODES.platform_token_invalid),
      ),
    },
  },
];

export const AUTH_MUTANTS: readonly Mutant[] = [...renamed, ...specific];
