import type { LookupFunction } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import type { AllowList } from '../net/index.js';
import { HEADERS, MEDIA_TYPES } from '../spec/index.js';
import type { DocumentFetcher, FetchOutcome } from '../verifier/ports.js';
import { outcomeOfError } from './error-outcome.js';
import { timedOut, unreachable } from './failures.js';
import {
  fetchRules,
  judgeAddress,
  judgeBodySize,
  judgeDeclaredLength,
  judgeStatus,
  judgeUrl,
  refuseAddresses,
  type FetchRules,
  type FetchTarget,
} from './rules.js';
import { createVettedConnector } from './vetted-connector.js';

export interface UndiciFetcherOptions {
  /** Deadline for connect, headers and body together; LIMITS.documentFetchTimeout by default. */
  timeoutMs?: number;
  /** Largest body read; LIMITS.documentSize by default. */
  maxBytes?: number;
  /** `--allow-insecure-fixtures`: plain http and loopback addresses are allowed, nothing else changes. */
  allowInsecureLoopback?: boolean;
  allowList?: AllowList;
  /** Extra trust, for tests against a self-signed loopback server. */
  tls?: { ca?: string | Buffer };
  /** Replaces the system resolver (tests). */
  lookup?: LookupFunction;
}

export type UndiciFetcher = DocumentFetcher & { close(): Promise<void> };

const REQUEST_HEADERS = { [HEADERS.accept]: `${MEDIA_TYPES.json}, ${MEDIA_TYPES.keyDirectory}` };

/** The network DocumentFetcher: every fetch rule of 5.2, on the address actually connected to. No retries. */
export function createUndiciFetcher(options: UndiciFetcherOptions = {}): UndiciFetcher {
  const rules = fetchRules({
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(options.allowList === undefined ? {} : { allowList: options.allowList }),
    allowInsecureLoopback: options.allowInsecureLoopback ?? false,
  });
  const connect = createVettedConnector(rules, {
    ...(options.tls?.ca === undefined ? {} : { ca: options.tls.ca }),
    ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
  });
  const agent = new Agent({ connect, headersTimeout: rules.timeoutMs, bodyTimeout: rules.timeoutMs });
  let closed = false;

  return {
    async fetch(url) {
      if (closed) return unreachable(url, 'the fetcher was already closed');
      try {
        return await fetchWithinDeadline(agent, url, rules);
      } catch (error) {
        return unreachable(url, `unexpected error: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    async close() {
      closed = true;
      await agent.destroy();
    },
  };
}

async function fetchWithinDeadline(agent: Dispatcher, url: string, rules: FetchRules): Promise<FetchOutcome> {
  const judged = judgeUrl(url, rules);
  if (!judged.ok) return judged;
  const { target } = judged;
  if (target.literalAddress !== undefined) {
    const refusal = judgeAddress(target.literalAddress, target.port, target.secure, rules);
    if (refusal) return refuseAddresses(target, [refusal], rules);
  }

  // undici only honours an abort once the request is on a socket, so the race bounds a stuck connect too.
  const deadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<FetchOutcome>((resolve) => {
    timer = setTimeout(() => {
      deadline.abort();
      resolve(timedOut(url, rules.timeoutMs));
    }, rules.timeoutMs);
  });
  const exchanged = exchange(agent, target, rules, deadline.signal);
  try {
    return await Promise.race([exchanged, expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function exchange(agent: Dispatcher, target: FetchTarget, rules: FetchRules, signal: AbortSignal): Promise<FetchOutcome> {
  try {
    const response = await agent.request({
      origin: target.parsed.origin,
      path: `${target.parsed.pathname}${target.parsed.search}`,
      method: 'GET',
      headers: REQUEST_HEADERS,
      signal,
    });
    return await readResponse(target.url, response, rules);
  } catch (error) {
    return signal.aborted ? timedOut(target.url, rules.timeoutMs) : outcomeOfError(target, error, rules);
  }
}

async function readResponse(url: string, response: Dispatcher.ResponseData, rules: FetchRules): Promise<FetchOutcome> {
  const headers = flattenHeaders(response.headers);
  const refusal = judgeStatus(url, response.statusCode, headers) ?? judgeDeclaredLength(url, headers, rules);
  if (refusal) {
    discard(response.body);
    return refusal;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    received += chunk.byteLength;
    const tooLarge = judgeBodySize(url, received, rules);
    if (tooLarge) {
      discard(response.body);
      return tooLarge;
    }
    chunks.push(chunk);
  }
  return { ok: true, url, status: 200, headers, body: new Uint8Array(Buffer.concat(chunks)) };
}

/** Stops reading at once: destroying the body closes the connection instead of reading the rest. */
function discard(body: Dispatcher.ResponseData['body']): void {
  // undici reports the destruction it was asked for as an AbortError; nobody is listening any more.
  body.on('error', () => undefined).destroy();
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
