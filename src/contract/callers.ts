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
