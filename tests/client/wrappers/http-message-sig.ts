/**
 * Cloudflare's http-message-sig 0.3 as a client-mode signer: createSignature over the profile's components (5.2), the
 * keyid an RFC 7638 thumbprint computed by jose, Content-Digest by node:crypto; the request sent once, no buying.
 *
 *   agent-platform-conformance run --client-command 'node --import tsx tests/client/wrappers/http-message-sig.ts' --allow-insecure-fixtures
 */
import { createHash, randomBytes } from 'node:crypto';
import { component, createSignature, webcrypto, type RequestDescriptor } from 'http-message-sig';
import { calculateJwkThumbprint } from 'jose';
import { runIfMain, type Wrapper } from './common.js';

export const httpMessageSigClient: Wrapper = async (env, identity, { fetch, clock }) => {
  const key = identity.keys[0]!;
  const hasBody = env.requestBody.length > 0;
  const fields: Array<[string, string]> = [['signature-agent', `sig1="${identity.agentUrl}/.well-known/jwks.json";type=jwks_uri`]];
  if (hasBody) {
    fields.push(['content-type', env.requestContentType ?? 'application/json']);
    fields.push(['content-digest', `sha-256=:${createHash('sha256').update(env.requestBody).digest('base64')}:`]);
  }
  const descriptor: RequestDescriptor = {
    kind: 'request',
    method: env.requestMethod,
    targetUri: env.requestUrl,
    fields: fields.map(([name, value]) => ({ name, value })),
  };
  const privateKey = await globalThis.crypto.subtle.importKey('jwk', { kty: key.kty, crv: key.crv, x: key.x, d: key.d }, { name: 'Ed25519' }, false, ['sign']);
  const created = Math.floor(clock.nowMs() / 1000);
  const signed = await createSignature(descriptor, {
    label: 'sig1',
    components: ['@method', '@authority', '@path', '@query', ...(hasBody ? ['content-digest'] : []), component('signature-agent', { key: 'sig1' })],
    parameters: {
      created,
      expires: created + 60,
      keyid: await calculateJwkThumbprint({ kty: key.kty, crv: key.crv, x: key.x }),
      alg: 'ed25519',
      nonce: randomBytes(32).toString('base64url'),
      tag: 'web-bot-auth',
    },
    signer: webcrypto.signer(privateKey),
  });
  const response = await fetch(env.requestUrl, {
    method: env.requestMethod,
    headers: [...fields, ['signature-input', signed.signatureInput], ['signature', signed.signature]],
    ...(hasBody ? { body: env.requestBody } : {}),
  });
  process.stdout.write(`${env.caseId}: ${response.status}\n`);
};

await runIfMain(import.meta.url, httpMessageSigClient);
