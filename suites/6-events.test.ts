import { afterAll, describe, expect } from 'vitest';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { readPaidAnswer, purchaseAnswerProblems } from '../src/harness/judge-purchase.js';
import { readAgentUrl } from '../src/harness/target-config.js';
import type { Target, TargetRequest, TargetResponse } from '../src/harness/target.js';
import { createMemoryFetcher } from '../src/fetch/index.js';
import { checkBalanceRequired, checkPointerResponse, describeProblems } from '../src/purchase/inband/index.js';
import { agentRoute } from '../src/reference/agent/mount.js';
import { PAYMENT_SEEN_MEMBER, PROBES } from '../src/reference/agent/conformance-endpoints.js';
import { createMemoryKeyStore, generateAgentKeys } from '../src/reference/agent/keys.js';
import { createStandardAgent } from '../src/reference/agent/standard-agent.js';
import { DELEGATE_TOOL } from '../src/reference/mcp/index.js';
import { createReferencePlatform } from '../src/reference/platform.js';
import { AGENT_MOUNT_PREFIX } from '../src/spec/agent-endpoints.js';
import { DELEGATE_STATUSES, INBAND_REQUIREMENTS } from '../src/spec/inband.js';
import { HEADERS } from '../src/spec/headers.js';
import { MEDIA_TYPES } from '../src/spec/media-types.js';
import { PLATFORM_MCP_REQUIREMENTS } from '../src/spec/platform-mcp.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { Buyer } from './lib/buyer.js';
import { check, type CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 6 (with 4.7 and the in-band rows of 7.4) over HTTP: the LLM rail's purchase pointer, the MCP delegate's
 * balance_required and the MCP endpoint's 401s, and 502 upstream_payment_not_relayed where the platform relays to
 * an agent. The agent socket's frames are checked in tests/reference-paid (they need a WebSocket the targets do
 * not open yet).
 */
const target = suiteTarget();
afterAll(() => target.close());

const I = INBAND_REQUIREMENTS;
const E = PURCHASE_ERRORS;
const ids = (...records: ReadonlyArray<{ readonly id: string }>) => records.map((r) => r.id);
let serial = 0;
const NOT_FOUND = 404;
const MCP_ACCEPT = `${MEDIA_TYPES.json}, ${MEDIA_TYPES.eventStream}`;
const encoder = new TextEncoder();

async function buyer(c: CheckContext, name: string): Promise<Buyer> {
  return new Buyer(target, `events-${name}-${serial++}`, c.record).register();
}

/** Sends a signed POST with a JSON body (the buyer's key, default coverage); `tamper` breaks the signature. */
async function signedJson(c: CheckContext, b: Buyer, path: string, body: unknown, headers: Record<string, string> = {}, tamper = false): Promise<TargetResponse> {
  const bytes = encoder.encode(JSON.stringify(body));
  const signed = b.kit.request({
    url: b.kit.url(path),
    body: bytes,
    headers: [[HEADERS.contentType, MEDIA_TYPES.json], ...Object.entries(headers)],
    labels: [{ label: 'sig1', key: b.kit.A, ...(tamper ? { tamper: (s: Uint8Array) => s.map((x, i) => (i === 0 ? x ^ 1 : x)) } : {}) }],
  });
  const request: TargetRequest = { method: signed.method, url: signed.url, headers: signed.headers, body: bytes };
  if (tamper) await target.ready?.(1);
  const response = await target.send(request);
  c.record({ request: recordRequest(request), response: recordResponse(response) });
  return response;
}

function jsonBody(response: TargetResponse): unknown {
  try {
    return JSON.parse(Buffer.from(response.body).toString('utf8'));
  } catch {
    return expect.fail(`the body is not JSON: ${Buffer.from(response.body).toString('utf8').slice(0, 200)}`);
  }
}

function mcpCall(id: number, call: unknown): unknown {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: DELEGATE_TOOL.name, arguments: { [DELEGATE_TOOL.callArgument]: call } } };
}

describe(`6 events and in-band answers (${target.description})`, () => {
  check('the LLM rail answers a caller without balance with the pointer: token at index 0, an mpp entry holding only purchase_url, no Payment challenge', ids(I.pointer), 'MUST', async (c) => {
    const b = await buyer(c, 'pointer');
    const response = await signedJson(c, b, PLATFORM_ROUTES.llmChatCompletions, { model: 'any', messages: [{ role: 'user', content: 'hello' }] });
    if (response.status === NOT_FOUND) c.notRun(`the target serves no ${PLATFORM_ROUTES.llmChatCompletions}`);
    const checked = checkPointerResponse({ status: response.status, headers: response.headers, body: jsonBody(response) }, { sellsUsage: true });
    if (!checked.ok) expect.fail(describeProblems(checked).join('\n'));
  });

  check("the MCP delegate: a caller whose balance does not cover the call gets status balance_required", ids(I.balanceRequired), 'MUST', async (c) => {
    const b = await buyer(c, 'delegate');
    const response = await signedJson(c, b, PLATFORM_ROUTES.mcp, mcpCall(1, { ask: 'anything' }), { [HEADERS.accept]: MCP_ACCEPT });
    if (response.status === NOT_FOUND) c.notRun(`the target serves no MCP endpoint at ${PLATFORM_ROUTES.mcp}`);
    expect(response.status, 'a JSON-RPC answer').toBe(200);
    const message = jsonBody(response) as { result?: { structuredContent?: unknown; content?: Array<{ text?: string }> } };
    if (message.result === undefined) return expect.fail(`no tools/call result: ${JSON.stringify(message)}`);
    if (target.kind === 'in-process') {
      const checked = checkBalanceRequired(message.result.structuredContent);
      if (!checked.ok) expect.fail(describeProblems(checked).join('\n'));
    } else {
      // A live deployment names its own delegate tool; it must still answer balance_required somewhere in the result.
      const text = JSON.stringify(message.result);
      expect(text, `status ${DELEGATE_STATUSES.balanceRequired}`).toContain(DELEGATE_STATUSES.balanceRequired);
    }
    if (target.purchases) expect(target.purchases.store.balance(b.agentUrl), 'nothing spent').toBe('0');
  });

  check('the MCP endpoint adds Accept-Signature to a 401 answering a request that carried Signature-Input', ids(PLATFORM_MCP_REQUIREMENTS.acceptSignatureOn401), 'MUST', async (c) => {
    const b = await buyer(c, 'mcp-401');
    const response = await signedJson(c, b, PLATFORM_ROUTES.mcp, mcpCall(2, {}), { [HEADERS.accept]: MCP_ACCEPT }, true);
    if (response.status === NOT_FOUND) c.notRun(`the target serves no MCP endpoint at ${PLATFORM_ROUTES.mcp}`);
    expect(response.status, 'a signature that does not verify').toBe(401);
    expect(response.headers[HEADERS.acceptSignature], 'Accept-Signature').toBeDefined();
  });
});

/**
 * Where the platform relays to an agent: in-process, a reference platform serving the reference agent (with its
 * payment probes) at /agents/<name>; live, the agent `run --agent-url` names when it is on the target's origin.
 */
interface Relay {
  send(path: string, headers?: ReadonlyArray<readonly [string, string]>): Promise<TargetResponse>;
}

async function relay(c: CheckContext, t: Target): Promise<Relay> {
  if (t.kind === 'in-process') {
    const name = 'relayed';
    const origin = t.environment.platformOrigin;
    const agent = await createStandardAgent({
      agentUrl: `${origin}${AGENT_MOUNT_PREFIX}${name}`,
      name,
      keyStore: createMemoryKeyStore(await generateAgentKeys()),
      authSkill: {},
      fetchKeySet: async () => ({ keys: [] }),
      clock: { now: () => t.environment.now() },
      random: { bytes: (n) => new Uint8Array(n).map((_, i) => i) },
    });
    const platform = createReferencePlatform({ authority: t.environment.authority, clock: { now: () => t.environment.now() }, fetcher: createMemoryFetcher({}), routes: [agentRoute(agent)] });
    return {
      async send(path, headers = []) {
        const request = new Request(`${origin}${AGENT_MOUNT_PREFIX}${name}${path}`, { headers: headers.map(([n, v]) => [n, v] as [string, string]) });
        const response = await platform.fetch(request, { clientAddress: '127.0.0.1' });
        const answer = { status: response.status, headers: Object.fromEntries(response.headers), body: new Uint8Array(await response.arrayBuffer()) };
        c.record({ request: recordRequest({ method: 'GET', url: request.url, headers, body: null }), response: recordResponse(answer) });
        return answer;
      },
    };
  }
  const agentUrl = readAgentUrl();
  if (agentUrl === undefined || new URL(agentUrl).origin !== new URL(t.environment.platformOrigin).origin) {
    c.notRun('needs an agent the platform relays to: run with --agent-url naming an agent on the target platform that declares the payment probes (src/reference/agent/conformance-endpoints.ts)');
  }
  return {
    async send(path, headers = []) {
      const request: TargetRequest = { method: 'GET', url: `${agentUrl!.replace(/\/+$/, '')}${path}`, headers, body: null };
      const response = await t.send(request);
      c.record({ request: recordRequest(request), response: recordResponse(response) });
      if (response.status === NOT_FOUND) c.notRun(`the agent does not declare ${path}`);
      return response;
    },
  };
}

describe(`7.4 502 upstream_payment_not_relayed where the platform relays to an agent (${target.description})`, () => {
  check("an agent answering with its own Payment challenge: the platform answers 502 upstream_payment_not_relayed, no challenge", ids(E.upstream_payment_not_relayed), 'MUST', async (c) => {
    const r = await relay(c, target);
    const response = await r.send(PROBES.paymentChallenge.path);
    const problems = purchaseAnswerProblems(response, E.upstream_payment_not_relayed, target.environment.now());
    if (problems.length) expect.fail(problems.join('\n'));
  });

  check('an agent answering with a Payment-Receipt of its own: 502 upstream_payment_not_relayed, no receipt relayed', ids(E.upstream_payment_not_relayed), 'MUST', async (c) => {
    const r = await relay(c, target);
    const response = await r.send(PROBES.paymentReceipt.path);
    const problems = purchaseAnswerProblems(response, E.upstream_payment_not_relayed, target.environment.now());
    if (problems.length) expect.fail(problems.join('\n'));
    expect(response.headers[HEADERS.paymentReceipt], 'no Payment-Receipt relayed').toBeUndefined();
  });

  check("a buyer's Payment-Authorization never reaches the agent", ids(E.upstream_payment_not_relayed), 'MUST', async (c) => {
    const r = await relay(c, target);
    const response = await r.send(PROBES.paymentSeen.path, [[HEADERS.paymentAuthorization, 'Payment e30']]);
    expect(response.status, 'the probe answers').toBe(200);
    expect(readPaidAnswer(response).body?.[PAYMENT_SEEN_MEMBER], 'the agent saw a Payment-Authorization').toBe(false);
  });
});
