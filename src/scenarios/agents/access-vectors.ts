import { decideAuthMode } from '../../access/auth-modes.js';
import { accessChallenge, decideScope, type AccessVerdict, type Caller } from '../../access/scope-rules.js';
import { ENDPOINT_ERRORS } from '../../spec/endpoint-errors.js';
import { BEARER_CHALLENGE } from '../../spec/wire.js';
import { ACCESS_FLAGS, accessGroups, type AccessCase, type AccessExpect, type AccessGroup, type VectorCaller } from './access-scenarios.js';

const ACCESS_GENERATOR_VERSION = '1';
const ACCESS_SCHEMA = 'access.schema.json';

export interface AccessVectors {
  readonly algorithm: string;
  readonly schema: string;
  readonly generatorVersion: string;
  readonly numberOfTests: number;
  readonly notes: Readonly<Record<string, string>>;
  readonly testGroups: readonly AccessGroup[];
}

/** The 401 challenge written out from RFC 6750 section 3 with the spec's realm (7.3). */
function challenge(presented: boolean): string {
  const base = `${BEARER_CHALLENGE.scheme} realm="${BEARER_CHALLENGE.realm}"`;
  return presented ? `${base}, error="${BEARER_CHALLENGE.error}"` : base;
}

/** Builds vectors/access.json: the caller, the endpoint's scope or auth mode in; the verdict out. */
export async function accessVectors(): Promise<AccessVectors> {
  const testGroups = accessGroups({
    codes: { unauthorized: ENDPOINT_ERRORS.unauthorized.code!, forbidden: ENDPOINT_ERRORS.forbidden.code! },
    challenge,
  });
  return {
    algorithm: 'Endpoint access control (spec 5.4, 7.2): scope declarations and TypeScript auth modes',
    schema: ACCESS_SCHEMA,
    generatorVersion: ACCESS_GENERATOR_VERSION,
    numberOfTests: testGroups.reduce((n, g) => n + g.cases.length, 0),
    notes: ACCESS_FLAGS,
    testGroups,
  };
}

function callerFromVector(caller: VectorCaller | null): Caller | null {
  if (caller === null) return null;
  return {
    authenticated: caller.authenticated,
    id: caller.id,
    isOwner: caller.is_owner,
    isAdmin: caller.is_admin,
    groups: caller.groups,
    scopes: caller.scopes,
  };
}

/** What our access core answers for one vector case, in the vector's terms. */
export function runAccessCase(c: AccessCase): AccessExpect {
  const caller = callerFromVector(c.caller);
  const verdict: AccessVerdict =
    c.rule.kind === 'scope'
      ? decideScope(c.rule.declaration ?? undefined, caller, { verifiesCallers: c.agent.verifies_callers }, c.presented_credential)
      : decideAuthMode(c.rule.mode, caller, c.presented_credential);
  if (verdict.allowed) return { allowed: true };
  return { allowed: false, status: verdict.status, code: verdict.code, www_authenticate: accessChallenge(verdict, c.presented_credential) };
}
