/**
 * Verifications through `serve` over HTTP: a serve process (in-memory stores, or the ones `storeArgs` name) on
 * loopback, an agent whose documents a fixture host here publishes, and signed POSTs to the CLI token route, each
 * signed before timing with a fresh nonce, sent `concurrency` at a time. Every answer must be the route's 200.
 */
import { Agent, request } from 'undici';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { SigningAgent, startServe } from '../tests/stores/serve-process.js';
import type { Contender } from './rounds.js';

const PUBLIC = 'http://platform.test';
/**
 * Requests sent when the process is new, before any round: its request path is compiled by the JIT during these. A
 * serve process answers faster until some 4,000 requests in (1,800/s over the first 2,000, 2,300 to 2,900/s after);
 * with 1,000, the rounds still climbed one after the other and their median was not the process's steady rate.
 */
const SERVE_WARMUP = 4000;

export interface HttpContender extends Contender {
  close(): Promise<void>;
}

/** A serve process up and warm, whose `run(i)` sends the i-th of `calls` requests signed beforehand (its capacity). */
export async function verificationsOverHttp(name: string, storeArgs: readonly string[], calls: number, concurrency: number): Promise<HttpContender> {
  const agent = await SigningAgent.start(`bench-${name.toLowerCase()}`);
  const serve = await startServe(['--port', '0', '--allow-insecure-fixtures', '--public-url', PUBLIC, ...storeArgs]);
  const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 60_000 });
  const close = async () => {
    await dispatcher.close();
    await serve.kill('SIGTERM');
    await agent.close();
  };
  try {
    const url = `${PUBLIC}${PLATFORM_ROUTES.cliToken}`;
    // Signed before timing (the bench's own Ed25519 work is not the server's); valid for the 60 s a run takes at most.
    const signed = Array.from({ length: calls + SERVE_WARMUP }, () => agent.sign(url));
    const host = new URL(PUBLIC).host;
    const send = async (i: number) => {
      const answer = await request(`${serve.url}${PLATFORM_ROUTES.cliToken}`, { method: 'POST', headers: { ...signed[i]!, host }, dispatcher });
      await answer.body.dump();
      if (answer.statusCode !== 200) throw new Error(`${name}: request ${i} answered ${answer.statusCode}`);
    };
    let next = calls;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < calls + SERVE_WARMUP; i = next++) await send(i);
      }),
    );
    return { name, concurrency, capacity: calls, run: send, close };
  } catch (error) {
    await close();
    throw error;
  }
}
