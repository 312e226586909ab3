import { describe, expect, it } from 'vitest';
import { judgeBuyer } from '../../src/client-judge/buyer.js';
import type { ClientExchange, RuleMark, SignerJudgement } from '../../src/client-judge/types.js';
import { challengeEcho, createChallenge, serializeChallenge, type PaymentChallenge } from '../../src/purchase/wire/challenge.js';
import { serializeCredential } from '../../src/purchase/buyer/credential-write.js';

const T0 = 1_800_000_000;
const VERSION = '2026-07-31';
const ACCEPTED: SignerJudgement = { kind: 'accepted', agentUrl: 'https://client.example/agents/alice', coveredFields: [], labels: ['sig1'] };
const challenge = (n: number): PaymentChallenge =>
  createChallenge({ realm: 'platform.test', method: 'stripe', request: { amount: '500', currency: 'usd', n }, createdAt: T0 });
const first = challenge(1);
const second = challenge(2);

/** The credential header value paying `c` with `token`, its echo as issued (or changed). */
const paying = (c: PaymentChallenge, token = 'spt_test_settled_1', echo = challengeEcho(c)) =>
  serializeCredential({ challenge: echo, payload: { spt: token } });

interface Step {
  /** Header fields of the request (the credential, the terms). */
  readonly sent?: Array<[string, string]>;
  readonly signer?: SignerJudgement;
  /** Milliseconds after the previous answer the request arrived. */
  readonly after?: number;
  readonly status: number;
  readonly answer?: Record<string, string>;
  readonly body?: unknown;
}

/** A case's exchanges from steps: each request arrives `after` ms after the previous answer, answered at once. */
function exchanges(steps: readonly Step[]): ClientExchange[] {
  let clock = 0;
  return steps.map((s) => {
    clock += s.after ?? 0;
    const at = clock;
    return {
      request: { method: 'POST', url: 'https://platform.test/api/mpp/credits', headers: s.sent ?? [], body: new Uint8Array(0) },
      receivedAtMs: at,
      response: { status: s.status, headers: s.answer ?? {}, body: new TextEncoder().encode(s.body === undefined ? '' : JSON.stringify(s.body)) },
      answeredAtMs: at,
      signer: s.signer ?? ACCEPTED,
      answeredBy: 'platform',
    };
  });
}

const offered = (c: PaymentChallenge): Step => ({
  status: 402,
  answer: { 'www-authenticate': serializeChallenge(c), 'service-terms-version': VERSION },
  body: { type: 'https://platform.test/problems/payment-required' },
});
const paid = (value: string, extra: Array<[string, string]> = [], header = 'payment-authorization'): Array<[string, string]> => [
  [header, value],
  ['service-terms-accepted', VERSION],
  ...extra,
];
const retry503 = (code: string, sameCredential: boolean): Step => ({
  status: 503,
  answer: { 'retry-after': '1', 'content-type': 'application/json' },
  body: { error: code, error_code: code, retry: { sameCredential, ...(sameCredential ? { credentialHeader: 'Payment-Authorization' } : {}) } },
});
const coded = (status: number, code: string): Step => ({ status, body: { error: code, error_code: code } });

function marks(steps: readonly Step[], rule: RuleMark['rule']): Array<{ met: boolean; exchange: number }> {
  return judgeBuyer(exchanges(steps))
    .filter((m) => m.rule === rule)
    .map(({ met, exchange }) => ({ met, exchange }));
}

describe('judgeBuyer: the buyer rules of 7.4 and section 3, over a case', () => {
  it('echo: a credential echoing an issued challenge meets it; a member changed, or a challenge never issued, breaks it', () => {
    expect(marks([offered(first), { sent: paid(paying(first)), status: 200 }], 'echo')).toEqual([{ met: true, exchange: 1 }]);
    const altered = paying(first, undefined, { ...challengeEcho(first), expires: '2030-01-01T00:00:00.000Z' });
    expect(marks([offered(first), { sent: paid(altered), status: 402 }], 'echo')).toEqual([{ met: false, exchange: 1 }]);
    expect(marks([offered(first), { sent: paid(paying(second)), status: 402 }], 'echo')).toEqual([{ met: false, exchange: 1 }]);
    expect(marks([{ sent: paid('Payment !!!'), status: 401 }], 'echo')).toEqual([{ met: false, exchange: 0 }]);
  });

  it('echo: the members in another order are the same challenge (mppx writes its own order)', () => {
    const echo = challengeEcho(first);
    const reordered = Object.fromEntries(Object.entries(echo).reverse()) as typeof echo;
    expect(marks([offered(first), { sent: paid(paying(first, undefined, reordered)), status: 200 }], 'echo')).toEqual([{ met: true, exchange: 1 }]);
  });

  it('terms: the paid retry accepts the version the 402 named, in Payment-Authorization', () => {
    expect(marks([offered(first), { sent: paid(paying(first)), status: 200 }], 'termsAccepted')).toEqual([{ met: true, exchange: 1 }]);
    expect(marks([offered(first), { sent: [['payment-authorization', paying(first)]], status: 402 }], 'termsAccepted')).toEqual([{ met: false, exchange: 1 }]);
    const stale: Array<[string, string]> = [
      ['payment-authorization', paying(first)],
      ['service-terms-accepted', '2025-01-01'],
    ];
    expect(marks([offered(first), { sent: stale, status: 402 }], 'termsAccepted')).toEqual([{ met: false, exchange: 1 }]);
    expect(marks([offered(first), { sent: paid(paying(first), [], 'authorization'), status: 402 }], 'termsAccepted')).toEqual([{ met: false, exchange: 1 }]);
  });

  it('same credential: after a 503 asking for it, the very credential comes back in Payment-Authorization', () => {
    const value = paying(first);
    const asked = [offered(first), { sent: paid(value), ...retry503('charge_processing', true) }];
    expect(marks([...asked, { sent: paid(value), after: 1000, status: 200 }], 'sameCredential')).toEqual([{ met: true, exchange: 2 }]);
    expect(marks([...asked, { sent: paid(paying(first, 'spt_test_settled_fresh')), after: 1000, status: 200 }], 'sameCredential')).toEqual([
      { met: false, exchange: 2 },
    ]);
    expect(marks([...asked, { after: 1000, ...offered(second) }], 'sameCredential')).toEqual([{ met: false, exchange: 2 }]);
    expect(marks([...asked, { sent: paid(value, [], 'authorization'), after: 1000, status: 200 }], 'sameCredential')).toEqual([{ met: false, exchange: 2 }]);
    // A client that stops there breaks nothing: nothing is judged (READING-CLIENT-STOPS).
    expect(marks(asked, 'sameCredential')).toEqual([]);
  });

  it('one credential per challenge: presented again it decodes to the same one', () => {
    const value = paying(first);
    const asked = [offered(first), { sent: paid(value), ...retry503('grant_failed', true) }];
    expect(marks([...asked, { sent: paid(value), after: 1000, status: 200 }], 'oneCredential')).toEqual([{ met: true, exchange: 2 }]);
    expect(marks([...asked, { sent: paid(paying(first, 'other')), after: 1000, status: 200 }], 'oneCredential')).toEqual([{ met: false, exchange: 2 }]);
    expect(marks([offered(first), { sent: paid(value), status: 200 }], 'oneCredential')).toEqual([]);
  });

  it('Retry-After: the re-presentation waits for it, less 50 ms for two timers', () => {
    const value = paying(first);
    const asked = [offered(first), { sent: paid(value), ...retry503('charge_outcome_unknown', true) }];
    expect(marks([...asked, { sent: paid(value), after: 1000, status: 200 }], 'retryAfter')).toEqual([{ met: true, exchange: 2 }]);
    expect(marks([...asked, { sent: paid(value), after: 960, status: 200 }], 'retryAfter')).toEqual([{ met: true, exchange: 2 }]);
    expect(marks([...asked, { sent: paid(value), after: 900, status: 200 }], 'retryAfter')).toEqual([{ met: false, exchange: 2 }]);
    expect(marks([...asked, { sent: paid(value), after: 0, status: 200 }], 'retryAfter')).toEqual([{ met: false, exchange: 2 }]);
  });

  it('resend unpaid: after 409 purchase_already_granted or 503 funding_failed the request comes back without the credential', () => {
    const value = paying(first);
    for (const refusal of [coded(409, 'purchase_already_granted'), retry503('funding_failed', false)]) {
      const refused = [offered(first), { sent: paid(value), ...refusal }];
      expect(marks([...refused, { status: 200 }], 'resendUnpaid')).toEqual([{ met: true, exchange: 2 }]);
      expect(marks([...refused, { sent: paid(value), status: 409 }], 'resendUnpaid')).toEqual([{ met: false, exchange: 2 }]);
      expect(marks([...refused, { status: 200 }, { sent: paid(value), status: 409 }], 'resendUnpaid')).toEqual([
        { met: true, exchange: 2 },
        { met: false, exchange: 3 },
      ]);
    }
  });

  it('upstream: after 502 upstream_payment_not_relayed no credential follows', () => {
    const value = paying(first);
    const relayed = [offered(first), { sent: paid(value), ...coded(502, 'upstream_payment_not_relayed') }];
    expect(marks(relayed, 'upstream')).toEqual([{ met: true, exchange: 1 }]);
    expect(marks([...relayed, { status: 402 }], 'upstream')).toEqual([{ met: true, exchange: 1 }]);
    expect(marks([...relayed, { sent: paid(value), status: 502 }], 'upstream')).toEqual([{ met: false, exchange: 2 }]);
  });

  it('pointer: followed only when both hosts are allowed and a daily cap is configured (section 6)', () => {
    const POINTER = 'https://platform.test/api/mpp/credits';
    const railed = (extra: Step[]) =>
      exchanges([
        { status: 402, body: { error: 'Budget exhausted', requirements: { schemes: [{ scheme: 'token' }, { scheme: 'mpp', purchase_url: POINTER }] } } },
        ...extra,
      ]);
    // The rail is at platform.test too (the exchanges' request URL): its host and the pointer's are the same.
    const follows: Step[] = [{ status: 402 }];
    const pointerMarks = (steps: Step[], buyer: { allowedHosts: string[]; dailyCapCents: number | null }) =>
      judgeBuyer(railed(steps), buyer)
        .filter((m) => m.rule === 'pointer')
        .map(({ met, exchange }) => ({ met, exchange }));
    expect(pointerMarks([], { allowedHosts: ['platform.test'], dailyCapCents: null })).toEqual([{ met: true, exchange: 0 }]);
    expect(pointerMarks(follows, { allowedHosts: ['platform.test'], dailyCapCents: null })).toEqual([{ met: false, exchange: 1 }]);
    expect(pointerMarks(follows, { allowedHosts: ['agents.example'], dailyCapCents: 5000 })).toEqual([{ met: false, exchange: 1 }]);
    expect(pointerMarks(follows, { allowedHosts: ['platform.test'], dailyCapCents: 5000 })).toEqual([{ met: true, exchange: 1 }]);
    // Allowed and not followed: nothing to judge (a buyer may always decline).
    expect(pointerMarks([], { allowedHosts: ['platform.test'], dailyCapCents: 5000 })).toEqual([]);
  });

  it('submit: on the agent socket payment.submit (scheme balance) comes only after the challenge of payment.required was paid (6)', () => {
    const value = paying(first);
    // Request 1 is the signed upgrade (101); payment.required arrives after it; request 2 pays at purchase_url.
    const socket: Step[] = [{ status: 101 }, { sent: paid(value), status: 200 }];
    const required = {
      from: 'platform' as const,
      atMs: 0,
      afterExchanges: 1,
      text: JSON.stringify({
        type: 'payment.required',
        event_id: 'evt_1',
        requirements: {
          amount: '0.001',
          currency: 'usd',
          schemes: [
            { scheme: 'token' },
            {
              scheme: 'mpp',
              challenge: serializeChallenge(first),
              purchase_url: 'https://platform.test/api/mpp/credits',
              terms: { url: 'https://platform.test/terms', version: VERSION },
            },
          ],
        },
      }),
    };
    const submit = (afterExchanges: number, scheme = 'balance') => ({
      from: 'client' as const,
      atMs: 0,
      afterExchanges,
      text: JSON.stringify({ type: 'payment.submit', event_id: 'evt_c2', payment: { scheme, amount: '0.001' } }),
    });
    const judged = (frames: Parameters<typeof judgeBuyer>[2]) => judgeBuyer(exchanges(socket), undefined, frames);
    const of = (rule: RuleMark['rule'], frames: Parameters<typeof judgeBuyer>[2]) =>
      judged(frames)
        .filter((m) => m.rule === rule)
        .map((m) => m.met);
    // The in-band challenge counts as issued: its credential echoes it and accepts the frame's terms version.
    expect(of('echo', [required, submit(2)])).toEqual([true]);
    expect(of('termsAccepted', [required, submit(2)])).toEqual([true]);
    expect(of('submit', [required, submit(2)])).toEqual([true]);
    expect(of('submit', [required, submit(1)])).toEqual([false]);
    expect(of('submit', [required, submit(2, 'token')])).toEqual([false]);
    // Without the frame the credential pays a challenge no answer issued.
    expect(of('echo', [])).toEqual([false]);
  });

  it('terms signed: after 401 terms_acceptance_unauthenticated the credential comes back only on a signed request', () => {
    const value = paying(first);
    const refused = [offered(first), { sent: paid(value), ...coded(401, 'terms_acceptance_unauthenticated') }];
    expect(marks([...refused, { sent: paid(value), status: 200 }], 'termsSigned')).toEqual([{ met: true, exchange: 2 }]);
    expect(marks([...refused, { sent: paid(value), signer: { kind: 'unsigned', bearer: false }, status: 401 }], 'termsSigned')).toEqual([
      { met: false, exchange: 2 },
    ]);
    expect(marks([...refused, { sent: paid(value), signer: { kind: 'unsigned', bearer: true }, status: 200 }], 'termsSigned')).toEqual([
      { met: true, exchange: 2 },
    ]);
  });
});
