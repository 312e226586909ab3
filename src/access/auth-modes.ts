import { ENDPOINT_AUTH_MODES, type EndpointAuthMode } from '../spec/sdk-auth.js';
import { allowedVerdict, forbiddenVerdict, isVerified, unauthorizedVerdict, type AccessVerdict, type Caller } from './scope-rules.js';

/** 5.4: the TypeScript auth modes of an endpoint (public is the default). */
export type AuthMode = EndpointAuthMode;

export const AUTH_MODES: readonly AuthMode[] = Object.freeze(Object.values(ENDPOINT_AUTH_MODES));

export function isAuthMode(value: unknown): value is AuthMode {
  return typeof value === 'string' && (AUTH_MODES as readonly string[]).includes(value);
}

/**
 * Decides an endpoint's auth mode before its handler runs, on top of its scopes (5.4):
 * - public, signature: anyone (a signature endpoint checks its provider's signature itself, in its handler);
 * - session: the agent's owner only. 5.4 names the owner alone, so an admin who is not the owner gets 403 (the
 *   SDKs map session to the `owner` scope, which also admits admins: the spec's table is followed here);
 * - portal_token: any caller the agent verified;
 * - visitor_session: anyone; a caller that sent a credential that does not verify is refused with 401, a caller
 *   with none reaches the handler unauthenticated.
 * `caller` is null when no credential came or the one that came did not verify.
 */
export function decideAuthMode(mode: AuthMode, caller: Caller | null, presentedCredential: boolean): AccessVerdict {
  const verified = isVerified(caller);
  switch (mode) {
    case ENDPOINT_AUTH_MODES.public:
    case ENDPOINT_AUTH_MODES.signature:
      return allowedVerdict();
    case ENDPOINT_AUTH_MODES.session:
      if (!verified) return unauthorizedVerdict(presentedCredential);
      return caller.isOwner ? allowedVerdict() : forbiddenVerdict();
    case ENDPOINT_AUTH_MODES.portalToken:
      return verified ? allowedVerdict() : unauthorizedVerdict(presentedCredential);
    case ENDPOINT_AUTH_MODES.visitorSession:
      return presentedCredential && !verified ? unauthorizedVerdict(true) : allowedVerdict();
  }
}
