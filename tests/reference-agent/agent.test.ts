import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { callerToken, IN_PROCESS_AGENT_URL } from '../../src/harness/agent/index.js';
import { PROBES } from '../../src/contract/probes.js';
import { createMemoryKeyStore, createStandardAgent, generateAgentKeys, type StandardAgentOptions } from '../../src/reference/agent/index.js';
import { memoryKeySets } from '../../src/sdk-auth/index.js';
import {
  AGENT_MOUNT_PREFIX,
  AGENT_TOKEN_ROUTE,
  CLIENT_CREDENTIALS_GRANT,
  ENDPOINT_ERRORS,
  HEADERS,
  MEDIA_TYPES,
  TOKEN_ERROR_CODES,
  TOKEN_FORM_FIELDS,
  WELL_KNOWN,
  LIMITS,
  SDK_TOKEN_TYPE,
  ED25519_JWK,
} from '../../src/spec/index.js';
import { callerKeySets } from '../../src/harness/agent/callers.js';

const clock = { now: () => 1_800_000_000 };
const random = { bytes: (n: number) => new Uint8Array(n).fill(7) };
const keys = generateAgentKeys();
const keySets = callerKeySets();

async function agent(over: Partial<StandardAgentOptions> = {}) {
  return createStandardAgent({
    agentUrl: IN_PROCESS_AGENT_URL,
    name: 'reference',
    keyStore: createMemoryKeyStore(await keys),
    authSkill: {},
    fetchKeySet: memoryKeySets(await keySets),
    clock,
    random,
    clients: { 'client-1': 'secret-1' },
    serveKeyDirectory: true,
    ...over,
  });
}

const origin = new URL(IN_PROCESS_AGENT_URL).origin;
const get = (path: string, headers: Record<string, string> = {}) => new Request(path.startsWith('http') ? path : IN_PROCESS_AGENT_URL + path, { headers });
const tokenRequest = (fields: Record<string, string>, contentType: string = MEDIA_TYPES.formUrlEncoded) =>
  new Request(IN_PROCESS_AGENT_URL + AGENT_TOKEN_ROUTE, {
    method: 'POST',
    headers: { [HEADERS.contentType]: contentType },
    body: new URLSearchParams(fields).toString(),
  });
const form = (over: Record<string, string> = {}) => ({
  [TOKEN_FORM_FIELDS.grantType]: CLIENT_CREDENTIALS_GRANT,
  [TOKEN_FORM_FIELDS.clientId]: 'client-1',
  [TOKEN_FORM_FIELDS.clientSecret]: 'secret-1',
  [TOKEN_FORM_FIELDS.scope]: 'read write',
  [TOKEN_FORM_FIELDS.target]: '@bob',
  ...over,
});

describe('the reference agent', () => {
  it('serves the key directory at its origin with its media type, and 404 when it has no signing identity (4.3)', async () => {
    const withKeys = await (await agent()).fetch(get(origin + WELL_KNOWN.keyDirectory));
    expect(withKeys.status).toBe(200);
    expect(withKeys.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.keyDirectory);
    expect(((await withKeys.json()) as { keys: Array<{ x: string }> }).keys.map((k) => k.x)).toEqual([(await keys).ed25519.x]);
    const without = await (await agent({ keyStore: null })).fetch(get(origin + WELL_KNOWN.keyDirectory));
    expect(without.status).toBe(404);
  });

  it('publishes only the Ed25519 key unless asked to add the RSA key', async () => {
    const plain = (await (await (await agent()).fetch(get(WELL_KNOWN.jwks))).json()) as { keys: Array<{ kty: string }> };
    expect(plain.keys.map((k) => k.kty)).toEqual([ED25519_JWK.kty]);
    const both = (await (await (await agent({ publishRsaKey: true })).fetch(get(WELL_KNOWN.jwks))).json()) as { keys: Array<{ kty: string; d?: string }> };
    expect(both.keys.map((k) => k.kty)).toEqual([ED25519_JWK.kty, 'RSA']);
    expect(both.keys.every((k) => k.d === undefined)).toBe(true);
  });

  it('mints a token at POST /auth/token for the @target, aud its URL and iss this agent', async () => {
    const response = await (await agent()).fetch(tokenRequest(form()));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number; scope: string };
    expect([body.token_type, body.expires_in, body.scope]).toEqual([SDK_TOKEN_TYPE, LIMITS.sdkTokenLifetime.value, 'read write']);
    const claims = decodeJwt(body.access_token);
    expect([claims.iss, claims.aud, claims.sub]).toEqual([IN_PROCESS_AGENT_URL, `${origin}${AGENT_MOUNT_PREFIX}bob`, 'reference']);
  });

  it.each([
    [{ [TOKEN_FORM_FIELDS.grantType]: 'password' }, 400, TOKEN_ERROR_CODES.unsupportedGrantType],
    [{ [TOKEN_FORM_FIELDS.clientSecret]: 'wrong' }, 401, TOKEN_ERROR_CODES.invalidClient],
    [{ [TOKEN_FORM_FIELDS.target]: 'bob' }, 400, TOKEN_ERROR_CODES.invalidTarget],
    [{ [TOKEN_FORM_FIELDS.clientId]: '' }, 400, TOKEN_ERROR_CODES.invalidRequest],
  ])('refuses a token request %j with %i %s', async (over, status, code) => {
    const response = await (await agent()).fetch(tokenRequest(form(over)));
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error).toBe(code);
  });

  it('answers 415 to a token request that is not a form', async () => {
    const response = await (await agent()).fetch(tokenRequest(form(), MEDIA_TYPES.json));
    expect(response.status).toBe(ENDPOINT_ERRORS.unsupportedMediaType.status);
  });

  it('admits a verified caller on a user endpoint and hands the handler context.auth', async () => {
    const token = await callerToken('user', IN_PROCESS_AGENT_URL, { clock, random });
    const response = await (await agent()).fetch(get(PROBES.user.path, { [HEADERS.authorization]: `Bearer ${token}` }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ caller: 'ursula' });
  });

  it('refuses every scoped call when it has no auth skill (5.4), even with a token that would verify', async () => {
    const token = await callerToken('owner', IN_PROCESS_AGENT_URL, { clock, random });
    const response = await (await agent({ authSkill: null })).fetch(get(PROBES.owner.path, { [HEADERS.authorization]: `Bearer ${token}` }));
    expect(response.status).toBe(ENDPOINT_ERRORS.unauthorized.status);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(ENDPOINT_ERRORS.unauthorized.code);
  });

  it('refuses a token minted for another agent (aud)', async () => {
    const token = await callerToken('user', 'https://agents.example/agents/other', { clock, random });
    const response = await (await agent()).fetch(get(PROBES.user.path, { [HEADERS.authorization]: `Bearer ${token}` }));
    expect(response.status).toBe(ENDPOINT_ERRORS.unauthorized.status);
    expect(response.headers.get(HEADERS.wwwAuthenticate)).toMatch(/error="invalid_token"/);
  });

  it('answers 404 outside its base path and for an undeclared path', async () => {
    expect((await (await agent()).fetch(get(`${origin}/agents/other/x`))).status).toBe(404);
    expect((await (await agent()).fetch(get('/nothing-here'))).status).toBe(404);
  });
});
