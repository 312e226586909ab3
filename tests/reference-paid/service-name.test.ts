import { describe, expect, it } from 'vitest';
import { InProcessTarget } from '../../src/harness/targets/in-process.js';
import type { TargetResponse } from '../../src/harness/target.js';
import { paymentChallenges } from '../../src/purchase/index.js';
import { REFERENCE_TERMS_VERSION } from '../../src/reference/purchases.js';
import { Kit } from '../../src/scenarios/kit.js';
import { defaultCovered } from '../../src/scenarios/request-builder.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PAYMENT_METHODS } from '../../src/spec/payments.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';

/** The embedded reference named Acme (`serve --service-name Acme`), and a buyer whose requests the run names the same way. */
async function acme() {
  const target = new InProcessTarget({ serviceName: 'Acme' });
  const env = target.environment;
  const kit = new Kit(
    {
      now: env.now(),
      authority: env.authority,
      platformOrigin: env.platformOrigin,
      agentOrigin: env.agentOrigin('acme'),
      nonce: env.nonce,
      naming: env.naming,
    },
    'service-name',
  );
  await target.prepare({
    id: 'service-name',
    description: 'service name',
    now: env.now(),
    platform: { authority: env.authority },
    documents: kit.docs(),
    steps: [],
  });
  const url = kit.url(PLATFORM_ROUTES.mppCredits);
  /** A signed POST covering `headers` (given with the catalogue's names). */
  const signed = (headers: Array<[string, string]>, tamper = false) =>
    kit.request({
      url,
      body: new Uint8Array(0),
      headers,
      labels: [
        {
          label: 'sig1',
          key: kit.A,
          covered: [...defaultCovered('sig1', false), ...headers.map(([name]) => `"${name}"`)],
          ...(tamper ? { tamper: (s: Uint8Array) => s.map((x, i) => (i === 0 ? x ^ 1 : x)) } : {}),
        },
      ],
    });
  const send = (request: { method: string; url: string; headers: ReadonlyArray<readonly [string, string]> }): Promise<TargetResponse> =>
    target.send({ ...request, body: null });
  return { target, kit, url, signed, send };
}

const json = (r: TargetResponse) => JSON.parse(Buffer.from(r.body).toString('utf8')) as Record<string, unknown>;

describe('the reference named Acme (serve --service-name Acme)', () => {
  it("answers a 402 with Acme's terms header, and names Acme-Terms-Accepted in the body", async () => {
    const { send, url } = await acme();
    const answer = await send({ method: 'POST', url, headers: [] });
    expect(answer.status).toBe(402);
    expect(answer.headers['acme-terms-version']).toBe(REFERENCE_TERMS_VERSION);
    expect(answer.headers[HEADERS.termsVersion]).toBeUndefined();
    expect((json(answer).terms as Record<string, unknown>).header).toBe('Acme-Terms-Accepted');
  });

  it('signs the names it sends: the covered component is the deployed name', async () => {
    const { signed } = await acme();
    const request = signed([[HEADERS.paymentMethods, PAYMENT_METHODS.tempo]]);
    const names = request.headers.map(([name]) => name);
    expect(names).toContain('acme-payment-methods');
    expect(names).not.toContain(HEADERS.paymentMethods);
    expect(request.headers.find(([name]) => name === HEADERS.signatureInput)?.[1]).toContain('"acme-payment-methods"');
  });

  it('reads Acme-Payment-Methods (covered) and ignores Service-Payment-Methods', async () => {
    const { send, signed, url } = await acme();
    const tempo = await send(signed([[HEADERS.paymentMethods, PAYMENT_METHODS.tempo]]));
    expect(tempo.status).toBe(402);
    const scan = paymentChallenges(tempo.headers[HEADERS.wwwAuthenticate] ?? '');
    expect(scan.challenges[0]?.ok && scan.challenges[0].challenge.method).toBe(PAYMENT_METHODS.tempo);
    // Unsigned, a header counts as sent: under the neutral name it is not Acme's, so it decides nothing.
    const neutral = await send({ method: 'POST', url, headers: [[HEADERS.paymentMethods, 'no-such-method']] });
    expect(neutral.status).toBe(402);
    const named = await send({ method: 'POST', url, headers: [['acme-payment-methods', 'no-such-method']] });
    expect(named.status).toBe(503);
  });

  it('refuses a signature that does not verify with realm="acme", on the paid surface and at the CLI token route', async () => {
    const { send, signed, kit } = await acme();
    const paid = await send(signed([], true));
    expect(paid.status).toBe(401);
    expect(paid.headers[HEADERS.wwwAuthenticate]).toMatch(/^Bearer realm="acme", error="invalid_token"/);
    const cli = await send({ ...signed([], true), url: kit.url(PLATFORM_ROUTES.cliToken) });
    expect(cli.status).toBe(401);
    expect(cli.headers[HEADERS.wwwAuthenticate]).toMatch(/^Bearer realm="acme"/);
  });
});
