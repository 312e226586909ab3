import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The check whose code is running, seen from anywhere below it (a live target's request, a pacing wait): its
 * signal, aborted when the check ends for any reason (it settled, it ran out of time, the run was stopped), and
 * the exchanges it is waiting on. Code a check left running after it ended (a request it never awaited, a check
 * that timed out and goes on in the background) sees the signal aborted and stops: nothing a check started
 * outlives it. Outside a check (a suite's setup) there is no scope, and only each request's own limits apply.
 */
interface CheckScope {
  readonly signal: AbortSignal;
  /** What the check is waiting for the target to answer, e.g. `POST /conformance/echo`. */
  readonly pending: Set<string>;
}

const scopes = new AsyncLocalStorage<CheckScope>();

/** The running check's signal; undefined outside a check. */
export function checkSignal(): AbortSignal | undefined {
  return scopes.getStore()?.signal;
}

/** Marks `what` as awaited by the running check until the returned function is called (a timed-out check names it). */
export function awaiting(what: string): () => void {
  const scope = scopes.getStore();
  if (!scope) return () => undefined;
  scope.pending.add(what);
  return () => scope.pending.delete(what);
}

/** A check that ran out of time, said in the suite's words (never vitest's advice about its own configuration). */
export class CheckTimeout extends Error {
  override readonly name = 'CheckTimeout';
}

/** Leaves room for the check's own timer to fire before vitest's, which would otherwise speak for it. */
function ownLimit(vitestTimeoutMs: number): number {
  return Math.max(1, vitestTimeoutMs - Math.min(250, Math.floor(vitestTimeoutMs / 10)));
}

/**
 * Runs a check's body in its own scope. It ends (its signal aborts) when the body settles, when `signal` aborts (the
 * run was cancelled) or when `timeoutMs` passes; in the last case it fails with a plain sentence naming what it was
 * still waiting for. `timeoutMs` is vitest's timeout for the test: the check's own timer fires a little earlier.
 */
export async function runCheckScoped<T>(body: () => Promise<T> | T, options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): Promise<T> {
  const ended = new AbortController();
  const scope: CheckScope = { signal: options.signal ? AbortSignal.any([options.signal, ended.signal]) : ended.signal, pending: new Set() };
  const limit = ownLimit(options.timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    // vitest reads 0 (or no finite number) as no time limit.
    if (!(options.timeoutMs > 0 && options.timeoutMs < 2 ** 31)) return;
    timer = setTimeout(() => {
      const waiting = [...scope.pending];
      const error = new CheckTimeout(
        `the check did not finish within ${limit} ms (its time limit; run --timeout MS sets it)${waiting.length ? `: it was still waiting for the target's answer to ${waiting.join(', ')}` : ''}`,
      );
      ended.abort(error);
      reject(error);
    }, limit);
  });
  try {
    return await Promise.race([scopes.run(scope, async () => body()), timedOut]);
  } finally {
    clearTimeout(timer);
    if (!ended.signal.aborted) ended.abort(new Error('the check ended'));
  }
}
