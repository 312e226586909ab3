export { nextStep } from './retry-policy.js';
export { BridgeError, bridgeErrorFrom } from './bridge-error.js';
export { callWithRetry } from './call-with-retry.js';
export { checkDispatch } from './operations.js';
