import { LIMITS } from '../spec/limits.js';

/**
 * A live run sends many signed requests that must fail; a conforming platform throttles an address after 30
 * failures in 60 s (7.3 too_many_failed_signatures). The budget keeps the run under that limit by waiting,
 * so a throttle answer is never caused by the suite's own pace. Time and sleep are injected.
 */
export class FailureBudget {
  private readonly failures: number[] = [];
  /** A margin below the limit, for failures the run cannot see (another client, an earlier run). */
  private readonly limit = LIMITS.failedSignatures.value - 10;
  private readonly windowMs = LIMITS.failedSignaturesWindow.value * 1000;

  constructor(
    private readonly nowMs: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
    /** Never wait longer than this in one go (the run's per-check timeout bounds the rest). */
    private readonly maxWaitMs = 65_000,
  ) {}

  /** Waits until `count` more failures would stay under the limit; returns how long it waited. */
  async reserve(count = 1): Promise<number> {
    const room = Math.max(this.limit - Math.min(count, this.limit), 0);
    let waited = 0;
    this.forgetOld();
    while (this.failures.length > room && waited < this.maxWaitMs) {
      const wait = Math.min(this.failures[this.failures.length - room - 1]! + this.windowMs + 250 - this.nowMs(), this.maxWaitMs - waited);
      if (wait <= 0) break;
      await this.sleep(wait);
      waited += wait;
      this.forgetOld();
    }
    return waited;
  }

  record(): void {
    this.failures.push(this.nowMs());
  }

  private forgetOld(): void {
    const horizon = this.nowMs() - this.windowMs;
    while (this.failures.length && this.failures[0]! <= horizon) this.failures.shift();
  }
}
