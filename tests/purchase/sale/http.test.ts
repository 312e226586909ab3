import { describe, expect, it } from 'vitest';
import { saleRoute, singlePaymentChallenge } from '../../../src/purchase/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../../src/spec/media-types.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { BUYER, paid } from '../machine/helpers.js';
import { ADDRESS, RESOURCE, SaleWorld } from './helpers.js';

const URL_OF = `https://platform.example${RESOURCE}`;

describe('saleRoute: a priced resource as a WHATWG handler', () => {
  it('an unidentified caller gets the 402 with one Payment challenge; its credential buys the call; the body is the resource bytes', async () => {
    const world = new SaleWorld();
    const route = saleRoute({ ports: world.ports, config: () => world.config });
    const first = await route({ request: new Request(URL_OF, { method: 'POST', body: '{"q":1}' }), caller: { kind: 'unidentified' }, clientAddress: ADDRESS });
    expect(first.status).toBe(402);
    expect(first.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.problemJson);
    const parsed = singlePaymentChallenge(first.headers.get(HEADERS.wwwAuthenticate)!);
    if (!parsed.ok) throw new Error(parsed.detail);

    const paidRequest = new Request(URL_OF, { method: 'POST', body: '{"q":1}', headers: paid(parsed.challenge) });
    const second = await route({ request: paidRequest, caller: { kind: 'unidentified' }, clientAddress: ADDRESS });
    expect(second.status).toBe(200);
    expect(second.headers.get(HEADERS.paymentReceipt)).not.toBeNull();
    expect(await second.json()).toEqual({ served: 1 });
    expect(new TextDecoder().decode(world.server.ran[0]!.body!)).toBe('{"q":1}');
  });

  it('a refused signed request is answered exactly as the verifier says (a 401 on a paid surface)', async () => {
    const world = new SaleWorld();
    const route = saleRoute({ ports: world.ports, config: world.config });
    const body = { error: 'Unauthorized', error_code: 'signature_expired', error_description: 'expired' };
    const response = await route({
      request: new Request(URL_OF, { method: 'POST' }),
      caller: { kind: 'refused', status: 401, headers: { [HEADERS.wwwAuthenticate]: 'Bearer realm="service"' }, body },
      clientAddress: ADDRESS,
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(body);
    expect(world.server.ran).toEqual([]);
  });

  it('a signed agent: covered Service-Purchase is read; 503 rows render as JSON with their retry object', async () => {
    const world = new SaleWorld();
    world.config = { ...world.config, sale: { ...world.config.sale, anonymous: false } };
    const route = saleRoute({ ports: world.ports, config: () => world.config });
    const agent = { kind: 'agent' as const, agentUrl: BUYER, signed: true, coveredHeaders: [HEADERS.purchase] };
    const exact = await route({
      request: new Request(URL_OF, { method: 'POST', headers: { [HEADERS.purchase]: 'exact' } }),
      caller: agent,
      clientAddress: ADDRESS,
    });
    expect(exact.status).toBe(402);
    const anonymous = await route({ request: new Request(URL_OF, { method: 'POST' }), caller: { kind: 'unidentified' }, clientAddress: ADDRESS });
    expect(anonymous.status).toBe(503);
    expect(await anonymous.json()).toMatchObject({ error_code: PURCHASE_ERRORS.metered_not_ready.code, retry: { sameCredential: false } });
  });
});
