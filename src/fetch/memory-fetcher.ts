import type { DocumentFetcher, FetchOutcome } from '../verifier/ports.js';
import { unreachable } from './failures.js';
import { fetchRules, judgeAddress, judgeBodySize, judgeElapsed, judgeStatus, judgeUrl, refuseAddresses, type FetchTarget } from './rules.js';

/** What an agent's host serves at one URL (docs/contracts.md section 2, `documents`). */
export interface MemoryDocument {
  status: number;
  headers?: Record<string, string>;
  /** Text; `body_base64` may be given instead (it wins when both are). */
  body?: string;
  body_base64?: string;
  /** A virtual delay: over the time limit means a timeout, and nothing ever sleeps. */
  delay_ms?: number;
}

export interface MemoryFetcherOptions {
  /** Like `--allow-insecure-fixtures`: plain http and loopback hosts are allowed. */
  allowInsecure?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  /** What host names resolve to (a case's `dns`); a name not listed is public, a `localhost` name loopback. */
  addresses?: Readonly<Record<string, readonly string[]>>;
}

export type MemoryFetcher = DocumentFetcher & {
  /** Swaps in a whole new set of documents (a case step's documents, merged by the caller). */
  replace(documents: Record<string, MemoryDocument>): void;
  /** Every URL passed to fetch, in order, as given (for tests of caching). */
  readonly requests: string[];
};

/**
 * Serves documents from memory under the same fetch rules as the network fetcher. A URL not listed
 * refuses the connection. Host names are virtual and count as public, except `localhost` names,
 * which count as loopback; IP literals are judged like real addresses.
 */
export function createMemoryFetcher(documents: Record<string, MemoryDocument>, options: MemoryFetcherOptions = {}): MemoryFetcher {
  const rules = fetchRules({
    allowInsecureLoopback: options.allowInsecure ?? false,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  });
  let served = indexDocuments(documents);
  const requests: string[] = [];

  function serve(url: string): FetchOutcome {
    const judged = judgeUrl(url, rules);
    if (!judged.ok) return judged;
    const { target } = judged;
    const address = virtualAddressOf(target, options.addresses ?? {});
    const refusal = address === undefined ? undefined : judgeAddress(address, target.port, target.secure, rules);
    if (refusal) return refuseAddresses(target, [refusal], rules);

    const document = served.get(keyOf(url));
    if (!document) return unreachable(url, `connection refused by ${target.parsed.host}; nothing is served at that URL`);
    const headers = lowerCaseNames(document.headers ?? {});
    const body = bodyOf(document);
    const failure =
      judgeElapsed(url, document.delay_ms ?? 0, rules) ?? judgeStatus(url, document.status, headers) ?? judgeBodySize(url, body.byteLength, rules);
    return failure ?? { ok: true, url, status: 200, headers, body };
  }

  return {
    async fetch(url) {
      requests.push(url);
      try {
        return serve(url);
      } catch (error) {
        return unreachable(url, `unexpected error: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    requests,
    replace(next) {
      served = indexDocuments(next);
    },
  };
}

/** Throws on a malformed document up front: that is a mistake in a case file, not a fetch outcome. */
function indexDocuments(documents: Record<string, MemoryDocument>): Map<string, MemoryDocument> {
  const index = new Map<string, MemoryDocument>();
  for (const [url, document] of Object.entries(documents)) {
    if (!Number.isInteger(document.status) || document.status < 100 || document.status > 599) {
      throw new TypeError(`the document for ${url} has status ${JSON.stringify(document.status)}; use an HTTP status from 100 to 599`);
    }
    if (document.delay_ms !== undefined && !(Number.isFinite(document.delay_ms) && document.delay_ms >= 0)) {
      throw new TypeError(`the document for ${url} has delay_ms ${JSON.stringify(document.delay_ms)}; use a number of milliseconds, 0 or more`);
    }
    index.set(keyOf(url), document);
  }
  return index;
}

/** Different spellings of one URL (`HTTPS://A.example:443/x#y`) find the same document. */
function keyOf(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

/** The address a fetch of this target connects to: its literal, the first address its name resolves to, or none (public). */
function virtualAddressOf(target: FetchTarget, addresses: Readonly<Record<string, readonly string[]>>): string | undefined {
  if (target.literalAddress !== undefined) return target.literalAddress;
  const name = target.hostname.toLowerCase().replace(/\.$/, '');
  const resolved = addresses[name]?.[0];
  if (resolved !== undefined) return resolved;
  return name === 'localhost' || name.endsWith('.localhost') ? '127.0.0.1' : undefined;
}

function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function bodyOf(document: MemoryDocument): Uint8Array {
  if (document.body_base64 !== undefined) return new Uint8Array(Buffer.from(document.body_base64, 'base64'));
  return new TextEncoder().encode(document.body ?? '');
}
