import { decodeJwt, decodeProtectedHeader, EmbeddedJWK, jwtVerify } from 'jose';
import { AUTH_MODE_PROBES, PROBES } from '../contract/probes.js';
import { conformanceEndpoints } from '../reference/agent/conformance-endpoints.js';
import type { AgentHttpEndpoint } from '../reference/agent/endpoint-context.js';
import type { VerdictFault } from '../reference/agent/sdk-auth-adapter.js';
import type { StandardAgentOptions } from '../reference/agent/standard-agent.js';
import { issuerMatches, scopeAllowed, type AuthContext, type TokenVerdict } from '../sdk-auth/index.js';
import {
  AUTH_SKILL_FIELDS,
  ENDPOINT_AUTH_MODES,
  ISSUER_TYPES,
  SDK_AUTH_REQUIREMENTS as S,
  SDK_CLAIMS,
  SDK_JWT_ALGORITHMS,
  SDK_SCOPE_WILDCARD_SUFFIX,
  type EndpointAuthMode,
  type SdkTokenRefusalReason,
} from '../spec/sdk-auth.js';
import { LIMITS } from '../spec/limits.js';
import { WELL_KNOWN } from '../spec/wire.js';
import { ENDPOINT_ERRORS as E } from '../spec/endpoint-errors.js';
import { HEADERS } from '../spec/headers.js';
import { CALLER_IDS } from '../contract/callers.js';
import { jsonAnswer, pathOf, rewrite } from './answer.js';
import { decideEndpointAccess } from '../access/endpoint-gate.js';
import { renderAnswer } from '../reference/render.js';
import type { FaultRequest, Mutant } from './types.js';

/** Sections 2.1, 2.2, 5.1, 5.4 and 5.5: faults of the reference agent's auth skill and access control. */

type AuthSkillOptions = NonNullable<StandardAgentOptions['authSkill']>;

const withFault =
  (fault: VerdictFault) =>
  (o: StandardAgentOptions): StandardAgentOptions => ({ ...o, verdictFault: fault });
const withSkill =
  (change: (skill: AuthSkillOptions) => AuthSkillOptions) =>
  (o: StandardAgentOptions): StandardAgentOptions =>
    o.authSkill ? { ...o, authSkill: change(o.authSkill) } : o;

/** The verdict of a token taken at its word: its claims, unverified, as the AuthContext. */
function unverified(token: string): TokenVerdict {
  const claims = decodeJwt(token);
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(/\s+/).filter(Boolean) : [];
  const context: AuthContext = {
    user_id: null,
    agent_id: typeof claims.sub === 'string' ? claims.sub : null,
    source_agent: typeof claims.sub === 'string' ? claims.sub : null,
    authenticated: true,
    scopes,
    namespaces: [],
    issuer: typeof claims.iss === 'string' ? claims.iss : null,
    issuer_type: ISSUER_TYPES.agent,
    raw_claims: claims,
  };
  return { ok: true, context, hasScope: (s: string) => scopes.includes(s) };
}

const refusedFor = (verdict: TokenVerdict, ...reasons: SdkTokenRefusalReason[]) => !verdict.ok && reasons.includes(verdict.reason);
/** Accepts, unverified, a token the core refused for one of `reasons`. */
const acceptDespite =
  (...reasons: SdkTokenRefusalReason[]): VerdictFault =>
  ({ token, verdict }) =>
    refusedFor(verdict, ...reasons) ? unverified(token) : verdict;
const numberClaim = (token: string, claim: string) => Number(decodeJwt(token)[claim]);

/** Declares the probes with one probe's declaration changed. */
const redeclared =
  (path: string, change: (endpoint: AgentHttpEndpoint) => AgentHttpEndpoint) =>
  (o: StandardAgentOptions): StandardAgentOptions => ({
    ...o,
    endpoints: (o.endpoints ?? conformanceEndpoints()).map((e) => (e.path === path ? change(e) : e)),
  });
const authModeAs = (mode: EndpointAuthMode, as: EndpointAuthMode) => redeclared(AUTH_MODE_PROBES[mode].path, (e) => ({ ...e, auth: as }));

/** The caller a request's Bearer token names (sub), unverified. */
function bearerSubject(request: FaultRequest): string | null {
  const value = request.headers.get(HEADERS.authorization) ?? '';
  try {
    return String(decodeJwt(value.replace(/^Bearer\s+/i, '')).sub ?? '') || null;
  } catch {
    return null;
  }
}
/** A 403 on `path` for a caller whose id passes `who` becomes 200, as if the handler ran. */
const admit403 = (path: string, who: (id: string | null, r: FaultRequest) => boolean) =>
  rewrite(
    (a, r) => a.status === 403 && pathOf(r).endsWith(path) && who(bearerSubject(r), r),
    (a, r) => jsonAnswer(a, 200, { endpoint: pathOf(r), caller: bearerSubject(r), authenticated: true }),
  );

const rows: Mutant[] = [
  {
    id: 'sdk-claims-unchecked',
    description: 'a token missing claims 2.2 requires, or with token_type other than Bearer, is accepted',
    requirements: [S.tokenClaims.id],
    agent: { options: withFault(acceptDespite('claims_invalid')) },
  },
  {
    id: 'sdk-jti-optional',
    description: 'a token without jti is accepted',
    requirements: [S.tokenClaims.id],
    agent: {
      options: withFault(({ token, verdict }) =>
        refusedFor(verdict, 'claims_invalid') && decodeJwt(token)[SDK_CLAIMS.jti] === undefined ? unverified(token) : verdict,
      ),
    },
  },
  {
    id: 'sdk-token-type-unchecked',
    description: 'token_type is not read',
    requirements: [S.tokenClaims.id],
    agent: {
      options: withFault(({ token, verdict }) =>
        refusedFor(verdict, 'claims_invalid') && decodeJwt(token)[SDK_CLAIMS.tokenType] !== undefined && decodeJwt(token)[SDK_CLAIMS.jti] !== undefined
          ? unverified(token)
          : verdict,
      ),
    },
  },
  {
    id: 'sdk-audience-unchecked',
    description: 'aud is not compared with the agent URL',
    requirements: [S.tokenAudience.id],
    agent: {
      options: withFault(async ({ token, verdict, skill, verifyWith }) =>
        refusedFor(verdict, 'audience_mismatch') ? verifyWith({ skill: { ...skill, agentUrl: String(decodeJwt(token).aud) } }) : verdict,
      ),
    },
  },
  {
    id: 'sdk-audience-origin-only',
    description: 'an aud that is a prefix of the agent URL (its origin) is accepted',
    requirements: [S.tokenAudience.id],
    agent: {
      options: withFault(async ({ token, verdict, skill, verifyWith }) => {
        const aud = String(decodeJwt(token).aud);
        return refusedFor(verdict, 'audience_mismatch') && skill.agentUrl.startsWith(aud) ? verifyWith({ skill: { ...skill, agentUrl: aud } }) : verdict;
      }),
    },
  },
  {
    id: 'sdk-expired-accepted',
    description: 'exp is not checked',
    requirements: [S.tokenLifetime.id, LIMITS.sdkTokenLifetime.id],
    agent: {
      options: withFault(async ({ token, verdict, verifyWith }) =>
        refusedFor(verdict, 'token_expired') ? verifyWith({ now: numberClaim(token, SDK_CLAIMS.exp) - 1 }) : verdict,
      ),
    },
  },
  {
    id: 'sdk-expiry-leeway-ten-minutes',
    description: 'the auth skill grants SDK tokens 600 s of clock leeway: a token ten minutes past exp, or before nbf, is accepted',
    requirements: [S.tokenLifetime.id, LIMITS.sdkTokenLifetime.id],
    agent: { options: (o) => ({ ...o, tokenLeewaySeconds: 600 }) },
  },
  {
    id: 'sdk-not-before-ignored',
    description: 'nbf is not checked',
    requirements: [S.tokenLifetime.id],
    agent: {
      options: withFault(async ({ token, verdict, verifyWith }) =>
        refusedFor(verdict, 'token_not_yet_valid') ? verifyWith({ now: numberClaim(token, SDK_CLAIMS.nbf) }) : verdict,
      ),
    },
  },
  {
    id: 'sdk-key-set-cache-never-expires',
    description: "an issuer's key set, once read, is never read again (the cache never expires)",
    requirements: [LIMITS.sdkKeySetCache.id],
    agent: { options: withSkill((skill) => ({ ...skill, [AUTH_SKILL_FIELDS.jwksCacheTtl]: Number.MAX_SAFE_INTEGER })) },
  },
  {
    id: 'sdk-key-set-cache-ignored',
    description: "an issuer's key set is read again for every token (nothing is cached)",
    requirements: [LIMITS.sdkKeySetCache.id],
    agent: { options: withSkill((skill) => ({ ...skill, [AUTH_SKILL_FIELDS.jwksCacheTtl]: 0 })) },
  },
  {
    id: 'sdk-signature-unchecked',
    description: 'a token whose signature does not verify under the kid it names is accepted',
    requirements: [S.tokenSignature.id],
    agent: { options: withFault(acceptDespite('token_signature_invalid')) },
  },
  {
    id: 'sdk-algorithm-unchecked',
    description: "a token whose alg is neither EdDSA nor RS256 (alg none, an HMAC keyed with the issuer's public key) is accepted",
    requirements: [S.tokenSignature.id],
    agent: { options: withFault(acceptDespite('algorithm_not_allowed')) },
  },
  {
    id: 'sdk-rs256-signature-unchecked',
    description: 'a token signed RS256 (with the RSA key) whose signature does not verify is accepted; EdDSA signatures are still checked',
    requirements: [S.tokenSignature.id],
    agent: {
      options: withFault(({ token, verdict }) =>
        refusedFor(verdict, 'token_signature_invalid') && decodeProtectedHeader(token).alg === SDK_JWT_ALGORITHMS.rsa ? unverified(token) : verdict,
      ),
    },
  },
  {
    id: 'sdk-embedded-jwk-trusted',
    description: "a token whose header carries a key (jwk) is verified with that key, not with its issuer's key set",
    requirements: [S.tokenSignature.id],
    agent: {
      options: withFault(async ({ token, verdict }) => {
        if (verdict.ok || decodeProtectedHeader(token).jwk === undefined) return verdict;
        return jwtVerify(token, EmbeddedJWK).then(
          () => unverified(token),
          () => verdict,
        );
      }),
    },
  },
  {
    id: 'sdk-unknown-key-accepted',
    description: "a token signed under a kid the issuer's key set lacks is accepted",
    requirements: [S.tokenSignature.id, S.trustedIssuers.id, S.portalMode.id],
    agent: { options: withFault(acceptDespite('token_key_unknown')) },
  },
  {
    id: 'sdk-allow-before-deny',
    description: 'an issuer an allow glob admits is accepted although a deny glob matches it',
    requirements: [S.allowDeny.id],
    agent: {
      options: withFault(async ({ token, verdict, skill, verifyWith }) => {
        const iss = String(decodeJwt(token).iss);
        return refusedFor(verdict, 'issuer_denied') && skill.allow.some((p) => issuerMatches(p, iss)) ? verifyWith({ skill: { ...skill, deny: [] } }) : verdict;
      }),
    },
  },
  {
    id: 'sdk-deny-ignored',
    description: "the auth skill's deny list is ignored",
    requirements: [S.allowDeny.id],
    agent: { options: withSkill(({ deny: _deny, ...skill }) => skill) },
  },
  {
    id: 'sdk-allow-ignored',
    description: 'the allow list is ignored: every issuer not denied is accepted',
    requirements: [S.allowDeny.id, S.trustedIssuers.id],
    agent: {
      options: withFault(async ({ verdict, skill, verifyWith }) =>
        refusedFor(verdict, 'issuer_not_allowed') ? verifyWith({ skill: { ...skill, allow: [] } }) : verdict,
      ),
    },
  },
  {
    id: 'sdk-empty-allow-admits-none',
    description: 'an empty allow list admits no issuer that is not trusted',
    requirements: [S.allowDeny.id],
    agent: {
      options: withFault(({ verdict, skill }) =>
        verdict.ok &&
        skill.allow.length === 0 &&
        verdict.context.issuer_type === ISSUER_TYPES.agent &&
        !skill.trustedIssuers.some((t) => t.issuer === verdict.context.issuer)
          ? { ok: false, reason: 'issuer_not_allowed', message: 'empty allow list' }
          : verdict,
      ),
    },
  },
  {
    id: 'sdk-trusted-issuers-ignored',
    description: 'trusted_issuers is ignored',
    requirements: [S.trustedIssuers.id],
    agent: { options: withSkill(({ trusted_issuers: _t, ...skill }) => skill) },
  },
  {
    id: 'sdk-trusted-key-set-at-issuer',
    description: "a trusted issuer's keys are read at {iss}/.well-known/jwks.json instead of its jwks_uri",
    requirements: [S.trustedIssuers.id],
    agent: {
      options: withSkill((skill) =>
        skill.trusted_issuers ? { ...skill, trusted_issuers: skill.trusted_issuers.map((t) => ({ ...t, jwks_uri: t.issuer + WELL_KNOWN.jwks })) } : skill,
      ),
    },
  },
  {
    id: 'sdk-allowed-scopes-ignored',
    description: 'every scope of the token reaches the AuthContext, whatever allowed_scopes says',
    requirements: [S.allowedScopes.id],
    agent: {
      options: withFault(({ token, verdict }) =>
        verdict.ok ? { ...verdict, context: { ...verdict.context, scopes: (unverified(token) as { context: AuthContext }).context.scopes } } : verdict,
      ),
    },
  },
  {
    id: 'sdk-scope-wildcard-unsupported',
    description: 'an allowed_scopes entry ending in :* accepts nothing but itself',
    requirements: [S.allowedScopes.id],
    agent: {
      options: withFault(({ verdict, skill }) => {
        if (!verdict.ok) return verdict;
        const exact = skill.allowedScopes.filter((entry) => !entry.endsWith(SDK_SCOPE_WILDCARD_SUFFIX));
        return { ...verdict, context: { ...verdict.context, scopes: verdict.context.scopes.filter((s) => scopeAllowed(s, exact)) } };
      }),
    },
  },
  {
    id: 'sdk-portal-authority-ignored',
    description: 'authority is ignored: the agent stays self-issued and refuses the authority',
    requirements: [S.portalMode.id],
    agent: { options: withSkill(({ authority: _a, ...skill }) => skill) },
  },
  {
    id: 'sdk-portal-scopes-dropped',
    description: 'the scopes the Portal authority assigns are dropped: its tokens verify, but carry no scope to the endpoint',
    requirements: [S.portalMode.id],
    agent: {
      options: withFault(({ verdict }) =>
        verdict.ok && verdict.context.issuer_type === ISSUER_TYPES.portal
          ? { ...verdict, context: { ...verdict.context, scopes: [], namespaces: [] } }
          : verdict,
      ),
    },
  },
  {
    id: 'sdk-portal-key-set-at-well-known',
    description: "the authority's keys are read at {authority}/.well-known/jwks.json instead of {authority}/api/auth/jwks",
    requirements: [S.portalMode.id],
    agent: {
      options: withSkill((skill) =>
        skill.authority
          ? {
              ...skill,
              trusted_issuers: [
                ...(skill.trusted_issuers ?? []),
                { issuer: skill.authority, jwks_uri: skill.authority + WELL_KNOWN.jwks, type: ISSUER_TYPES.portal },
              ],
            }
          : skill,
      ),
    },
  },
  {
    id: 'access-owner-forgotten',
    description: "the access block's owner is not read: the owner is a plain user",
    requirements: [S.scopeTable.id],
    agent: { options: (o) => (o.access ? { ...o, access: { ...o.access, owner: undefined } } : o) },
  },
  {
    id: 'access-admins-forgotten',
    description: "the access block's admins are not read",
    requirements: [S.scopeTable.id],
    agent: { options: (o) => (o.access ? { ...o, access: { ...o.access, admins: [] } } : o) },
  },
  {
    id: 'scope-owner-as-user',
    description: 'an owner-scoped endpoint admits any verified caller',
    requirements: [S.scopeTable.id],
    agent: { options: redeclared(PROBES.owner.path, (e) => ({ ...e, scopes: 'user' })) },
  },
  {
    id: 'scope-user-open',
    description: 'a user-scoped endpoint admits callers without a credential',
    requirements: [S.scopeTable.id],
    agent: { options: redeclared(PROBES.user.path, (e) => ({ ...e, scopes: 'all' })) },
  },
  {
    id: 'scope-all-as-user',
    description: 'the literal scope all is read as user: a caller without a credential is refused',
    requirements: [S.scopeTable.id],
    agent: { options: redeclared(PROBES.all.path, (e) => ({ ...e, scopes: 'user' })) },
  },
  {
    id: 'scope-checked-after-handler',
    description: 'the user and owner probes run their handlers first and check the scope after, answering the same 401 or 403',
    requirements: [S.checkedBeforeHandler.id],
    agent: {
      options: (o) => {
        const late = (e: AgentHttpEndpoint): AgentHttpEndpoint => ({
          ...e,
          scopes: undefined,
          handler: async (ctx) => {
            const answered = await e.handler(ctx);
            const presented = ctx.request.headers.has(HEADERS.authorization);
            const refused = decideEndpointAccess({ scopes: e.scopes }, { caller: ctx.auth.caller, presentedCredential: presented }, { verifiesCallers: true });
            return refused ? renderAnswer(refused) : answered;
          },
        });
        return redeclared(PROBES.owner.path, late)(redeclared(PROBES.user.path, late)(o));
      },
    },
  },
  {
    id: 'scope-list-last-entry-only',
    description: 'a list of scopes is read as its last entry',
    requirements: [S.scopeTable.id],
    agent: { options: redeclared(PROBES.list.path, (e) => ({ ...e, scopes: Array.isArray(e.scopes) ? e.scopes[e.scopes.length - 1] : e.scopes })) },
  },
  {
    id: 'scope-owner-refuses-admin',
    description: 'an owner-scoped endpoint refuses admins',
    requirements: [S.scopeTable.id],
    agent: {
      answer: rewrite(
        (a, r) => a.status === 200 && pathOf(r).endsWith(PROBES.owner.path) && bearerSubject(r) === CALLER_IDS.admin,
        (a) => jsonAnswer(a, E.forbidden.status!, { error: { code: E.forbidden.code, message: 'owner only' } }),
      ),
    },
  },
  {
    id: 'scope-group-refuses-owner',
    description: 'a group-scoped endpoint admits its members only, not the owner',
    requirements: [S.scopeTable.id],
    agent: {
      answer: rewrite(
        (a, r) => a.status === 200 && pathOf(r).endsWith(PROBES.group.path) && bearerSubject(r) === CALLER_IDS.owner,
        (a) => jsonAnswer(a, E.forbidden.status!, { error: { code: E.forbidden.code, message: 'members only' } }),
      ),
    },
  },
  {
    id: 'scope-admin-admits-owner',
    description: 'an admin-scoped endpoint admits the owner',
    requirements: [S.scopeTable.id],
    agent: { answer: admit403(PROBES.admin.path, (id) => id === CALLER_IDS.owner) },
  },
  {
    id: 'no-verifier-admits-callers',
    description: 'an agent with no auth skill verifies tokens anyway',
    requirements: [S.noVerifier.id],
    agent: { options: (o) => (o.authSkill === null ? { ...o, authSkill: {} } : o) },
  },
  {
    id: 'no-verifier-open-scopes',
    description: 'an agent with no auth skill and no access block lets every caller through its scoped endpoints',
    requirements: [S.noVerifier.id],
    agent: {
      answer: rewrite(
        (a, r) => a.status === 401 && pathOf(r).includes('/unverified-reference/'),
        (a, r) => jsonAnswer(a, 200, { endpoint: pathOf(r), caller: bearerSubject(r), authenticated: bearerSubject(r) !== null }),
      ),
    },
  },
  {
    id: 'auth-mode-session-as-owner-scope',
    description: 'session admits the owner or an admin (the owner scope) instead of the owner alone',
    requirements: [S.authModes.id],
    agent: { options: redeclared(AUTH_MODE_PROBES.session.path, (e) => ({ ...e, auth: ENDPOINT_AUTH_MODES.public, scopes: 'owner' })) },
  },
  {
    id: 'auth-mode-portal-token-public',
    description: 'portal_token admits callers without a credential',
    requirements: [S.authModes.id],
    agent: { options: authModeAs(ENDPOINT_AUTH_MODES.portalToken, ENDPOINT_AUTH_MODES.public) },
  },
  {
    id: 'auth-mode-visitor-as-portal-token',
    description: 'visitor_session refuses callers without a credential',
    requirements: [S.authModes.id],
    agent: { options: authModeAs(ENDPOINT_AUTH_MODES.visitorSession, ENDPOINT_AUTH_MODES.portalToken) },
  },
  {
    id: 'auth-mode-visitor-as-public',
    description: 'visitor_session lets a credential that does not verify through, unidentified',
    requirements: [S.authModes.id],
    agent: { options: authModeAs(ENDPOINT_AUTH_MODES.visitorSession, ENDPOINT_AUTH_MODES.public) },
  },
  {
    id: 'auth-mode-signature-as-portal-token',
    description: 'signature asks for a verified caller',
    requirements: [S.authModes.id],
    agent: { options: authModeAs(ENDPOINT_AUTH_MODES.signature, ENDPOINT_AUTH_MODES.portalToken) },
  },
  {
    id: 'auth-mode-session-any-caller',
    description: 'session admits any verified caller',
    requirements: [S.authModes.id],
    agent: { options: authModeAs(ENDPOINT_AUTH_MODES.session, ENDPOINT_AUTH_MODES.portalToken) },
  },
];

export const SDK_AUTH_MUTANTS: readonly Mutant[] = Object.freeze(rows);
