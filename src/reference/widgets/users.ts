import { createHash } from 'node:crypto';
import type { Acceptance } from '../routes.js';

/** How the platform maps a verified credential to one of its users. */
export interface UserDirectory {
  /** The user id of the caller, or null when the credential names no one (a bearer without a subject). */
  userIdOf(verdict: Acceptance): string | null;
}

/** The verified principal: a signed request's agent URL, a platform bearer's subject. */
function principalOf(verdict: Acceptance): string | null {
  return verdict.kind === 'signature' ? verdict.agentUrl : verdict.subject;
}

/**
 * The reference's users: one per verified principal, its id the first 24 hex digits of SHA-256 over the principal.
 * The spec does not say how users are identified (4.5 names only userId6); this keeps ids stable across runs and
 * gives the slug's userId6 a fixed width.
 */
export const hashedUserDirectory: UserDirectory = {
  userIdOf(verdict) {
    const principal = principalOf(verdict);
    return principal === null ? null : createHash('sha256').update(principal).digest('hex').slice(0, 24);
  },
};
