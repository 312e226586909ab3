import { PROBE_GROUP } from './probes.js';

/**
 * The callers a check can present to an agent (5.4): a plain verified caller, a member of the probes' group, the
 * owner, an admin, and one the access block keeps out. Each is an SDK agent whose id is below; an agent under
 * test places them in its access block as the reference agent does.
 */
export type CallerRole = 'user' | 'member' | 'owner' | 'admin' | 'denied';

export const CALLER_IDS: Readonly<Record<CallerRole, string>> = Object.freeze({
  user: 'ursula',
  member: 'mia',
  owner: 'olivia',
  admin: 'adam',
  denied: 'dora',
});

/**
 * The access block an agent under test places the callers with (5.4; its form is not shown in the spec): the owner, an
 * admin, the member of the probes' group, and the caller it keeps out, each by caller id (the token's agent_id).
 */
export const CALLER_ACCESS = Object.freeze({
  owner: CALLER_IDS.owner,
  admins: Object.freeze([CALLER_IDS.admin]),
  groups: Object.freeze({ [PROBE_GROUP]: Object.freeze([CALLER_IDS.member]) }),
  deny: Object.freeze([CALLER_IDS.denied]),
});
