import { BridgeError } from './bridge-error.js';
import { nextStep } from './retry-policy.js';
import type { RetryPolicyOptions } from './retry-policy.js';

export interface RetryPorts {
  /** Waits; injected so tests never sleep. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Called when the policy says to offer sign-in (no_session), before the error is rethrown. */
  readonly offerSignIn?: (error: BridgeError) => void;
}

/**
 * Runs a bridge call under the 7.1 policy: retries as nextStep says and rethrows the last error when it
 * says to surface. An error that is not a BridgeError is not a bridge answer and is rethrown at once.
 */
export async function callWithRetry<T>(call: () => Promise<T>, ports: RetryPorts, options?: RetryPolicyOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof BridgeError)) throw error;
      const step = nextStep(error, attempt, error.retryAfterSeconds, options);
      if (step.action !== 'retry') {
        if (step.action === 'offer-sign-in') ports.offerSignIn?.(error);
        throw error;
      }
      await ports.sleep(step.delayMs);
    }
  }
}
