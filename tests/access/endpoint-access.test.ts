import { describe, expect, it } from 'vitest';
import { decideEndpointAccess } from '../../src/access/endpoint-gate.js';
import { bearerCredential, decideSocketUpgrade, presentsCredential } from '../../src/access/endpoint-socket.js';
import type { Caller } from '../../src/access/scope-rules.js';
import { BEARER_CHALLENGE, ENDPOINT_ERRORS, ENDPOINT_MESSAGES, HEADERS, SOCKET_TOKEN_PARAM } from '../../src/spec/index.js';

/** The SDKs' shared fixture (tests/interop/fixtures/endpoint-gate-refusals.json), whose words the catalogue holds. */
const refusals = {
  no_caller: {
    status: ENDPOINT_ERRORS.unauthorized.status,
    body: { error: { code: ENDPOINT_ERRORS.unauthorized.code, message: ENDPOINT_MESSAGES.unauthorized } },
  },
  not_open: { status: ENDPOINT_ERRORS.forbidden.status, body: { error: { code: ENDPOINT_ERRORS.forbidden.code, message: ENDPOINT_MESSAGES.forbidden } } },
};

const verifying = { verifiesCallers: true };
const member = (over: Partial<Caller> = {}): Caller => ({ authenticated: true, id: 'bob', isOwner: false, isAdmin: false, groups: [], ...over });

describe('scoped endpoints (5.4, 7.2)', () => {
  it('lets anyone reach an open endpoint', () => {
    expect(decideEndpointAccess({}, { caller: null, presentedCredential: false }, verifying)).toBeNull();
    expect(decideEndpointAccess({ scopes: 'all' }, { caller: null, presentedCredential: false }, verifying)).toBeNull();
  });

  it("answers 401 unauthorized with the bare Bearer challenge to a caller with no credential (the SDKs' no_caller body)", () => {
    const answer = decideEndpointAccess({ scopes: 'user' }, { caller: null, presentedCredential: false }, verifying)!;
    expect(answer.status).toBe(ENDPOINT_ERRORS.unauthorized.status);
    expect(answer.body).toEqual(refusals.no_caller.body);
    expect(answer.status).toBe(refusals.no_caller.status);
    expect(answer.headers[HEADERS.wwwAuthenticate]).toBe(`${BEARER_CHALLENGE.scheme} realm="${BEARER_CHALLENGE.realm}"`);
  });

  it('adds error="invalid_token" when a credential came and did not verify', () => {
    const answer = decideEndpointAccess({ scopes: 'user' }, { caller: null, presentedCredential: true }, verifying)!;
    expect(answer.status).toBe(ENDPOINT_ERRORS.unauthorized.status);
    expect((answer.body as { error: { code: string } }).error.code).toBe(ENDPOINT_ERRORS.unauthorized.code);
    expect(answer.headers[HEADERS.wwwAuthenticate]).toBe(`${BEARER_CHALLENGE.scheme} realm="${BEARER_CHALLENGE.realm}", error="${BEARER_CHALLENGE.error}"`);
  });

  it("answers 403 forbidden, with no challenge, to a verified caller the scope leaves out (the SDKs' not_open body)", () => {
    const answer = decideEndpointAccess({ scopes: 'owner' }, { caller: member(), presentedCredential: true }, verifying)!;
    expect(answer.status).toBe(refusals.not_open.status);
    expect(answer.body).toEqual(refusals.not_open.body);
    expect(answer.headers[HEADERS.wwwAuthenticate]).toBeUndefined();
  });

  it('admits through any one entry of a list', () => {
    expect(decideEndpointAccess({ scopes: ['group:a', 'owner'] }, { caller: member({ groups: ['a'] }), presentedCredential: true }, verifying)).toBeNull();
  });

  it('refuses every scoped call of an agent that verifies no one', () => {
    const answer = decideEndpointAccess({ scopes: 'user' }, { caller: member(), presentedCredential: true }, { verifiesCallers: false })!;
    expect(answer.status).toBe(ENDPOINT_ERRORS.unauthorized.status);
  });

  it('applies the auth mode before the scopes: session admits the owner only', () => {
    expect(decideEndpointAccess({ auth: 'session' }, { caller: member(), presentedCredential: true }, verifying)?.status).toBe(
      ENDPOINT_ERRORS.forbidden.status,
    );
    expect(decideEndpointAccess({ auth: 'session' }, { caller: member({ isOwner: true }), presentedCredential: true }, verifying)).toBeNull();
    expect(decideEndpointAccess({ auth: 'visitor_session' }, { caller: null, presentedCredential: false }, verifying)).toBeNull();
    expect(decideEndpointAccess({ auth: 'visitor_session' }, { caller: null, presentedCredential: true }, verifying)?.status).toBe(
      ENDPOINT_ERRORS.unauthorized.status,
    );
  });
});

describe('scoped sockets (4.1)', () => {
  it('read the credential from ?token= when no Authorization header is sent', () => {
    const url = new URL(`wss://agent.example/ws?${SOCKET_TOKEN_PARAM}=abc`);
    expect(bearerCredential(null, url)).toBe('abc');
    expect(bearerCredential('Bearer xyz', url)).toBe('xyz');
    expect(bearerCredential('Basic xyz', null)).toBeNull();
    expect(presentsCredential(null, url)).toBe(true);
    expect(presentsCredential(null, new URL('wss://agent.example/ws'))).toBe(false);
  });

  it('refuse an upgrade with the 7.2 status and JSON body', () => {
    expect(decideSocketUpgrade({ path: '/ws', scopes: 'user' }, { caller: null, presentedCredential: false }, verifying)?.body).toEqual({
      error: { code: ENDPOINT_ERRORS.unauthorized.code, message: ENDPOINT_MESSAGES.unauthorized },
    });
    expect(decideSocketUpgrade({ path: '/ws', scopes: 'user' }, { caller: member(), presentedCredential: true }, verifying)).toBeNull();
  });
});
