import { afterAll, beforeAll, describe, expect } from 'vitest';
import { agentSuiteNotRunReason, agentSuiteTarget } from './lib/target.js';
import { PROBES, SOCKET_PROBE } from '../src/contract/probes.js';
import { ENDPOINT_ERRORS, REQUIREMENTS, SOCKET_TOKEN_PARAM } from '../src/spec/index.js';
import { bearer, jsonOf, probe, probeUpgrade, text, tokenOrNotRun, WARM_UP_MS, warmUp } from './lib/agent.js';
import { check, notRunAll } from './lib/check.js';
import { READINGS } from '../src/spec/readings.js';
import { expectSseFraming, expectSseHeaders } from './lib/sse.js';

/** The items probe's echo: a JSON object carrying params or query; null when the answer carries neither. */
function echoOf(response: Parameters<typeof text>[0]): Record<string, unknown> | null {
  let body: unknown;
  try {
    body = JSON.parse(text(response));
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const echo = body as Record<string, unknown>;
  return 'params' in echo || 'query' in echo ? echo : null;
}

/** Section 4.1: declared paths with parameters and query strings, SSE framing, and scoped sockets. */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
beforeAll(() => warmUp(target), WARM_UP_MS);
afterAll(() => target.close());
const R = REQUIREMENTS;

describe(`4.1 agent-declared endpoints (${target.description})`, () => {
  check({
    id: 'endpoints.path-parameters-and-query',
    title: 'a path parameter written :<param> reaches the handler decoded, and the query string with it, as the items probe echoes them',
    requirements: [R.endpointPathParameters.id],
    level: 'MUST',
    run: async (c) => {
      const path = PROBES.item.path.replace(':id', 'a%20b');
      const response = await probe(target, c, { method: 'GET', path: `${path}?q=x&n=2` });
      expect(response.status, 'status').toBe(200);
      // docs/contracts.md section 4: the probe answers { params, query } as its handler received them. A deployment whose
      // probe predates that (no echo at all) shows only that a handler ran: the rest is not run, never failed.
      const echo = echoOf(response);
      if (echo === null)
        c.notRun(
          `the items probe answers 200 without echoing what its handler received ({ params, query }, docs/contracts.md section 4; ${READINGS.probeNotDeclared.id}): the handler ran, but nothing shows the parameter or the query reached it`,
        );
      expect(echo, 'the handler received the parameter decoded and the query').toMatchObject({ params: { id: 'a b' }, query: { q: 'x', n: '2' } });
    },
  });

  check({
    id: 'endpoints.sse-framing',
    title: 'an async iterable streams as SSE with its three headers and data: frames, read as an event-stream parser reads them',
    requirements: [R.endpointSseFraming.id],
    level: 'MUST',
    run: async (c) => {
      const response = await probe(target, c, { method: 'GET', path: PROBES.stream.path });
      expect(response.status, 'status').toBe(200);
      expectSseHeaders(response.headers);
      const values = expectSseFraming(text(response));
      expect(values.length, 'at least one data frame').toBeGreaterThan(0);
    },
  });

  check({
    id: 'endpoints.socket-refused-without-credential',
    title: 'a scoped socket refuses an upgrade without a credential before the handshake',
    requirements: [R.endpointSocketScope.id, ENDPOINT_ERRORS.unauthorized.id],
    level: 'MUST',
    run: async (c) => {
      const outcome = await probeUpgrade(target, c, SOCKET_PROBE.path);
      expect(outcome.opened, 'the handshake was refused').toBe(false);
      if (outcome.opened) return;
      expect(outcome.response.status, 'status').toBe(ENDPOINT_ERRORS.unauthorized.status);
      expect(jsonOf(outcome.response), 'JSON body').toMatchObject({ error: { code: ENDPOINT_ERRORS.unauthorized.code } });
    },
  });

  check({
    id: 'endpoints.socket-token-query-parameter',
    title: 'a scoped socket reads its credential from ?token=',
    requirements: [R.endpointSocketTokenParam.id],
    level: 'MUST',
    run: async (c) => {
      const token = await tokenOrNotRun(target, c, 'user');
      const outcome = await probeUpgrade(target, c, `${SOCKET_PROBE.path}?${SOCKET_TOKEN_PARAM}=${encodeURIComponent(token)}`);
      expect(outcome.opened, outcome.opened ? 'opened' : `refused with ${outcome.response.status} ${text(outcome.response).slice(0, 200)}`).toBe(true);
    },
  });

  check({
    id: 'endpoints.socket-bearer',
    title: 'a scoped socket takes Authorization: Bearer too',
    requirements: [R.endpointSocketScope.id],
    level: 'MUST',
    run: async (c) => {
      const token = await tokenOrNotRun(target, c, 'user');
      const outcome = await probeUpgrade(target, c, SOCKET_PROBE.path, [bearer(token)]);
      expect(outcome.opened, 'opened').toBe(true);
    },
  });
});
