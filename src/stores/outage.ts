import { StoreUnavailableError } from './unavailable.js';

/**
 * A store whose failures to be reached (a server gone, a connection closed, a command timed out) reject with
 * StoreUnavailableError, which the platform answers 503 service_unavailable; what the store answered (a refusal, a
 * constraint) passes as it was. Every method of `store` is wrapped; its other members are left alone.
 */
export function outageAware<T extends object>(store: T, what: string, isOutage: (error: unknown) => boolean): T {
  const unreachable = (error: unknown): unknown =>
    isOutage(error)
      ? new StoreUnavailableError(`${what} is unreachable: ${error instanceof Error ? error.message : String(error)}`, { cause: error, unreachable: true })
      : error;
  const rethrow = (error: unknown): never => {
    throw unreachable(error);
  };
  // Each method is wrapped once (a request calls the same few again and again), and again only if it was replaced.
  const wrapped = new Map<PropertyKey, { readonly method: (...a: unknown[]) => unknown; readonly wrapper: (...a: unknown[]) => unknown }>();
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      const known = wrapped.get(key);
      if (known?.method === value) return known.wrapper;
      const method = value as (...a: unknown[]) => unknown;
      const wrapper = (...args: unknown[]) => {
        try {
          const result = method.apply(target, args);
          return result instanceof Promise ? result.catch(rethrow) : result;
        } catch (error) {
          throw unreachable(error);
        }
      };
      wrapped.set(key, { method, wrapper });
      return wrapper;
    },
  });
}

/** Errors of our own code (a value it could not read), never of the store's reach. */
const isOursToFix = (error: Error) => error instanceof TypeError || error instanceof SyntaxError || error instanceof RangeError;

/** ioredis: a reply is the server answering (ReplyError); anything else (closed, retries spent, timed out) is the server not there. */
export function isRedisOutage(error: unknown): boolean {
  return error instanceof Error && error.name !== 'ReplyError' && !isOursToFix(error);
}

/** What postgres (porsager) and node:net say when the connection, not the server's SQL, failed. */
const POSTGRES_CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
]);

/** postgres (porsager): a failure of the connection (or the server shutting down, SQLSTATE class 57P), not of a statement. */
export function isPostgresOutage(error: unknown): boolean {
  return error instanceof Error && POSTGRES_CONNECTION_CODES.has(String((error as { code?: unknown }).code));
}
