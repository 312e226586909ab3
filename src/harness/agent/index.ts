/** What the suites of 4.2-4.3 and 5.4-5.5 drive: the agent under test (in process or live) and its callers. */
export { requestUrlOf, type AgentRequest, type AgentTarget } from './agent-target.js';
export { InProcessAgentTarget, IN_PROCESS_AGENT_URL } from './in-process.js';
export { LiveAgentTarget } from './live.js';
export { CALLER_IDS, type CallerRole } from '../../contract/callers.js';
export { callerToken, issuerSubject, type SdkTokenRequest } from './callers.js';
