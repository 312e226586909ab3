import type { AuthSkill } from './config.js';
import type { JsonWebKeySet, SdkAuthPorts } from './ports.js';
import { refusal, type SdkAuthRefusal } from './refusal.js';

export type KeySetRead = { readonly ok: true; readonly jwks: JsonWebKeySet; readonly fromCache: boolean } | SdkAuthRefusal;

/**
 * The key set at `url`: from the cache while it is younger than jwks_cache_ttl (2.1, default 3600 s), else read
 * through the fetcher port and cached. `fresh` skips the cache (a key the cached set lacks: the issuer may have
 * rotated). A failed read is not cached, so the next token tries again.
 */
export async function readKeySet(url: string, skill: AuthSkill, ports: SdkAuthPorts, fresh = false): Promise<KeySetRead> {
  const now = ports.clock.now();
  if (!fresh) {
    const cached = await ports.keySetCache.get(url);
    if (cached && now - cached.fetchedAt < skill.jwksCacheTtl && now >= cached.fetchedAt) return { ok: true, jwks: cached.jwks, fromCache: true };
  }
  let document: unknown;
  try {
    document = await ports.fetchKeySet(url);
  } catch (error) {
    return refusal('issuer_key_set_unreachable', `${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isJwkSet(document)) return refusal('issuer_key_set_invalid', `${url} did not answer a JSON object with a "keys" list of JWK objects`);
  await ports.keySetCache.set(url, { jwks: document, fetchedAt: now });
  return { ok: true, jwks: document, fromCache: false };
}

export function isJwkSet(value: unknown): value is JsonWebKeySet {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = (value as { keys?: unknown }).keys;
  return Array.isArray(keys) && keys.every((k) => typeof k === 'object' && k !== null && !Array.isArray(k) && typeof (k as { kty?: unknown }).kty === 'string');
}
