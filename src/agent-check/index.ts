export { checkAgent, agentCheckUrls, type AgentCheckReport, type AgentDocumentName, type CheckedDocument } from './check-agent.js';
export { judgeKeySetDocument, type PublishedEd25519 } from './key-set.js';
export { judgeCardDocument, type CardKeySet } from './card.js';
export { judgeKeyDirectoryDocument } from './key-directory.js';
export { problem, type AgentProblem } from './problems.js';
