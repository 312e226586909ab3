import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPointerResponse, describeProblems, purchasePointerBody } from '../../src/purchase/inband.js';
import { termsHeaders } from '../../src/purchase/index.js';
import { CHAT, LLM_POINTER_REASON, llmChatCompletionsRoute } from '../../src/reference/paid/index.js';
import { PLATFORM_ERROR_CODES } from '../../src/reference/routes.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { PAYMENT_CACHE_CONTROL } from '../../src/spec/payments.js';
import { AUTH_SCHEMES, PLATFORM_ROUTES } from '../../src/spec/wire.js';
import { PACK_NANO, PaidPlatform } from './helpers.js';

/** POST /api/llm/chat/completions (4.2, 6, 7.4): the pointer for a caller the balance does not cover; the terms headers on a funded answer. */
const PRICE_NANO = 142_857_000n;
let platform: PaidPlatform;
const url = () => `${platform.served.url}${PLATFORM_ROUTES.llmChatCompletions}`;
const chat = (text: string) =>
  new TextEncoder().encode(
    JSON.stringify({
      model: 'm1',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: text },
      ],
    }),
  );

async function signedPost(name: string, body: Uint8Array): Promise<Response> {
  const headers = platform.sign(name, 'POST', url(), { [HEADERS.contentType]: MEDIA_TYPES.json }, body);
  return fetch(url(), { method: 'POST', headers, body });
}

beforeAll(async () => {
  platform = await PaidPlatform.start();
  platform.served.platform.routes.add(
    llmChatCompletionsRoute({ balances: platform.ledger, priceNano: PRICE_NANO, purchaseUrl: platform.purchaseUrl, terms: () => platform.terms }),
  );
});
afterAll(async () => {
  await platform?.close();
});

describe('the LLM rail pointer (6)', () => {
  it('refuses an unsigned call as the verifier does (401)', async () => {
    const response = await fetch(url(), { method: 'POST', body: chat('hi') });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error_code: string }).error_code).toBe(AUTH_CODES.missing_credential);
  });

  it('answers a caller whose balance does not cover the call with 402 and the pointer, with no WWW-Authenticate: Payment', async () => {
    const response = await signedPost('ivy', chat('hi'));
    const body = await response.json();
    expect(response.status).toBe(402);
    expect(response.headers.get(HEADERS.wwwAuthenticate)).toBeNull();
    expect(response.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.json);
    expect(response.headers.get(HEADERS.cacheControl)).toBe(PAYMENT_CACHE_CONTROL);
    expect(body).toEqual(purchasePointerBody({ priceNano: PRICE_NANO, purchaseUrl: platform.purchaseUrl, reason: LLM_POINTER_REASON }));
    expect(describeProblems(checkPointerResponse({ status: response.status, headers: response.headers, body }))).toEqual([]);
    expect(await platform.ledger.balanceOf(platform.agentUrl('ivy'))).toBe(0n);
  });

  it('answers a funded caller with the completion and the terms headers, and spends the price once', async () => {
    expect((await platform.buyPack('jack', 'spt_jack')).status).toBe(200);
    const response = await signedPost('jack', chat('hello there'));
    expect(response.status).toBe(200);
    const expected = termsHeaders(platform.terms.url, platform.terms.version);
    expect(response.headers.get(HEADERS.link)).toBe(expected[HEADERS.link]);
    expect(response.headers.get(HEADERS.termsVersion)).toBe(expected[HEADERS.termsVersion]);
    const body = (await response.json()) as { object: string; model: string; choices: { message: unknown }[] };
    expect(body.object).toBe(CHAT.object);
    expect(body.model).toBe('m1');
    expect(body.choices[0]?.message).toEqual({ role: CHAT.assistant, content: `${CHAT.echoPrefix}hello there` });
    expect(await platform.ledger.balanceOf(platform.agentUrl('jack'))).toBe(PACK_NANO - PRICE_NANO);
  });

  it('funds a caller on a platform bearer from its subject, and gives a bearer naming no one the pointer', async () => {
    expect((await platform.buyPack('kate', 'spt_kate')).status).toBe(200);
    const minted = await platform.served.platform.tokens.mint(platform.agentUrl('kate'));
    const funded = await fetch(url(), { method: 'POST', headers: { [HEADERS.authorization]: `${AUTH_SCHEMES.bearer} ${minted.token}` }, body: chat('x') });
    expect(funded.status).toBe(200);
    expect(funded.headers.get(HEADERS.termsVersion)).toBe(platform.terms.version);

    const nobody = await platform.served.platform.tokens.mint(null);
    const pointer = await fetch(url(), { method: 'POST', headers: { [HEADERS.authorization]: `${AUTH_SCHEMES.bearer} ${nobody.token}` }, body: chat('x') });
    expect(pointer.status).toBe(402);
    expect(checkPointerResponse({ status: pointer.status, headers: pointer.headers, body: await pointer.json() })).toEqual({ ok: true });
  });

  it('prices a completion for each payer when the price is a function, and points a caller it no longer covers to the purchase', async () => {
    const priced = `${platform.served.url}/priced-per-payer`;
    const mia = platform.agentUrl('mia');
    platform.served.platform.routes.add({
      ...llmChatCompletionsRoute({
        balances: platform.ledger,
        priceNano: (payer) => (payer === mia ? (2n * PACK_NANO) / 5n : PRICE_NANO),
        purchaseUrl: platform.purchaseUrl,
        terms: () => platform.terms,
      }),
      name: 'priced per payer',
      path: '/priced-per-payer',
    });
    expect((await platform.buyPack('mia', 'spt_mia')).status).toBe(200);
    const post = () => {
      const body = chat('x');
      return fetch(priced, { method: 'POST', headers: platform.sign('mia', 'POST', priced, { [HEADERS.contentType]: MEDIA_TYPES.json }, body), body });
    };
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    const ranOut = await post();
    const body = await ranOut.json();
    expect(ranOut.status).toBe(402);
    expect(body).toEqual(purchasePointerBody({ priceNano: (2n * PACK_NANO) / 5n, purchaseUrl: platform.purchaseUrl, reason: LLM_POINTER_REASON }));
    expect(await platform.ledger.balanceOf(mia)).toBe(PACK_NANO - (4n * PACK_NANO) / 5n);
  });

  it('answers a body that is not a chat request 400 and spends nothing', async () => {
    expect((await platform.buyPack('liam', 'spt_liam')).status).toBe(200);
    const response = await signedPost('liam', new TextEncoder().encode('{"messages":[]}'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(PLATFORM_ERROR_CODES.badRequest);
    expect(await platform.ledger.balanceOf(platform.agentUrl('liam'))).toBe(PACK_NANO);
  });
});
