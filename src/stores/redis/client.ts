import type { Redis } from 'ioredis';
import { isRedisOutage } from '../outage.js';
import { optionalPackage, redactedUrl, StoreUnavailableError } from '../unavailable.js';

/** How long serve waits for the store at start before giving up (exit 2), and for each command after. */
const CONNECT_TIMEOUT_MS = 3000;

/**
 * A client of the Valkey or Redis server at `url`, connected and answering PING. Commands fail after one retry
 * rather than queue without end, so a store that goes away is a refusal the ports' callers answer (503), not a hang.
 */
export async function openRedis(url: string): Promise<Redis> {
  const { Redis } = await optionalPackage('ioredis', () => import('ioredis'), '--store');
  let client: Redis;
  try {
    client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: CONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
      // No auto-pipelining: it holds each command to the next turn of the event loop (setImmediate) and wraps it in a
      // pipeline, which costs a verification about a fifth of its rate (issue 27: in-process over Redis 0.43 to 0.54 of
      // memory, side by side). Commands are sent at once and never wait for the previous reply either way, so
      // concurrent requests still share the connection without a round trip each in turn.
      enableAutoPipelining: false,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    });
  } catch (error) {
    throw new StoreUnavailableError(`--store ${redactedUrl(url)} is not a redis:// URL: ${(error as Error).message}`);
  }
  // Each failed attempt is an error event (the cause, such as ECONNREFUSED); the connect below reports it once.
  let cause: Error | undefined;
  client.on('error', (error: Error) => void (cause = error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    const reason = cause ?? (error as Error);
    throw new StoreUnavailableError(`cannot reach the store at ${redactedUrl(url)}: ${reason.message}`, { unreachable: isRedisOutage(reason) });
  }
  return client;
}
