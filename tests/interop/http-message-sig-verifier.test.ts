import { appendSignature, component, createSignature, webcrypto as peerWebcrypto, type RequestDescriptor, type SignatureComponent } from 'http-message-sig';
import type { webcrypto } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/memory-fetcher.js';
import { contentDigestHeader } from '../../src/httpsig/index.js';
import { keyFromName, agentAt, agentDocuments } from '../../src/scenarios/identities.js';
import { HEADERS } from '../../src/spec/headers.js';
import { COMPONENTS, ED25519_ALG, WEB_BOT_AUTH_TAG } from '../../src/spec/wire.js';
import { createMemoryPorts, verifyRequest } from '../../src/verifier/index.js';

/** Requests signed by Cloudflare's http-message-sig@0.3.0 pass our whole verifier: documents, registration and all. */
const NOW = 1_800_000_000;
const AUTHORITY = 'platform.example';
const agent = agentAt('https://agents.example/a/carol');
const keys = [keyFromName('carol-1'), keyFromName('carol-2')] as const;
const member = (label: string) => `${label}="${agent.keySetUrl}";type=jwks_uri`;

const importKey = (jwk: webcrypto.JsonWebKey, usage: 'sign') => globalThis.crypto.subtle.importKey('jwk', jwk, { name: 'Ed25519' }, false, [usage]);

function components(label: string, hasBody: boolean): SignatureComponent[] {
  return [
    COMPONENTS.method,
    COMPONENTS.authority,
    COMPONENTS.path,
    COMPONENTS.query,
    ...(hasBody ? [HEADERS.contentDigest] : []),
    component(HEADERS.signatureAgent, { key: label }),
  ];
}

async function signedByTheirs(method: string, url: string, body: Uint8Array | null, labels: readonly string[]) {
  const fields: Array<[string, string]> = [
    ...(body ? [[HEADERS.contentDigest, contentDigestHeader(body)] as [string, string]] : []),
    [HEADERS.signatureAgent, labels.map(member).join(', ')],
  ];
  const descriptor: RequestDescriptor = { kind: 'request', method, targetUri: url, fields: fields.map(([name, value]) => ({ name, value })) };
  let headers = new Headers(fields);
  for (const [i, label] of labels.entries()) {
    const key = keys[i]!;
    const signature = await createSignature(descriptor, {
      label,
      components: components(label, body !== null),
      parameters: { created: NOW, expires: NOW + 60, keyid: key.thumbprint, alg: ED25519_ALG, nonce: `nonce-${label}-${method}`, tag: WEB_BOT_AUTH_TAG },
      signer: peerWebcrypto.signer(await importKey(key.privateJwk, 'sign')),
    });
    headers = appendSignature(headers, signature);
  }
  return { method, url, headers: [...headers.entries()] as Array<[string, string]>, body, clientAddress: '192.0.2.1' };
}

describe('http-message-sig@0.3.0 signs, our verifier accepts', () => {
  test.each([
    ['a GET with a query, one label', 'GET', `https://${AUTHORITY}/api/llm/chat/completions?stream=true`, null, ['sig1']],
    ['a POST with a body, one label', 'POST', `https://${AUTHORITY}/api/mpp/credits`, new TextEncoder().encode('{"amount":"500"}'), ['sig1']],
    ['a POST with a body, two labels (key rotation)', 'POST', `https://${AUTHORITY}/api/auth/cli/token`, new TextEncoder().encode('{}'), ['sig1', 'sig2']],
  ] as const)('%s', async (_name, method, url, body, labels) => {
    const ports = createMemoryPorts({ now: () => NOW }, createMemoryFetcher(agentDocuments(agent, keys)));
    const request = await signedByTheirs(method, url, body, labels);
    const verdict = await verifyRequest(request, ports, { authority: AUTHORITY });
    expect(verdict).toMatchObject({ ok: true, kind: 'signature', agentUrl: agent.agentUrl, labels: [...labels], registered: true });

    const tampered = { ...request, url: url.replace('/api/', '/api/v2/') };
    const refused = await verifyRequest({ ...tampered, headers: request.headers }, ports, { authority: AUTHORITY });
    expect(refused).toMatchObject({ ok: false, code: 'signature_invalid' });
  });
});
