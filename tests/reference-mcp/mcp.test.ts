import { describe, expect, it } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { checkBalanceRequired, describeProblems } from '../../src/purchase/inband.js';
import { DELEGATE_TOOL } from '../../src/reference/mcp/delegate-server.js';
import { mcpRefusal } from '../../src/reference/mcp/mcp-route.js';
import { createReferencePlatform } from '../../src/reference/platform.js';
import { refuse } from '../../src/verifier/refusal.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { DELEGATE_STATUSES } from '../../src/spec/inband.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';

const NOW = 1_789_732_800;
const ORIGIN = 'https://platform.example';
const AGENT = 'https://buyer.agent.example/';

function platform() {
  return createReferencePlatform({ authority: 'platform.example', clock: { now: () => NOW }, fetcher: createMemoryFetcher({}), widgets: false });
}

async function callDelegate(p: ReturnType<typeof platform>, token: string): Promise<{ status: number; body: { result?: { structuredContent?: unknown } } }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: DELEGATE_TOOL.name, arguments: { [DELEGATE_TOOL.callArgument]: { q: 1 } } },
  });
  const response = await p.fetch(
    new Request(`${ORIGIN}${PLATFORM_ROUTES.mcp}`, {
      method: 'POST',
      headers: {
        [HEADERS.authorization]: `Bearer ${token}`,
        [HEADERS.contentType]: MEDIA_TYPES.json,
        [HEADERS.accept]: `${MEDIA_TYPES.json}, ${MEDIA_TYPES.eventStream}`,
      },
      body,
    }),
    { clientAddress: '127.0.0.1' },
  );
  return { status: response.status, body: (await response.json()) as { result?: { structuredContent?: unknown } } };
}

describe('the platform MCP endpoint (4.2, 4.7, 5.3)', () => {
  it('a caller whose balance does not cover the call gets status balance_required, and nothing is spent', async () => {
    const p = platform();
    const { status, body } = await callDelegate(p, (await p.tokens.mint(AGENT)).token);
    expect(status).toBe(200);
    const checked = checkBalanceRequired(body.result?.structuredContent);
    expect(describeProblems(checked)).toEqual([]);
  });

  it('a funded caller runs the call, paid from its balance', async () => {
    const p = platform();
    const purchases = p.purchases!;
    await purchases.store.grant({
      challengeId: 'c1',
      buyer: AGENT,
      packId: 'mpp_5',
      creditNano: '5000000000',
      chargeId: 'pi_1',
      method: 'stripe',
      termsVersion: purchases.config.terms.version,
      grantedAt: NOW,
    });
    const { body } = await callDelegate(p, (await p.tokens.mint(AGENT)).token);
    expect(body.result?.structuredContent).toMatchObject({ status: DELEGATE_STATUSES.completed });
  });

  it('a request without a credential is refused by the verifier before any MCP message is read', async () => {
    const response = await platform().fetch(new Request(`${ORIGIN}${PLATFORM_ROUTES.mcp}`, { method: 'POST', body: '{}' }), { clientAddress: '127.0.0.1' });
    expect(response.status).toBe(401);
  });

  it('every 401 to a request that carried Signature-Input carries Accept-Signature, whichever check refused it', () => {
    const refusal = refuse('signature_invalid', 'Signature did not verify', { hasBody: true });
    expect(refusal.headers[HEADERS.acceptSignature]).toBeUndefined();
    const signed = mcpRefusal(refusal, { headers: new Headers({ [HEADERS.signatureInput]: 'sig1=()' }), hasBody: true });
    expect(signed.status).toBe(401);
    expect(signed.headers.get(HEADERS.acceptSignature)).toContain('content-digest');
    const bearer = mcpRefusal(refusal, { headers: new Headers(), hasBody: true });
    expect(bearer.headers.get(HEADERS.acceptSignature)).toBeNull();
  });
});
