export { PurchasedBalanceLedger, type BalancePort } from './balance-port.js';
export { payerOf, currentTerms, type TermsSource } from './caller.js';
export { machineChallengeIssuer, type ChallengeIssuer } from './machine-challenge.js';
export { CHAT, readChatRequest, echoCompletion, type ChatRequest, type ChatRequestRead } from './chat-completion.js';
export { llmChatCompletionsRoute, LLM_POINTER_REASON, type LlmRailOptions } from './llm-route.js';
export { TurnSession, TURN_REASON, textOutput, type TurnRunner, type TurnSessionOptions, type SocketCaller } from './turn-session.js';
export { agentSocketRoute, agentSocketPath, AGENT_SOCKET_ROUTE_NAME, type AgentSocketOptions } from './agent-socket.js';
export { createDelegate, delegateToolResult, type Delegate, type DelegateOptions, type DelegateToolResult } from './delegate.js';
