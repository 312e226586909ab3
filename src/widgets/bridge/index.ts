export { nextStep, type BridgeStep, type RetryPolicyOptions } from './retry-policy.js';
export { BridgeError, bridgeErrorFrom } from './bridge-error.js';
export { callWithRetry, type RetryPorts } from './call-with-retry.js';
export { checkDispatch, type BridgeHostInfo, type BridgeOperation, type DispatchVerdict } from './operations.js';
