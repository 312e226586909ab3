import { describe, expect, it } from 'vitest';
import { caseRequestBody } from '../../src/cases/request-body.js';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { agentAt, cardDocument, keyFromName, keySetDocument } from '../../src/scenarios/identities.js';
import { AGENT_SCOPE, PLATFORM_TOKEN_ISSUER, platformToken, platformTokenKeys } from '../../src/scenarios/platform-tokens.js';
import { buildSignedRequest } from '../../src/scenarios/request-builder.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { serviceNaming } from '../../src/spec/naming.js';
import { MESSAGES } from '../../src/verifier/messages.js';
import { createMemoryPorts } from '../../src/verifier/memory-ports.js';
import type { VerifierConfig, VerifierRequest } from '../../src/verifier/types.js';
import { isSignedRequest, verifyRequest } from '../../src/verifier/verify-request.js';

/**
 * verifyRequest's own branches, called directly: what an Authorization header of another scheme earns, that every
 * refusal carries the deployment's realm, that Signature alone makes a request signed, and the fields of an accepted
 * signed request (labels, thumbprints, covered plain header fields sorted and in lower case, registered).
 */
const NOW = 1_800_000_000;
const PLATFORM = 'platform.example';
const ADDRESS = '192.0.2.7';
const alice = agentAt('https://agents.example/paths/alice');
const A = keyFromName('verify-request-paths/alice');
const fetcher = () =>
  createMemoryFetcher({
    [alice.keySetUrl]: keySetDocument([A.publicJwk]),
    [alice.cardUrl]: cardDocument(alice),
  });
const ports = () => createMemoryPorts({ now: () => NOW }, fetcher());
const ACME: VerifierConfig = {
  authority: PLATFORM,
  naming: serviceNaming('acme'),
  platformToken: { keys: platformTokenKeys(), issuer: PLATFORM_TOKEN_ISSUER, agentScope: AGENT_SCOPE },
};
const plain = (headers: ReadonlyArray<readonly [string, string]>, extra: Partial<VerifierRequest> = {}): VerifierRequest => ({
  method: 'GET',
  url: `https://${PLATFORM}/api/things`,
  headers,
  body: null,
  clientAddress: ADDRESS,
  ...extra,
});
const challenge = (description: string) => `Bearer realm="acme", error="invalid_token", error_description="${description}"`;

describe('unsigned requests', () => {
  it('an Authorization header of another scheme is missing_credential naming that scheme', async () => {
    const verdict = await verifyRequest(plain([['authorization', 'Basic dXNlcjpwdw==']]), ports(), ACME);
    expect(verdict).toMatchObject({ ok: false, code: AUTH_CODES.missing_credential, description: MESSAGES.missingCredential('Basic') });
  });

  it('an empty Authorization header is missing_credential naming the empty scheme', async () => {
    const verdict = await verifyRequest(plain([['authorization', '   ']]), ports(), ACME);
    expect(verdict).toMatchObject({ ok: false, code: AUTH_CODES.missing_credential, description: MESSAGES.missingCredential('empty') });
  });

  it('a valid platform bearer is accepted', async () => {
    const token = await platformToken({ iss: PLATFORM_TOKEN_ISSUER, sub: 'user-7', scope: AGENT_SCOPE, exp: NOW + 60 });
    expect(await verifyRequest(plain([['authorization', `Bearer ${token}`]]), ports(), ACME)).toStrictEqual({
      ok: true,
      kind: 'platform-token',
      subject: 'user-7',
      scopes: [AGENT_SCOPE],
    });
  });

  it('a bearer refusal carries the deployment realm', async () => {
    const verdict = await verifyRequest(plain([['authorization', 'Bearer not-a-jwt']]), ports(), ACME);
    expect(verdict).toMatchObject({ ok: false, code: AUTH_CODES.malformed_token });
    if (!verdict.ok) expect(verdict.headers['www-authenticate']).toBe(challenge(MESSAGES.malformedToken));
  });
});

describe('signed requests refused before any check', () => {
  it('too many failed signatures from the address, in the deployment realm', async () => {
    const p = ports();
    for (let i = 0; i < 30; i++) p.failures.record(ADDRESS, NOW - 1);
    const verdict = await verifyRequest(plain([['signature-input', 'sig1=()']]), p, ACME);
    expect(verdict).toMatchObject({ ok: false, code: AUTH_CODES.too_many_failed_signatures, description: MESSAGES.tooManyFailures(30) });
    if (!verdict.ok) expect(verdict.headers['www-authenticate']).toBe(challenge(MESSAGES.tooManyFailures(30)));
  });

  it('a body consumed by the route, in the deployment realm; Signature alone marks the request signed', async () => {
    const verdict = await verifyRequest(plain([['signature', 'sig1=:AAAA:']], { bodyConsumed: true }), ports(), ACME);
    expect(verdict).toMatchObject({ ok: false, code: AUTH_CODES.request_body_consumed, description: MESSAGES.bodyConsumed });
    if (!verdict.ok) expect(verdict.headers['www-authenticate']).toBe(challenge(MESSAGES.bodyConsumed));
  });
});

describe('isSignedRequest', () => {
  it.each([
    ['Signature-Input', [['Signature-Input', 'sig1=()']], true],
    ['signature', [['signature', 'sig1=:AAAA:']], true],
    ['SIGNATURE', [['SIGNATURE', 'sig1=:AAAA:']], true],
    ['only Signature-Agent', [['signature-agent', 'sig1="https://a.example/.well-known/jwks.json"']], false],
    ['only Authorization', [['authorization', 'Bearer x']], false],
  ] as const)('%s', (_name, headers, signed) => {
    expect(isSignedRequest(plain(headers))).toBe(signed);
  });
});

describe('an accepted signed request', () => {
  const body = new TextEncoder().encode('{"hello":"world"}');
  const request = (nonce: string): VerifierRequest => {
    const signed = buildSignedRequest({
      method: 'POST',
      url: `https://${PLATFORM}/api/things`,
      keySetUrl: alice.keySetUrl,
      created: NOW,
      expires: NOW + 60,
      nonce: () => nonce,
      headers: [
        ['content-type', MEDIA_TYPES.json],
        ['x-trace', 'trace-1'],
      ],
      labels: [
        {
          label: 'sig1',
          key: A,
          covered: ['"@method"', '"@authority"', '"@path"', '"@query"', '"x-trace"', '"content-type"', '"content-digest"', '"signature-agent";key="sig1"'],
        },
      ],
      body,
    });
    return { method: signed.method, url: signed.url, headers: signed.headers, body: caseRequestBody(signed) ?? null, clientAddress: ADDRESS };
  };

  it('names its labels, thumbprints and the plain header fields it covers, sorted and in lower case; the first registers the agent', async () => {
    const p = ports();
    const accepted = {
      ok: true,
      kind: 'signature',
      agentUrl: 'https://agents.example/paths/alice',
      identifier: 'https://agents.example/paths/alice/.well-known/jwks.json',
      labels: ['sig1'],
      thumbprints: [A.thumbprint],
      coveredFields: ['content-digest', 'content-type', 'x-trace'],
    };
    expect(await verifyRequest(request('verify-request-paths-1'), p, { authority: PLATFORM })).toStrictEqual({ ...accepted, registered: true });
    // The agent is registered now: a later request does not register it again.
    expect(await verifyRequest(request('verify-request-paths-2'), p, { authority: PLATFORM })).toStrictEqual({ ...accepted, registered: false });
  });
});
