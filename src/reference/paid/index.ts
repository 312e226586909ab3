/** The reference platform's paid surfaces (4.7, 6): the balance ledger, the LLM rail, the agent socket and the delegate. */
export { PurchasedBalanceLedger, type BalancePort } from './balance-port.js';
export { machineChallengeIssuer, type ChallengeIssuer } from './machine-challenge.js';
export { CHAT } from './chat-completion.js';
export { llmChatCompletionsRoute, LLM_POINTER_REASON } from './llm-route.js';
export { TurnSession, textOutput, type TurnSessionOptions, type SocketCaller } from './turn-session.js';
export { agentSocketRoute } from './agent-socket.js';
export { createDelegate, delegateToolResult, type Delegate, type DelegateOptions } from './delegate.js';
