/** The agent checker: an agent's card, key set and key directory under the fetch rules (4.3, 5.2). */
export { checkAgent, agentCheckUrls, type AgentCheckReport } from './check-agent.js';
export { judgeKeySetDocument } from './key-set.js';
export { judgeCardDocument } from './card.js';
export { judgeKeyDirectoryDocument } from './key-directory.js';
export type { AgentProblem } from './problems.js';
