export { requestUrlOf, type AgentRequest, type AgentTarget, type AgentVariant, type ControlledAgent, type UpgradeOutcome } from './agent-target.js';
export { InProcessAgentTarget, IN_PROCESS_AGENT_URL } from './in-process.js';
export { LiveAgentTarget } from './live.js';
export {
  CALLER_ACCESS,
  CALLER_AUTH_SKILL,
  CALLER_IDS,
  PORTAL_AUTHORITY,
  PORTAL_AUTH_SKILL,
  callerKeySets,
  callerToken,
  callerUrl,
  issuerKeySetUrl,
  issuerSubject,
  sdkToken,
  type CallerRole,
  type SdkIssuerName,
  type SdkTokenRequest,
} from './callers.js';
