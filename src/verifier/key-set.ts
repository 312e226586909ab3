import { jwkThumbprint } from '../httpsig/index.js';
import { LIMITS } from '../spec/limits.js';
import { ED25519_JWK, RFC9421_TEST_KEYS } from '../spec/wire.js';
import { KEY_SET_DETAIL as DETAIL } from './messages.js';
import type { Ed25519PublicJwk, PublishedKey } from './ports.js';

export type KeySetJudgement = { ok: true; keys: PublishedKey[] } | { ok: false; detail: string };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function entryProblem(entry: unknown, index: number): string | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return DETAIL.notObject(index);
  const k = entry as Record<string, unknown>;
  if (k.kty !== ED25519_JWK.kty) return DETAIL.kty(index, k.kty);
  if (k.crv !== ED25519_JWK.crv) return DETAIL.crv(index, k.crv);
  if (k.use !== ED25519_JWK.use) return DETAIL.use(index, k.use);
  if ('d' in k) return DETAIL.privateKey(index);
  if (typeof k.x !== 'string' || !BASE64URL.test(k.x) || Buffer.from(k.x, 'base64url').length !== 32) {
    return DETAIL.x(index);
  }
  if (RFC9421_TEST_KEYS.ed25519X.includes(k.x)) return DETAIL.testKey(index);
  return null;
}

/** 2.4 "Between SDK agents a key set may also carry an RSA key": a public RSA key beside the Ed25519 ones is passed over. */
function isPublicRsaKey(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && (entry as Record<string, unknown>).kty === 'RSA' && !('d' in entry);
}

/**
 * 2.4: a JWK Set of Ed25519 public keys (kty OKP, crv Ed25519, use sig), at most 16, none of the RFC 9421 test
 * keys. An RSA public key may ride beside them (READING-KEY-SET-RSA); it is not counted and never verifies.
 */
export function judgeKeySet(document: unknown): KeySetJudgement {
  // Stryker disable next-line ObjectLiteral: the detail reaches error_description only; an answer without ok is refused key_set_invalid all the same
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return { ok: false, detail: DETAIL.notJsonObject };
  const all = (document as { keys?: unknown }).keys;
  // Stryker disable next-line ObjectLiteral: the detail reaches error_description only; an answer without ok is refused key_set_invalid all the same
  if (!Array.isArray(all)) return { ok: false, detail: DETAIL.noKeysArray };
  const keys = all.filter((entry) => !isPublicRsaKey(entry));
  if (keys.length === 0) return { ok: false, detail: DETAIL.noEd25519Key(all.length) };
  const max = LIMITS.keysPerKeySet.value;
  // Stryker disable next-line ObjectLiteral: the detail reaches error_description only; an answer without ok is refused key_set_invalid all the same
  if (keys.length > max) return { ok: false, detail: DETAIL.tooManyKeys(keys.length, max) };
  // Stryker disable next-line ArrayDeclaration: a placeholder entry carries no thumbprint, so no keyid ever selects it
  const published: PublishedKey[] = [];
  for (const [index, entry] of all.entries()) {
    if (isPublicRsaKey(entry)) continue;
    const problem = entryProblem(entry, index);
    // Stryker disable next-line ObjectLiteral: the detail reaches error_description only; an answer without ok is refused key_set_invalid all the same
    if (problem) return { ok: false, detail: problem };
    const e = entry as Record<string, unknown>;
    const jwk: Ed25519PublicJwk = { kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: e.x as string, use: ED25519_JWK.use };
    published.push({ thumbprint: jwkThumbprint({ ...jwk }), jwk });
  }
  return { ok: true, keys: published };
}

/** Parses a fetched body as JSON; the fetch rules ask for a JSON body, so failure means the document could not be read. */
export function parseJsonDocument(body: Uint8Array): { ok: true; value: unknown } | { ok: false; detail: string } {
  try {
    return { ok: true, value: JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) };
  } catch {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: without ok the body is refused as unreadable all the same; read as ok, an absent value is refused key_set_invalid (key set) or card_not_self_naming (card), which READING-KEY-SET-UNREADABLE allows
    return { ok: false, detail: DETAIL.notJson };
  }
}
