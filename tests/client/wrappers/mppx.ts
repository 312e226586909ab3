/**
 * The mppx client (npm mppx 0.11) as a client-mode buyer: Mppx.create with its stripe charge method, whose token is
 * APC_CARD_TOKEN, over a fetch that signs every request with this package's signRequest (5.2) and accepts the terms
 * version the last 402 named (7.4). mppx answers the 402 itself; every other answer is handed back, as its fetch does.
 *
 *   agent-platform-conformance run --client-command 'node --import tsx tests/client/wrappers/mppx.ts' --allow-insecure-fixtures
 */
import { randomBytes } from 'node:crypto';
import { Mppx, stripe } from 'mppx/client';
import { signRequest } from '../../../src/httpsig/index.js';
import { runIfMain, type Wrapper } from './common.js';

/** The purchase headers a signed request covers when it sends them (7.4). */
const COVERED = ['service-terms-accepted', 'service-payment-methods', 'service-purchase'];

export const mppxClient: Wrapper = async (env, identity, { fetch, clock }) => {
  let termsVersion: string | undefined;
  const signingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = new Uint8Array(await request.arrayBuffer());
    const headers: Array<[string, string]> = [...request.headers].filter(([name]) => !['content-length', 'content-digest'].includes(name));
    if (request.headers.has('payment-authorization') && termsVersion !== undefined) headers.push(['service-terms-accepted', termsVersion]);
    const created = Math.floor(clock.nowMs() / 1000);
    const signed = signRequest({
      method: request.method,
      url: request.url,
      headers,
      body,
      keys: identity.keys.map((privateJwk) => ({ privateJwk })),
      signatureAgent: `${identity.agentUrl}/.well-known/jwks.json`,
      created,
      expires: created + 60,
      nonces: identity.keys.map(() => randomBytes(32).toString('base64url')),
      coveredHeaders: headers.map(([name]) => name).filter((name) => COVERED.includes(name)),
    });
    const response = await fetch(request.url, {
      method: request.method,
      headers: [...headers, ...Object.entries(signed.headers)],
      ...(body.length ? { body } : {}),
    });
    termsVersion = response.headers.get('service-terms-version') ?? termsVersion;
    return response;
  };
  const mppx = Mppx.create({
    methods: [stripe.charge({ paymentMethod: 'pm_card_visa', createToken: async () => env.cardToken })],
    polyfill: false,
    fetch: signingFetch as typeof globalThis.fetch,
  });
  const response = await mppx.fetch(env.requestUrl, {
    method: env.requestMethod,
    ...(env.requestBody.length ? { body: env.requestBody, headers: { 'content-type': env.requestContentType ?? 'application/json' } } : {}),
  });
  process.stdout.write(`${env.caseId}: ${response.status}\n`);
};

await runIfMain(import.meta.url, mppxClient);
