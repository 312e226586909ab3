import { readAgentUrl, readTargetConfig } from '../target-config.js';
import type { AgentTarget } from './agent-target.js';
import { InProcessAgentTarget } from './in-process.js';
import { LiveAgentTarget } from './live.js';

export { requestUrlOf, type AgentRequest, type AgentTarget, type UpgradeOutcome } from './agent-target.js';
export { InProcessAgentTarget, IN_PROCESS_AGENT_URL } from './in-process.js';
export { LiveAgentTarget } from './live.js';
export { CALLER_ACCESS, CALLER_IDS, callerKeySets, callerToken, callerUrl, type CallerRole } from './callers.js';

/** The agent the agent suites check: the live one `run --agent-url` names, else the embedded reference agent. */
export function agentSuiteTarget(): AgentTarget {
  const url = readAgentUrl();
  const config = readTargetConfig();
  return url ? new LiveAgentTarget(url, config.kind === 'live' ? config.timeoutMs : undefined) : new InProcessAgentTarget();
}
