import { describe, expect, test } from 'vitest';
import { accessChallenge, AUTH_MODES, decideAuthMode, decideScope, isAuthMode, type Caller } from '../../src/access/index.js';
import { ENDPOINT_MESSAGES } from '../../src/spec/agent-endpoints.js';
import { ENDPOINT_ERRORS } from '../../src/spec/endpoint-errors.js';
import { ENDPOINT_AUTH_MODES as M, ENDPOINT_SCOPES as S, ENDPOINT_UNVERIFIED_CREDENTIAL_MESSAGE } from '../../src/spec/sdk-auth.js';
import { BEARER_CHALLENGE } from '../../src/spec/wire.js';

const verified = (more: Partial<Caller> = {}): Caller => ({ authenticated: true, id: 'caller', isOwner: false, isAdmin: false, groups: [], ...more });
const AGENT = { verifiesCallers: true };
const UNAUTHORIZED = {
  allowed: false,
  status: ENDPOINT_ERRORS.unauthorized.status,
  code: ENDPOINT_ERRORS.unauthorized.code,
  message: ENDPOINT_MESSAGES.unauthorized,
};
const FORBIDDEN = { allowed: false, status: ENDPOINT_ERRORS.forbidden.status, code: ENDPOINT_ERRORS.forbidden.code, message: ENDPOINT_MESSAGES.forbidden };

describe('decideScope (5.4, 7.2)', () => {
  test('a caller that is present but not authenticated counts as no caller (401)', () => {
    expect(decideScope(S.user, { ...verified(), authenticated: false }, AGENT)).toEqual(UNAUTHORIZED);
  });

  test('the 401 message says the endpoint needs a caller the agent can verify, and whether a credential came', () => {
    const none = decideScope(S.user, null, AGENT);
    const bad = decideScope(S.user, null, AGENT, true);
    expect(none).toEqual(UNAUTHORIZED);
    expect(bad).toEqual({ ...UNAUTHORIZED, message: ENDPOINT_UNVERIFIED_CREDENTIAL_MESSAGE });
    for (const v of [none, bad]) expect(!v.allowed && v.message).toMatch(/needs a caller this agent can verify/);
  });

  test('a verified caller the scope does not include gets 403 forbidden', () => {
    expect(decideScope(S.admin, verified({ isOwner: true }), AGENT)).toEqual(FORBIDDEN);
    expect(decideScope('group:friends', verified({ groups: ['family'] }), AGENT)).toEqual(FORBIDDEN);
  });

  test('an agent that verifies no one refuses even its owner on a scoped endpoint (401), and keeps open endpoints open', () => {
    const none = { verifiesCallers: false };
    expect(decideScope(S.owner, verified({ isOwner: true }), none, true)).toEqual({ ...UNAUTHORIZED, message: ENDPOINT_UNVERIFIED_CREDENTIAL_MESSAGE });
    expect(decideScope(S.user, null, none)).toEqual(UNAUTHORIZED);
    expect(decideScope(S.all, null, none)).toEqual({ allowed: true });
    expect(decideScope(undefined, null, none)).toEqual({ allowed: true });
  });

  test('group: with no name is no group (fails closed for members; owner and admin hold no such scope)', () => {
    expect(decideScope('group:', verified({ groups: [''] }), AGENT)).toEqual(FORBIDDEN);
  });
});

describe('decideAuthMode (5.4)', () => {
  test('the mode names are those of 5.4', () => {
    expect([...AUTH_MODES].sort()).toEqual(['portal_token', 'public', 'session', 'signature', 'visitor_session']);
    expect(isAuthMode('session')).toBe(true);
    expect(isAuthMode('owner')).toBe(false);
  });

  test('public and signature admit anyone, even with a credential that does not verify', () => {
    for (const mode of [M.public, M.signature]) expect(decideAuthMode(mode, null, true)).toEqual({ allowed: true });
  });

  test("session admits the agent's owner only: an admin who is not the owner gets 403", () => {
    expect(decideAuthMode(M.session, verified({ isOwner: true }), true)).toEqual({ allowed: true });
    expect(decideAuthMode(M.session, verified({ isAdmin: true }), true)).toEqual(FORBIDDEN);
    expect(decideAuthMode(M.session, null, false)).toEqual(UNAUTHORIZED);
  });

  test('portal_token admits any verified caller', () => {
    expect(decideAuthMode(M.portalToken, verified(), true)).toEqual({ allowed: true });
    expect(decideAuthMode(M.portalToken, null, true)).toEqual({ ...UNAUTHORIZED, message: ENDPOINT_UNVERIFIED_CREDENTIAL_MESSAGE });
  });

  test('visitor_session: no credential reaches the handler, a credential that does not verify is refused', () => {
    expect(decideAuthMode(M.visitorSession, null, false)).toEqual({ allowed: true });
    expect(decideAuthMode(M.visitorSession, verified(), true)).toEqual({ allowed: true });
    const refused = decideAuthMode(M.visitorSession, null, true);
    expect(refused).toEqual({ ...UNAUTHORIZED, message: ENDPOINT_UNVERIFIED_CREDENTIAL_MESSAGE });
    expect(accessChallenge(refused, true)).toBe(`${BEARER_CHALLENGE.scheme} realm="${BEARER_CHALLENGE.realm}", error="${BEARER_CHALLENGE.error}"`);
  });

  test('an admission carries no challenge', () => {
    expect(accessChallenge({ allowed: true }, true)).toBeNull();
  });
});
