import { ENDPOINT_AUTH_MODES, ENDPOINT_GROUP_SCOPE_PREFIX, ENDPOINT_SCOPES, SDK_AUTH_REQUIREMENTS, type EndpointAuthMode } from '../../spec/sdk-auth.js';

/** A caller as the access vectors write it (snake_case, language-neutral); null is no verifiable caller. */
export interface VectorCaller {
  readonly authenticated: boolean;
  readonly id: string | null;
  readonly is_owner: boolean;
  readonly is_admin: boolean;
  readonly groups: readonly string[];
  readonly scopes: readonly string[];
}

type AccessRule =
  | { readonly kind: 'scope'; readonly declaration: string | readonly string[] | null }
  | { readonly kind: 'auth_mode'; readonly mode: EndpointAuthMode };

export type AccessExpect =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly status: 401 | 403; readonly code: string; readonly www_authenticate: string | null };

export interface AccessCase {
  readonly id: string;
  readonly description: string;
  readonly flags: readonly string[];
  readonly requirements: readonly string[];
  readonly rule: AccessRule;
  readonly agent: { readonly verifies_callers: boolean };
  readonly caller: VectorCaller | null;
  readonly presented_credential: boolean;
  readonly expect: AccessExpect;
}

interface NamedCaller {
  readonly name: string;
  readonly words: string;
  readonly caller: VectorCaller | null;
  readonly presented: boolean;
}

const verified = (id: string, more: Partial<VectorCaller> = {}): VectorCaller => ({
  authenticated: true,
  id,
  is_owner: false,
  is_admin: false,
  groups: [],
  scopes: [],
  ...more,
});

const FRIENDS = 'friends';
const FAMILY = 'family';
const HELD_SCOPE = 'project';
const group = (name: string) => `${ENDPOINT_GROUP_SCOPE_PREFIX}${name}`;

/** The callers every rule is tried with. */
const ACCESS_CALLERS: readonly NamedCaller[] = [
  { name: 'anonymous', words: 'a caller with no credential', caller: null, presented: false },
  { name: 'unverifiable', words: 'a caller whose credential does not verify', caller: null, presented: true },
  { name: 'user', words: 'a verified caller in no group', caller: verified('https://agents.example/a/carol'), presented: true },
  { name: 'friend', words: `a verified member of group ${FRIENDS}`, caller: verified('https://agents.example/a/dave', { groups: [FRIENDS] }), presented: true },
  { name: 'family', words: `a verified member of group ${FAMILY}`, caller: verified('https://agents.example/a/erin', { groups: [FAMILY] }), presented: true },
  {
    name: 'holder',
    words: `a verified caller holding the scope ${HELD_SCOPE}`,
    caller: verified('https://agents.example/a/frank', { scopes: [HELD_SCOPE] }),
    presented: true,
  },
  { name: 'owner', words: "the agent's owner", caller: verified('user:owner', { is_owner: true }), presented: true },
  { name: 'admin', words: 'an admin who is not the owner', caller: verified('user:admin', { is_admin: true }), presented: true },
];

const EVERYONE = ACCESS_CALLERS.map((c) => c.name);
const VERIFIED = ['user', 'friend', 'family', 'holder', 'owner', 'admin'];

/** 5.4's scope table, written out: who each declaration admits. */
const SCOPE_TABLE: ReadonlyArray<{
  readonly declaration: string | readonly string[] | null;
  readonly slug: string;
  readonly admits: readonly string[];
}> = [
  { declaration: null, slug: 'no-scope', admits: EVERYONE },
  { declaration: ENDPOINT_SCOPES.all, slug: 'all', admits: EVERYONE },
  { declaration: [], slug: 'empty-list', admits: EVERYONE },
  { declaration: ENDPOINT_SCOPES.user, slug: 'user', admits: VERIFIED },
  { declaration: ENDPOINT_SCOPES.owner, slug: 'owner', admits: ['owner', 'admin'] },
  { declaration: ENDPOINT_SCOPES.admin, slug: 'admin', admits: ['admin'] },
  { declaration: group(FRIENDS), slug: 'group-friends', admits: ['friend', 'owner', 'admin'] },
  { declaration: [group(FRIENDS), group(FAMILY)], slug: 'list-two-groups', admits: ['friend', 'family', 'owner', 'admin'] },
  { declaration: [ENDPOINT_SCOPES.owner, ENDPOINT_SCOPES.all], slug: 'list-owner-all', admits: EVERYONE },
  { declaration: [ENDPOINT_SCOPES.admin, group(FAMILY)], slug: 'list-admin-group', admits: ['family', 'owner', 'admin'] },
  { declaration: HELD_SCOPE, slug: 'held-scope', admits: ['holder'] },
  { declaration: '', slug: 'empty-scope', admits: [] },
];

/** 5.4's auth-mode table, written out. */
const AUTH_MODE_TABLE: ReadonlyArray<{ readonly mode: EndpointAuthMode; readonly admits: readonly string[] }> = [
  { mode: ENDPOINT_AUTH_MODES.public, admits: EVERYONE },
  { mode: ENDPOINT_AUTH_MODES.signature, admits: EVERYONE },
  { mode: ENDPOINT_AUTH_MODES.session, admits: ['owner'] },
  { mode: ENDPOINT_AUTH_MODES.portalToken, admits: VERIFIED },
  { mode: ENDPOINT_AUTH_MODES.visitorSession, admits: EVERYONE.filter((n) => n !== 'unverifiable') },
];

export interface AccessGroup {
  readonly comment: string;
  readonly cases: readonly AccessCase[];
}

/** The refusal 7.2 gives: 401 when there is no caller the agent can verify, 403 for a verified caller not admitted. */
function refusalFor(
  c: NamedCaller,
  agentVerifies: boolean,
  codes: { unauthorized: string; forbidden: string },
  challenge: (presented: boolean) => string,
): AccessExpect {
  if (!agentVerifies || c.caller === null) return { allowed: false, status: 401, code: codes.unauthorized, www_authenticate: challenge(c.presented) };
  return { allowed: false, status: 403, code: codes.forbidden, www_authenticate: null };
}

export interface AccessScenarioEnv {
  readonly codes: { readonly unauthorized: string; readonly forbidden: string };
  /** The 401 challenge (no credential, or one presented and not accepted). */
  readonly challenge: (presented: boolean) => string;
}

export function accessGroups(env: AccessScenarioEnv): AccessGroup[] {
  const scopeTable = SDK_AUTH_REQUIREMENTS.scopeTable.id;
  const noVerifier = SDK_AUTH_REQUIREMENTS.noVerifier.id;
  const authModes = SDK_AUTH_REQUIREMENTS.authModes.id;
  const scopeCases: AccessCase[] = [];
  for (const row of SCOPE_TABLE) {
    for (const c of ACCESS_CALLERS) {
      const admitted = row.admits.includes(c.name);
      scopeCases.push({
        id: `scope-${row.slug}-${c.name}`,
        description: `scope ${JSON.stringify(row.declaration)}: ${c.words} is ${admitted ? 'admitted' : 'refused'}`,
        flags: [admitted ? 'Admitted' : 'Refused', ...(Array.isArray(row.declaration) ? ['ScopeList'] : [])],
        requirements: [scopeTable],
        rule: { kind: 'scope', declaration: row.declaration },
        agent: { verifies_callers: true },
        caller: c.caller,
        presented_credential: c.presented,
        expect: admitted ? { allowed: true } : refusalFor(c, true, env.codes, env.challenge),
      });
    }
  }
  const noVerifierCases: AccessCase[] = [];
  for (const row of SCOPE_TABLE.filter((r) => ['no-scope', 'all', 'user', 'owner', 'group-friends'].includes(r.slug))) {
    for (const c of ACCESS_CALLERS.filter((x) => ['anonymous', 'unverifiable', 'owner', 'admin'].includes(x.name))) {
      const open = row.admits.length === EVERYONE.length;
      noVerifierCases.push({
        id: `no-verifier-${row.slug}-${c.name}`,
        description: `an agent with no auth skill and no access block, scope ${JSON.stringify(row.declaration)}: ${c.words} is ${open ? 'admitted (the endpoint is open)' : 'refused (the agent verifies no one)'}`,
        flags: [open ? 'Admitted' : 'Refused', 'NoVerifier'],
        requirements: [noVerifier],
        rule: { kind: 'scope', declaration: row.declaration },
        agent: { verifies_callers: false },
        caller: c.caller,
        presented_credential: c.presented,
        expect: open ? { allowed: true } : refusalFor(c, false, env.codes, env.challenge),
      });
    }
  }
  const modeCases: AccessCase[] = [];
  for (const row of AUTH_MODE_TABLE) {
    for (const c of ACCESS_CALLERS) {
      const admitted = row.admits.includes(c.name);
      modeCases.push({
        id: `auth-${row.mode.replaceAll('_', '-')}-${c.name}`,
        description: `auth ${row.mode}: ${c.words} is ${admitted ? 'admitted' : 'refused'}`,
        flags: [admitted ? 'Admitted' : 'Refused', 'AuthMode'],
        requirements: [authModes],
        rule: { kind: 'auth_mode', mode: row.mode },
        agent: { verifies_callers: true },
        caller: c.caller,
        presented_credential: c.presented,
        expect: admitted ? { allowed: true } : refusalFor(c, true, env.codes, env.challenge),
      });
    }
  }
  return [
    { comment: '5.4 scope table: each declaration against every kind of caller (a list admits anyone one entry admits)', cases: scopeCases },
    { comment: '5.4: an agent with no auth skill and no access block verifies no one; its scoped endpoints refuse every caller', cases: noVerifierCases },
    { comment: '5.4 TypeScript auth modes: public (default), signature, session, portal_token, visitor_session', cases: modeCases },
  ];
}

export const ACCESS_FLAGS: Readonly<Record<string, string>> = Object.freeze({
  Admitted: 'The endpoint lets the caller through to its handler.',
  Refused: 'The endpoint refuses the caller before its handler runs, with the 7.2 status and code.',
  ScopeList: 'The declaration is a list of scopes: anyone one entry admits is admitted.',
  NoVerifier: 'The agent has no auth skill and no access block, so it verifies no one.',
  AuthMode: 'A TypeScript auth mode on the endpoint rather than a scope.',
});
