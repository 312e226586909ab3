import { afterAll, describe, expect } from 'vitest';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { challengeExpiryProblems, challengeHeaderProblems, purchaseAnswerProblems, readPaidAnswer } from '../src/harness/judge-purchase.js';
import { context } from './lib/context.js';
import { CAPABILITY_REASONS, type SocketOpening, type Target, type TargetRequest, type TargetResponse, type TargetSocket } from '../src/harness/target.js';
import { AGENT_STATES } from '../src/contract/test-control.js';
import {
  checkBalanceRequired,
  checkFundedFrame,
  checkPaymentRequiredFrame,
  checkPointerResponse,
  describeProblems,
  paymentSubmitFrame,
  responseCreateFrame,
  serializeFrame,
} from '../src/purchase/inband.js';
import { parsePaymentChallenge, type ChallengeEcho, type PaymentChallenge } from '../src/purchase/index.js';
import { TERMS_OBJECT_MEMBERS } from '../src/spec/payments.js';
import { READINGS } from '../src/spec/readings.js';
import { PAYMENT_SEEN_MEMBER, PROBES } from '../src/contract/probes.js';
import { AGENT_MOUNT_PREFIX, AGENT_TRANSPORT_ROUTES } from '../src/spec/agent-endpoints.js';
import {
  DELEGATE_OPERATION,
  DELEGATE_STATUSES,
  FRAME_MEMBERS,
  INBAND_FRAME_TYPES,
  INBAND_REQUIREMENTS,
  INBAND_SCHEMES,
  PAYMENT_REQUIREMENTS_MEMBERS,
  SCHEME_ENTRY_MEMBERS,
  type InbandFrameType,
} from '../src/spec/inband.js';
import { ENDPOINT_ERRORS } from '../src/spec/endpoint-errors.js';
import { HEADERS } from '../src/spec/headers.js';
import { MEDIA_TYPES } from '../src/spec/media-types.js';
import { PLATFORM_MCP_REQUIREMENTS } from '../src/spec/platform-mcp.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { arrange, Buyer, cardPayment, freshTestToken, exchangeFacts, expectSucceeded, needCapabilities, payOrNotRun } from './lib/buyer.js';
import { check, type CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 6 (with 4.7 and the in-band rows of 7.4) over HTTP: the LLM rail's purchase pointer, the MCP delegate's
 * balance_required and the MCP endpoint's 401s, the agent socket's upgrade refusal and frames (payment.required,
 * payment.submit after paying at purchase_url, the terms object on funded frames), and 502
 * upstream_payment_not_relayed where the platform relays to an agent.
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
async function signedJson(
  c: CheckContext,
  b: Buyer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  tamper = false,
): Promise<TargetResponse> {
  const bytes = encoder.encode(JSON.stringify(body));
  b.sync();
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

/** A chat completion request for the LLM rail. */
const CHAT = { model: 'any', messages: [{ role: 'user', content: 'hello' }] };

/** 4.7: the delegate's answer carries status balance_required, in the MCP result's structured content or a text content's JSON. */
function expectBalanceRequired(response: TargetResponse): void {
  expect(response.status, 'a JSON-RPC answer').toBe(200);
  const message = jsonBody(response) as { result?: { structuredContent?: unknown; content?: Array<{ text?: string }> } };
  if (message.result === undefined) return expect.fail(`no tools/call result: ${JSON.stringify(message)}`);
  // 4.7 says the operation "returns a status field", not where an MCP result carries it.
  const answers = [
    message.result.structuredContent,
    ...(message.result.content ?? []).flatMap((part) => {
      try {
        return [JSON.parse(part.text ?? '') as unknown];
      } catch {
        return [];
      }
    }),
  ];
  const checked = answers.map((answer) => checkBalanceRequired(answer));
  if (!checked.some((one) => one.ok))
    expect.fail(checked.flatMap((one) => describeProblems(one)).join('\n') || `status ${DELEGATE_STATUSES.balanceRequired}: no status`);
}

function mcpCall(id: number, call: unknown): unknown {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: DELEGATE_OPERATION.name, arguments: { [DELEGATE_OPERATION.callArgument]: call } } };
}

describe(`6 events and in-band answers (${target.description})`, () => {
  check({
    id: 'events.llm-rail-pointer',
    title: 'the LLM rail points a caller without balance to the purchase, with no challenge',
    requirements: ids(I.pointer),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'pointer');
      const response = await signedJson(c, b, PLATFORM_ROUTES.llmChatCompletions, CHAT);
      if (response.status === NOT_FOUND) c.notRun(`the target serves no ${PLATFORM_ROUTES.llmChatCompletions}`);
      // READING-POINTER-STATUS: section 6 gives the pointer no status.
      const checked = checkPointerResponse({ headers: response.headers, body: jsonBody(response) }, { sellsUsage: true });
      if (!checked.ok) expect.fail(describeProblems(checked).join('\n'));
    },
  });

  check({
    id: 'events.delegate-balance-required',
    title: 'the MCP delegate: a caller whose balance does not cover the call gets status balance_required',
    requirements: ids(I.balanceRequired),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'delegate');
      const response = await signedJson(c, b, PLATFORM_ROUTES.mcp, mcpCall(1, { ask: 'anything' }), { [HEADERS.accept]: MCP_ACCEPT });
      if (response.status === NOT_FOUND) c.notRun(`the target serves no MCP endpoint at ${PLATFORM_ROUTES.mcp}`);
      expectBalanceRequired(response);
    },
  });

  check({
    id: 'events.llm-rail-pointer-not-selling',
    title: "where buying is not open for the caller, the LLM rail's pointer holds no mpp entry",
    requirements: ids(I.pointer),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'pointer-not-selling');
      // Section 6: the mpp entry is there "where the deployment sells usage at all"; with buying closed (mpp_disabled) it sells none.
      await arrange(target, c, { state: AGENT_STATES.mppDisabled, agent: b.agentUrl });
      const response = await signedJson(c, b, PLATFORM_ROUTES.llmChatCompletions, CHAT);
      if (response.status === NOT_FOUND) c.notRun(`the target serves no ${PLATFORM_ROUTES.llmChatCompletions}`);
      const checked = checkPointerResponse({ headers: response.headers, body: jsonBody(response) }, { sellsUsage: false });
      if (!checked.ok) expect.fail(describeProblems(checked).join('\n'));
    },
  });

  check({
    id: 'events.llm-rail-pointer-ran-out',
    title: 'a caller whose balance ran out after it was funded gets the pointer from the LLM rail',
    requirements: ids(I.pointer),
    level: 'MUST',
    run: async (c) => {
      needCapabilities(target, c, 'spend');
      const b = await buyer(c, 'ran-out');
      // A pack then covers two completions, and what is left of it less than a third (a rail funding from the rest serves it).
      await arrange(target, c, { state: AGENT_STATES.completionCostsTwoFifthsCredit, agent: b.agentUrl });
      const offer = await b.post();
      const [first] = offer.challenges;
      if (!first) return expect.fail(`expected a challenge for the pack, got ${offer.status} ${offer.refusal ?? ''}`);
      await payOrNotRun(target, c, Number(member(first.challenge.request, 'amount')));
      expectSucceeded(await b.post({ headers: cardPayment(first.echo, freshTestToken('settled'), offer.termsVersion ?? '') }), 'the pack');
      const complete = () => signedJson(c, b, PLATFORM_ROUTES.llmChatCompletions, CHAT);
      const funded = await complete();
      if (funded.status === NOT_FOUND) c.notRun(`the target serves no ${PLATFORM_ROUTES.llmChatCompletions}`);
      expect(funded.status, 'completion 1, funded by the pack').toBe(200);
      expect((await complete()).status, 'completion 2, funded by the pack').toBe(200);
      const ranOut = await complete();
      // READING-POINTER-STATUS: section 6 gives the pointer no status.
      const checked = checkPointerResponse({ headers: ranOut.headers, body: jsonBody(ranOut) }, { sellsUsage: true });
      if (!checked.ok) expect.fail(`the completion the balance no longer covers: ${describeProblems(checked).join('\n')}`);
    },
  });

  check({
    id: 'events.mcp-401-accept-signature',
    title: 'the MCP endpoint adds Accept-Signature to a 401 answering a request that carried Signature-Input',
    requirements: ids(PLATFORM_MCP_REQUIREMENTS.acceptSignatureOn401),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'mcp-401');
      const response = await signedJson(c, b, PLATFORM_ROUTES.mcp, mcpCall(2, {}), { [HEADERS.accept]: MCP_ACCEPT }, true);
      if (response.status === NOT_FOUND) c.notRun(`the target serves no MCP endpoint at ${PLATFORM_ROUTES.mcp}`);
      expect(response.status, 'a signature that does not verify').toBe(401);
      expect(response.headers[HEADERS.acceptSignature], 'Accept-Signature').toBeDefined();
    },
  });
});

/**
 * The agent socket, /agents/<name>/uamp (4.2, 6): in-process any name the reference platform serves; live the
 * agent `run --agent-url` names when it is hosted on the target's origin.
 */
function socketUrl(c: CheckContext): string {
  if (target.kind === 'in-process') return `${target.environment.platformOrigin}${AGENT_MOUNT_PREFIX}events-socket${AGENT_TRANSPORT_ROUTES.uamp}`;
  const agentUrl = context.agentUrl;
  if (agentUrl === undefined || new URL(agentUrl).origin !== new URL(target.environment.platformOrigin).origin) {
    return c.notRun('needs an agent socket on the platform: run with --agent-url naming an agent the target platform hosts at /agents/<name>');
  }
  return `${agentUrl.replace(/\/+$/, '')}${AGENT_TRANSPORT_ROUTES.uamp}`;
}

/** Asks for the agent socket with a signed GET (`tamper` breaks the signature); records the upgrade. */
async function upgrade(c: CheckContext, b: Buyer, url: string, tamper = false): Promise<SocketOpening> {
  if (!target.openSocket) return c.notRun('the target opens no WebSocket');
  const signed = b.kit.request({
    method: 'GET',
    url,
    body: new Uint8Array(0),
    labels: [{ label: 'sig1', key: b.kit.A, ...(tamper ? { tamper: (sig: Uint8Array) => sig.map((x, i) => (i === 0 ? x ^ 1 : x)) } : {}) }],
  });
  const request: TargetRequest = { method: 'GET', url: signed.url, headers: signed.headers, body: null };
  if (tamper) await target.ready?.(1);
  const opening = await target.openSocket(url, signed.headers);
  c.record({
    request: recordRequest(request),
    response: recordResponse(opening.opened ? { status: 101, headers: {}, body: new Uint8Array(0) } : opening.response),
  });
  return opening;
}

/** An open agent socket, reading JSON frames. */
async function openSocket(c: CheckContext, b: Buyer): Promise<TargetSocket> {
  const opening = await upgrade(c, b, socketUrl(c));
  if (opening.opened) return opening.socket;
  if (opening.response.status === NOT_FOUND) return c.notRun('the target serves no agent socket there');
  return expect.fail(
    `a signed upgrade of the agent socket was refused with ${opening.response.status}: ${Buffer.from(opening.response.body).toString('utf8').slice(0, 200)}`,
  );
}

/** The next frame the deployment sends: the JSON text of an object (6). */
async function nextFrame(socket: TargetSocket): Promise<Record<string, unknown>> {
  const text = await socket.next();
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return expect.fail(`a frame that is not JSON: ${text.slice(0, 200)}`);
  }
  if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return expect.fail(`a frame that is not a JSON object: ${text.slice(0, 200)}`);
  return frame as Record<string, unknown>;
}

const member = (value: unknown, name: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined);

/** The mpp entry of a payment.required frame that passed checkPaymentRequiredFrame with a challenge. */
function mppEntry(frame: Record<string, unknown>): Record<string, unknown> {
  const schemes = member(frame[FRAME_MEMBERS.requirements], PAYMENT_REQUIREMENTS_MEMBERS.schemes) as Array<Record<string, unknown>>;
  return schemes.find((entry) => entry[SCHEME_ENTRY_MEMBERS.scheme] === INBAND_SCHEMES.mpp)!;
}

/** Starts a turn on a new socket of a buyer with no balance: the payment.required frame, checked, and its mpp entry's challenge. */
async function requiredTurn(
  c: CheckContext,
  b: Buyer,
): Promise<{ socket: TargetSocket; frame: Record<string, unknown>; challenge: PaymentChallenge; echo: ChallengeEcho; challengeValue: string }> {
  const socket = await openSocket(c, b);
  socket.send(serializeFrame(responseCreateFrame(`turn-${serial++}`, 'hello')));
  const frame = await nextFrame(socket);
  const checked = checkPaymentRequiredFrame(frame, { mpp: 'challenge' });
  if (!checked.ok) expect.fail(describeProblems(checked).join('\n'));
  const challengeValue = mppEntry(frame)[SCHEME_ENTRY_MEMBERS.challenge] as string;
  const parsed = parsePaymentChallenge(challengeValue);
  if (!parsed.ok) return expect.fail(`the payment.required challenge does not parse as a Payment challenge: ${parsed.detail}`);
  return { socket, frame, challenge: parsed.challenge, echo: parsed.echo, challengeValue };
}

/**
 * Pays the challenge of a payment.required frame at its purchase_url (a settled card, assenting to its terms), then
 * sends payment.submit with scheme balance; the terms object every funded frame must then carry.
 */
async function payThenSubmit(c: CheckContext, b: Buyer, turn: Awaited<ReturnType<typeof requiredTurn>>): Promise<Record<string, string | undefined>> {
  const mpp = mppEntry(turn.frame);
  const terms = mpp[SCHEME_ENTRY_MEMBERS.terms] as Record<string, string>;
  const purchaseUrl = new URL(mpp[SCHEME_ENTRY_MEMBERS.purchaseUrl] as string);
  if (purchaseUrl.origin !== new URL(target.environment.platformOrigin).origin) c.notRun(`purchase_url ${purchaseUrl.href} is not on the target's origin`);
  const amount = Number(member(turn.challenge.request, 'amount'));
  await payOrNotRun(target, c, amount);
  const paid = await b.post({
    path: purchaseUrl.pathname,
    // The credential echoes the challenge's members exactly as they arrived, whatever their encoding.
    headers: cardPayment(turn.echo, freshTestToken('settled'), terms[TERMS_OBJECT_MEMBERS.version]!),
  });
  expectSucceeded(paid, `the purchase at purchase_url ${purchaseUrl.href}`);
  const requirements = turn.frame[FRAME_MEMBERS.requirements] as Record<string, unknown>;
  turn.socket.send(serializeFrame(paymentSubmitFrame(`submit-${serial++}`, String(requirements[PAYMENT_REQUIREMENTS_MEMBERS.amount]))));
  return { [TERMS_OBJECT_MEMBERS.url]: terms[TERMS_OBJECT_MEMBERS.url], [TERMS_OBJECT_MEMBERS.version]: terms[TERMS_OBJECT_MEMBERS.version] };
}

/** A frame of a funded turn: of `type`, with a terms object {url, version}, the one the challenge named. */
function expectFundedFrame(frame: Record<string, unknown>, type: InbandFrameType, want: Record<string, string | undefined>): void {
  const checked = checkFundedFrame(frame, { type });
  if (!checked.ok) expect.fail(describeProblems(checked).join('\n'));
  expect(frame[FRAME_MEMBERS.terms], `${type} carries the terms the challenge named`).toMatchObject(want);
}

describe(`6 the agent socket (${target.description})`, () => {
  check({
    id: 'events.socket-upgrade-refused',
    title: 'a signed upgrade that does not verify is refused 401 before the socket opens',
    requirements: ids(I.socketUpgradeRefusal),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'socket-refused');
      const opening = await upgrade(c, b, socketUrl(c), true);
      if (opening.opened) {
        opening.socket.close();
        return expect.fail('the socket opened on an upgrade whose signature does not verify');
      }
      if (opening.response.status === NOT_FOUND) c.notRun('the target serves no agent socket there');
      expect(opening.response.status, 'a signature that does not verify').toBe(401);
      expect(opening.response.headers[HEADERS.acceptSignature], 'Accept-Signature').toBeDefined();
    },
  });

  check({
    id: 'events.payment-required',
    title: 'a turn the balance does not cover waits with payment.required and a Payment challenge',
    requirements: ids(I.paymentRequired),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'socket-required');
      const { socket, challenge } = await requiredTurn(c, b);
      try {
        // A frame has no Date: its challenge is judged against the run's clock for the target (READING-CHALLENGE-EXPIRY).
        const expiry = challengeExpiryProblems(challenge, { status: 101, headers: {}, body: new Uint8Array(0) }, exchangeFacts(target, b.sync()).clock);
        if (expiry.length) expect.fail(expiry.join('\n'));
        // Whether the challenge is the purchase machine's own shows on the wire where it is paid at purchase_url
        // (events.payment-submit-runs-turn); what a store holds is no suite's to read.
      } finally {
        socket.close();
      }
    },
  });

  check({
    id: 'events.payment-required-names-credential-header',
    title: 'the challenge of payment.required says header="Payment-Authorization", where a client following the draft sends it',
    requirements: ids(I.paymentRequired),
    level: 'SHOULD',
    run: async (c) => {
      const b = await buyer(c, 'socket-required-header');
      const { socket, challenge } = await requiredTurn(c, b);
      socket.close();
      const problems = challengeHeaderProblems(challenge);
      if (problems.length) expect.fail(`${problems.join('\n')} (${READINGS.challengeHeaderParam.id})`);
    },
  });

  check({
    id: 'events.payment-required-not-selling',
    title: 'a turn the balance does not cover waits with payment.required where buying is not open',
    requirements: ids(I.paymentRequired),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'socket-not-selling');
      await arrange(target, c, { state: AGENT_STATES.mppDisabled, agent: b.agentUrl });
      const socket = await openSocket(c, b);
      try {
        socket.send(serializeFrame(responseCreateFrame(`turn-${serial++}`, 'hello')));
        const frame = await nextFrame(socket);
        // 6 and 7.4 name payment.required as the in-band answer; with nothing to buy it may carry a pointer, no mpp entry, or an mpp entry of its own.
        expect(frame[FRAME_MEMBERS.type], 'the answer to a turn the balance does not cover').toBe(INBAND_FRAME_TYPES.paymentRequired);
        const checked = checkPaymentRequiredFrame(frame, { mpp: 'any' });
        if (!checked.ok) expect.fail(describeProblems(checked).join('\n'));
      } finally {
        socket.close();
      }
    },
  });

  check({
    id: 'events.payment-submit-runs-turn',
    title: 'paid at purchase_url, payment.submit runs the turn with the terms object on its frames',
    requirements: ids(I.paymentSubmit, I.fundedTerms),
    level: 'MUST',
    run: async (c) => {
      if (!target.capabilities.has('spend')) c.notRun(CAPABILITY_REASONS.spend);
      const b = await buyer(c, 'socket-paid');
      const turn = await requiredTurn(c, b);
      try {
        const want = await payThenSubmit(c, b, turn);
        for (const type of [INBAND_FRAME_TYPES.paymentAccepted, INBAND_FRAME_TYPES.responseDone]) {
          const funded = await nextFrame(turn.socket);
          expect(funded[FRAME_MEMBERS.type], 'the frame after payment.submit').toBe(type);
          expectFundedFrame(funded, type, want);
        }
      } finally {
        turn.socket.close();
      }
    },
  });

  check({
    id: 'events.funded-turn-error-terms',
    title: 'a funded turn that fails ends in response.error carrying the terms object',
    requirements: ids(I.fundedTerms),
    level: 'MUST',
    run: async (c) => {
      if (!target.capabilities.has('spend')) c.notRun(CAPABILITY_REASONS.spend);
      const b = await buyer(c, 'socket-turn-fails');
      await arrange(target, c, { state: AGENT_STATES.turnFails, agent: b.agentUrl });
      const turn = await requiredTurn(c, b);
      try {
        const want = await payThenSubmit(c, b, turn);
        // payment.accepted may come first (6 names it, not its order); the turn ends in response.error.
        let funded = await nextFrame(turn.socket);
        if (funded[FRAME_MEMBERS.type] === INBAND_FRAME_TYPES.paymentAccepted) {
          expectFundedFrame(funded, INBAND_FRAME_TYPES.paymentAccepted, want);
          funded = await nextFrame(turn.socket);
        }
        expect(funded[FRAME_MEMBERS.type], 'the frame ending a funded turn that failed').toBe(INBAND_FRAME_TYPES.responseError);
        expectFundedFrame(funded, INBAND_FRAME_TYPES.responseError, want);
      } finally {
        turn.socket.close();
      }
    },
  });
});

/**
 * Where the platform relays to an agent: the agent it hosts at /agents/<name> with the payment probes (in-process the
 * embedded reference's; live, the agent `run --agent-url` names when it is on the target's origin).
 */
interface Relay {
  send(path: string, headers?: ReadonlyArray<readonly [string, string]>, post?: Uint8Array): Promise<TargetResponse>;
}

async function relay(c: CheckContext, t: Target): Promise<Relay> {
  // The agent the platform hosts: in-process the embedded reference's own, live the one --agent-url names.
  const agentUrl = t.hostedAgentUrl ?? context.agentUrl;
  if (agentUrl === undefined || new URL(agentUrl).origin !== new URL(t.environment.platformOrigin).origin) {
    c.notRun(
      'needs an agent the platform relays to: run with --agent-url naming an agent on the target platform that declares the payment probes (src/reference/agent/conformance-endpoints.ts)',
    );
  }
  // In-process each case builds the platform afresh (with the self-test's fault switched on, if any).
  if (t.kind === 'in-process') await buyer(c, 'relay');
  return {
    async send(path, headers = [], post) {
      const request: TargetRequest = { method: post ? 'POST' : 'GET', url: `${agentUrl!.replace(/\/+$/, '')}${path}`, headers, body: post ?? null };
      const response = await t.send(request);
      c.record({ request: recordRequest(request), response: recordResponse(response) });
      if (response.status === NOT_FOUND) c.notRun(`the agent does not declare ${path}`);
      return response;
    },
  };
}

describe(`7.4 502 upstream_payment_not_relayed where the platform relays to an agent (${target.description})`, () => {
  check({
    id: 'events.relay-agent-challenge',
    title: "an agent's own Payment challenge is answered 502 upstream_payment_not_relayed",
    requirements: ids(E.upstream_payment_not_relayed),
    level: 'MUST',
    run: async (c) => {
      const r = await relay(c, target);
      const response = await r.send(PROBES.paymentChallenge.path);
      const problems = purchaseAnswerProblems(response, E.upstream_payment_not_relayed, exchangeFacts(target, target.environment.now()));
      if (problems.length) expect.fail(problems.join('\n'));
    },
  });

  check({
    id: 'events.relay-agent-receipt',
    title: 'an agent answering with a Payment-Receipt of its own: 502 upstream_payment_not_relayed, no receipt relayed',
    requirements: ids(E.upstream_payment_not_relayed),
    level: 'MUST',
    run: async (c) => {
      const r = await relay(c, target);
      const response = await r.send(PROBES.paymentReceipt.path);
      const problems = purchaseAnswerProblems(response, E.upstream_payment_not_relayed, exchangeFacts(target, target.environment.now()));
      if (problems.length) expect.fail(problems.join('\n'));
      expect(response.headers[HEADERS.paymentReceipt], 'no Payment-Receipt relayed').toBeUndefined();
    },
  });

  check({
    id: 'events.relay-credential-withheld',
    title: "a buyer's Payment-Authorization never reaches the agent",
    requirements: ids(E.upstream_payment_not_relayed),
    level: 'MUST',
    run: async (c) => {
      const r = await relay(c, target);
      const response = await r.send(PROBES.paymentSeen.path, [[HEADERS.paymentAuthorization, 'Payment e30']]);
      expect(response.status, 'the probe answers').toBe(200);
      expect(readPaidAnswer(response).body?.[PAYMENT_SEEN_MEMBER], 'the agent saw a Payment-Authorization').toBe(false);
    },
  });

  check({
    id: 'events.relay-request-kept',
    title: 'a request carrying Payment-Authorization still reaches the agent with its body',
    requirements: ids(E.upstream_payment_not_relayed, ENDPOINT_ERRORS.unsupportedMediaType),
    level: 'MUST',
    run: async (c) => {
      const r = await relay(c, target);
      const body = encoder.encode(JSON.stringify({ relayed: serial++ }));
      const response = await r.send(
        PROBES.echo.path,
        [
          [HEADERS.contentType, MEDIA_TYPES.json],
          [HEADERS.paymentAuthorization, 'Payment e30'],
        ],
        body,
      );
      // 7.4 withholds the credential only; the agent declares the probe for JSON, so only a request stripped of its Content-Type gets 415 (7.2).
      expect(response.status, `the agent's answer to a JSON POST (${ENDPOINT_ERRORS.unsupportedMediaType.status} if the relay dropped its Content-Type)`).toBe(
        200,
      );
    },
  });
});
