import type { ErrorHook } from '../reference/error-hook.js';
import { mutantActive } from '../mutants/active.js';

/**
 * The exceptions the embedded reference caught while answering a check's request. Without a mutant switched on,
 * the reference has no business failing: the check then fails with the exception, not with a puzzling 500.
 * Under a mutant the 500 stands as the mutant deployment's answer.
 */
export class CaughtErrors {
  private readonly seen: Array<{ readonly error: unknown; readonly where: string }> = [];

  readonly hook: ErrorHook = (error, where) => {
    this.seen.push({ error, where });
  };

  async around<T>(answer: () => Promise<T>): Promise<T> {
    this.seen.length = 0;
    const result = await answer();
    const first = this.seen[0];
    if (first && !mutantActive()) {
      const detail = first.error instanceof Error ? (first.error.stack ?? first.error.message) : String(first.error);
      throw new Error(`the embedded reference failed while answering ${first.where} (a bug of the reference, not of the check): ${detail}`);
    }
    return result;
  }
}
