import { readAgentUrl, readTargetConfig } from '../target-config.js';
import type { AgentTarget } from './agent-target.js';
import { InProcessAgentTarget } from './in-process.js';
import { LiveAgentTarget } from './live.js';

export { requestUrlOf, type AgentRequest, type AgentTarget, type AgentVariant, type ControlledAgent, type UpgradeOutcome } from './agent-target.js';
export { InProcessAgentTarget, IN_PROCESS_AGENT_URL } from './in-process.js';
export { LiveAgentTarget } from './live.js';
export { CALLER_ACCESS, CALLER_AUTH_SKILL, CALLER_IDS, PORTAL_AUTHORITY, PORTAL_AUTH_SKILL, callerKeySets, callerToken, callerUrl, issuerKeySetUrl, issuerSubject, sdkToken, type CallerRole, type SdkIssuerName, type SdkTokenRequest } from './callers.js';

/**
 * Why the agent suites do not run: a live run against a platform (--base-url) without --agent-url would
 * otherwise check the embedded reference agent and report it beside the deployment's results.
 */
export function agentSuiteNotRunReason(): string | undefined {
  return readTargetConfig().kind === 'live' && !readAgentUrl()
    ? 'needs --agent-url URL: this live run checks a platform; the agent suites check an agent only when one is named'
    : undefined;
}

/** The agent the agent suites check: the live one `run --agent-url` names, else the embedded reference agent. */
export function agentSuiteTarget(): AgentTarget {
  const url = readAgentUrl();
  const config = readTargetConfig();
  return url ? new LiveAgentTarget(url, config.kind === 'live' ? config.timeoutMs : undefined) : new InProcessAgentTarget();
}
