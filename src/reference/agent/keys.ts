import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { generateEd25519Jwk, jwkThumbprint, type Ed25519PrivateJwk } from '../../httpsig/index.js';
import { SDK_JWT_ALGORITHMS } from '../../spec/sdk-auth.js';
import { ED25519_JWK } from '../../spec/wire.js';

/** 5.5: an SDK agent's keys, the Ed25519 identity and the RSA key, private members included. */
export interface AgentKeys {
  readonly ed25519: Ed25519PrivateJwk & { readonly kid: string };
  readonly rsa: JWK & { readonly kid: string };
}

/** Where an agent keeps its keys (a port: a file adapter for serve, a memory one for tests). */
export interface AgentKeyStore {
  load(): Promise<AgentKeys | null>;
  save(keys: AgentKeys): Promise<void>;
}

export const KEY_FILES = Object.freeze({ ed25519: 'ed25519.jwk.json', rsa: 'rsa.jwk.json' });
/** 5.5: restrictive permissions: the files 0600, the directory 0700. */
export const KEY_FILE_MODE = 0o600;
export const KEYS_DIR_MODE = 0o700;

export function createMemoryKeyStore(initial: AgentKeys | null = null): AgentKeyStore {
  let keys = initial;
  return {
    load: async () => keys,
    save: async (next) => {
      keys = next;
    },
  };
}

async function readJwk(path: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${path} is not JSON; remove it to have a new key generated`);
  }
}

/**
 * The keys directory of 2.1 (keys_dir): one JWK file per key, written with mode 0600 in a directory of mode 0700.
 * A key file readable by others is refused rather than used.
 */
export function createFileKeyStore(dir: string): AgentKeyStore {
  const paths = { ed25519: join(dir, KEY_FILES.ed25519), rsa: join(dir, KEY_FILES.rsa) };
  return {
    async load() {
      const [ed25519, rsa] = await Promise.all([readJwk(paths.ed25519), readJwk(paths.rsa)]);
      if (!ed25519 || !rsa) return null;
      for (const path of Object.values(paths)) {
        const mode = (await stat(path)).mode & 0o777;
        if ((mode & 0o077) !== 0) throw new Error(`${path} has mode ${mode.toString(8)}; a private key file must be readable by its owner only (chmod 600)`);
      }
      return { ed25519: ed25519 as unknown as AgentKeys['ed25519'], rsa: rsa as AgentKeys['rsa'] };
    },
    async save(keys) {
      await mkdir(dir, { recursive: true, mode: KEYS_DIR_MODE });
      for (const [path, jwk] of [
        [paths.ed25519, keys.ed25519],
        [paths.rsa, keys.rsa],
      ] as const) {
        await writeFile(path, `${JSON.stringify(jwk, null, 2)}\n`, { mode: KEY_FILE_MODE, flag: 'wx' });
        await chmod(path, KEY_FILE_MODE); // the umask only narrows the mode given above; be exact
      }
    },
  };
}

/** Fresh keys: an Ed25519 identity and an RSA key (RS256), each with its RFC 7638 thumbprint as kid. */
export async function generateAgentKeys(): Promise<AgentKeys> {
  const { privateJwk } = generateEd25519Jwk();
  const { privateKey } = await generateKeyPair(SDK_JWT_ALGORITHMS.rsa, { extractable: true, modulusLength: 2048 });
  const rsa = await exportJWK(privateKey);
  const rsaKid = jwkThumbprint(rsa as { kty: string });
  return { ed25519: { ...privateJwk, kid: jwkThumbprint(privateJwk) }, rsa: { ...rsa, kid: rsaKid } };
}

/** The keys in the store, generated and saved on first use. */
export async function loadOrCreateAgentKeys(store: AgentKeyStore): Promise<AgentKeys> {
  const existing = await store.load();
  if (existing) return existing;
  const keys = await generateAgentKeys();
  await store.save(keys);
  return keys;
}

/** The public Ed25519 JWK as a key set publishes it (2.4: kty OKP, crv Ed25519, use sig; kid the thumbprint). */
export function publicEd25519(keys: AgentKeys): { kty: string; crv: string; x: string; use: string; kid: string } {
  return { kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: keys.ed25519.x, use: ED25519_JWK.use, kid: keys.ed25519.kid };
}

/** The public RSA JWK (n, e) for SDK peers that verify RS256. */
export function publicRsa(keys: AgentKeys): JWK {
  return { kty: keys.rsa.kty, n: keys.rsa.n, e: keys.rsa.e, use: ED25519_JWK.use, alg: SDK_JWT_ALGORITHMS.rsa, kid: keys.rsa.kid };
}
