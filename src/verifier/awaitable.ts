import type { Awaitable } from './ports.js';

/**
 * Ports may answer synchronously (the in-memory stores) or with a promise (a database). Awaiting only what
 * is really a promise spares a promise and a microtask turn per step on the hot path; the values, and the
 * order of the port calls, are those of plain `await`.
 */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** `next(await value)`, without the await when the value is already there. */
export function andThen<T, R>(value: T | PromiseLike<T>, next: (resolved: T) => Awaitable<R>): Awaitable<R> {
  if (isPromiseLike(value)) return (async () => next(await value))();
  return next(value);
}
