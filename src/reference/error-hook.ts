/**
 * What the reference does with an exception it catches while answering: it still answers (500, or the refusal
 * the route owes), and reports the exception here, so a bug is seen instead of hiding behind a silent 500.
 * `serve` writes it to stderr; the in-process targets keep it for the check that caused it.
 */
export type ErrorHook = (error: unknown, where: string) => void;

/** Reports an error to the hook, if any; a hook that throws cannot break the answer. */
export function reportError(hook: ErrorHook | undefined, error: unknown, where: string): void {
  try {
    hook?.(error, where);
  } catch {
    // The answer goes out whatever the hook does.
  }
}
