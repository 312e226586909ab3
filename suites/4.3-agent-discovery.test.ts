import { afterAll, describe, expect } from 'vitest';
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
  SDK_SCOPES,
  TOKEN_ERROR_CODES,
  TOKEN_FORM_FIELDS,
  WELL_KNOWN,
} from '../src/spec/index.js';
import { exchange, jsonOf, text } from './lib/agent.js';
import { check, notRunAll, type CheckContext } from './lib/check.js';
import { context } from './lib/context.js';

/**
 * Sections 4.3 and 2.4: the discovery documents an SDK agent serves (its card, key set, OpenID configuration,
 * the key directory at the origin) judged by the same rules check-agent applies.
 */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
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

/** RFC 6749 5.2: 400 with a JSON `error` among `codes` (invalid_client may come with 401). */
async function expectTokenRefusal(c: CheckContext, what: string, fields: Readonly<Record<string, string>>, codes: readonly string[]): Promise<void> {
  const response = await tokenRequest(c, fields);
  const statuses = codes.includes(TOKEN_ERROR_CODES.invalidClient) ? [400, 401] : [400];
  expect(statuses, `${what}: status ${response.status} ${text(response).slice(0, 200)}`).toContain(response.status);
  const error = (jsonOf(response) as { error?: unknown } | null)?.error;
  expect(codes, `${what}: error ${JSON.stringify(error)}`).toContain(error);
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
    title: 'POST /auth/token answers a good client_credentials grant with a token (RFC 6749 5.1)',
    requirements: [R.agentTokenEndpointForm.id],
    level: 'MUST',
    run: async (c) => {
      const client = target.tokenClient();
      if (client === null)
        return c.notRun(
          "needs a client the agent's token endpoint knows: run with --agent-client ID:SECRET (a client_id and client_secret the agent issues tokens to; the token is asked for the agent itself, @<the last segment of its URL>)",
        );
      const response = await tokenRequest(c, {
        [F.grantType]: CLIENT_CREDENTIALS_GRANT,
        [F.clientId]: client.id,
        [F.clientSecret]: client.secret,
        [F.scope]: SDK_SCOPES.read,
        [F.target]: client.target,
      });
      expect(response.status, 'a 2xx (RFC 6749 5.1)').toBeGreaterThanOrEqual(200);
      expect(response.status, 'a 2xx (RFC 6749 5.1)').toBeLessThan(300);
      const body = jsonOf(response) as { access_token?: unknown } | null;
      expect(typeof body?.access_token === 'string' && body.access_token !== '', 'the body carries a non-empty string access_token').toBe(true);
    },
  });

  check({
    id: 'discovery.token-endpoint-form',
    title: 'POST /auth/token refuses an unknown client, another grant type and a form without grant_type with the RFC 6749 5.2 codes',
    requirements: [R.agentTokenEndpointForm.id],
    level: 'MUST',
    run: async (c) => {
      const client = target.tokenClient();
      const unknown = { [F.clientId]: 'conformance-unknown-client', [F.clientSecret]: 'not-a-secret' };
      const known = client ? { [F.clientId]: client.id, [F.clientSecret]: client.secret } : unknown;
      const rest = { [F.scope]: SDK_SCOPES.read, [F.target]: client?.target ?? `${AGENT_NAME_SIGIL}${ownName}` };
      const E = TOKEN_ERROR_CODES;
      // A form broken in two ways (no known client, and a bad grant) may get the code of either (READING-TOKEN-ENDPOINT-ANSWERS).
      const orClient = (codes: string[]) => (client ? codes : [...codes, E.invalidClient]);
      await expectTokenRefusal(c, 'an unknown client', { [F.grantType]: CLIENT_CREDENTIALS_GRANT, ...unknown, ...rest }, [E.invalidClient]);
      await expectTokenRefusal(c, 'grant_type password', { [F.grantType]: 'password', ...known, ...rest }, orClient([E.unsupportedGrantType]));
      await expectTokenRefusal(c, 'no grant_type', { ...known, ...rest }, orClient([E.invalidRequest, E.unsupportedGrantType]));
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
