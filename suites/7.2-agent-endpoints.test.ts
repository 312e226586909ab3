import { afterAll, describe, expect } from 'vitest';
import { agentSuiteNotRunReason, agentSuiteTarget } from './lib/target.js';
import { checkTimeout } from './lib/context.js';
import { PROBES, PROBE_SMALL_CAP, SOCKET_PROBE } from '../src/contract/probes.js';
import { ENDPOINT_ERRORS, HEADERS, LIMITS, MEDIA_TYPES, SOCKET_TOKEN_PARAM } from '../src/spec/index.js';
import { bearer, exchange, generatedBody, jsonOf, tokenOrNotRun } from './lib/agent.js';
import { check, notRunAll } from './lib/check.js';

/**
 * Section 7.2 (with 4.1, 5.4 and section 8): what an agent's declared endpoints answer before their handlers run.
 * The agent under test declares the conformance probes (src/reference/agent/conformance-endpoints.ts) under its
 * agent URL; the embedded reference agent is checked when no --agent-url is given.
 */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
afterAll(() => target.close());
const E = ENDPOINT_ERRORS;
const json = [HEADERS.contentType, MEDIA_TYPES.json] as const;

function errorOf(body: unknown): Record<string, unknown> {
  expect(body, 'the body is { error: { ... } }').toMatchObject({ error: expect.any(Object) });
  return (body as { error: Record<string, unknown> }).error;
}

describe(`7.2 agent endpoint errors (${target.description})`, () => {
  check({
    id: 'agent-errors.unauthorized-no-credential',
    title: '401 unauthorized for a scoped endpoint and no credential',
    requirements: [E.unauthorized.id],
    level: 'MUST',
    run: async (c) => {
      const response = await exchange(target, c, { method: 'GET', path: PROBES.user.path });
      expect(response.status, 'status').toBe(E.unauthorized.status);
      const error = errorOf(jsonOf(response));
      expect(error.code, 'error.code').toBe(E.unauthorized.code);
      expect(typeof error.message, 'error.message is a string').toBe('string');
    },
  });

  check({
    id: 'agent-errors.unauthorized-unverifiable-bearer',
    title: '401 unauthorized for a scoped endpoint and a Bearer the agent cannot verify',
    requirements: [E.unauthorized.id],
    level: 'MUST',
    run: async (c) => {
      const response = await exchange(target, c, { method: 'GET', path: PROBES.user.path, headers: [bearer('not.a.token')] });
      expect(response.status, 'status').toBe(E.unauthorized.status);
      expect(errorOf(jsonOf(response)).code, 'error.code').toBe(E.unauthorized.code);
    },
  });

  check({
    id: 'agent-errors.bearer-challenge',
    title: 'a 401 carries a Bearer challenge (RFC 7235 3.1)',
    requirements: [E.unauthorized.id],
    level: 'SHOULD',
    run: async (c) => {
      const response = await exchange(target, c, { method: 'GET', path: PROBES.user.path });
      expect(response.headers[HEADERS.wwwAuthenticate] ?? '', 'WWW-Authenticate').toMatch(/^Bearer\b/i);
    },
  });

  check({
    id: 'agent-errors.forbidden',
    title: '403 forbidden for a verified caller the scope does not include',
    requirements: [E.forbidden.id],
    level: 'MUST',
    run: async (c) => {
      const token = await tokenOrNotRun(target, c, 'user');
      for (const probe of [PROBES.owner, PROBES.admin, PROBES.group, PROBES.list]) {
        const response = await exchange(target, c, { method: 'GET', path: probe.path, headers: [bearer(token)] });
        expect(response.status, `${probe.path}: status`).toBe(E.forbidden.status);
        const error = errorOf(jsonOf(response));
        expect(error.code, `${probe.path}: error.code`).toBe(E.forbidden.code);
        expect(typeof error.message, `${probe.path}: error.message`).toBe('string');
      }
    },
  });

  check({
    id: 'agent-errors.scopes-admit',
    title: 'scopes admit whom 5.4 names: user, owner, admin, group members, any entry of a list',
    requirements: [E.forbidden.id, E.unauthorized.id],
    level: 'MUST',
    run: async (c) => {
      const admitted: Array<[Parameters<typeof target.token>[0], string]> = [
        ['user', PROBES.user.path],
        ['owner', PROBES.owner.path],
        ['admin', PROBES.owner.path],
        ['admin', PROBES.admin.path],
        ['member', PROBES.group.path],
        ['owner', PROBES.group.path],
        ['member', PROBES.list.path],
      ];
      for (const [role, path] of admitted) {
        const token = await tokenOrNotRun(target, c, role);
        const response = await exchange(target, c, { method: 'GET', path, headers: [bearer(token)] });
        expect(response.status, `${role} on ${path}`).toBe(200);
      }
      const owner = await tokenOrNotRun(target, c, 'owner');
      const response = await exchange(target, c, { method: 'GET', path: PROBES.admin.path, headers: [bearer(owner)] });
      expect(response.status, 'the owner on an admin endpoint').toBe(E.forbidden.status);
    },
  });

  check({
    id: 'agent-errors.signature-failure',
    title: 'a signed request whose signature does not verify is refused 401',
    requirements: [E.signatureFailure.id],
    level: 'MUST',
    run: async (c) => {
      const response = await exchange(target, c, {
        method: 'GET',
        path: PROBES.user.path,
        headers: [
          [HEADERS.signatureInput, 'sig1=("@method" "@authority" "@path");created=1;keyid="none";tag="web-bot-auth"'],
          [HEADERS.signature, 'sig1=:AAAA:'],
        ],
      });
      expect(response.status, 'status').toBe(E.signatureFailure.status);
    },
  });

  check({
    id: 'agent-errors.access-block',
    title: '403 for a caller the access block keeps out',
    requirements: [E.accessBlock.id],
    level: 'MUST',
    run: async (c) => {
      const token = await tokenOrNotRun(target, c, 'denied');
      const response = await exchange(target, c, { method: 'GET', path: PROBES.user.path, headers: [bearer(token)] });
      expect(response.status, 'status').toBe(E.accessBlock.status);
    },
  });

  check({
    id: 'agent-errors.wrong-method',
    title: '405 for a method the path is not declared for',
    requirements: [E.methodNotAllowed.id],
    level: 'MUST',
    run: async (c) => {
      const response = await exchange(target, c, { method: 'POST', path: PROBES.open.path, headers: [json], body: new TextEncoder().encode('{}') });
      expect(response.status, 'status').toBe(E.methodNotAllowed.status);
    },
  });

  check({
    id: 'agent-errors.content-type',
    title: '415 for a body request with no Content-Type or one the endpoint does not accept',
    requirements: [E.unsupportedMediaType.id],
    level: 'MUST',
    run: async (c) => {
      const body = new TextEncoder().encode('{"a":1}');
      const missing = await exchange(target, c, { method: 'POST', path: PROBES.echo.path, body });
      expect(missing.status, 'no Content-Type').toBe(E.unsupportedMediaType.status);
      const wrong = await exchange(target, c, { method: 'POST', path: PROBES.echo.path, headers: [[HEADERS.contentType, MEDIA_TYPES.html]], body });
      expect(wrong.status, `Content-Type ${MEDIA_TYPES.html}`).toBe(E.unsupportedMediaType.status);
      const right = await exchange(target, c, { method: 'POST', path: PROBES.echo.path, headers: [json], body });
      expect(right.status, `Content-Type ${MEDIA_TYPES.json} is accepted`).toBe(200);
    },
  });

  const assert413 = (response: Awaited<ReturnType<typeof target.send>>, what: string) => {
    expect(response.status, `${what}: status`).toBe(E.requestBodyCapExceeded.status);
    expect((response.headers[HEADERS.connection] ?? '').toLowerCase(), `${what}: Connection`).toBe('close');
    const error = errorOf(jsonOf(response));
    expect(error.code, `${what}: error.code`).toBe(E.requestBodyCapExceeded.code);
    expect(typeof error.detail, `${what}: error.detail is a string`).toBe('string');
  };

  check({
    id: 'agent-errors.body-cap-endpoint',
    title: "413 REQUEST_BODY_CAP_EXCEEDED past an endpoint's smaller cap, declared or streamed",
    requirements: [E.requestBodyCapExceeded.id, LIMITS.declaredEndpointBody.id],
    level: 'MUST',
    run: async (c) => {
      const over = new Uint8Array(PROBE_SMALL_CAP + 1).fill(0x20);
      assert413(await exchange(target, c, { method: 'POST', path: PROBES.small.path, headers: [json], body: over }), 'declared length');
      assert413(await exchange(target, c, { method: 'POST', path: PROBES.small.path, headers: [json], body: generatedBody(PROBE_SMALL_CAP + 1) }), 'streamed');
      const at = await exchange(target, c, { method: 'POST', path: PROBES.small.path, headers: [json], body: new Uint8Array(PROBE_SMALL_CAP).fill(0x20) });
      expect(at.status, 'a body of exactly the cap reaches the handler').toBe(200);
    },
  });

  // One oversize body, streamed without Content-Length, so the agent must count: 50 MiB + 1 byte.
  check({
    id: 'agent-errors.body-cap-50-mib',
    title: '413 REQUEST_BODY_CAP_EXCEEDED past 50 MiB (one streamed body)',
    requirements: [E.requestBodyCapExceeded.id, LIMITS.declaredEndpointBody.id],
    level: 'MUST',
    timeout: checkTimeout(120_000),
    run: async (c) => {
      assert413(
        await exchange(target, c, { method: 'POST', path: PROBES.echo.path, headers: [json], body: generatedBody(LIMITS.declaredEndpointBody.value + 1) }),
        '50 MiB + 1',
      );
    },
  });

  check({
    id: 'agent-errors.response-size-cap',
    title: 'RESPONSE_SIZE_CAP_EXCEEDED',
    requirements: [E.responseSizeCapExceeded.id],
    level: 'MUST',
    run: (c) => {
      c.notRun('the spec gives no status and no size for it, and no probe can make an agent answer too large');
    },
  });

  check({
    id: 'agent-errors.socket-refusal',
    title: 'a refused WebSocket upgrade answers the 7.2 status and JSON body',
    requirements: [E.unauthorized.id, E.forbidden.id],
    level: 'MUST',
    run: async (_c) => {
      const outcome = await target.upgrade(`${SOCKET_PROBE.path}?${SOCKET_TOKEN_PARAM}=not.a.token`);
      expect(outcome.opened, 'the handshake was refused').toBe(false);
      if (outcome.opened) return;
      expect(outcome.response.status, 'status').toBe(E.unauthorized.status);
      expect(errorOf(jsonOf(outcome.response)).code, 'error.code').toBe(E.unauthorized.code);
    },
  });
});
