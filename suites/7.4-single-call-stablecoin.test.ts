import { afterAll, describe, expect } from 'vitest';
import { dailyCapRetryAfterProblems } from '../src/harness/judge-purchase.js';
import { PAYMENT_PROBLEMS } from '../src/spec/payments.js';
import { READINGS } from '../src/spec/readings.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import { arrange, expectPaidAnswer, expectPaidAnswerOf, cardPayment } from './lib/buyer.js';
import { AGENT_STATES } from '../src/contract/test-control.js';
import { check } from './lib/check.js';
import { PREFER_TEMPO, signTransfer, stablecoinCredential, tempoOffer } from './lib/stablecoin.js';
import { expectServed, expectServedByTransfer, freshProblem, ids, saleSuite, token, EXACT } from './lib/single-call.js';
import { suiteTarget } from './lib/target.js';

/** Section 7.4 single calls bought by stablecoin (a signed Tempo transaction) at the priced resource the target names. */
const target = suiteTarget();
afterAll(() => target.close());

const E = PURCHASE_ERRORS;
const P = PURCHASE_REQUIREMENTS;
const M = PURCHASE_METHOD_REQUIREMENTS;
const { need, buyer, call, payable, tempoCall } = saleSuite(target, 'single-call');

describe(`7.4 single calls bought by stablecoin (${target.description})`, () => {
  check({
    id: 'single-call.stablecoin-fresh-challenge',
    title: 'a stablecoin call transaction one unit short gets a fresh challenge that buys the call',
    requirements: ids(M.stablecoinNonMatching, E.terms_acceptance_unauthenticated, M.stablecoinTransaction),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'tempo-fresh');
      const o = await tempoCall(c, b);
      const unsigned = await call(c, b, { signed: false, headers: stablecoinCredential(o, await signTransfer(o)) });
      expectPaidAnswerOf("the agent's stablecoin call challenge presented unsigned", unsigned, E.terms_acceptance_unauthenticated);
      // The retry names no methods: the fresh challenge is a stablecoin one all the same (READING-NON-MATCHING-TRANSACTION).
      const short = await call(c, b, { headers: { ...EXACT, ...stablecoinCredential(o, await signTransfer(o, { amount: BigInt(o.quote.amount) - 1n })) } });
      expectPaidAnswerOf(`a transaction one base unit short (${READINGS.nonMatchingTransaction.id})`, short, freshProblem(short));
      const fresh = tempoOffer(short, 'the fresh challenge');
      expectPaidAnswerOf(
        'the fresh challenge presented unsigned',
        await call(c, b, { signed: false, headers: stablecoinCredential(fresh, await signTransfer(fresh)) }),
        E.terms_acceptance_unauthenticated,
      );
      const paid = await signTransfer(fresh);
      expectServedByTransfer(await call(c, b, { headers: { ...EXACT, ...stablecoinCredential(fresh, paid) } }), paid);
      // Its challenge paid again with another transaction buys nothing more: the challenge is spent (a fresh one rides), or the call served.
      const again = await call(c, b, { headers: { ...EXACT, ...stablecoinCredential(fresh, await signTransfer(fresh)) } });
      expectPaidAnswerOf(
        `the same challenge paid with another transaction (${READINGS.challengePaidAgain.id})`,
        again,
        again.status === 409 ? E.call_already_served : PAYMENT_PROBLEMS.invalidChallenge,
      );

      const theirs = tempoOffer(await call(c, b, { signed: false, headers: PREFER_TEMPO }), "an unsigned buyer's challenge");
      const unpaid = await call(c, b, {
        signed: false,
        headers: stablecoinCredential(theirs, await signTransfer(theirs, { amount: BigInt(theirs.quote.amount) - 1n })),
      });
      expectPaidAnswerOf('an unsigned transaction one base unit short', unpaid, freshProblem(unpaid));
      tempoOffer(unpaid, "the unsigned buyer's fresh challenge");
    },
  });

  check({
    id: 'single-call.stablecoin-terms-changed',
    title: 'per-call terms changed after a stablecoin challenge: 403 metered_unavailable_for_stablecoin',
    requirements: ids(E.metered_unavailable_for_stablecoin, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const changes = [
        ['the token', AGENT_STATES.stablecoinTokenChanged],
        ["the call's price", AGENT_STATES.callRepriced],
      ] as const;
      for (const [what, state] of changes) {
        const b = await buyer(c, `tempo-terms-${state}`);
        const o = await tempoCall(c, b);
        const payment = stablecoinCredential(o, await signTransfer(o));
        await arrange(target, c, { state, agent: b.agentUrl });
        expectPaidAnswerOf(`${what} changed`, await call(c, b, { headers: { ...EXACT, ...PREFER_TEMPO, ...payment } }), E.metered_unavailable_for_stablecoin);
      }
    },
  });

  for (const later of [
    { id: 'single-call.stablecoin-pending-served-once', what: 'pending', record: E.tempo_settlement_pending },
    { id: 'single-call.stablecoin-unreachable-served-once', what: 'unreachable', record: E.tempo_unavailable },
  ] as const) {
    check({
      id: later.id,
      title: `a stablecoin call whose network is ${later.what} is served once by the same credential`,
      requirements: ids(later.record, P.resumeSameCredential, E.terms_acceptance_unauthenticated),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'stablecoin-network');
        const b = await buyer(c, `tempo-${later.what}`);
        const o = await tempoCall(c, b);
        const serialized = await signTransfer(o);
        const headers = { ...EXACT, ...stablecoinCredential(o, serialized) };
        await arrange(target, c, { state: later.what === 'pending' ? AGENT_STATES.transferPending : AGENT_STATES.broadcastUnreachable, agent: b.agentUrl });
        expectPaidAnswerOf(`the transfer ${later.what}`, await call(c, b, { headers }), later.record);
        // Only the agent the challenge names resumes it: the credential presented unsigned takes nothing (7.4 401).
        expectPaidAnswerOf(
          `the transfer ${later.what}, the credential presented unsigned`,
          await call(c, b, { signed: false, headers: stablecoinCredential(o, serialized) }),
          E.terms_acceptance_unauthenticated,
        );
        expectServedByTransfer(await call(c, b, { headers }), serialized);
        expectPaidAnswerOf(`the transfer ${later.what}, once served`, await call(c, b, { headers }), E.call_already_served);
      },
    });
  }

  check({
    id: 'single-call.stablecoin-failed-takes-no-cap',
    title: 'a stablecoin call the network reports failed gets a fresh challenge and takes no daily purchase',
    requirements: ids(M.stablecoinNonMatching, E.metered_principal_cap),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'tempo-failed');
      // One call a day: the failed transfer bought nothing, so the fresh challenge's still buys it.
      await arrange(target, c, { state: AGENT_STATES.callCapsOne, agent: b.agentUrl });
      await arrange(target, c, { state: AGENT_STATES.transferFails, agent: b.agentUrl });
      const o = await tempoCall(c, b);
      const failed = await call(c, b, { headers: { ...EXACT, ...stablecoinCredential(o, await signTransfer(o)) } });
      expectPaidAnswerOf('a transfer the network reports failed', failed, freshProblem(failed));
      const fresh = tempoOffer(failed, 'the fresh challenge');
      const paid = await signTransfer(fresh);
      expectServedByTransfer(await call(c, b, { headers: { ...EXACT, ...stablecoinCredential(fresh, paid) } }), paid);
    },
  });

  check({
    id: 'single-call.stablecoin-wallet-cap',
    title: "a stablecoin call over the wallet's daily limit: 429 wallet_daily_cap",
    requirements: ids(E.wallet_daily_cap, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'tempo-wallet-cap');
      await arrange(target, c, { state: AGENT_STATES.walletCapOne, agent: b.agentUrl });
      const first = await tempoCall(c, b);
      const serialized = await signTransfer(first);
      expectServedByTransfer(await call(c, b, { headers: { ...EXACT, ...stablecoinCredential(first, serialized) } }), serialized);
      const second = await tempoCall(c, b);
      const capped = await call(c, b, { headers: { ...EXACT, ...stablecoinCredential(second, await signTransfer(second)) } });
      expectPaidAnswer(capped, E.wallet_daily_cap);
      const retryAfter = dailyCapRetryAfterProblems(capped.response);
      if (retryAfter.length) expect.fail(retryAfter.join('\n'));
      const byCard = await payable(c, b);
      expectServed(await call(c, b, { headers: { ...EXACT, ...cardPayment(byCard.echo, token('settled'), byCard.version) } }));
    },
  });
});
