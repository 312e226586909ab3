import { afterAll, describe, expect } from 'vitest';
import { agentSuiteNotRunReason, agentSuiteTarget } from './lib/target.js';
import { AGENT_TRANSPORT_ROUTES, HEADERS, MEDIA_TYPES, REQUIREMENTS } from '../src/spec/index.js';
import { expectSseFraming, expectSseHeaders } from './lib/sse.js';
import { exchange, jsonOf, text } from './lib/agent.js';
import { check, notRunAll } from './lib/check.js';

/** Section 4.2: the transport endpoints a check can observe (their bodies follow open protocols). */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
afterAll(() => target.close());
const R = REQUIREMENTS;
const json = [HEADERS.contentType, MEDIA_TYPES.json] as const;
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
});
