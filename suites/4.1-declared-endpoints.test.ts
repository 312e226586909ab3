import { afterAll, describe, expect } from 'vitest';
import { agentSuiteNotRunReason, agentSuiteTarget } from './lib/target.js';
import { PROBES, SOCKET_PROBE } from '../src/contract/probes.js';
import { ENDPOINT_ERRORS, REQUIREMENTS, SOCKET_TOKEN_PARAM } from '../src/spec/index.js';
import { bearer, jsonOf, probe, probeUpgrade, text, tokenOrNotRun } from './lib/agent.js';
import { check, notRunAll } from './lib/check.js';
import { expectSseFraming, expectSseHeaders } from './lib/sse.js';

/** Section 4.1: declared paths with parameters and query strings, SSE framing, and scoped sockets. */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
afterAll(() => target.close());
const R = REQUIREMENTS;

describe(`4.1 agent-declared endpoints (${target.description})`, () => {
  check({
    id: 'endpoints.path-parameters-and-query',
    title: 'path parameters written :<param> and query strings reach the handler',
    requirements: [R.endpointPathParameters.id],
    level: 'MUST',
    run: async (c) => {
      const path = PROBES.item.path.replace(':id', 'a%20b');
      const response = await probe(target, c, { method: 'GET', path: `${path}?q=x&n=2` });
      expect(response.status, 'status').toBe(200);
      if (target.kind === 'in-process')
        expect(jsonOf(response), 'the reference handler saw the parameter and the query').toMatchObject({ params: { id: 'a b' }, query: { q: 'x', n: '2' } });
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
