import { decideAuthMode } from './auth-modes.js';
import { accessRefusalAnswer, type EndpointAnswer } from './endpoint-answers.js';
import type { HttpEndpointDeclaration, SocketEndpointDeclaration } from './endpoint-declaration.js';
import { decideScope, type AccessRefusal, type Caller } from './scope-rules.js';

/** Who the agent found behind a request, before any endpoint rule. */
export interface CallerIdentity {
  /** The verified caller; null when the request carried no credential or one that did not verify. */
  readonly caller: Caller | null;
  /** Whether the request carried a credential at all (Authorization, or ?token= on a socket). */
  readonly presentedCredential: boolean;
}

/** What the agent knows about itself that the scope rules need (5.4). */
export interface AgentAccessFacts {
  /** False for an agent with no auth skill and no access block: it verifies no one, so scoped endpoints refuse every caller. */
  readonly verifiesCallers: boolean;
  /** The realm of its 401 challenges: the deployment's name for Service (src/spec/naming.ts); the spec's `service` when absent. */
  readonly realm?: string;
  /** The words of its 401 message (7.2 asks only that they say the endpoint needs a caller the agent can verify); the SDKs' by default. */
  readonly unauthorizedMessage?: string;
}

/**
 * 5.4 and 7.2: the auth mode first, then the scopes, both before the handler runs. A refusal is the 401
 * unauthorized (with its Bearer challenge) or 403 forbidden answer, `{ error: { code, message } }`.
 */
export function decideEndpointAccess(
  endpoint: Pick<HttpEndpointDeclaration | SocketEndpointDeclaration, 'scopes' | 'auth'>,
  identity: CallerIdentity,
  agent: AgentAccessFacts,
): EndpointAnswer | null {
  const worded = (refusal: AccessRefusal): AccessRefusal =>
    refusal.status === 401 && agent.unauthorizedMessage !== undefined ? { ...refusal, message: agent.unauthorizedMessage } : refusal;
  const mode = decideAuthMode(endpoint.auth ?? 'public', identity.caller, identity.presentedCredential);
  if (!mode.allowed) return accessRefusalAnswer(worded(mode), identity.presentedCredential, agent.realm);
  const scope = decideScope(endpoint.scopes, identity.caller, agent, identity.presentedCredential);
  if (!scope.allowed) return accessRefusalAnswer(worded(scope), identity.presentedCredential, agent.realm);
  return null;
}
