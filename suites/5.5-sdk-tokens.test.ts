import { afterAll, beforeAll, describe, expect } from 'vitest';
import { issuerSubject, type AgentTarget, type SdkTokenRequest } from '../src/harness/agent/index.js';
import { agentSuiteNotRunReason, agentSuiteTarget } from './lib/target.js';
import { PROBES, PROBE_DROPPED_SCOPE, PROBE_GRANTED_SCOPE, SCOPE_PROBES } from '../src/contract/probes.js';
import { ENDPOINT_ERRORS, LIMITS, SDK_AUTH_REQUIREMENTS as S, SDK_CLAIMS, SDK_REQUIRED_CLAIMS, SDK_SCOPES } from '../src/spec/index.js';
import { acceptedAlgorithms, bearer, jsonOf, probe, text, WARM_UP_MS, warmUp } from './lib/agent.js';
import { SDK_TOKEN_ALGORITHMS } from '../src/harness/agent/callers.js';
import { READINGS, SDK_TOKEN_LEEWAY_S } from '../src/spec/readings.js';
import { check, notRunAll, type CheckContext } from './lib/check.js';
import { NO_CALLERS_REASON } from '../src/harness/agent/live.js';

/**
 * Sections 2.1, 2.2, 5.1 and 5.5: which SDK-to-SDK tokens the agent's auth skill lets through to a scoped endpoint.
 * Each check presents tokens to the user-scoped probe (any verified caller): a good token reaches the handler, which
 * names the caller; a bad one is refused 401 unauthorized. A live agent is called by self-issued callers whose key sets
 * the run publishes on its fixture host; checks of choices its auth skill's configuration makes (allow and deny globs,
 * trusted issuers, allowed_scopes, Portal mode, a key set cache an hour long) run against the embedded reference only.
 */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
beforeAll(() => warmUp(target), WARM_UP_MS);
afterAll(() => target.close());
const E = ENDPOINT_ERRORS;
/**
 * Why a check that needs the agent's auth skill configured as the reference agent's is not run live: its allow and deny
 * globs, trusted issuer and allowed_scopes name issuers and scopes the run cannot make a live agent trust or refuse.
 */
const CONFIGURED_SKILL_REASON =
  "needs the agent's auth skill configured as the reference agent's (allow, deny, trusted_issuers and allowed_scopes naming the suite's own issuers and scopes, src/harness/agent/callers.ts): only the embedded reference agent is; a live agent is checked with self-issued callers only; to run it, check the embedded reference agent (a run without --agent-url)";

async function tokenOf(on: AgentTarget, c: Pick<CheckContext, 'notRun'>, request: SdkTokenRequest): Promise<string> {
  const token = await on.sdkToken(request);
  if (token === null) c.notRun(on.kind === 'live' && !(await on.token('user')) ? NO_CALLERS_REASON : CONFIGURED_SKILL_REASON);
  return token;
}

/** The check judges choices of the agent's configuration (2.1), which only the embedded reference agent is known to have. */
function needsConfiguredSkill(c: Pick<CheckContext, 'notRun'>): void {
  if (target.kind === 'live') c.notRun(CONFIGURED_SKILL_REASON);
}

function variantOrNotRun(c: Pick<CheckContext, 'notRun'>, variant: Parameters<AgentTarget['variant']>[0]): AgentTarget {
  const other = target.variant(variant);
  if (other === null)
    c.notRun(
      `needs the agent configured as ${variant} beside it: only the embedded reference agent has such a variant; to run it, check the embedded reference agent (a run without --agent-url)`,
    );
  return other;
}

/**
 * The token reaches the handler of `path` as the issuer's subject, signed under at least one of the two algorithms
 * (READING-SDK-TOKEN-ALGORITHM: the callers' key sets carry both keys; an agent may verify one or both).
 */
async function admitted(
  c: CheckContext,
  request: SdkTokenRequest,
  label: string,
  on: AgentTarget = target,
  path: string = PROBES.user.path,
  algorithms = SDK_TOKEN_ALGORITHMS,
): Promise<void> {
  const answers: string[] = [];
  for (const algorithm of algorithms) {
    const response = await probe(on, c, { method: 'GET', path, headers: [bearer(await tokenOf(on, c, { ...request, algorithm }))] });
    if (response.status === 200) {
      expect(jsonOf(response), `${label} (${algorithm}): the handler's caller`).toMatchObject({ caller: issuerSubject(request.issuer) });
      return;
    }
    answers.push(`${algorithm}: ${response.status} ${text(response).slice(0, 160)}`);
  }
  expect.fail(`${label}: not admitted under ${algorithms.join(' or ')} (${READINGS.sdkTokenAlgorithm.id}): ${answers.join('; ')}`);
}

/**
 * The token is refused before the handler, signed under each algorithm: `status` with the error code 7.2 names for it
 * under an algorithm the agent verifies, 401 unauthorized under one it does not (its caller cannot be verified).
 */
async function refused(
  c: CheckContext,
  request: SdkTokenRequest,
  label: string,
  on: AgentTarget = target,
  path: string = PROBES.user.path,
  status = E.unauthorized,
): Promise<void> {
  const verified = await acceptedAlgorithms(on, c);
  for (const algorithm of SDK_TOKEN_ALGORITHMS) {
    const expected = verified.includes(algorithm) ? status : E.unauthorized;
    const what = `${label} (${algorithm}${verified.includes(algorithm) ? '' : ', which the agent does not verify'})`;
    const response = await probe(on, c, { method: 'GET', path, headers: [bearer(await tokenOf(on, c, { ...request, algorithm }))] });
    expect(response.status, `${what}: status`).toBe(expected.status);
    expect(jsonOf(response), `${what}: error.code`).toMatchObject({ error: { code: expected.code } });
  }
}

describe(`5.5 SDK-to-SDK tokens (${target.description})`, () => {
  check({
    id: 'sdk-tokens.claims',
    title: 'a token missing a claim 2.2 requires, or with token_type other than Bearer, is refused',
    requirements: [S.tokenClaims.id],
    level: 'MUST',
    run: async (c) => {
      await admitted(c, { issuer: 'user' }, 'every claim present');
      await admitted(c, { issuer: 'user', claims: { [SDK_CLAIMS.agentPath]: '/agents' } }, 'with the optional agent_path');
      for (const claim of SDK_REQUIRED_CLAIMS) await refused(c, { issuer: 'user', claims: { [claim]: undefined } }, `without ${claim}`);
      await refused(c, { issuer: 'user', claims: { [SDK_CLAIMS.tokenType]: 'DPoP' } }, 'token_type DPoP');
      await refused(c, { issuer: 'user', claims: { [SDK_CLAIMS.scope]: [SDK_SCOPES.read] } }, 'scope a list, not a space-separated string');
    },
  });

  check({
    id: 'sdk-tokens.audience',
    title: "a token whose aud is not this agent's URL is refused",
    requirements: [S.tokenAudience.id],
    level: 'MUST',
    run: async (c) => {
      const origin = new URL(target.agentUrl).origin;
      await admitted(c, { issuer: 'user', audience: target.agentUrl }, 'aud the agent URL');
      await refused(c, { issuer: 'user', audience: `${origin}/agents/someone-else` }, 'aud another agent');
      await refused(c, { issuer: 'user', audience: origin }, "aud the agent's origin only");
    },
  });

  check({
    id: 'sdk-tokens.lifetime',
    title: `a token past its default 300 s lifetime, or not yet valid, by more than the ${SDK_TOKEN_LEEWAY_S} s leeway a receiver may grant, is refused`,
    requirements: [S.tokenLifetime.id, LIMITS.sdkTokenLifetime.id],
    level: 'MUST',
    run: async (c) => {
      // READING-SDK-TOKEN-LEEWAY: within the leeway either answer is right, so every probe stands outside it.
      const lifetime = LIMITS.sdkTokenLifetime.value;
      const past = SDK_TOKEN_LEEWAY_S + 10;
      await admitted(c, { issuer: 'user', age: lifetime - 10 }, `issued ${lifetime - 10} s ago, valid 10 s more`);
      await refused(c, { issuer: 'user', age: lifetime + past }, `expired ${past} s ago (${READINGS.sdkTokenLeeway.id})`);
      await refused(c, { issuer: 'user', age: lifetime + 3600 }, 'expired an hour ago');
      await refused(c, { issuer: 'user', age: -(SDK_TOKEN_LEEWAY_S + 60) }, `nbf ${SDK_TOKEN_LEEWAY_S + 60} s ahead (${READINGS.sdkTokenLeeway.id})`);
    },
  });

  check({
    id: 'sdk-tokens.signature',
    title:
      "a token with a changed claim, signed by another key, unsigned (alg none), an HMAC keyed with the issuer's public key (HS256) or without its signature, is refused",
    requirements: [S.tokenSignature.id],
    level: 'MUST',
    run: async (c) => {
      await refused(c, { issuer: 'user', tampered: { [SDK_CLAIMS.scope]: `${SDK_SCOPES.read} ${SDK_SCOPES.admin}` } }, 'scope changed after signing');
      await refused(c, { issuer: 'user', tampered: { [SDK_CLAIMS.exp]: Math.floor(Date.now() / 1000) + 86_400 } }, 'exp changed after signing');
      await refused(c, { issuer: 'user', signer: 'stranger', kid: 'issuer' }, "another key under the issuer's kid");
      await refused(c, { issuer: 'user', signer: 'stranger', kid: 'signer' }, "another key under that key's kid");
      await refused(c, { issuer: 'user', forge: 'alg-none' }, 'unsigned, alg none');
      await refused(c, { issuer: 'user', forge: 'hmac-with-public-key' }, "HS256 keyed with the issuer's public key");
      await refused(c, { issuer: 'user', forge: 'signature-removed' }, 'its signature cut off');
    },
  });

  check({
    id: 'sdk-tokens.key-kinds',
    title:
      'a caller whose key set carries an Ed25519 and an RSA key is admitted under the algorithm the agent verifies (EdDSA, RS256 or both); under each, a token signed by a key its own header carries (jwk) is refused',
    requirements: [S.tokenSignature.id],
    level: 'MUST',
    run: async (c) => {
      await admitted(c, { issuer: 'user' }, 'a good token');
      const verified = await acceptedAlgorithms(target, c);
      expect(verified.length, `a good token of the caller is admitted under EdDSA or RS256 (${READINGS.sdkTokenAlgorithm.id})`).toBeGreaterThan(0);
      for (const algorithm of verified)
        await admitted(c, { issuer: 'member' }, `another caller's token signed ${algorithm}, which the agent verifies`, target, PROBES.user.path, [algorithm]);
      await refused(c, { issuer: 'user', forge: 'embedded-jwk' }, "signed by a key of its own that its header carries, under the issuer's kid");
    },
  });

  check({
    id: 'sdk-tokens.allow-deny',
    title:
      'an issuer both an allow and a deny glob match is refused (deny takes precedence), one no allow glob matches is refused, and an empty allow list admits every issuer not denied',
    requirements: [S.allowDeny.id],
    level: 'MUST',
    run: async (c) => {
      needsConfiguredSkill(c);
      await admitted(c, { issuer: 'member' }, 'an issuer the allow glob admits');
      await refused(c, { issuer: 'blocked' }, 'an issuer both the allow and the deny glob match');
      await refused(c, { issuer: 'stranger' }, 'an issuer no allow glob matches');
      const open = variantOrNotRun(c, 'portal');
      await admitted(c, { issuer: 'stranger' }, 'with an empty allow list, an issuer not denied', open);
      await refused(c, { issuer: 'blocked' }, 'with an empty allow list, a denied issuer', open);
    },
  });

  check({
    id: 'sdk-tokens.trusted-issuers',
    title: "a trusted issuer's tokens verify under its jwks_uri; an issuer neither trusted nor allowed is refused",
    requirements: [S.trustedIssuers.id],
    level: 'MUST',
    run: async (c) => {
      needsConfiguredSkill(c);
      await admitted(c, { issuer: 'trusted' }, 'the trusted issuer');
      await refused(c, { issuer: 'trusted', signer: 'stranger', kid: 'signer' }, "the trusted issuer's iss signed by a key its jwks_uri lacks");
      await refused(c, { issuer: 'stranger' }, 'an untrusted issuer');
    },
  });

  check({
    id: 'sdk-tokens.allowed-scopes',
    title: 'scopes allowed_scopes does not accept are dropped; a namespace:* entry accepts every namespace scope',
    requirements: [S.allowedScopes.id],
    level: 'MUST',
    run: async (c) => {
      needsConfiguredSkill(c);
      const scopes = [SDK_SCOPES.read, PROBE_GRANTED_SCOPE, PROBE_DROPPED_SCOPE];
      await admitted(c, { issuer: 'user', scopes }, `${PROBE_GRANTED_SCOPE} on an endpoint that needs it`, target, SCOPE_PROBES.granted.path);
      await refused(c, { issuer: 'user', scopes: [SDK_SCOPES.read] }, `a token without ${PROBE_GRANTED_SCOPE}`, target, SCOPE_PROBES.granted.path, E.forbidden);
      await refused(
        c,
        { issuer: 'user', scopes },
        `${PROBE_DROPPED_SCOPE}, which allowed_scopes does not accept`,
        target,
        SCOPE_PROBES.dropped.path,
        E.forbidden,
      );
    },
  });

  check({
    id: 'sdk-tokens.key-set-cache',
    title: "a key removed from the issuer's key set verifies while the cached set is younger than 3600 s, and not once 3600 s have passed",
    requirements: [LIMITS.sdkKeySetCache.id],
    level: 'MUST',
    run: async (c) => {
      const ttl = LIMITS.sdkKeySetCache.value;
      const agent = target.controlled();
      if (agent === null)
        return c.notRun(
          "needs the agent's clock moved forward and a caller's published key set changed: only the embedded reference agent can be; to run it, check the embedded reference agent (a run without --agent-url)",
        );
      await admitted(c, { issuer: 'user' }, "the caller's key, read into the cache", agent.target);
      agent.revokeKey('user');
      await admitted(c, { issuer: 'user' }, 'the revoked key, the cached set just read', agent.target);
      agent.advance(ttl - 1);
      await admitted(c, { issuer: 'user' }, `the revoked key, the cached set ${ttl - 1} s old`, agent.target);
      agent.advance(1);
      await refused(c, { issuer: 'user' }, `the revoked key, the cached set ${ttl} s old`, agent.target);
    },
  });

  check({
    id: 'sdk-tokens.portal-mode',
    title:
      "in Portal mode, the authority's tokens verify under {authority}/api/auth/jwks and the namespace scopes it assigns reach the endpoint; a self-issued agent refuses them",
    requirements: [S.portalMode.id],
    level: 'MUST',
    run: async (c) => {
      const portal = variantOrNotRun(c, 'portal');
      await admitted(c, { issuer: 'authority', scopes: [SDK_SCOPES.read, PROBE_GRANTED_SCOPE] }, "the authority's token", portal);
      await admitted(
        c,
        { issuer: 'authority', scopes: [SDK_SCOPES.read, PROBE_GRANTED_SCOPE] },
        `the authority's token assigning ${PROBE_GRANTED_SCOPE}, on an endpoint that needs it`,
        portal,
        SCOPE_PROBES.granted.path,
      );
      await refused(
        c,
        { issuer: 'authority', scopes: [SDK_SCOPES.read] },
        `the authority's token without ${PROBE_GRANTED_SCOPE}, on an endpoint that needs it`,
        portal,
        SCOPE_PROBES.granted.path,
        E.forbidden,
      );
      await refused(c, { issuer: 'authority', signer: 'stranger', kid: 'signer' }, "the authority's iss signed by a key its key set lacks", portal);
      await refused(c, { issuer: 'authority' }, "the authority's token at a self-issued agent", target);
    },
  });
});
