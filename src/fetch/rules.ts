import { isIP } from 'node:net';
import { classifyAddress, EMPTY_ALLOW_LIST, isLoopbackAddress, allowListCovers, type AllowList } from '../net/index.js';
import { HEADERS, LIMITS } from '../spec/index.js';
import { badStatus, invalidUrl, notHttps, redirected, refuse, timedOut, tooLarge, type FetchFailure } from './failures.js';

/** The fetch rules of 5.2 as numbers and switches; both fetchers judge with these. */
export interface FetchRules {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** `--allow-insecure-fixtures`: plain http and loopback addresses are allowed, nothing else changes. */
  readonly allowInsecureLoopback: boolean;
  /** Non-public addresses let through on purpose; link-local and metadata services stay refused. */
  readonly allowList: AllowList;
}

export function fetchRules(options: Partial<FetchRules> = {}): FetchRules {
  return Object.freeze({
    timeoutMs: options.timeoutMs ?? LIMITS.documentFetchTimeout.value,
    maxBytes: options.maxBytes ?? LIMITS.documentSize.value,
    allowInsecureLoopback: options.allowInsecureLoopback ?? false,
    allowList: options.allowList ?? EMPTY_ALLOW_LIST,
  });
}

/** A URL that passed the URL-level rules. */
export interface FetchTarget {
  readonly url: string;
  readonly parsed: URL;
  readonly secure: boolean;
  /** Without the brackets of an IPv6 literal. */
  readonly hostname: string;
  readonly port: number;
  /** Set when the host is an IP literal, which is judged without any lookup. */
  readonly literalAddress?: string;
}

export function judgeUrl(url: string, rules: FetchRules): { ok: true; target: FetchTarget } | FetchFailure {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return invalidUrl(url, 'it is not an absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return notHttps(url, parsed.protocol, rules.allowInsecureLoopback);
  if (parsed.username || parsed.password) return invalidUrl(url, 'it carries a user name or password');
  const secure = parsed.protocol === 'https:';
  if (!secure && !rules.allowInsecureLoopback) return notHttps(url, parsed.protocol, false);

  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = parsed.port ? Number(parsed.port) : secure ? 443 : 80;
  const target: FetchTarget = isIP(hostname) ? { url, parsed, secure, hostname, port, literalAddress: hostname } : { url, parsed, secure, hostname, port };
  if (!secure && target.literalAddress !== undefined && !isLoopbackAddress(target.literalAddress)) {
    return notHttps(url, parsed.protocol, true);
  }
  return { ok: true, target };
}

/** Why one address may not be connected to. */
export interface AddressRefusal {
  readonly address: string;
  readonly reason: 'address-refused' | 'not-https';
  /** What the address is, e.g. "loopback (127.0.0.0/8)". */
  readonly range: string;
  readonly loopback: boolean;
  readonly alwaysBlocked: boolean;
}

/** Judges the address a connection goes to (the resolved one, or the IP literal). */
export function judgeAddress(address: string, port: number, secure: boolean, rules: FetchRules): AddressRefusal | undefined {
  if (!isIP(address)) return { address, reason: 'address-refused', range: 'not an IP address', loopback: false, alwaysBlocked: false };
  const classification = classifyAddress(address);
  const loopback = isLoopbackAddress(address);
  const refusal = (reason: AddressRefusal['reason']): AddressRefusal => ({
    address,
    reason,
    range: classification.range ?? 'a public address',
    loopback,
    alwaysBlocked: classification.alwaysBlocked,
  });
  if (classification.alwaysBlocked) return refusal('address-refused');
  if (!secure) return loopback && rules.allowInsecureLoopback ? undefined : refusal('not-https');
  if (classification.public || (loopback && rules.allowInsecureLoopback) || allowListCovers(rules.allowList, address, port)) return undefined;
  return refusal('address-refused');
}

/** The refusal of a target none of whose addresses may be connected to. */
export function refuseAddresses(target: FetchTarget, refusals: readonly AddressRefusal[], rules: FetchRules): FetchFailure {
  const [first] = refusals;
  const where =
    target.literalAddress !== undefined && refusals.length === 1 && first
      ? `points at ${first.address}, which is ${first.range}`
      : `names ${target.hostname}, which resolves only to refused addresses: ${refusals.map((refusal) => `${refusal.address} is ${refusal.range}`).join(' and ')}`;
  if (refusals.every((refusal) => refusal.reason === 'not-https')) {
    return refuse(target.url, 'not-https', `${target.url} uses plain http, which --allow-insecure-fixtures allows only to loopback addresses, but it ${where}`);
  }
  const never = refusals.some((refusal) => refusal.alwaysBlocked)
    ? '; link-local and cloud metadata addresses are never fetched, whatever the allow list says'
    : '';
  const hint =
    refusals.some((refusal) => refusal.loopback) && !rules.allowInsecureLoopback ? ' (for local testing only, --allow-insecure-fixtures admits loopback)' : '';
  return refuse(
    target.url,
    'address-refused',
    `${target.url} ${where}${never}; key sets and agent cards are fetched only from publicly routable addresses, never loopback, private or link-local ones${hint}`,
  );
}

/** 200 passes; 3xx is a redirect (never followed); anything else is the wrong status. */
export function judgeStatus(url: string, status: number, headers: Readonly<Record<string, string>>): FetchFailure | undefined {
  if (status === 200) return undefined;
  if (status >= 300 && status <= 399) return redirected(url, status, headers[HEADERS.location]);
  return badStatus(url, status);
}

/** A Content-Length over the limit is refused before any of the body is read. */
export function judgeDeclaredLength(url: string, headers: Readonly<Record<string, string>>, rules: FetchRules): FetchFailure | undefined {
  const declared = headers[HEADERS.contentLength];
  if (declared === undefined || !/^\d+$/.test(declared.trim())) return undefined;
  const length = Number(declared.trim());
  return length > rules.maxBytes ? tooLarge(url, rules.maxBytes, length) : undefined;
}

export function judgeBodySize(url: string, bytesReceived: number, rules: FetchRules): FetchFailure | undefined {
  return bytesReceived > rules.maxBytes ? tooLarge(url, rules.maxBytes) : undefined;
}

/** An answer that arrives after the deadline is a timeout; one exactly at the deadline is in time. */
export function judgeElapsed(url: string, elapsedMs: number, rules: FetchRules): FetchFailure | undefined {
  return elapsedMs > rules.timeoutMs ? timedOut(url, rules.timeoutMs) : undefined;
}

/** The media type of a response without parameters, lower-case (`application/json`), or undefined. */
export function mediaTypeOf(headers: Readonly<Record<string, string>>): string | undefined {
  const essence = headers[HEADERS.contentType]?.split(';')[0]?.trim().toLowerCase();
  return essence ? essence : undefined;
}
