import { isSignedRequest } from '../verifier/verify-request.js';
import { jwkThumbprint, type Ed25519PublicJwkShape } from '../httpsig/index.js';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { ED25519_JWK, WELL_KNOWN } from '../spec/wire.js';
import { render } from './render.js';
import type { PublicRoute } from './routes.js';

/** A public JWK as an agent publishes it; members other than kty, crv and x are ignored here. */
export type HostedAgentKey = Ed25519PublicJwkShape | { readonly kty: string; readonly crv?: unknown; readonly x?: unknown; readonly [member: string]: unknown };

export interface KeyDirectoryEntry {
  readonly kty: string;
  readonly crv: string;
  readonly x: string;
  readonly use: string;
  readonly kid: string;
}

/** Where the hosted agents' keys come from: a fixed list, or a function read on every request. */
export type HostedAgentKeys = readonly HostedAgentKey[] | (() => readonly HostedAgentKey[]);

/**
 * 2.4: the Ed25519 keys of every hosted agent, one entry per RFC 7638 thumbprint (kid = thumbprint),
 * public members only. Keys of other types (an SDK agent's RSA key) are not listed.
 */
export function keyDirectoryDocument(keys: readonly HostedAgentKey[]): { keys: KeyDirectoryEntry[] } {
  const entries = new Map<string, KeyDirectoryEntry>();
  for (const key of keys) {
    if (key.kty !== ED25519_JWK.kty || key.crv !== ED25519_JWK.crv || typeof key.x !== 'string') continue;
    const kid = jwkThumbprint({ kty: key.kty, crv: key.crv, x: key.x });
    if (!entries.has(kid)) entries.set(kid, { kty: key.kty, crv: key.crv, x: key.x, use: ED25519_JWK.use, kid });
  }
  return { keys: [...entries.values()] };
}

/**
 * GET (and HEAD) /.well-known/http-message-signatures-directory (2.4, 4.3). It must be readable by anyone who
 * verifies, so an unsigned request gets it; a request that is signed is verified like on every platform route,
 * and one that does not verify is refused as the verifier says. A platform hosting no agent answers an empty
 * directory.
 */
export function keyDirectoryRoute(keys: HostedAgentKeys): PublicRoute {
  return {
    name: WELL_KNOWN.keyDirectory,
    path: WELL_KNOWN.keyDirectory,
    access: 'public',
    methods: {
      GET: async (ctx) => {
        if (isSignedRequest((await ctx.read()).request)) {
          const verdict = await ctx.verify();
          if (!verdict.ok) return render({ status: verdict.status, headers: verdict.headers, body: verdict.body });
        }
        return render({
          status: 200,
          headers: { [HEADERS.contentType]: MEDIA_TYPES.keyDirectory },
          body: keyDirectoryDocument(typeof keys === 'function' ? keys() : keys),
        });
      },
    },
  };
}
