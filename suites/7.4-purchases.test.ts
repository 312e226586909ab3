import { afterAll, describe, expect } from 'vitest';
import { judgeRefusal } from '../src/harness/judge-refusal.js';
import { challengeHeaderProblems, termsHeaderProblems } from '../src/harness/judge-purchase.js';
import type { ChallengeEcho } from '../src/purchase/index.js';
import { AUTH_CODES } from '../src/spec/auth-errors.js';
import { HEADERS } from '../src/spec/headers.js';
import { LIMITS } from '../src/spec/limits.js';
import { CREDENTIAL_MEMBERS, PAYMENT_METHOD_OF, PAYMENT_PROBLEMS, PURCHASE_BODY_MEMBERS, STRIPE_PAYLOAD_MEMBERS } from '../src/spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { READINGS } from '../src/spec/readings.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { paymentLiteral } from '../src/scenarios/purchases/dsl.js';
import { arrange, cardPayment, expectPaidAnswer, expectPaidAnswerOf } from './lib/buyer.js';
import { AGENT_STATES } from '../src/contract/test-control.js';
import { check } from './lib/check.js';
import { ALIAS_HOST, UNOFFERED_METHOD, challengeOf, expectAcceptanceUnauthenticated, expectGranted, ids, packSuite, token } from './lib/pack.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 7.4 over HTTP at POST /api/mpp/credits: the 402 challenge, challenges the deployment did not issue, and
 * paying by card. The moves of section 3 are in 7.4-purchase-moves, the refusals before a charge in
 * 7.4-purchase-refusals. A live run presents no payment credential unless it was started with --allow-spend
 * --spend-cap N; it pays with test tokens (spt_test_<outcome>_...), which a deployment in test mode charges with that
 * outcome.
 */
const target = suiteTarget();
afterAll(() => target.close());

const P = PURCHASE_REQUIREMENTS;
const E = PURCHASE_ERRORS;
const { need, buyer, payable } = packSuite(target, 'purchase');

describe(`7.4 machine purchases at POST /api/mpp/credits (${target.description})`, () => {
  describe('the 402 challenge', () => {
    check({
      id: 'purchase.challenge',
      title: 'a request without a credential gets 402 with one Payment challenge for 300 s',
      requirements: [...ids(P.challengeShape, P.challengeLifetime), LIMITS.paymentChallengeLifetime.id],
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'challenge');
        const answer = await b.post();
        expectPaidAnswer(answer, PAYMENT_PROBLEMS.paymentRequired);
        expect(answer.challenges[0]?.challenge.intent, 'intent').toBe('charge');
      },
    });

    check({
      id: 'purchase.challenge-names-credential-header',
      title: 'the 402 challenge says header="Payment-Authorization", where a client following the draft sends it',
      requirements: ids(P.challengeShape),
      level: 'SHOULD',
      run: async (c) => {
        const answer = await (await buyer(c, 'challenge-header')).post();
        expectPaidAnswer(answer, PAYMENT_PROBLEMS.paymentRequired);
        const problems = challengeHeaderProblems(answer.challenges[0]?.challenge);
        if (problems.length) expect.fail(`${problems.join('\n')} (${READINGS.challengeHeaderParam.id})`);
      },
    });

    check({
      id: 'purchase.unsigned-offered-pack',
      title: 'an unsigned caller without a credential is offered the pack too',
      requirements: ids(P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'unsigned');
        expectPaidAnswer(await b.post({ signed: false }), PAYMENT_PROBLEMS.paymentRequired);
      },
    });

    check({
      id: 'purchase.mpp-not-configured',
      title: 'Service-Payment-Methods naming no method offered: 503 mpp_not_configured, retry without the same credential',
      requirements: ids(E.mpp_not_configured),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'methods');
        expectPaidAnswer(await b.post({ headers: { [HEADERS.paymentMethods]: 'no-such-method' } }), E.mpp_not_configured);
      },
    });

    check({
      id: 'purchase.payment-methods-list',
      title: 'Service-Payment-Methods is read as an HTTP list',
      requirements: ids(PURCHASE_METHOD_REQUIREMENTS.methodsHint),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'methods-list');
        // RFC 9110 5.6.1: optional whitespace around the commas, and empty elements a recipient ignores; card is always accepted (7.4).
        const listed = `${UNOFFERED_METHOD}, , ${PAYMENT_METHOD_OF.card}`;
        const answer = await b.post({ headers: { [HEADERS.paymentMethods]: listed } });
        expectPaidAnswerOf(`${HEADERS.paymentMethods}: ${listed}`, answer, PAYMENT_PROBLEMS.paymentRequired);
        expect(answer.challenges[0]?.challenge.method, 'the method the challenge names').toBe(PAYMENT_METHOD_OF.card);
      },
    });

    check({
      id: 'purchase.verifier-401',
      title: "a signed request that does not verify gets the verifier's 401 on the paid surface",
      requirements: ids(P.verifierCodeOnPaidSurface),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'bad-signature');
        await target.ready?.(1);
        b.sync();
        const answer = await b.send(
          b.kit.request({
            url: b.kit.url(PLATFORM_ROUTES.mppCredits),
            labels: [{ label: 'sig1', key: b.kit.A, tamper: (s) => s.map((x, i) => (i === 0 ? x ^ 1 : x)) }],
          }),
        );
        const judged = judgeRefusal(answer.response, true, target.environment.naming);
        expect(answer.status, 'status').toBe(401);
        expect(judged.code, 'error_code').toBe(AUTH_CODES.signature_invalid);
        if (judged.problems.length) expect.fail(judged.problems.join('\n'));
      },
    });

    check({
      id: 'purchase.cli-token-same-refusal',
      title: 'POST /api/auth/cli/token refuses as the paid surface refuses',
      requirements: ids(P.cliTokenSameRefusal, P.verifierCodeOnPaidSurface),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'cli-token');
        const skew = LIMITS.clockSkew.value;
        // Expired well past the skew; the second is also signed for another host, so an order of checks decides its code.
        const faults: ReadonlyArray<{ readonly name: string; readonly url: (path: string) => string }> = [
          { name: 'an expired signature', url: (path) => b.kit.url(path) },
          { name: 'an expired signature made for another host', url: (path) => b.kit.onHost(ALIAS_HOST, path) },
        ];
        for (const fault of faults) {
          // A description may quote the time (how long ago it expired): live, the pair is sent again if the second turned between them.
          const attempts = target.kind === 'live' ? 3 : 1;
          let differences: string[] = [];
          for (let attempt = 0; attempt < attempts; attempt++) {
            await target.ready?.(2);
            const now = b.sync();
            const signed = (path: string) => b.kit.request({ url: fault.url(path), created: now - 3 * skew, expires: now - 2 * skew });
            const cli = await b.send(signed(PLATFORM_ROUTES.cliToken));
            const paid = await b.send(signed(PLATFORM_ROUTES.mppCredits));
            expect(cli.status, `${PLATFORM_ROUTES.cliToken} refuses ${fault.name}`).toBe(401);
            expect(paid.status, `${PLATFORM_ROUTES.mppCredits} refuses ${fault.name}`).toBe(401);
            differences = [PURCHASE_BODY_MEMBERS.errorCode, PURCHASE_BODY_MEMBERS.errorDescription].flatMap((member) =>
              cli.body?.[member] === paid.body?.[member] && typeof cli.body?.[member] === 'string'
                ? []
                : [
                    `${fault.name}: ${member} ${JSON.stringify(cli.body?.[member])} at ${PLATFORM_ROUTES.cliToken}, ${JSON.stringify(paid.body?.[member])} on the paid surface`,
                  ],
            );
            if (differences.length === 0) break;
          }
          if (differences.length) expect.fail(differences.join('\n'));
        }
      },
    });

    check({
      id: 'purchase.malformed-credential',
      title: 'an unreadable credential gets 402 malformed-credential with a fresh challenge',
      requirements: ids(P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'malformed');
        const payload = { [STRIPE_PAYLOAD_MEMBERS.spt]: token('settled') };
        const unreadable = [
          'Payment not-base64url!',
          'Payment two tokens',
          'Payment',
          `Payment ${Buffer.from('{"challenge": not JSON').toString('base64url')}`,
          `Payment ${Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64url')}`,
          paymentLiteral(null),
          paymentLiteral([]),
          paymentLiteral({ [CREDENTIAL_MEMBERS.payload]: payload }),
          paymentLiteral({ [CREDENTIAL_MEMBERS.challenge]: 'a challenge id', [CREDENTIAL_MEMBERS.payload]: payload }),
        ];
        for (const credential of unreadable) {
          const answer = await b.post({ headers: { [HEADERS.paymentAuthorization]: credential } });
          expectPaidAnswerOf(`${HEADERS.paymentAuthorization}: ${credential}`, answer, PAYMENT_PROBLEMS.malformedCredential);
        }
      },
    });
  });

  describe('challenges the deployment did not issue', () => {
    check({
      id: 'purchase.challenge-not-issued',
      title: 'an echo of a challenge never issued, or altered, is 402 invalid-challenge',
      requirements: ids(P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'not-issued');
        const offer = await payable(c, b);
        const last = offer.echo.id.endsWith('A') ? 'B' : 'A';
        const forged: ReadonlyArray<readonly [string, ChallengeEcho]> = [
          ['an id never issued', { ...offer.echo, id: `${offer.echo.id.slice(0, -1)}${last}` }],
          ['the realm changed', { ...offer.echo, realm: `${offer.echo.realm}.example` }],
        ];
        const paying = token('settled');
        for (const [what, echo] of forged) {
          const answer = await b.post({ headers: cardPayment(echo, paying, offer.version) });
          expectPaidAnswerOf(what, answer, PAYMENT_PROBLEMS.invalidChallenge);
        }
        // Nothing was charged to the token: it still pays the challenge issued (a token that paid is 403 foreign_token).
        expectGranted(await b.post({ headers: cardPayment(offer.echo, paying, offer.version) }));
      },
    });
  });

  describe('paying by card', () => {
    check({
      id: 'purchase.granted-then-already-granted',
      title: 'a paid retry is granted; the same credential again is 409 purchase_already_granted',
      requirements: ids(P.termsOnFunded, E.purchase_already_granted),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'paid');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        const paid = await b.post({ headers });
        expectGranted(paid);
        const terms = termsHeaderProblems(paid.response, paid.facts);
        if (terms.length) expect.fail(terms.join('\n'));
        expectPaidAnswer(await b.post({ headers }), E.purchase_already_granted);
      },
    });

    check({
      id: 'purchase.terms-acceptance-unauthenticated',
      title: 'an unauthenticated credential: 401 terms_acceptance_unauthenticated, nothing charged',
      requirements: ids(E.terms_acceptance_unauthenticated, P.verifierCodeOnPaidSurface),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'unauthenticated');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        expectAcceptanceUnauthenticated(await b.post({ signed: false, headers }));
        // Nothing was credited: the same credential, now signed by the buying agent, is granted (a credit would be 409 purchase_already_granted).
        expectGranted(await b.post({ headers }));
      },
    });

    check({
      id: 'purchase.terms-acceptance-required',
      title: 'no assent, or assent the signature does not cover: 402 terms-acceptance-required with a fresh challenge',
      requirements: ids(E['terms-acceptance-required']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'no-assent');
        const offer = await payable(c, b);
        expectPaidAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), null) }), E['terms-acceptance-required']);
        const uncovered = await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version), cover: [HEADERS.paymentAuthorization] });
        expectPaidAnswer(uncovered, E['terms-acceptance-required']);
      },
    });

    check({
      id: 'purchase.terms-version-stale',
      title: 'assent to a version that is not current: 402 terms-version-stale with a fresh challenge',
      requirements: ids(E['terms-version-stale']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'stale');
        const offer = await payable(c, b);
        expectPaidAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), `${offer.version}-old`) }), E['terms-version-stale']);
      },
    });

    check({
      id: 'purchase.terms-changed-after-challenge',
      title: 'terms changed after the challenge: 402 terms-version-stale naming the new version',
      requirements: ids(E['terms-version-stale']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'terms-changed');
        const offer = await payable(c, b);
        await arrange(target, c, { state: AGENT_STATES.termsChanged, agent: b.agentUrl });
        // The buyer learns the new version as any buyer would, from a fresh challenge, and assents to it under the old one.
        const next = challengeOf(await b.post()).version;
        expect(next, 'the version a fresh challenge names once the terms changed').not.toBe(offer.version);
        const answer = await b.post({ headers: cardPayment(offer.echo, token('settled'), next) });
        expectPaidAnswer(answer, E['terms-version-stale']);
        expect(challengeOf(answer).version, 'the fresh challenge names the new version').toBe(next);
      },
    });

    check({
      id: 'purchase.card-payload-without-token',
      title: 'a card payload without a token gets a 402 with a fresh challenge, never the pack',
      requirements: ids(E['invalid-payload']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'no-token');
        const offer = await payable(c, b);
        const payloads: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
          ['no token', {}],
          ['an empty token', { [STRIPE_PAYLOAD_MEMBERS.spt]: '' }],
          ['a token that is a number', { [STRIPE_PAYLOAD_MEMBERS.spt]: 4242 }],
        ];
        const allowed = [E['invalid-payload'], PAYMENT_PROBLEMS.malformedCredential, PAYMENT_PROBLEMS.verificationFailed];
        for (const [what, payload] of payloads) {
          const answer = await b.post({
            headers: {
              [HEADERS.paymentAuthorization]: paymentLiteral({ [CREDENTIAL_MEMBERS.challenge]: offer.echo, [CREDENTIAL_MEMBERS.payload]: payload }),
              [HEADERS.termsAccepted]: offer.version,
            },
          });
          // READING-CARD-PAYLOAD-WITHOUT-TOKEN: the payload is readable but carries nothing the card method can charge.
          const refusal = allowed.find((r) => answer.refusal === ('slug' in r ? r.slug : r.code)) ?? E['invalid-payload'];
          expectPaidAnswerOf(`${what} (${READINGS.cardPayloadWithoutToken.id})`, answer, refusal);
        }
        // Nothing redeemed the challenge: it still buys the pack with a token.
        expectGranted(await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) }));
      },
    });

    check({
      id: 'purchase.method-unsupported',
      title: 'an echo whose method was changed to one not accepted is refused, nothing charged',
      requirements: ids(E['method-unsupported']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'method');
        const offer = await payable(c, b);
        const echo = { ...offer.echo, method: UNOFFERED_METHOD };
        const paying = token('settled');
        const answer = await b.post({ headers: cardPayment(echo, paying, offer.version) });
        // READING-ECHO-METHOD-CHANGED: the method is not accepted, and the echo is of no challenge issued; no order is given.
        expectPaidAnswerOf(
          `the echo with its method changed (${READINGS.echoMethodChanged.id})`,
          answer,
          answer.status === 402 ? PAYMENT_PROBLEMS.invalidChallenge : E['method-unsupported'],
        );
        // Nothing was charged to the token: it still pays the challenge issued.
        expectGranted(await b.post({ headers: cardPayment(offer.echo, paying, offer.version) }));
      },
    });

    check({
      id: 'purchase.foreign-token',
      title: 'a token that already paid another purchase: 403 foreign_token',
      requirements: ids(E.foreign_token),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'foreign');
        const spent = token('settled');
        const first = await payable(c, b);
        expectGranted(await b.post({ headers: cardPayment(first.echo, spent, first.version) }));
        const second = await payable(c, b);
        expectPaidAnswer(await b.post({ headers: cardPayment(second.echo, spent, second.version) }), E.foreign_token);
      },
    });
  });
});
