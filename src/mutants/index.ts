export * from './types.js';
export * from './answer.js';
export * from './active.js';
export * from './catalogue.js';
export * from './untestable.js';
export { AUTH_MUTANTS } from './auth.js';
export { PURCHASE_MUTANTS } from './purchase.js';
export { AGENT_MUTANTS } from './agent.js';
export { WIDGET_MUTANTS } from './widgets.js';
