/**
 * Cloudflare's web-bot-auth (npm web-bot-auth 0.1.3, over http-message-sig 0.2) as a client-mode signer: the request
 * signed with signatureHeaders and sent once, no buying. `WBA_PROFILE=1` passes the profile's components (5.2)
 * instead of the library's defaults and adds Content-Digest; without it, the library is used as its README shows, with
 * the Signature-Agent header the architecture draft adds.
 *
 *   agent-platform-conformance run --client-command 'node --import tsx tests/client/wrappers/web-bot-auth.ts' --allow-insecure-fixtures
 */
import { createHash } from 'node:crypto';
import { signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { runIfMain, type Wrapper } from './common.js';

export function webBotAuthClient(profile: boolean): Wrapper {
  return async (env, identity, { fetch, clock }) => {
    const key = identity.keys[0]!;
    const signer = await signerFromJWK({ kty: key.kty, crv: key.crv, x: key.x, d: key.d });
    const hasBody = env.requestBody.length > 0;
    const headers: Record<string, string> = { 'signature-agent': `sig1="${identity.agentUrl}/.well-known/jwks.json";type=jwks_uri` };
    if (hasBody) headers['content-type'] = env.requestContentType ?? 'application/json';
    if (hasBody && profile) headers['content-digest'] = `sha-256=:${createHash('sha256').update(env.requestBody).digest('base64')}:`;
    const now = clock.nowMs();
    const signed = await signatureHeaders({ method: env.requestMethod, url: env.requestUrl, headers }, signer, {
      created: new Date(now),
      expires: new Date(now + 60_000),
      ...(profile
        ? {
            components: [
              '@method',
              '@authority',
              '@path',
              '@query',
              ...(hasBody ? ['content-digest'] : []),
              { name: 'signature-agent', parameters: new Map([['key', 'sig1']]) },
            ],
          }
        : {}),
    });
    const response = await fetch(env.requestUrl, {
      method: env.requestMethod,
      headers: { ...headers, signature: signed.Signature, 'signature-input': signed['Signature-Input'] },
      ...(hasBody ? { body: env.requestBody } : {}),
    });
    process.stdout.write(`${env.caseId}: ${response.status}\n`);
  };
}

await runIfMain(import.meta.url, webBotAuthClient(process.env.WBA_PROFILE === '1'));
