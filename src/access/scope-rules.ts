import { ENDPOINT_MESSAGES } from '../spec/agent-endpoints.js';
import { ENDPOINT_ERRORS } from '../spec/endpoint-errors.js';
import { ENDPOINT_GROUP_SCOPE_PREFIX, ENDPOINT_SCOPES, ENDPOINT_UNVERIFIED_CREDENTIAL_MESSAGE } from '../spec/sdk-auth.js';
import { BEARER_CHALLENGE } from '../spec/wire.js';

/** The caller of an endpoint as the agent identified it (auth skill plus access block, 5.4). */
export interface Caller {
  readonly authenticated: boolean;
  readonly id: string | null;
  readonly isOwner: boolean;
  readonly isAdmin: boolean;
  readonly groups: readonly string[];
  /** Scopes the caller holds outright (e.g. the granted scopes of its AuthContext); only a non-keyword scope reads them. */
  readonly scopes?: readonly string[];
}

/** A declared endpoint's scope: one scope, a list (any one entry admits), or none. */
export type ScopeDeclaration = string | readonly string[] | undefined;

export type AccessVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly status: 401 | 403; readonly code: string; readonly message: string };

export type AccessRefusal = Extract<AccessVerdict, { allowed: false }>;

const ALLOWED: AccessVerdict = Object.freeze({ allowed: true });

/** 7.2 401: no caller the agent can verify. The message names whether a credential came and did not verify. */
export function unauthorizedVerdict(presentedCredential = false): AccessRefusal {
  return Object.freeze({
    allowed: false,
    status: ENDPOINT_ERRORS.unauthorized.status as 401,
    code: ENDPOINT_ERRORS.unauthorized.code!,
    message: presentedCredential ? ENDPOINT_UNVERIFIED_CREDENTIAL_MESSAGE : ENDPOINT_MESSAGES.unauthorized,
  });
}

/** 7.2 403: a verified caller the scope does not include. */
export function forbiddenVerdict(): AccessRefusal {
  return Object.freeze({
    allowed: false,
    status: ENDPOINT_ERRORS.forbidden.status as 403,
    code: ENDPOINT_ERRORS.forbidden.code!,
    message: ENDPOINT_MESSAGES.forbidden,
  });
}

export function allowedVerdict(): AccessVerdict {
  return ALLOWED;
}

/** A caller counts as verified only when it is present and authenticated. */
export function isVerified(caller: Caller | null): caller is Caller {
  return caller?.authenticated === true;
}

/** Whether the declaration asks nothing of the caller: no scope, `all`, an empty list, or a list with `all`. */
export function isOpenDeclaration(declaration: ScopeDeclaration): boolean {
  return entriesOf(declaration).length === 0 || entriesOf(declaration).includes(ENDPOINT_SCOPES.all);
}

/**
 * Whether one scope entry admits the caller (the table of 5.4). A string that is none of the table's keywords is a
 * scope the caller must hold exactly, so an unknown or empty scope fails closed (docs/platform-sdk.md e; the SDKs'
 * scope_allows fixture).
 */
export function entryAdmits(entry: string, caller: Caller | null): boolean {
  if (entry === ENDPOINT_SCOPES.all) return true;
  if (!isVerified(caller)) return false;
  const ownerOrAdmin = caller.isOwner || caller.isAdmin;
  switch (entry) {
    case ENDPOINT_SCOPES.user:
      return true;
    case ENDPOINT_SCOPES.owner:
      return ownerOrAdmin;
    case ENDPOINT_SCOPES.admin:
      return caller.isAdmin;
  }
  if (entry.startsWith(ENDPOINT_GROUP_SCOPE_PREFIX) && entry.length > ENDPOINT_GROUP_SCOPE_PREFIX.length) {
    return ownerOrAdmin || caller.groups.includes(entry.slice(ENDPOINT_GROUP_SCOPE_PREFIX.length));
  }
  return (caller.scopes ?? []).includes(entry);
}

/**
 * Decides a scoped endpoint before its handler runs (5.4, 7.2). Open declarations admit anyone. Otherwise an agent
 * that verifies no one refuses every caller with 401 (it cannot verify any); an unverified caller gets 401; a
 * verified caller no entry admits gets 403. `presentedCredential` only picks the 401 message.
 */
export function decideScope(
  declaration: ScopeDeclaration,
  caller: Caller | null,
  agent: { readonly verifiesCallers: boolean },
  presentedCredential = false,
): AccessVerdict {
  if (isOpenDeclaration(declaration)) return ALLOWED;
  if (!agent.verifiesCallers || !isVerified(caller)) return unauthorizedVerdict(presentedCredential);
  return entriesOf(declaration).some((entry) => entryAdmits(entry, caller)) ? ALLOWED : forbiddenVerdict();
}

function entriesOf(declaration: ScopeDeclaration): readonly string[] {
  if (declaration === undefined) return [];
  return typeof declaration === 'string' ? [declaration] : declaration;
}

/**
 * The WWW-Authenticate value of a refusal (RFC 7235 3.1 asks one on every 401; RFC 6750 3 adds
 * error="invalid_token" when a credential was presented and not accepted), or null for a 403 or an admission.
 * The realm is the spec's neutral word (7.3 realm=service) where the SDKs write their own name, or the deployment's
 * name for Service (src/spec/naming.ts) when it has one.
 */
export function accessChallenge(verdict: AccessVerdict, presentedCredential: boolean, realm: string = BEARER_CHALLENGE.realm): string | null {
  if (verdict.allowed || verdict.status !== 401) return null;
  const base = `${BEARER_CHALLENGE.scheme} realm="${realm}"`;
  return presentedCredential ? `${base}, error="${BEARER_CHALLENGE.error}"` : base;
}
