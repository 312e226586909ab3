import { createHash, randomBytes } from 'node:crypto';
import type { CaseDocuments } from '../../cases/types.js';
import { generateEd25519Jwk, jwkThumbprint } from '../../httpsig/index.js';
import { pointerUrlOf } from '../../client-judge/pointer.js';
import { decidePointer } from '../../purchase/buyer/pointer-rule.js';
import { singlePaymentChallenge } from '../../purchase/wire/challenge-parse.js';
import { expiresAtSeconds } from '../../purchase/wire/challenge.js';
import { parseCredential } from '../../purchase/wire/credential.js';
import { serializeCredential } from '../../purchase/buyer/credential-write.js';
import { tempoQuoteOf } from '../../purchase/machine/tempo/quote.js';
import { quotedTransfer, signTransfer } from './transfer.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import {
  PAYMENT_CREDENTIAL_HEADER,
  PAYMENT_METHODS,
  PURCHASE_BODY_MEMBERS,
  RETRY_MEMBERS,
  STRIPE_PAYLOAD_MEMBERS,
  TEMPO_PAYLOAD_MEMBERS,
  TEMPO_PAYLOAD_TYPES,
  TERMS_OBJECT_MEMBERS,
} from '../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import { AUTH_SCHEMES, CARD_FIELDS, ED25519_JWK, SIGNATURE_AGENT_TYPES, WELL_KNOWN } from '../../spec/wire.js';
import { planSignature, signPlan, type OutgoingRequest } from './sign.js';
import type {
  BuyerAnswer,
  BuyerState,
  ClientChoices,
  ClientClock,
  ClientEnvironment,
  ClientFault,
  ClientIdentity,
  ClientTarget,
  InbandSteps,
  NextStep,
  Payment,
  SocketConnect,
} from './types.js';
import {
  FRAME_MEMBERS,
  INBAND_FRAME_TYPES,
  INBAND_SCHEMES,
  PAYMENT_REQUIREMENTS_MEMBERS,
  PAYMENT_SUBMIT_MEMBERS,
  SCHEME_ENTRY_MEMBERS,
} from '../../spec/inband.js';

/** The most requests the reference client sends in one case: enough for every case, and a bound on any fault. */
const MAX_REQUESTS = 8;
const DEFAULT_WINDOW_S = 60;
const DEFAULT_NONCE_LENGTH = 43;
/** When a Retry-After that is due is missing or unreadable, the client waits this long. */
const FALLBACK_WAIT_S = 1;

export interface ReferenceClientOptions {
  readonly identity: ClientIdentity;
  /** Opens the agent socket with a signed upgrade (a ws:// request URL); none: socket cases are not played. */
  readonly connect?: SocketConnect;
  readonly fetch: (url: string, init: { method: string; headers: Array<[string, string]>; body?: Uint8Array }) => Promise<Response>;
  readonly clock: ClientClock;
  readonly choices?: ClientChoices;
  readonly faults?: readonly ClientFault[];
  /** Random bytes (nonces); node:crypto by default. */
  readonly random?: (n: number) => Uint8Array;
}

/** What the client did in a case: each answer's status and code, and why it stopped. */
export interface ClientTrace {
  readonly answers: readonly { readonly status: number; readonly code: string | undefined }[];
  readonly stopped: string;
}

function jsonBody(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** An answer as the buyer reads it: status, code and retry object of the body, Retry-After, the one Payment challenge. */
async function readAnswer(response: Response): Promise<BuyerAnswer> {
  const body = jsonBody(await response.text());
  const pointer = pointerUrlOf(response.status, body);
  const code = typeof body?.[PURCHASE_BODY_MEMBERS.errorCode] === 'string' ? (body[PURCHASE_BODY_MEMBERS.errorCode] as string) : undefined;
  const retry = body?.[PURCHASE_BODY_MEMBERS.retry] as Record<string, unknown> | undefined;
  const www = response.headers.get(HEADERS.wwwAuthenticate);
  const parsed = response.status === 402 && www !== null ? singlePaymentChallenge(www) : undefined;
  const retryAfter = response.headers.get(HEADERS.retryAfter);
  return {
    status: response.status,
    code,
    retry:
      retry !== null && typeof retry === 'object'
        ? { sameCredential: retry[RETRY_MEMBERS.sameCredential] === true, credentialHeader: retry[RETRY_MEMBERS.credentialHeader] as string | undefined }
        : undefined,
    retryAfterS: retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : undefined,
    challenge: parsed?.ok ? { challenge: parsed.challenge, echo: parsed.echo } : undefined,
    termsVersion: response.headers.get(HEADERS.termsVersion) ?? undefined,
    pointer,
  };
}

const isCode = (answer: BuyerAnswer, code: keyof typeof PURCHASE_ERRORS) => answer.code === PURCHASE_ERRORS[code].code;

/**
 * The reference buyer's decision after an answer (7.4, section 3): a 2xx is final; a 402 is paid once per challenge,
 * with the card token, echoing the challenge as it arrived and accepting the version it names; a 503 whose
 * retry.sameCredential is true gets exactly the same credential again after Retry-After, in the header it names;
 * 409 purchase_already_granted and 503 funding_failed get the request again without the credential; a 401
 * terms_acceptance_unauthenticated gets the credential again on a signed request; a rail's purchase pointer is
 * followed only as section 6 allows (decidePointer), the call sent again once the pack is bought; anything else ends
 * the case. A stablecoin challenge is paid with the wallet's signed transfer of exactly the quote.
 */
async function decideNext(
  answer: BuyerAnswer,
  state: BuyerState,
  paid: ReadonlySet<string>,
  env: ClientEnvironment,
  choices: ClientChoices,
  faults: readonly ClientFault[],
): Promise<NextStep> {
  const wait = (seconds: number | undefined) => (seconds ?? FALLBACK_WAIT_S) * 1000 + (choices.extraWaitMs ?? 0);
  if (answer.status >= 200 && answer.status < 300) {
    // A pack bought at a pointer's purchase_url: the call that waited goes again.
    if (state.target !== state.original) return { kind: 'send', waitMs: 0, payment: null, signed: true, target: state.original };
    return { kind: 'stop', why: `${answer.status}: done` };
  }
  if (answer.status === 402 && !answer.challenge && answer.pointer !== undefined) {
    const decision = decidePointer(answer.pointer, state.target.url, { allowedHosts: env.allowedHosts, dailyCapCents: env.dailyCap });
    if (decision.decision === 'refuse') return { kind: 'stop', why: `${decision.reason}: ${decision.detail}` };
    return {
      kind: 'send',
      waitMs: 0,
      payment: null,
      signed: true,
      target: { url: decision.url, method: 'POST', body: new Uint8Array(0), contentType: undefined },
    };
  }
  if (answer.status === 402) {
    const offer = answer.challenge;
    if (!offer) return { kind: 'stop', why: '402 without one readable Payment challenge' };
    if (paid.has(offer.challenge.id)) return { kind: 'stop', why: `challenge ${offer.challenge.id} was paid already` };
    if (offer.challenge.method === PAYMENT_METHODS.tempo) {
      const quote = tempoQuoteOf(offer.challenge.request);
      if (env.walletKey === undefined || !quote.ok)
        return { kind: 'stop', why: '402 for a stablecoin transfer: no wallet (APC_WALLET_KEY), or no quote to pay' };
      let shape = quotedTransfer(quote.quote, expiresAtSeconds(offer.challenge) - (choices.transferMarginS ?? 0));
      for (const f of faults) if (f.transfer) shape = f.transfer(shape);
      const { serialized, source } = await signTransfer(env.walletKey, shape);
      const value = serializeCredential({
        challenge: offer.echo,
        payload: { [TEMPO_PAYLOAD_MEMBERS.type]: TEMPO_PAYLOAD_TYPES.transaction, [TEMPO_PAYLOAD_MEMBERS.signature]: serialized },
        source,
      });
      return { kind: 'send', waitMs: 0, payment: { header: HEADERS.paymentAuthorization, value, termsVersion: answer.termsVersion ?? null }, signed: true };
    }
    if (offer.challenge.method !== PAYMENT_METHODS.stripe)
      return { kind: 'stop', why: `402 for method ${offer.challenge.method}: this client pays by card or stablecoin` };
    const echo = choices.echoReversed ? (Object.fromEntries(Object.entries(offer.echo).reverse()) as typeof offer.echo) : offer.echo;
    const value = choices.echoReversed
      ? `${AUTH_SCHEMES.payment} ${Buffer.from(JSON.stringify({ challenge: echo, payload: { [STRIPE_PAYLOAD_MEMBERS.spt]: state.cardToken } })).toString('base64url')}`
      : serializeCredential({ challenge: echo, payload: { [STRIPE_PAYLOAD_MEMBERS.spt]: state.cardToken } });
    return { kind: 'send', waitMs: 0, payment: { header: HEADERS.paymentAuthorization, value, termsVersion: answer.termsVersion ?? null }, signed: true };
  }
  if (answer.retry?.sameCredential && state.payment) {
    if (choices.stopWhenAskedToWait) return { kind: 'stop', why: `${answer.status} ${answer.code}: this client gives up rather than wait` };
    const value = choices.reencodeOnRetry ? reencoded(state.payment.value) : state.payment.value;
    return {
      kind: 'send',
      waitMs: wait(answer.retryAfterS),
      payment: { ...state.payment, value, header: (answer.retry.credentialHeader ?? PAYMENT_CREDENTIAL_HEADER).toLowerCase() },
      signed: true,
    };
  }
  if (isCode(answer, 'purchase_already_granted') || isCode(answer, 'funding_failed'))
    return { kind: 'send', waitMs: answer.retryAfterS === undefined ? 0 : wait(answer.retryAfterS), payment: null, signed: true };
  if (isCode(answer, 'terms_acceptance_unauthenticated') && state.payment) return { kind: 'send', waitMs: 0, payment: state.payment, signed: true };
  return { kind: 'stop', why: `${answer.status} ${answer.code ?? ''}: final`.trim() };
}

/** Sends requests signed as 5.2 says (with the choices and faults of the run), a serial per request. */
class SignedSender {
  private serial = 0;
  private readonly nonce: () => string;
  private readonly signatureAgent: { url: string; type: string };

  constructor(
    private readonly env: ClientEnvironment,
    private readonly options: ReferenceClientOptions,
  ) {
    const choices = options.choices ?? {};
    const random = options.random ?? ((n: number) => new Uint8Array(randomBytes(n)));
    const nonceLength = choices.nonceLength ?? DEFAULT_NONCE_LENGTH;
    this.nonce = () => {
      let text = '';
      while (text.length < nonceLength) text += Buffer.from(random(48)).toString('base64url');
      return text.slice(0, nonceLength);
    };
    this.signatureAgent = signatureAgentOf(options.identity, choices);
  }

  /** The request to `target` as it goes out: its header fields, the credential and terms when paying, signed unless told not to. */
  prepare(target: ClientTarget, payment: Payment | null, signed: boolean): OutgoingRequest {
    const choices = this.options.choices ?? {};
    const faults = this.options.faults ?? [];
    const headers: Array<[string, string]> = [];
    if (target.body.length > 0) headers.push([HEADERS.contentType, target.contentType ?? MEDIA_TYPES.json]);
    // A buyer with a wallet prefers the stablecoin (7.4: Service-Payment-Methods, covered when signed).
    if (this.env.walletKey !== undefined) headers.push([HEADERS.paymentMethods, `${PAYMENT_METHODS.tempo}, ${PAYMENT_METHODS.stripe}`]);
    if (payment) {
      headers.push([payment.header, payment.value]);
      if (payment.termsVersion !== null) headers.push([HEADERS.termsAccepted, payment.termsVersion]);
    }
    let outgoing: OutgoingRequest;
    if (signed) {
      let plan = planSignature({
        method: target.method,
        url: target.url,
        headers,
        body: target.body,
        keys: this.options.identity.keys,
        signatureAgent: this.signatureAgent,
        nowS: Math.floor(this.options.clock.nowMs() / 1000),
        windowS: choices.windowS ?? DEFAULT_WINDOW_S,
        nonce: this.nonce,
        digest: choices.digest ?? 'sha-256',
        alg: choices.alg ?? true,
        coverHeaders: choices.coverHeaders ?? [],
      });
      for (const f of faults) if (f.plan) plan = f.plan(plan, { serial: this.serial });
      outgoing = signPlan(plan);
    } else outgoing = { method: target.method, url: target.url, headers, body: target.body };
    this.serial++;
    for (const f of faults) if (f.sent) outgoing = f.sent(outgoing);
    return outgoing;
  }

  async send(target: ClientTarget, payment: Payment | null, signed: boolean): Promise<Response> {
    const outgoing = this.prepare(target, payment, signed);
    return this.options.fetch(outgoing.url, {
      method: outgoing.method,
      headers: outgoing.headers.map(([n, v]) => [n, v]),
      ...(outgoing.method === 'GET' || outgoing.method === 'HEAD' ? {} : { body: outgoing.body }),
    });
  }
}

/**
 * The reference client of client mode: signs every request as 5.2 says (the platform SDK's form, with the choices a
 * variant makes) and buys as 7.4 and section 6 say, until a final answer. A ws:// or wss:// request URL is the agent
 * socket: a signed upgrade, then the in-band purchase. Faults (src/mutants/client.ts) break one rule of it.
 */
export async function runReferenceClient(env: ClientEnvironment, options: ReferenceClientOptions): Promise<ClientTrace> {
  const sender = new SignedSender(env, options);
  if (/^wss?:/i.test(env.requestUrl)) return runSocketCase(env, options, sender);
  const choices = options.choices ?? {};
  const faults = options.faults ?? [];
  const answers: { status: number; code: string | undefined }[] = [];
  const paid = new Set<string>();
  let payment: Payment | null = null;
  let signed = true;
  const original: ClientTarget = { url: env.requestUrl, method: env.requestMethod, body: env.requestBody, contentType: env.requestContentType };
  let target = original;
  for (let sent = 0; sent < MAX_REQUESTS; sent++) {
    const response = await sender.send(target, payment, signed);
    const answer = await readAnswer(response);
    answers.push({ status: answer.status, code: answer.code ?? answer.challenge?.challenge.method });
    const state: BuyerState = { payment, cardToken: env.cardToken, sent: sent + 1, target, original };
    let next = await decideNext(answer, state, paid, env, choices, faults);
    for (const f of faults) if (f.next) next = await f.next(next, answer, state);
    if (next.kind === 'send' && next.payment && next.payment !== payment) {
      let chosen: Payment = next.payment;
      for (const f of faults) if (f.payment) chosen = f.payment(chosen, answer, state);
      next = { ...next, payment: chosen };
    }
    if (next.kind === 'stop') return { answers, stopped: next.why };
    if (answer.challenge && next.payment) paid.add(answer.challenge.challenge.id);
    await options.clock.sleep(next.waitMs);
    payment = next.payment;
    signed = next.signed;
    target = next.target ?? target;
  }
  return { answers, stopped: `${MAX_REQUESTS} requests sent` };
}

/** The mpp entry of payment.required that carries a challenge: the challenge value, where to pay, and the terms version. */
function challengeEntryOf(frame: Record<string, unknown>): { challenge: string; purchaseUrl: string; version: string | null; amount: string } | undefined {
  const requirements = frame[FRAME_MEMBERS.requirements] as Record<string, unknown> | undefined;
  const schemes = requirements?.[PAYMENT_REQUIREMENTS_MEMBERS.schemes];
  if (!Array.isArray(schemes)) return undefined;
  for (const entry of schemes as Array<Record<string, unknown>>) {
    const challenge = entry?.[SCHEME_ENTRY_MEMBERS.challenge];
    const purchaseUrl = entry?.[SCHEME_ENTRY_MEMBERS.purchaseUrl];
    if (entry?.[SCHEME_ENTRY_MEMBERS.scheme] !== INBAND_SCHEMES.mpp || typeof challenge !== 'string' || typeof purchaseUrl !== 'string') continue;
    const terms = entry[SCHEME_ENTRY_MEMBERS.terms] as Record<string, unknown> | undefined;
    const version = typeof terms?.[TERMS_OBJECT_MEMBERS.version] === 'string' ? (terms[TERMS_OBJECT_MEMBERS.version] as string) : null;
    return { challenge, purchaseUrl, version, amount: String(requirements?.[PAYMENT_REQUIREMENTS_MEMBERS.amount] ?? '0') };
  }
  return undefined;
}

/**
 * The agent socket (4.2, 6): a signed upgrade, a turn asked for; payment.required is paid at its purchase_url with
 * the card token (a signed POST echoing the frame's challenge and accepting its terms), and only then payment.submit
 * with scheme balance; the turn's response.done ends the case.
 */
async function runSocketCase(env: ClientEnvironment, options: ReferenceClientOptions, sender: SignedSender): Promise<ClientTrace> {
  const answers: { status: number; code: string | undefined }[] = [];
  if (!options.connect) return { answers, stopped: 'no socket connector' };
  let steps: InbandSteps = { submitBeforePaying: false, scheme: INBAND_SCHEMES.balance };
  for (const f of options.faults ?? []) if (f.inband) steps = f.inband(steps);
  const upgrade = sender.prepare({ url: env.requestUrl, method: 'GET', body: new Uint8Array(0), contentType: undefined }, null, true);
  const socket = await options.connect(upgrade.url, upgrade.headers);
  if ('refused' in socket) return { answers: [{ status: socket.refused, code: undefined }], stopped: `upgrade refused ${socket.refused}` };
  answers.push({ status: 101, code: undefined });
  let events = 0;
  const frame = (value: Record<string, unknown>) => socket.send(JSON.stringify({ ...value, [FRAME_MEMBERS.eventId]: `evt_client_${++events}` }));
  try {
    frame({ [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.responseCreate, [FRAME_MEMBERS.input]: 'hello' });
    for (let n = 0; n < MAX_REQUESTS; n++) {
      const text = await socket.next(10_000);
      if (text === null) return { answers, stopped: 'the socket said nothing more' };
      const received = JSON.parse(text) as Record<string, unknown>;
      const type = received[FRAME_MEMBERS.type];
      answers.push({ status: 0, code: String(type) });
      if (type === INBAND_FRAME_TYPES.responseDone) return { answers, stopped: 'response.done: done' };
      if (type === INBAND_FRAME_TYPES.responseError) return { answers, stopped: 'response.error: final' };
      if (type !== INBAND_FRAME_TYPES.paymentRequired) continue;
      const entry = challengeEntryOf(received);
      const parsed = entry === undefined ? undefined : singlePaymentChallenge(entry.challenge);
      if (!entry || !parsed?.ok || parsed.challenge.method !== PAYMENT_METHODS.stripe)
        return { answers, stopped: 'payment.required without a card challenge this client pays' };
      const submit = () =>
        frame({
          [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.paymentSubmit,
          [FRAME_MEMBERS.payment]: { [PAYMENT_SUBMIT_MEMBERS.scheme]: steps.scheme, [PAYMENT_SUBMIT_MEMBERS.amount]: entry.amount },
        });
      if (steps.submitBeforePaying) submit();
      const value = serializeCredential({ challenge: parsed.echo, payload: { [STRIPE_PAYLOAD_MEMBERS.spt]: env.cardToken } });
      const response = await sender.send(
        { url: entry.purchaseUrl, method: 'POST', body: new Uint8Array(0), contentType: undefined },
        { header: HEADERS.paymentAuthorization, value, termsVersion: entry.version },
        true,
      );
      await response.arrayBuffer();
      answers.push({ status: response.status, code: undefined });
      if (response.status < 200 || response.status >= 300) return { answers, stopped: `the purchase at ${entry.purchaseUrl} answered ${response.status}` };
      if (!steps.submitBeforePaying) submit();
    }
    return { answers, stopped: `${MAX_REQUESTS} frames read` };
  } finally {
    socket.close();
  }
}

/**
 * The same credential in another encoding: its members in reverse order, not the canonical JSON
 * (READING-CLIENT-SAME-CREDENTIAL: the same challenge, payload and source is the same credential).
 */
function reencoded(value: string): string {
  const parsed = parseCredential(value);
  if (!parsed.ok) return value;
  const { challenge, payload, source } = parsed.credential;
  const reversed = Object.fromEntries(Object.entries(challenge).reverse());
  const body = source === undefined ? { payload, challenge: reversed } : { source, payload, challenge: reversed };
  return `${AUTH_SCHEMES.payment} ${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
}

/** What Signature-Agent names: the key set (type=jwks_uri) or the card (type=cimd). */
function signatureAgentOf(identity: ClientIdentity, choices: ClientChoices): { url: string; type: string } {
  return choices.signatureAgentType === 'cimd'
    ? { url: identity.agentUrl + WELL_KNOWN.agentCard, type: SIGNATURE_AGENT_TYPES.cimd }
    : { url: identity.agentUrl + WELL_KNOWN.jwks, type: SIGNATURE_AGENT_TYPES.jwksUri };
}

/** A new identity: an agent URL and `keys` fresh Ed25519 keys (deterministic from `seed` when given). */
export function clientIdentity(agentUrl: string, keys = 1, seed?: string): ClientIdentity {
  return {
    agentUrl: agentUrl.replace(/\/+$/, ''),
    keys: Array.from(
      { length: keys },
      (_, n) => generateEd25519Jwk(seed === undefined ? undefined : new Uint8Array(createHash('sha256').update(`${seed}/${n}`).digest())).privateJwk,
    ),
  };
}

/** The documents the agent publishes at its URL (2.4): its key set and its card, naming themselves. */
export function clientDocuments(identity: ClientIdentity, faults: readonly ClientFault[] = []): CaseDocuments {
  const keySetUrl = identity.agentUrl + WELL_KNOWN.jwks;
  const cardUrl = identity.agentUrl + WELL_KNOWN.agentCard;
  const json = (value: unknown) => ({ status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.json }, body: JSON.stringify(value) });
  const keys = identity.keys.map((k) => ({ kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: k.x, use: ED25519_JWK.use, kid: jwkThumbprint(k) }));
  let documents: CaseDocuments = {
    [keySetUrl]: json({ keys }),
    [cardUrl]: json({
      [CARD_FIELDS.clientId]: cardUrl,
      [CARD_FIELDS.url]: identity.agentUrl,
      [CARD_FIELDS.jwksUri]: keySetUrl,
      name: 'client-mode reference client',
    }),
  };
  for (const f of faults) if (f.documents) documents = f.documents(documents, identity);
  return documents;
}
