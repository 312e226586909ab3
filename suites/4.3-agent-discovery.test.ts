import { afterAll, describe, expect } from 'vitest';
import { agentCheckUrls, judgeCardDocument, judgeKeyDirectoryDocument, judgeKeySetDocument } from '../src/agent-check/index.js';
import { mediaTypeOf } from '../src/fetch/rules.js';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { createStandardAgent } from '../src/reference/agent/standard-agent.js';
import { agentSuiteNotRunReason, agentSuiteTarget } from './lib/target.js';
import { AGENT_TOKEN_ROUTE, CLIENT_CREDENTIALS_GRANT, HEADERS, LIMITS, MEDIA_TYPES, REQUIREMENTS, TOKEN_FORM_FIELDS, WELL_KNOWN } from '../src/spec/index.js';
import { exchange, jsonOf } from './lib/agent.js';
import { check, notRunAll } from './lib/check.js';

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
      if (!target.servesOriginDirectory)
        c.notRun(
          "the origin of a live agent URL may be a platform or host that is not the agent; run check-agent on the agent URL to judge its origin's directory",
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
      if (target.kind === 'live') c.notRun('needs a server with no signing identity; a live agent has one (check-agent reports a 404 directory as a warning)');
      const bare = await createStandardAgent({
        agentUrl: urls.agentUrl,
        name: 'no-identity',
        keyStore: null,
        authSkill: null,
        fetchKeySet: () => Promise.reject(new Error('no key sets')),
        clock: { now: () => 0 },
        random: { bytes: (n) => new Uint8Array(n) },
        serveKeyDirectory: true,
      });
      const response = await bare.fetch(new Request(urls.keyDirectoryUrl));
      c.record({
        request: recordRequest({ method: 'GET', url: urls.keyDirectoryUrl, headers: [] }),
        response: recordResponse({
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body: new Uint8Array(await response.arrayBuffer()),
        }),
      });
      expect(response.status, 'status').toBe(404);
    },
  });

  check({
    id: 'discovery.token-endpoint-form',
    title: 'POST /auth/token takes the form fields of 4.3 and refuses an unknown client',
    requirements: [R.agentTokenEndpointForm.id],
    level: 'MUST',
    run: async (c) => {
      const form = new URLSearchParams({
        [TOKEN_FORM_FIELDS.grantType]: CLIENT_CREDENTIALS_GRANT,
        [TOKEN_FORM_FIELDS.clientId]: 'conformance-unknown-client',
        [TOKEN_FORM_FIELDS.clientSecret]: 'not-a-secret',
        [TOKEN_FORM_FIELDS.scope]: 'read',
        [TOKEN_FORM_FIELDS.target]: '@someone',
      });
      const response = await exchange(target, c, {
        method: 'POST',
        path: AGENT_TOKEN_ROUTE,
        headers: [[HEADERS.contentType, MEDIA_TYPES.formUrlEncoded]],
        body: new TextEncoder().encode(form.toString()),
      });
      if (response.status === 404) c.notRun('the agent serves no token endpoint (4.3 says it exists in the Python SDK only)');
      expect(response.status, 'an unknown client is refused, not served').toBeGreaterThanOrEqual(400);
      expect(response.status, 'the form is read (not 415)').not.toBe(415);
    },
  });
});
