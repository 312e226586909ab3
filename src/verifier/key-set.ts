import { jwkThumbprint } from '../httpsig/index.js';
import { LIMITS } from '../spec/limits.js';
import { ED25519_JWK, RFC9421_TEST_KEYS } from '../spec/wire.js';
import { KEY_SET_DETAIL as DETAIL } from './messages.js';
import type { Ed25519PublicJwk, PublishedKey } from './ports.js';

/**
 * What can be wrong with a key set or one of its entries (2.4, section 8). One judge (judgeKeySet) finds them for
 * both the verifier, which refuses a set with a problem that `refuses`, and check-agent, which reports every
 * problem in words: the two can never disagree on a set.
 */
export const KEY_SET_PROBLEMS = Object.freeze({
  /** Not a JSON object with a keys array. */
  notJwkSet: 'not-jwk-set',
  /** No entry is an Ed25519 key usable for signatures: an empty list, an RSA key alone, or nothing usable. */
  noUsableKey: 'no-usable-key',
  /** More than 16 Ed25519 signing entries, a repeated key counted each time (2.4, section 8). */
  tooManyKeys: 'too-many-keys',
  /** More than 16 entries in all, at most 16 of them Ed25519 signing entries (READING-KEY-SET-RSA). */
  entriesOverLimit: 'entries-over-limit',
  /** An RFC 9421 Appendix B test key, of any type (2.4: none of them). */
  testKey: 'test-key',
  /** An entry carrying the private member d: the key is published, so anyone can sign with it. */
  privateKey: 'private-key',
  /** An entry that is not a JSON object (READING-KEY-SET-UNUSABLE-ENTRY). */
  entryNotObject: 'entry-not-object',
  /** An entry of another key type or curve (EC, X25519, no kty). */
  entryNotEd25519: 'entry-not-ed25519',
  /** An Ed25519 entry whose x is missing, not base64url, or not 32 bytes. */
  entryInvalidX: 'entry-invalid-x',
  /** An Ed25519 entry whose use is not sig (enc): not a signing key. */
  entryUseNotSig: 'entry-use-not-sig',
  /** An Ed25519 entry without use, which 2.4 writes as use sig; the key is still used. */
  entryUseMissing: 'entry-use-missing',
  /** A public RSA key, which 2.4 allows between SDK agents; never used for a signed request. */
  rsaKey: 'rsa-key',
  /** The same Ed25519 key again (same thumbprint). */
  duplicateKey: 'duplicate-key',
  /** Two different keys under one kid (RFC 7517 4.5: distinct kid values SHOULD be used); keys are chosen by thumbprint. */
  duplicateKid: 'duplicate-kid',
});

export type KeySetProblemKind = (typeof KEY_SET_PROBLEMS)[keyof typeof KEY_SET_PROBLEMS];

/**
 * `refuses`: the set is not a valid key set under 2.4 (the verifier answers key_set_invalid, check-agent fails the
 * agent). `warns`: the set stays valid (the entry is passed over, or used as it is); check-agent warns, because a
 * platform may read it otherwise (a reading of src/spec/readings/signed.ts) or because the agent should fix it.
 */
export type KeySetSeverity = 'refuses' | 'warns';

export interface KeySetProblem {
  readonly kind: KeySetProblemKind;
  readonly severity: KeySetSeverity;
  /** The entry's index in keys; absent for a problem of the set as a whole. */
  readonly index?: number;
  /** The entry as published, for the words of a report. */
  readonly entry?: unknown;
  /** The count a set-level problem is about (entries, or Ed25519 signing entries). */
  readonly count?: number;
  /** What error_description says of it. */
  readonly detail: string;
}

/** The other choices the readings allow a platform (src/variants/verifier.ts makes them); the reference's by default. */
export interface KeySetJudgeOptions {
  /** READING-KEY-SET-UNUSABLE-ENTRY: an entry no verifier can use, or an Ed25519 key without use, refuses the whole set. */
  readonly refuseUnusableEntries?: boolean;
  /** READING-KEY-SET-RSA: section 8's "Keys per key set 16" counts every entry, an RSA key or an unusable entry included. */
  readonly countEveryEntry?: boolean;
}

export type KeySetJudgement =
  | { readonly ok: true; readonly keys: PublishedKey[]; readonly problems: readonly KeySetProblem[] }
  | { readonly ok: false; readonly detail: string; readonly keys: PublishedKey[]; readonly problems: readonly KeySetProblem[] };

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const P = KEY_SET_PROBLEMS;
/** The kinds an entry no verifier can use (or one 2.4 does not write) raises; refusing the set for them is the stricter reading. */
const UNUSABLE: ReadonlySet<KeySetProblemKind> = new Set([P.entryNotObject, P.entryNotEd25519, P.entryInvalidX, P.entryUseNotSig, P.entryUseMissing]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The RFC 7638 thumbprint of an entry whose type has one (OKP, EC, RSA with their members as strings), or null. */
function thumbprintOf(entry: Record<string, unknown>): string | null {
  try {
    return jwkThumbprint(entry as { kty: string });
  } catch {
    return null;
  }
}

function isTestKey(entry: Record<string, unknown>, thumbprint: string | null): boolean {
  if (thumbprint !== null && RFC9421_TEST_KEYS.thumbprints.includes(thumbprint)) return true;
  return entry.kty === ED25519_JWK.kty && typeof entry.x === 'string' && RFC9421_TEST_KEYS.ed25519X.includes(entry.x);
}

const hasValidX = (x: unknown): x is string => typeof x === 'string' && BASE64URL.test(x) && Buffer.from(x, 'base64url').length === 32;

/**
 * The one judge of a key set (2.4, section 8): every problem it has, each with its severity, and the Ed25519 keys a
 * signed request may name. Entries a verifier cannot use are passed over (RFC 7517 section 5: "Implementations
 * SHOULD ignore JWKs within a JWK Set that use kty values that are not understood by them, that are missing required
 * members, or for which values are out of the supported ranges"; READING-KEY-SET-UNUSABLE-ENTRY); a public RSA key
 * rides beside the Ed25519 keys (READING-KEY-SET-RSA). The set is refused when it is no JWK Set, when it publishes a
 * private key or an RFC 9421 test key, when no usable Ed25519 key is left, or when more than 16 Ed25519 signing
 * entries are (a repeated key counted each time).
 */
export function judgeKeySet(document: unknown, options: KeySetJudgeOptions = {}): KeySetJudgement {
  if (!isObject(document)) return refused([{ kind: P.notJwkSet, severity: 'refuses', detail: DETAIL.notJsonObject }]);
  const entries = document.keys;
  if (!Array.isArray(entries)) return refused([{ kind: P.notJwkSet, severity: 'refuses', detail: DETAIL.noKeysArray }]);

  const entryProblems: KeySetProblem[] = [];
  const keys: PublishedKey[] = [];
  // Ed25519 signing entries, a repeated key counted each time: 2.4's "at most 16" is said of the entries.
  let signingEntries = 0;
  const kids = new Map<string, string>();
  const raise = (kind: KeySetProblemKind, index: number, entry: unknown, detail: string) => {
    const severity = kind === P.privateKey || kind === P.testKey || (options.refuseUnusableEntries && UNUSABLE.has(kind)) ? 'refuses' : 'warns';
    entryProblems.push({ kind, severity, index, entry, detail });
  };
  for (const [index, entry] of entries.entries()) {
    if (!isObject(entry)) {
      raise(P.entryNotObject, index, entry, DETAIL.notObject(index));
      continue;
    }
    if ('d' in entry) {
      raise(P.privateKey, index, entry, DETAIL.privateKey(index));
      continue;
    }
    const thumbprint = thumbprintOf(entry);
    if (isTestKey(entry, thumbprint)) {
      raise(P.testKey, index, entry, DETAIL.testKey(index));
      continue;
    }
    if (entry.kty === 'RSA') {
      raise(P.rsaKey, index, entry, DETAIL.rsa(index));
      continue;
    }
    if (entry.kty !== ED25519_JWK.kty || entry.crv !== ED25519_JWK.crv) {
      raise(P.entryNotEd25519, index, entry, DETAIL.notEd25519(index, entry.kty, entry.crv));
      continue;
    }
    if (!hasValidX(entry.x)) {
      raise(P.entryInvalidX, index, entry, DETAIL.x(index));
      continue;
    }
    if (entry.use === undefined) raise(P.entryUseMissing, index, entry, DETAIL.useMissing(index));
    else if (entry.use !== ED25519_JWK.use) {
      raise(P.entryUseNotSig, index, entry, DETAIL.use(index, entry.use));
      continue;
    }
    const jwk: Ed25519PublicJwk = { kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: entry.x, use: ED25519_JWK.use };
    const own = jwkThumbprint({ ...jwk });
    signingEntries++;
    if (keys.some((k) => k.thumbprint === own)) {
      raise(P.duplicateKey, index, entry, DETAIL.duplicate(index, own));
      continue;
    }
    if (typeof entry.kid === 'string') {
      const other = kids.get(entry.kid);
      if (other !== undefined && other !== own) raise(P.duplicateKid, index, entry, DETAIL.duplicateKid(index, entry.kid));
      kids.set(entry.kid, own);
    }
    keys.push({ thumbprint: own, jwk });
  }

  const max = LIMITS.keysPerKeySet.value;
  const setProblems: KeySetProblem[] = [];
  if (keys.length === 0) setProblems.push({ kind: P.noUsableKey, severity: 'refuses', count: entries.length, detail: DETAIL.noEd25519Key(entries.length) });
  else if (signingEntries > max)
    setProblems.push({ kind: P.tooManyKeys, severity: 'refuses', count: signingEntries, detail: DETAIL.tooManyKeys(signingEntries, max) });
  else if (entries.length > max) {
    setProblems.push({
      kind: P.entriesOverLimit,
      severity: options.countEveryEntry ? 'refuses' : 'warns',
      count: entries.length,
      detail: DETAIL.tooManyEntries(entries.length, signingEntries, max),
    });
  }
  const problems = [...setProblems, ...entryProblems];
  const refusing = problems.find((p) => p.severity === 'refuses');
  return refusing ? { ok: false, detail: refusing.detail, keys, problems } : { ok: true, keys, problems };
}

function refused(problems: KeySetProblem[]): KeySetJudgement {
  return { ok: false, detail: problems[0]!.detail, keys: [], problems };
}

/** Parses a fetched body as JSON; the fetch rules ask for a JSON body, so failure means the document could not be read. */
export function parseJsonDocument(body: Uint8Array): { ok: true; value: unknown } | { ok: false; detail: string } {
  try {
    return { ok: true, value: JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) };
  } catch {
    return { ok: false, detail: DETAIL.notJson };
  }
}
