import { afterAll, beforeAll, describe, expect } from 'vitest';
import { agentSuiteNotRunReason, agentSuiteTarget } from './lib/target.js';
import { AGENT_TRANSPORT_ROUTES, HEADERS, MEDIA_TYPES, REQUIREMENTS } from '../src/spec/index.js';
import { A2A } from '../src/spec/agent-endpoints.js';
import { expectSseFraming, expectSseHeaders } from './lib/sse.js';
import { exchange, jsonOf, text, WARM_UP_MS, warmUp } from './lib/agent.js';
import { check, notRunAll } from './lib/check.js';

/** Section 4.2: the transport endpoints a check can observe (their bodies follow open protocols). */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
beforeAll(() => warmUp(target), WARM_UP_MS);
afterAll(() => target.close());
const R = REQUIREMENTS;
const json = [HEADERS.contentType, MEDIA_TYPES.json] as const;
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/**
 * One request per A2A generation that sends the message "ping" (READING-A2A-GENERATION): 0.3 message/send, 1.0
 * SendMessage (with A2A-Version), 0.1 tasks/send. Each has an id of its own, which the answer must carry.
 */
const A2A_REQUESTS: ReadonlyArray<{
  readonly generation: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Record<string, unknown>;
}> = [
  {
    generation: '0.3',
    headers: [json],
    body: {
      jsonrpc: A2A.jsonrpc,
      id: 'conformance-a2a-0.3',
      method: A2A.sendMethods.v03,
      params: { message: { kind: 'message', messageId: 'conformance-message-0.3', role: 'user', parts: [{ kind: 'text', text: 'ping' }] } },
    },
  },
  {
    generation: '1.0',
    headers: [json, [A2A.versionHeader, A2A.version1]],
    body: {
      jsonrpc: A2A.jsonrpc,
      id: 'conformance-a2a-1.0',
      method: A2A.sendMethods.v1,
      params: { message: { messageId: 'conformance-message-1.0', role: 'ROLE_USER', parts: [{ text: 'ping' }] } },
    },
  },
  {
    generation: '0.1',
    headers: [json],
    body: {
      jsonrpc: A2A.jsonrpc,
      id: 'conformance-a2a-0.1',
      method: A2A.sendMethods.v01,
      params: { id: 'conformance-task-0.1', message: { role: 'user', parts: [{ type: 'text', text: 'ping' }] } },
    },
  },
];

/** Why an answer is not an A2A success for the request with this id, or null when it is one. */
function notA2aSuccess(status: number, body: string, id: string): string | null {
  if (status < 200 || status > 299) return `answered ${status}`;
  let answer: { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  try {
    answer = JSON.parse(body) as typeof answer;
  } catch {
    return `answered ${status} with a body that is not JSON: ${JSON.stringify(body.slice(0, 120))}`;
  }
  if (answer?.jsonrpc !== A2A.jsonrpc) return 'the answer is not a JSON-RPC 2.0 response (jsonrpc "2.0")';
  if (answer.id !== id) return `the answer carries id ${JSON.stringify(answer.id)}, not ${JSON.stringify(id)}`;
  if (answer.error !== undefined) return `a JSON-RPC error: ${JSON.stringify(answer.error).slice(0, 200)}`;
  if (answer.result === undefined || answer.result === null) return 'the answer carries no result';
  return null;
}

const chat = (stream: boolean) => new TextEncoder().encode(JSON.stringify({ model: 'any', stream, messages: [{ role: 'user', content: 'ping' }] }));

describe(`4.2 transport endpoints (${target.description})`, () => {
  check({
    id: 'transport.models',
    title: 'GET /v1/models answers a JSON model list',
    requirements: [R.agentTransportEndpoints.id],
    level: 'MUST',
    run: async (c) => {
      const response = await exchange(target, c, { method: 'GET', path: AGENT_TRANSPORT_ROUTES.models });
      expect(response.status, 'status').toBe(200);
      expect(jsonOf(response), 'an OpenAI list').toMatchObject({ data: expect.any(Array) });
    },
  });

  check({
    id: 'transport.chat-completions-sse',
    title: 'POST /v1/chat/completions with stream: true answers SSE framed as 4.1 says',
    requirements: [R.agentTransportEndpoints.id, R.endpointSseFraming.id],
    level: 'MUST',
    run: async (c) => {
      const response = await exchange(target, c, { method: 'POST', path: AGENT_TRANSPORT_ROUTES.chatCompletions, headers: [json], body: chat(true) });
      if (response.status === 401) c.notRun('the agent asks a credential for chat completions, and a run has none it verifies');
      expect(response.status, 'status').toBe(200);
      expectSseHeaders(response.headers);
      const values = expectSseFraming(text(response));
      expect(values.length, 'at least one chunk').toBeGreaterThan(0);
    },
  });

  check({
    id: 'transport.a2a',
    title: "POST /a2a answers an A2A message with its protocol's success, a JSON-RPC result (any generation of A2A)",
    requirements: [R.agentA2aEndpoint.id],
    level: 'MUST',
    run: async (c) => {
      const refusals: string[] = [];
      for (const request of A2A_REQUESTS) {
        const id = String(request.body.id);
        const response = await exchange(target, c, { method: 'POST', path: AGENT_TRANSPORT_ROUTES.a2a, headers: request.headers, body: encode(request.body) });
        if (response.status === 401) c.notRun('the agent asks a credential for /a2a, and a run has none it verifies');
        const why = notA2aSuccess(response.status, text(response), id);
        if (why === null) return;
        refusals.push(`A2A ${request.generation} (${String(request.body.method)}): ${why}`);
      }
      expect.fail(`no generation of A2A was answered with a result: ${refusals.join('; ')}`);
    },
  });
});
