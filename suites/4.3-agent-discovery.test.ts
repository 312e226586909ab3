import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { agentCheckUrls, judgeCardDocument, judgeKeyDirectoryDocument, judgeKeySetDocument } from '../src/agent-check/index.js';
import { mediaTypeOf } from '../src/fetch/rules.js';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import type { TargetResponse } from '../src/harness/target.js';
import { agentSuiteNotRunReason, agentSuiteTarget, suiteTarget } from './lib/target.js';
import {
  AGENT_NAME_SIGIL,
  AGENT_TOKEN_ROUTE,
  CLIENT_CREDENTIALS_GRANT,
  HEADERS,
  LIMITS,
  MEDIA_TYPES,
  PORTAL_ROUTES,
  REQUIREMENTS,
  SDK_AUTH_REQUIREMENTS,
  SDK_CLAIMS,
  SDK_JWT_ALGORITHMS,
  SDK_REQUIRED_CLAIMS,
  SDK_SCOPES,
  SDK_TOKEN_TYPE,
  TOKEN_FORM_FIELDS,
  WELL_KNOWN,
} from '../src/spec/index.js';
import { READINGS } from '../src/spec/readings.js';
import type { TokenClient } from '../src/harness/agent/agent-target.js';
import { exchange, jsonOf, text, WARM_UP_MS, warmUp } from './lib/agent.js';
import { check, notRunAll, type CheckContext } from './lib/check.js';
import { context } from './lib/context.js';

/**
 * Sections 4.3 and 2.4: the discovery documents an SDK agent serves (its card, key set, OpenID configuration,
 * the key directory at the origin) judged by the same rules check-agent applies.
 */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
beforeAll(() => warmUp(target), WARM_UP_MS);
afterAll(() => target.close());
const R = REQUIREMENTS;
const urls = agentCheckUrls(target.agentUrl);
const messages = (problems: ReadonlyArray<{ level: string; message: string }>) => problems.filter((p) => p.level === 'error').map((p) => p.message);
const F = TOKEN_FORM_FIELDS;
const ownName = new URL(target.agentUrl).pathname.split('/').filter(Boolean).pop() ?? '';

/** POSTs a form to the agent's token endpoint; an agent that answers 404 there serves none (READING-TOKEN-ENDPOINT-ANSWERS). */
async function tokenRequest(c: CheckContext, fields: Readonly<Record<string, string>>): Promise<TargetResponse> {
  const response = await exchange(target, c, {
    method: 'POST',
    path: AGENT_TOKEN_ROUTE,
    headers: [[HEADERS.contentType, MEDIA_TYPES.formUrlEncoded]],
    body: new TextEncoder().encode(new URLSearchParams(fields).toString()),
  });
  if (response.status === 404)
    c.notRun('the agent serves no token endpoint: it answers 404 at /auth/token (5.1: token generation exists in the Python SDK only)');
  return response;
}

/** A refusal of the token endpoint: any 4xx (READING-TOKEN-ENDPOINT-ANSWERS: 4.3 shows no response body, and no status). */
async function expectTokenRefusal(c: CheckContext, what: string, fields: Readonly<Record<string, string>>): Promise<void> {
  const response = await tokenRequest(c, fields);
  expect(response.status >= 400 && response.status < 500, `${what}: a 4xx refusal, not ${response.status} ${text(response).slice(0, 200)}`).toBe(true);
}

/** The scope a good grant asks for. */
const ASKED_SCOPE = SDK_SCOPES.read;

/** A good grant (a client the agent knows, client_credentials, a scope, the target), answered 2xx; not-run without a client. */
async function goodGrant(c: CheckContext): Promise<{ readonly client: TokenClient; readonly response: TargetResponse }> {
  const client = target.tokenClient();
  if (client === null)
    return c.notRun(
      "needs a client the agent's token endpoint knows: run with --agent-client ID:SECRET (a client_id and client_secret the agent issues tokens to; the token is asked for the agent itself, @<the last segment of its URL>)",
    );
  const response = await tokenRequest(c, {
    [F.grantType]: CLIENT_CREDENTIALS_GRANT,
    [F.clientId]: client.id,
    [F.clientSecret]: client.secret,
    [F.scope]: ASKED_SCOPE,
    [F.target]: client.target,
  });
  expect(response.status >= 200 && response.status < 300, `a good grant is answered 2xx, not ${response.status} ${text(response).slice(0, 200)}`).toBe(true);
  return { client, response };
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Whether a string is a compact JWS whose header names an algorithm. */
function isJwt(value: string): boolean {
  if (!COMPACT_JWS.test(value)) return false;
  try {
    return typeof decodeProtectedHeader(value).alg === 'string' && typeof decodeJwt(value) === 'object';
  } catch {
    return false;
  }
}

/** The first compact JWT in an answer (READING-TOKEN-ENDPOINT-ANSWERS): the body itself, or any string of its JSON at any depth. */
function issuedJwtOf(response: TargetResponse): string | null {
  const body = text(response).trim();
  if (isJwt(body)) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const pending: unknown[] = [parsed];
  while (pending.length) {
    const value = pending.shift();
    if (typeof value === 'string' && isJwt(value)) return value;
    if (typeof value === 'object' && value !== null) pending.push(...Object.values(value));
  }
  return null;
}

/** The token a good grant issued, or not-run when its answer carries none to read. */
async function issuedToken(c: CheckContext): Promise<{ readonly client: TokenClient; readonly jwt: string; readonly claims: Record<string, unknown> }> {
  const { client, response } = await goodGrant(c);
  const jwt = issuedJwtOf(response);
  if (jwt === null)
    return c.notRun(
      `the answer of a good grant carries no compact JWT, in its body or any member of it (4.3: "Response body: not shown"; ${READINGS.tokenEndpointAnswers.id}): nothing of the token it issued can be judged`,
    );
  return { client, jwt, claims: decodeJwt(jwt) as Record<string, unknown> };
}

describe(`4.3 discovery and token endpoints, 2.4 key set and card (${target.description})`, () => {
  check({
    id: 'discovery.card-self-naming',
    title: 'the agent card names itself (client_id, url, jwks_uri)',
    requirements: [R.agentCardSelfNaming.id, R.agentDocumentsFetchable.id],
    level: 'MUST',
    run: async (c) => {
      const response = await exchange(target, c, { method: 'GET', path: WELL_KNOWN.agentCard });
      expect(response.status, 'status').toBe(200);
      expect(response.body.byteLength, 'at most 64 KiB').toBeLessThanOrEqual(LIMITS.documentSize.value);
      expect(messages(judgeCardDocument(jsonOf(response), urls).problems), 'problems').toEqual([]);
    },
  });

  check({
    id: 'discovery.key-set-rules',
    title: 'the key set holds Ed25519 keys (OKP, Ed25519, use sig), at most 16, no RFC 9421 test key',
    requirements: [R.agentKeySetRules.id, R.agentDocumentsFetchable.id, LIMITS.keysPerKeySet.id],
    level: 'MUST',
    run: async (c) => {
      const response = await exchange(target, c, { method: 'GET', path: WELL_KNOWN.jwks });
      expect(response.status, 'status').toBe(200);
      expect(response.body.byteLength, 'at most 64 KiB').toBeLessThanOrEqual(LIMITS.documentSize.value);
      const judged = judgeKeySetDocument(jsonOf(response), urls.keySetUrl);
      expect(messages(judged.problems), 'problems').toEqual([]);
      expect(judged.keys.length, 'at least one Ed25519 key').toBeGreaterThan(0);
    },
  });

  check({
    id: 'discovery.openid-configuration',
    title: 'the OpenID Connect discovery document names the agent and its key set',
    requirements: [R.agentDiscoveryDocuments.id],
    level: 'MUST',
    run: async (c) => {
      const response = await exchange(target, c, { method: 'GET', path: WELL_KNOWN.openidConfiguration });
      expect(response.status, 'status').toBe(200);
      expect(jsonOf(response), 'issuer and jwks_uri').toMatchObject({ issuer: expect.any(String), jwks_uri: urls.keySetUrl });
    },
  });

  check({
    id: 'discovery.key-directory',
    title: "the key directory at the origin has its media type and lists the agent's keys",
    requirements: [R.keyDirectoryMediaType.id, R.keyDirectoryEntries.id],
    level: 'MUST',
    run: async (c) => {
      // Live, the origin's directory is the agent's to judge only when the platform under test hosts it there (2.4: it lists
      // the keys of every agent the server hosts).
      const hostedByTarget = context.target.kind === 'live' && new URL(context.target.baseUrl).origin === new URL(target.agentUrl).origin;
      if (!target.servesOriginDirectory && !hostedByTarget)
        c.notRun(
          "the origin of a live agent URL may be a platform or host that is not the agent: run it with --base-url naming the platform that hosts it there, or run check-agent on the agent URL to judge its origin's directory",
        );
      const keys = judgeKeySetDocument(jsonOf(await exchange(target, c, { method: 'GET', path: WELL_KNOWN.jwks })), urls.keySetUrl).keys;
      const origin = await exchange(target, c, { method: 'GET', path: urls.keyDirectoryUrl });
      expect(origin.status, 'status').toBe(200);
      expect(messages(judgeKeyDirectoryDocument(mediaTypeOf(origin.headers), jsonOf(origin), urls.keyDirectoryUrl, keys)), 'problems').toEqual([]);
    },
  });

  check({
    id: 'discovery.key-directory-without-identity',
    title: 'a server with no signing identity answers 404 for the key directory',
    requirements: [R.agentKeyDirectoryWithoutIdentity.id],
    level: 'MUST',
    run: async (c) => {
      const bare = target.variant('no-identity');
      if (bare === null)
        return c.notRun(
          'needs a server with no signing identity beside the agent under test: only the embedded reference agent has one (check-agent reports a 404 directory of a live agent as a warning); to run it, check the embedded reference agent (a run without --agent-url)',
        );
      const response = await exchange(bare, c, { method: 'GET', path: agentCheckUrls(bare.agentUrl).keyDirectoryUrl });
      expect(response.status, 'status').toBe(404);
    },
  });

  check({
    id: 'discovery.token-endpoint-grant',
    title: 'POST /auth/token answers a good client_credentials grant (a known client, a scope, a target @name) with a 2xx',
    requirements: [R.agentTokenEndpointForm.id],
    level: 'MUST',
    run: async (c) => {
      await goodGrant(c);
    },
  });

  check({
    id: 'discovery.token-endpoint-form',
    title: 'POST /auth/token refuses an unknown client, another grant type and a form without grant_type with a 4xx',
    requirements: [R.agentTokenEndpointForm.id],
    level: 'MUST',
    run: async (c) => {
      const client = target.tokenClient();
      const unknown = { [F.clientId]: 'conformance-unknown-client', [F.clientSecret]: 'not-a-secret' };
      const known = client ? { [F.clientId]: client.id, [F.clientSecret]: client.secret } : unknown;
      const rest = { [F.scope]: SDK_SCOPES.read, [F.target]: client?.target ?? `${AGENT_NAME_SIGIL}${ownName}` };
      await expectTokenRefusal(c, 'an unknown client', { [F.grantType]: CLIENT_CREDENTIALS_GRANT, ...unknown, ...rest });
      await expectTokenRefusal(c, 'grant_type password', { [F.grantType]: 'password', ...known, ...rest });
      await expectTokenRefusal(c, 'no grant_type', { ...known, ...rest });
    },
  });

  check({
    id: 'discovery.token-endpoint-issued-token',
    title:
      "a token POST /auth/token issues carries 2.2's claims: token_type Bearer, iss the agent, a signature under its key set, aud the target's URL, no scope beyond those asked",
    requirements: [SDK_AUTH_REQUIREMENTS.issuedTokenClaims.id],
    level: 'MUST',
    run: async (c) => {
      const { client, jwt, claims } = await issuedToken(c);
      for (const claim of SDK_REQUIRED_CLAIMS) expect(Object.keys(claims), `the claim ${claim} (2.2)`).toContain(claim);
      for (const claim of [SDK_CLAIMS.iss, SDK_CLAIMS.sub, SDK_CLAIMS.aud, SDK_CLAIMS.jti, SDK_CLAIMS.scope, SDK_CLAIMS.clientId])
        expect(typeof claims[claim], `${claim} is a string (2.2)`).toBe('string');
      for (const claim of [SDK_CLAIMS.exp, SDK_CLAIMS.iat, SDK_CLAIMS.nbf])
        expect(Number.isInteger(claims[claim]), `${claim} is a NumericDate integer (2.2)`).toBe(true);
      expect(claims[SDK_CLAIMS.tokenType], 'token_type').toBe(SDK_TOKEN_TYPE);
      expect(claims[SDK_CLAIMS.iss], "iss: the issuing agent's URL (2.2, 5.1 self-issued)").toBe(target.agentUrl);
      if (client.targetUrl !== null) expect(claims[SDK_CLAIMS.aud], `aud: the URL of ${client.target}, the receiver (5.5)`).toBe(client.targetUrl);
      const scopes = String(claims[SDK_CLAIMS.scope]).split(' ').filter(Boolean);
      expect(
        scopes.filter((s) => s !== ASKED_SCOPE),
        `scope "${String(claims[SDK_CLAIMS.scope])}": only what was asked (${ASKED_SCOPE})`,
      ).toEqual([]);
      expect(Number(claims[SDK_CLAIMS.exp]), 'exp after iat').toBeGreaterThan(Number(claims[SDK_CLAIMS.iat]));
      const keySet = await exchange(target, c, { method: 'GET', path: WELL_KNOWN.jwks });
      expect(keySet.status, 'the key set: status').toBe(200);
      const verified = await jwtVerify(jwt, createLocalJWKSet(jsonOf(keySet) as JSONWebKeySet), {
        algorithms: Object.values(SDK_JWT_ALGORITHMS),
        currentDate: new Date(Number(claims[SDK_CLAIMS.iat]) * 1000),
      }).then(
        () => null,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      expect(verified, "the token verifies under a key of the agent's own key set (5.1: it signs with the key it publishes)").toBeNull();
    },
  });

  check({
    id: 'discovery.token-endpoint-token-lifetime',
    title: "a token POST /auth/token issues lives the agent's token_ttl: exp - iat is 300 s by default",
    requirements: [SDK_AUTH_REQUIREMENTS.issuedTokenLifetime.id, LIMITS.sdkTokenLifetime.id],
    level: 'MUST',
    run: async (c) => {
      const { claims } = await issuedToken(c);
      const lifetime = Number(claims[SDK_CLAIMS.exp]) - Number(claims[SDK_CLAIMS.iat]);
      const ttl = target.knownTokenTtl;
      if (ttl === null && lifetime !== LIMITS.sdkTokenLifetime.value)
        return c.notRun(
          `the token lives ${lifetime} s: 300 s is token_ttl's default (2.1, 5.5), and a live run cannot read the token_ttl the agent is configured with; the embedded reference agent keeps the default`,
        );
      expect(lifetime, `exp - iat: the token_ttl the agent is configured with (${ttl ?? LIMITS.sdkTokenLifetime.value} s)`).toBe(
        ttl ?? LIMITS.sdkTokenLifetime.value,
      );
    },
  });
});

/** 4.3: "The platform itself serves no agent token endpoint", nor the authority's routes of Portal mode (5.1). */
notRunAll(undefined);
const platform = suiteTarget();
afterAll(() => platform.close());

describe(`4.3 the platform serves no token endpoint (${platform.description})`, () => {
  check({
    id: 'discovery.platform-serves-no-token-endpoint',
    title: 'the platform answers no success at /auth/token, /api/auth/token or /api/auth/jwks',
    requirements: [R.platformNoTokenEndpoint.id],
    level: 'MUST',
    run: async (c) => {
      if (context.agentUrl && context.target.kind === 'in-process')
        return c.notRun('checks a platform, and this run names only an agent (--agent-url): add --base-url to check the platform as well');
      await platform.prepare({
        id: 'platform-serves-no-token-endpoint',
        description: 'no documents: the platform is asked for token routes it must not serve',
        platform: { authority: platform.environment.authority },
        now: platform.environment.now(),
        documents: {},
        steps: [],
      });
      const form = new URLSearchParams({
        [F.grantType]: CLIENT_CREDENTIALS_GRANT,
        [F.clientId]: 'conformance-client',
        [F.clientSecret]: 'conformance-client-secret',
        [F.scope]: SDK_SCOPES.read,
        [F.target]: `${AGENT_NAME_SIGIL}conformance`,
      }).toString();
      const requests = [
        { method: 'POST', path: AGENT_TOKEN_ROUTE, form: true },
        { method: 'POST', path: PORTAL_ROUTES.token, form: true },
        { method: 'GET', path: PORTAL_ROUTES.jwks, form: false },
      ];
      for (const r of requests) {
        const request = {
          method: r.method,
          url: `${platform.environment.platformOrigin}${r.path}`,
          headers: r.form ? ([[HEADERS.contentType, MEDIA_TYPES.formUrlEncoded]] as Array<[string, string]>) : [],
          body: r.form ? new TextEncoder().encode(form) : null,
        };
        const response = await platform.send(request);
        c.record({ request: recordRequest(request), response: recordResponse(response) });
        expect(response.status >= 200 && response.status < 300, `${r.method} ${r.path} answered ${response.status}, a success`).toBe(false);
      }
    },
  });
});
