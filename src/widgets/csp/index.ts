export { buildCspPolicy, defaultCspPolicy } from './policy.js';
export { openLinkDecision } from './open-link.js';
