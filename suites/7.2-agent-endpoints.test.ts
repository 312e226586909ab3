import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { agentSuiteNotRunReason, agentSuiteTarget } from './lib/target.js';
import { checkTimeout, context } from './lib/context.js';
import { parseChallenge } from '../src/harness/judge-refusal.js';
import { realmProblem } from '../src/harness/naming.js';
import { serviceNaming } from '../src/spec/naming.js';
import { OWNER_SOCKET_PROBE, PROBES, PROBE_CALL_MARK, PROBE_SMALL_CAP, SOCKET_PROBE } from '../src/contract/probes.js';
import { AUTH_CODES, AUTH_ERROR_LIST, ENDPOINT_ERRORS, HEADERS, LIMITS, MEDIA_TYPES, REQUIREMENTS, SOCKET_TOKEN_PARAM } from '../src/spec/index.js';
import { READINGS } from '../src/spec/readings.js';
import { bearer, callsOf, exchange, generatedBody, jsonOf, probe, probeUpgrade, text, tokenOrNotRun, WARM_UP_MS, warmUp } from './lib/agent.js';
import { check, notRunAll } from './lib/check.js';

/**
 * Section 7.2 (with 4.1, 5.4 and section 8): what an agent's declared endpoints answer before their handlers run.
 * The agent under test declares the conformance probes (src/reference/agent/conformance-endpoints.ts) under its
 * agent URL; the embedded reference agent is checked when no --agent-url is given. A probe the agent answers 404 for
 * is not declared, and the checks that need it are not-run (READING-PROBE-NOT-DECLARED).
 */
const target = agentSuiteTarget();
notRunAll(agentSuiteNotRunReason());
beforeAll(() => warmUp(target), WARM_UP_MS);
afterAll(() => target.close());
const E = ENDPOINT_ERRORS;
const json = [HEADERS.contentType, MEDIA_TYPES.json] as const;

function errorOf(body: unknown): Record<string, unknown> {
  expect(body, 'the body is { error: { ... } }').toMatchObject({ error: expect.any(Object) });
  return (body as { error: Record<string, unknown> }).error;
}

/**
 * 7.2: the 401's message "says the endpoint needs a caller the agent can verify". Its words are not given, so what is
 * judged is that there is one: error.message a string with a word in it (READING-UNAUTHORIZED-MESSAGE).
 */
function expectMessage(error: Record<string, unknown>): void {
  expect(
    typeof error.message === 'string' && error.message.trim() !== '',
    `error.message is a non-empty string (${READINGS.unauthorizedMessage.id}), not ${JSON.stringify(error.message)}`,
  ).toBe(true);
}

/** The 7.3 codes a signature failure may be answered with: all but those of a missing credential or a bearer. */
const SIGNATURE_FAILURE_CODES: readonly string[] = AUTH_ERROR_LIST.map((r) => r.code).filter(
  (code) =>
    !([AUTH_CODES.missing_credential, AUTH_CODES.malformed_token, AUTH_CODES.platform_token_invalid, AUTH_CODES.insufficient_scope] as string[]).includes(code),
);

/** The code of a 401: the 7.3 body's error_code, or the 2.6 error.code (READING-SIGNATURE-FAILURE-ANSWER). */
function refusalCodeOf(body: unknown): unknown {
  const b = body as { error_code?: unknown; error?: { code?: unknown } | unknown } | null;
  if (typeof b?.error_code === 'string') return b.error_code;
  return typeof b?.error === 'object' && b.error !== null ? (b.error as { code?: unknown }).code : undefined;
}

/** Signature headers that do not verify: a garbled set, and a well-formed one whose signature (64 zero bytes) was never made. */
function signaturesThatDoNotVerify(): ReadonlyArray<{ readonly what: string; readonly headers: ReadonlyArray<readonly [string, string]> }> {
  const now = Math.floor(Date.now() / 1000);
  const keySet = 'https://forged.agents.example/.well-known/jwks.json';
  const keyid = Buffer.alloc(32, 7).toString('base64url');
  const nonce = randomBytes(32).toString('base64');
  return [
    {
      what: 'a garbled signature',
      headers: [
        [HEADERS.signatureInput, 'sig1=("@method" "@authority" "@path");created=1;keyid="none";tag="web-bot-auth"'],
        [HEADERS.signature, 'sig1=:AAAA:'],
      ],
    },
    {
      what: 'a well-formed signature that was never made',
      headers: [
        [HEADERS.signatureAgent, `sig1="${keySet}";type=jwks_uri`],
        [
          HEADERS.signatureInput,
          `sig1=("@method" "@authority" "@path" "@query" "signature-agent";key="sig1");created=${now};expires=${now + 60};keyid="${keyid}";alg="ed25519";nonce="${nonce}";tag="web-bot-auth"`,
        ],
        [HEADERS.signature, `sig1=:${Buffer.alloc(64).toString('base64')}:`],
      ],
    },
  ];
}

describe(`7.2 agent endpoint errors (${target.description})`, () => {
  check({
    id: 'agent-errors.unauthorized-no-credential',
    title: '401 unauthorized for a scoped endpoint and no credential',
    requirements: [E.unauthorized.id],
    level: 'MUST',
    run: async (c) => {
      const response = await probe(target, c, { method: 'GET', path: PROBES.user.path });
      expect(response.status, 'status').toBe(E.unauthorized.status);
      const error = errorOf(jsonOf(response));
      expect(error.code, 'error.code').toBe(E.unauthorized.code);
      expectMessage(error);
    },
  });

  check({
    id: 'agent-errors.unauthorized-unverifiable-bearer',
    title: '401 unauthorized for a scoped endpoint and a Bearer the agent cannot verify',
    requirements: [E.unauthorized.id],
    level: 'MUST',
    run: async (c) => {
      // Declared? Asked without a credential first: a platform in front may refuse a bad Bearer even where no probe is.
      await probe(target, c, { method: 'GET', path: PROBES.user.path });
      const response = await exchange(target, c, { method: 'GET', path: PROBES.user.path, headers: [bearer('not.a.token')] });
      expect(response.status, 'status').toBe(E.unauthorized.status);
      const error = errorOf(jsonOf(response));
      expect(error.code, 'error.code').toBe(E.unauthorized.code);
      expectMessage(error);
    },
  });

  check({
    id: 'agent-errors.bearer-challenge',
    title: 'a 401 carries a Bearer challenge (RFC 7235 3.1)',
    requirements: [E.unauthorized.id],
    level: 'SHOULD',
    run: async (c) => {
      const response = await probe(target, c, { method: 'GET', path: PROBES.user.path });
      expect(response.headers[HEADERS.wwwAuthenticate] ?? '', 'WWW-Authenticate').toMatch(/^Bearer\b/i);
      // A live agent of a deployment that writes its own name for Service (run --service-name) answers under that realm
      // too, as its platform does (7.3 realm=service); without the option the SDKs' own realms are all accepted.
      const named = context.agentUrl && context.deployment?.serviceName !== undefined ? serviceNaming(context.deployment.serviceName) : undefined;
      if (named) {
        const realm = realmProblem(parseChallenge(response.headers[HEADERS.wwwAuthenticate] ?? '')?.params.get('realm'), named);
        if (realm !== undefined) expect.fail(realm);
      }
    },
  });

  check({
    id: 'agent-errors.forbidden',
    title: '403 forbidden for a verified caller the scope does not include',
    requirements: [E.forbidden.id],
    level: 'MUST',
    run: async (c) => {
      const token = await tokenOrNotRun(target, c, 'user');
      for (const p of [PROBES.owner, PROBES.admin, PROBES.group, PROBES.list]) {
        const response = await probe(target, c, { method: 'GET', path: p.path, headers: [bearer(token)] });
        expect(response.status, `${p.path}: status`).toBe(E.forbidden.status);
        const error = errorOf(jsonOf(response));
        expect(error.code, `${p.path}: error.code`).toBe(E.forbidden.code);
        expect(typeof error.message, `${p.path}: error.message`).toBe('string');
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
        const response = await probe(target, c, { method: 'GET', path, headers: [bearer(token)] });
        expect(response.status, `${role} on ${path}`).toBe(200);
      }
      const owner = await tokenOrNotRun(target, c, 'owner');
      const response = await probe(target, c, { method: 'GET', path: PROBES.admin.path, headers: [bearer(owner)] });
      expect(response.status, 'the owner on an admin endpoint').toBe(E.forbidden.status);
    },
  });

  check({
    id: 'agent-errors.signature-failure',
    title: 'a signature that does not verify is refused 401 with the signature failure, told apart from a missing credential',
    requirements: [E.signatureFailure.id],
    level: 'MUST',
    run: async (c) => {
      const none = await probe(target, c, { method: 'GET', path: PROBES.user.path });
      expect([none.status, refusalCodeOf(jsonOf(none))], 'no credential: 401 unauthorized').toEqual([E.unauthorized.status, E.unauthorized.code]);
      for (const { what, headers } of signaturesThatDoNotVerify()) {
        const response = await exchange(target, c, { method: 'GET', path: PROBES.user.path, headers });
        expect(response.status, `${what}: status`).toBe(E.signatureFailure.status);
        const code = refusalCodeOf(jsonOf(response));
        expect(
          SIGNATURE_FAILURE_CODES,
          `${what}: the 401 names the signature failure as 7.3 does (${READINGS.signatureFailureAnswer.id}), not ${JSON.stringify(code)}`,
        ).toContain(code);
      }
    },
  });

  check({
    id: 'agent-errors.access-block',
    title: '403 for a caller the access block keeps out',
    requirements: [E.accessBlock.id],
    level: 'MUST',
    run: async (c) => {
      const token = await tokenOrNotRun(target, c, 'denied');
      const response = await probe(target, c, { method: 'GET', path: PROBES.user.path, headers: [bearer(token)] });
      expect(response.status, 'status').toBe(E.accessBlock.status);
    },
  });

  check({
    id: 'agent-errors.wrong-method',
    title: '405 for a method the path is not declared for',
    requirements: [E.methodNotAllowed.id],
    level: 'MUST',
    run: async (c) => {
      await probe(target, c, { method: 'GET', path: PROBES.open.path });
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
      const right = await probe(target, c, { method: 'POST', path: PROBES.echo.path, headers: [json], body });
      expect(right.status, `Content-Type ${MEDIA_TYPES.json} is accepted`).toBe(200);
      const missing = await exchange(target, c, { method: 'POST', path: PROBES.echo.path, body });
      expect(missing.status, 'no Content-Type').toBe(E.unsupportedMediaType.status);
      const wrong = await exchange(target, c, { method: 'POST', path: PROBES.echo.path, headers: [[HEADERS.contentType, MEDIA_TYPES.html]], body });
      expect(wrong.status, `Content-Type ${MEDIA_TYPES.html}`).toBe(E.unsupportedMediaType.status);
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
      const at = await probe(target, c, { method: 'POST', path: PROBES.small.path, headers: [json], body: new Uint8Array(PROBE_SMALL_CAP).fill(0x20) });
      expect(at.status, 'a body of exactly the cap reaches the handler').toBe(200);
      const over = new Uint8Array(PROBE_SMALL_CAP + 1).fill(0x20);
      assert413(await exchange(target, c, { method: 'POST', path: PROBES.small.path, headers: [json], body: over }), 'declared length');
      assert413(await exchange(target, c, { method: 'POST', path: PROBES.small.path, headers: [json], body: generatedBody(PROBE_SMALL_CAP + 1) }), 'streamed');
    },
  });

  check({
    id: 'agent-errors.body-cap-agent-not-called',
    title: 'on 413 the agent is never called: the handler of a capped endpoint does not run for a body over its cap',
    requirements: [E.requestBodyCapExceeded.id, LIMITS.declaredEndpointBody.id],
    level: 'MUST',
    run: async (c) => {
      const marked = (mark: string) => `${PROBES.small.path}?${PROBE_CALL_MARK}=${mark}`;
      // The counter counts: a body at the cap runs the handler once.
      const counted = `counted-${randomBytes(8).toString('hex')}`;
      await probe(target, c, { method: 'POST', path: marked(counted), headers: [json], body: new Uint8Array(PROBE_SMALL_CAP).fill(0x20) });
      expect(await callsOf(target, c, counted), 'the handler ran once for a body at the cap').toBe(1);
      const refused = `refused-${randomBytes(8).toString('hex')}`;
      const over = new Uint8Array(PROBE_SMALL_CAP + 1).fill(0x20);
      assert413(await exchange(target, c, { method: 'POST', path: marked(refused), headers: [json], body: over }), 'declared length');
      assert413(await exchange(target, c, { method: 'POST', path: marked(refused), headers: [json], body: generatedBody(PROBE_SMALL_CAP + 1) }), 'streamed');
      expect(await callsOf(target, c, refused), 'the handler never ran for the bodies refused 413').toBe(0);
    },
  });

  // Two bodies streamed without Content-Length, so the agent must count: exactly 50 MiB, then 50 MiB + 1 byte.
  check({
    id: 'agent-errors.body-cap-50-mib',
    title: 'a body of exactly 50 MiB reaches the handler; 50 MiB + 1 is refused 413 REQUEST_BODY_CAP_EXCEEDED (streamed bodies)',
    requirements: [E.requestBodyCapExceeded.id, LIMITS.declaredEndpointBody.id],
    level: 'MUST',
    timeout: checkTimeout(180_000),
    run: async (c) => {
      const ceiling = LIMITS.declaredEndpointBody.value;
      await probe(target, c, { method: 'POST', path: PROBES.echo.path, headers: [json], body: new TextEncoder().encode('{}') });
      const at = await exchange(target, c, { method: 'POST', path: PROBES.echo.path, headers: [json], body: generatedBody(ceiling) });
      expect(at.status, `exactly ${ceiling} bytes (50 MiB, the platform ceiling) is accepted`).toBe(200);
      assert413(await exchange(target, c, { method: 'POST', path: PROBES.echo.path, headers: [json], body: generatedBody(ceiling + 1) }), '50 MiB + 1');
    },
  });

  check({
    id: 'agent-errors.response-size-cap',
    title: 'an answer past 50 MiB (the mirror of the request cap) that is not delivered whole names RESPONSE_SIZE_CAP_EXCEEDED',
    requirements: [E.responseSizeCapExceeded.id],
    level: 'MUST',
    timeout: checkTimeout(180_000),
    run: async (c) => {
      const bytes = (size: number) => PROBES.bytes.path.replace(':size', String(size));
      const small = await probe(target, c, { method: 'GET', path: bytes(1024) });
      expect([small.status, small.body.byteLength], 'an answer of 1024 bytes is delivered whole (200, 1024 bytes)').toEqual([200, 1024]);
      const size = LIMITS.declaredEndpointBody.value + 1;
      const over = await exchange(target, c, { method: 'GET', path: bytes(size) });
      if (over.status >= 200 && over.status < 300 && over.body.byteLength >= size)
        c.notRun(
          `the agent delivered an answer of ${size} bytes whole: the spec does not say who holds an answer to the cap, and a caller's SDK receiving it may (${READINGS.responseSizeCap.id}); nothing else is asked of an answer delivered whole`,
        );
      const code = E.responseSizeCapExceeded.code!;
      const named = Object.values(over.headers).some((v) => v.includes(code)) || Buffer.from(over.body).includes(code);
      expect(
        named,
        `an answer of ${size} bytes not delivered whole (${over.status}, ${over.body.byteLength} bytes) names ${code} in a header or its body (${READINGS.responseSizeCap.id})`,
      ).toBe(true);
    },
  });

  check({
    id: 'agent-errors.socket-refusal',
    title: 'a refused WebSocket upgrade answers the 7.2 status and JSON body',
    requirements: [E.unauthorized.id, E.forbidden.id],
    level: 'MUST',
    run: async (c) => {
      const outcome = await probeUpgrade(target, c, `${SOCKET_PROBE.path}?${SOCKET_TOKEN_PARAM}=not.a.token`);
      expect(outcome.opened, 'the handshake was refused').toBe(false);
      if (outcome.opened) return;
      expect(outcome.response.status, 'status').toBe(E.unauthorized.status);
      expect(errorOf(jsonOf(outcome.response)).code, 'error.code').toBe(E.unauthorized.code);
    },
  });

  check({
    id: 'agent-errors.socket-forbidden',
    title: 'a scoped socket refuses a verified caller its scope does not include with 403 forbidden before the handshake',
    requirements: [E.forbidden.id, REQUIREMENTS.endpointSocketScope.id],
    level: 'MUST',
    run: async (c) => {
      const owner = await tokenOrNotRun(target, c, 'owner');
      const user = await tokenOrNotRun(target, c, 'user');
      const opened = await probeUpgrade(target, c, OWNER_SOCKET_PROBE.path, [bearer(owner)]);
      expect(opened.opened, `the owner opens ${OWNER_SOCKET_PROBE.path}`).toBe(true);
      const outcome = await probeUpgrade(target, c, OWNER_SOCKET_PROBE.path, [bearer(user)]);
      expect(outcome.opened, 'a verified caller who is not the owner: the handshake was refused').toBe(false);
      if (outcome.opened) return;
      expect(outcome.response.status, `status (${text(outcome.response).slice(0, 200)})`).toBe(E.forbidden.status);
      expect(errorOf(jsonOf(outcome.response)).code, 'error.code').toBe(E.forbidden.code);
    },
  });
});
