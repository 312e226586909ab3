import { afterAll, beforeAll, describe, expect } from 'vitest';
import { CALLER_IDS, type AgentTarget, type CallerRole } from '../src/harness/agent/index.js';
import { agentSuiteNotRunReason, agentSuiteTarget } from './lib/target.js';
import { randomBytes } from 'node:crypto';
import { AUTH_MODE_PROBES, PROBE_CALL_MARK, PROBES } from '../src/contract/probes.js';
import { ENDPOINT_AUTH_MODES, ENDPOINT_ERRORS, SDK_AUTH_REQUIREMENTS as S } from '../src/spec/index.js';
import { bearer, callsOf, jsonOf, probe, tokenOrNotRun, WARM_UP_MS, warmUp } from './lib/agent.js';
import { READINGS } from '../src/spec/readings.js';
import { check, notRunAll, type CheckContext } from './lib/check.js';

/**
 * Section 5.4: who a scoped endpoint and an endpoint's TypeScript auth mode let in, checked on the conformance probes
 * before their handlers run. A caller let in reaches the handler, which names it; one kept out gets the 401 or 403 of 7.2.
 */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
beforeAll(() => warmUp(target), WARM_UP_MS);
afterAll(() => target.close());
const E = ENDPOINT_ERRORS;
type Caller = CallerRole | 'anonymous' | 'unverifiable';

async function call(on: AgentTarget, c: CheckContext, who: Caller, path: string) {
  const headers = who === 'anonymous' ? [] : [bearer(who === 'unverifiable' ? 'not.a.token' : await tokenOrNotRun(on, c, who))];
  // A probe the agent does not declare (404) is not-run, never failed: the auth-mode probes exist on TypeScript agents only.
  return probe(on, c, { method: 'GET', path, headers });
}

/** `who` on `path` gets `expected`: 200 with the handler naming it, or the 401/403 error of 7.2. */
async function expectAnswer(on: AgentTarget, c: CheckContext, who: Caller, path: string, expected: 200 | 401 | 403): Promise<void> {
  const response = await call(on, c, who, path);
  expect(response.status, `${who} on ${path}: status`).toBe(expected);
  const body = jsonOf(response);
  if (expected === 200) {
    const verified = who !== 'anonymous' && who !== 'unverifiable';
    expect(body, `${who} on ${path}: the handler's caller`).toMatchObject({ caller: verified ? CALLER_IDS[who] : null, authenticated: verified });
  } else {
    expect(body, `${who} on ${path}: error.code`).toMatchObject({ error: { code: (expected === 401 ? E.unauthorized : E.forbidden).code } });
  }
}

/** 5.4's scope table, row by row, for the probes user, owner, admin, group:testers and [group:testers, owner]. */
const SCOPE_TABLE: ReadonlyArray<readonly [Caller, Readonly<Record<'user' | 'owner' | 'admin' | 'group' | 'list', 200 | 401 | 403>>]> = [
  ['anonymous', { user: 401, owner: 401, admin: 401, group: 401, list: 401 }],
  ['user', { user: 200, owner: 403, admin: 403, group: 403, list: 403 }],
  ['member', { user: 200, owner: 403, admin: 403, group: 200, list: 200 }],
  ['owner', { user: 200, owner: 200, admin: 403, group: 200, list: 200 }],
  ['admin', { user: 200, owner: 200, admin: 200, group: 200, list: 200 }],
];

/** 5.4's auth mode table: who each mode lets in (an admin who is not the owner is kept out of a session endpoint). */
const AUTH_MODE_TABLE: ReadonlyArray<readonly [Caller, Readonly<Record<keyof typeof AUTH_MODE_PROBES, 200 | 401 | 403>>]> = [
  ['anonymous', { public: 200, signature: 200, session: 401, portal_token: 401, visitor_session: 200 }],
  ['unverifiable', { public: 200, signature: 200, session: 401, portal_token: 401, visitor_session: 401 }],
  ['user', { public: 200, signature: 200, session: 403, portal_token: 200, visitor_session: 200 }],
  ['admin', { public: 200, signature: 200, session: 403, portal_token: 200, visitor_session: 200 }],
  ['owner', { public: 200, signature: 200, session: 200, portal_token: 200, visitor_session: 200 }],
];

describe(`5.4 endpoint access control (${target.description})`, () => {
  check({
    id: 'access.scope-table',
    title: 'each scope admits whom the table of 5.4 names; a list admits anyone one entry admits',
    requirements: [S.scopeTable.id],
    level: 'MUST',
    run: async (c) => {
      for (const [who, row] of SCOPE_TABLE) {
        for (const [probe, expected] of Object.entries(row) as Array<[keyof typeof row, 200 | 401 | 403]>)
          await expectAnswer(target, c, who, PROBES[probe].path, expected);
      }
    },
  });

  check({
    id: 'access.all-scope',
    title: 'an endpoint scoped `all`, like one with no scope, lets anyone in: a caller without a credential and a verified one reach its handler',
    requirements: [S.scopeTable.id],
    level: 'MUST',
    run: async (c) => {
      for (const p of [PROBES.all, PROBES.open]) {
        await expectAnswer(target, c, 'anonymous', p.path, 200);
        // Whether the handler of an open endpoint is told who a verified caller is, 5.4 does not say: it is let in.
        const response = await call(target, c, 'user', p.path);
        expect(response.status, `user on ${p.path}: status`).toBe(200);
      }
    },
  });

  check({
    id: 'access.checked-before-handler',
    title: 'a scoped endpoint is checked before its handler runs: its handler does not run for a caller refused 401 or 403',
    requirements: [S.checkedBeforeHandler.id],
    level: 'MUST',
    run: async (c) => {
      const marked = (path: string, mark: string) => `${path}?${PROBE_CALL_MARK}=${mark}`;
      const fresh = (what: string) => `${what}-${randomBytes(8).toString('hex')}`;
      // The counter counts: a caller the user probe admits runs its handler once.
      const counted = fresh('admitted');
      const user = await tokenOrNotRun(target, c, 'user');
      const admitted = await probe(target, c, { method: 'GET', path: marked(PROBES.user.path, counted), headers: [bearer(user)] });
      expect(admitted.status, 'the user on the user probe: status').toBe(200);
      const runs = await callsOf(target, c, counted);
      if (runs === 0)
        c.notRun(
          `the calls probe counted no run of the user probe's handler for a request it admitted: it counts the scoped probes since docs/contracts.md section 4 asks it to (${READINGS.probeNotDeclared.id}); without that, nothing shows whether a handler ran`,
        );
      expect(runs, 'the handler ran once for the caller it admitted').toBe(1);
      const refusals: Array<readonly [string, string, ReadonlyArray<readonly [string, string]>, number]> = [
        ['no credential', PROBES.user.path, [], E.unauthorized.status!],
        ['a Bearer the agent cannot verify', PROBES.user.path, [bearer('not.a.token')], E.unauthorized.status!],
        ['a verified caller the scope does not include', PROBES.owner.path, [bearer(user)], E.forbidden.status!],
      ];
      for (const [what, path, headers, status] of refusals) {
        const mark = fresh('refused');
        const response = await probe(target, c, { method: 'GET', path: marked(path, mark), headers });
        expect(response.status, `${what} on ${path}: status`).toBe(status);
        expect(await callsOf(target, c, mark), `${what} on ${path}: the handler never ran`).toBe(0);
      }
    },
  });

  check({
    id: 'access.no-verifier-refuses-all',
    title: 'an agent with no auth skill and no access block refuses every caller on its scoped endpoints',
    requirements: [S.noVerifier.id],
    level: 'MUST',
    run: async (c) => {
      const bare = target.variant('no-verifier');
      if (bare === null)
        return c.notRun(
          'needs an agent with no auth skill and no access block beside the one under test: only the embedded reference agent has one; to run it, check the embedded reference agent (a run without --agent-url)',
        );
      await expectAnswer(bare, c, 'anonymous', PROBES.open.path, 200);
      for (const who of ['anonymous', 'user', 'owner', 'admin'] as const) {
        for (const probe of [PROBES.user, PROBES.owner, PROBES.admin, PROBES.group, PROBES.list]) await expectAnswer(bare, c, who, probe.path, 401);
      }
    },
  });

  check({
    id: 'access.auth-modes',
    title: 'the auth modes public, signature, session, portal_token and visitor_session admit whom 5.4 names (on an agent that declares their probes)',
    requirements: [S.authModes.id],
    level: 'MUST',
    run: async (c) => {
      for (const [who, row] of AUTH_MODE_TABLE) {
        for (const mode of Object.values(ENDPOINT_AUTH_MODES)) await expectAnswer(target, c, who, AUTH_MODE_PROBES[mode].path, row[mode]);
      }
    },
  });
});
