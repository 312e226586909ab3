import type { Caller } from '../../access/scope-rules.js';
import type { AuthContext } from '../../sdk-auth/index.js';

/** 2.3: the members of a verified token's AuthContext the agent places its caller by. */
export type VerifiedToken = Pick<AuthContext, 'agent_id' | 'user_id' | 'scopes'>;

/**
 * The access block of the agent file (5.4; its contents are not shown in the spec): who owns the agent, who is an
 * admin, and the members of each access group, by caller id (the token's agent_id, else its user_id).
 */
export interface AccessBlock {
  readonly owner?: string;
  readonly admins?: readonly string[];
  readonly groups?: Readonly<Record<string, readonly string[]>>;
  /** Callers the access block keeps out: refused 403 on every scoped endpoint, whatever the scope (7.2). */
  readonly deny?: readonly string[];
}

/** Whether the access block keeps this caller out. */
export function deniedByAccessBlock(caller: Caller | null, access: AccessBlock): boolean {
  return caller?.id != null && (access.deny ?? []).includes(caller.id);
}

/** 5.4: the verified caller placed in its groups by the access block. */
export function callerOf(token: VerifiedToken, access: AccessBlock): Caller {
  const id = token.agent_id ?? token.user_id;
  const isAdmin = id !== null && (access.admins ?? []).includes(id);
  return {
    authenticated: true,
    id,
    isOwner: id !== null && id === access.owner,
    isAdmin,
    groups:
      id === null
        ? []
        : Object.entries(access.groups ?? {})
            .filter(([, members]) => members.includes(id))
            .map(([group]) => group),
    scopes: token.scopes,
  };
}
