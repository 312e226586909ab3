import { afterAll, describe, expect } from 'vitest';
import { dailyCapRetryAfterProblems, termsHeaderProblems } from '../src/harness/judge-purchase.js';
import { ADDRESS_STATES, AGENT_STATES, type AddressState, type AgentState } from '../src/contract/test-control.js';
import { HEADERS } from '../src/spec/headers.js';
import { PAYMENT_PROBLEMS } from '../src/spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import type { PurchaseErrorRecord } from '../src/spec/types.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { arrange, cardPayment, expectPaidAnswer, expectPaidAnswerOf, expectSucceeded } from './lib/buyer.js';
import { check } from './lib/check.js';
import { EXACT, expectServed, ids, offered, ownAddress, saleSuite, token } from './lib/single-call.js';
import { defaultCovered } from '../src/scenarios/request-builder.js';
import { suiteTarget } from './lib/target.js';

/** Section 7.4 single calls: the daily caps (429 with Retry-After), and that the call bought is the request sent. */
const target = suiteTarget();
afterAll(() => target.close());

const E = PURCHASE_ERRORS;
const P = PURCHASE_REQUIREMENTS;
const M = PURCHASE_METHOD_REQUIREMENTS;
const { need, buyer, priced, call, mayPay, payable, callFrom, buyerWithPeer, callAsPeer, bearerBuyer } = saleSuite(target, 'single-call');

describe(`7.4 single calls: daily caps, and the call bought (${target.description})`, () => {
  /** Each daily limit, and the state that brings it to one for this check's buyer alone (its agent, or an address of its own). */
  const caps: ReadonlyArray<{ record: PurchaseErrorRecord; describe: string; state: AgentState | AddressState }> = [
    { record: E.metered_ip_cap, describe: 'unidentified purchases from one address', state: ADDRESS_STATES.addressCapOne },
    { record: E.metered_principal_cap, describe: "an agent's exact top-ups", state: AGENT_STATES.principalCapOne },
    { record: E.metered_instrument_cap, describe: 'single-call purchases with one card', state: AGENT_STATES.cardCapOne },
    { record: E.metered_platform_ceiling, describe: 'single-call purchases on the whole platform', state: AGENT_STATES.platformCeilingOne },
  ];
  for (const cap of caps) {
    check({
      id: `single-call.${cap.record.code.replaceAll('_', '-')}`,
      title: `${cap.describe} over the daily limit: ${cap.record.status} ${cap.record.code}`,
      requirements: ids(cap.record, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        const unidentified = cap.state === ADDRESS_STATES.addressCapOne;
        need(c, 'spend', ...(unidentified ? (['client-address'] as const) : []));
        const b = await buyer(c, cap.record.code);
        const address = ownAddress(b);
        await arrange(target, c, unidentified ? { state: ADDRESS_STATES.addressCapOne, address } : { state: cap.state as AgentState, agent: b.agentUrl });
        const buy = async () => {
          if (unidentified) {
            const offer = offered(await callFrom(c, b, address));
            await mayPay(c, offer.amount);
            return callFrom(c, b, address, cardPayment(offer.echo, token('settled'), offer.version));
          }
          const offer = await payable(c, b);
          return call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) });
        };
        expectServed(await buy());
        const capped = await buy();
        expectPaidAnswer(capped, cap.record);
        const retryAfter = dailyCapRetryAfterProblems(capped.response);
        if (retryAfter.length) expect.fail(retryAfter.join('\n'));
      },
    });
  }

  check({
    id: 'single-call.principal-cap-bearer',
    title: 'an agent buying with a platform bearer is held to its own daily cap',
    requirements: ids(E.metered_principal_cap, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const { b, bearer } = await bearerBuyer(c, 'bearer-cap');
      const [one, other] = [`${b.agentUrl}-one`, `${b.agentUrl}-other`];
      for (const agent of [one, other]) await arrange(target, c, { state: AGENT_STATES.principalCapOne, agent });
      const buys = async (subject: string) => {
        // A bearer request's header fields are all the agent's own: it names the call it buys.
        const offer = await payable(c, b, { signed: false, headers: { ...EXACT, ...(await bearer(subject)) } });
        return call(c, b, { signed: false, headers: { ...EXACT, ...(await bearer(subject)), ...cardPayment(offer.echo, token('settled'), offer.version) } });
      };
      expectServed(await buys(one));
      const capped = await buys(one);
      expectPaidAnswerOf('the same agent, a second call the same day', capped, E.metered_principal_cap);
      const retryAfter = dailyCapRetryAfterProblems(capped.response);
      if (retryAfter.length) expect.fail(retryAfter.join('\n'));
      expectServed(await buys(other));
    },
  });

  check({
    id: 'single-call.caps-count-their-own',
    title: 'each daily limit counts only its own agent or address',
    requirements: ids(E.metered_principal_cap, E.metered_ip_cap),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'client-address');
      const b = await buyerWithPeer(c, 'own-caps');
      // Every limit of one a day; a limit counted beyond its own agent or address refuses the second buyer.
      const addresses = [ownAddress(b, 1), ownAddress(b, 2)];
      for (const agent of [b.agentUrl, b.kit.bob.agentUrl]) await arrange(target, c, { state: AGENT_STATES.principalCapOne, agent });
      for (const address of addresses) await arrange(target, c, { state: ADDRESS_STATES.addressCapOne, address });
      const one = await payable(c, b);
      expectServed(await call(c, b, { headers: { ...EXACT, ...cardPayment(one.echo, token('settled'), one.version) } }));
      const other = offered(await callAsPeer(c, b, EXACT));
      await mayPay(c, other.amount);
      expectSucceeded(
        await callAsPeer(c, b, { ...EXACT, ...cardPayment(other.echo, token('settled'), other.version) }),
        'the call bought by another agent the same day',
      );
      for (const address of addresses) {
        const offer = offered(await callFrom(c, b, address));
        await mayPay(c, offer.amount);
        expectSucceeded(
          await callFrom(c, b, address, cardPayment(offer.echo, token('settled'), offer.version)),
          `the unidentified call bought from ${address}`,
        );
      }
    },
  });

  check({
    id: 'single-call.the-call-bought',
    title: 'the call bought is the request the buyer sent',
    requirements: ids(M.unsignedSizedToCall, E.funding_unavailable, P.receiptOnSuccessOnly, P.termsOnFunded),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'the-call');
      // The resource answers each paid call of this buyer with the body it ran with: the call bought, on the wire.
      await arrange(target, c, { state: AGENT_STATES.callEchoes, agent: b.agentUrl });
      const sent = (q: number) => new TextEncoder().encode(JSON.stringify({ q }));
      /** The call signed as the agent with a body (covered by Content-Digest). */
      const withBody = async (body: Uint8Array, headers: Record<string, string>) => {
        b.sync();
        const entries = Object.entries(headers);
        const built = b.kit.request({
          url: b.kit.url(priced(c).path),
          body,
          headers: entries,
          labels: [{ label: 'sig1', key: b.kit.A, covered: [...defaultCovered('sig1', true), ...entries.map(([n]) => `"${n.toLowerCase()}"`)] }],
        });
        return b.send(built);
      };
      const offer = await payable(c, b);
      const bought = await withBody(sent(1), { ...EXACT, ...cardPayment(offer.echo, token('settled'), offer.version) });
      expectServed(bought);
      expect(bought.response.body, 'the body the bought call ran with, as the resource answers it').toEqual(sent(1));

      // A pack's balance covering exactly one call pays for it, with the request's body, and is then spent.
      const pack = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
      await mayPay(c, pack.amount);
      expectSucceeded(await b.post({ path: PLATFORM_ROUTES.mppCredits, headers: cardPayment(pack.echo, token('settled'), pack.version) }), 'the pack');
      await arrange(target, c, { state: AGENT_STATES.callCostsOneCredit, agent: b.agentUrl });
      const fromBalance = await withBody(sent(2), EXACT);
      expectSucceeded(fromBalance, 'the call paid from the balance');
      expect(fromBalance.response.body, 'the body the call paid from the balance ran with').toEqual(sent(2));
      const spent = await call(c, b, { headers: EXACT });
      expectPaidAnswerOf('a call once the balance was spent', spent, PAYMENT_PROBLEMS.paymentRequired);

      // The resource answers 300: not a success, so no Payment-Receipt, and the terms headers of a funded call.
      await arrange(target, c, { state: AGENT_STATES.callAnswersMultipleChoices, agent: b.agentUrl });
      const again = await payable(c, b);
      const multiple = await call(c, b, { headers: { ...EXACT, ...cardPayment(again.echo, token('settled'), again.version) } });
      expect(multiple.status, "the resource's own status").toBe(300);
      expect(multiple.response.headers[HEADERS.paymentReceipt], 'no Payment-Receipt on a 300').toBeUndefined();
      const terms = termsHeaderProblems(multiple.response, multiple.facts);
      if (terms.length) expect.fail(`the funded call's 300: ${terms.join('\n')}`);
    },
  });
});
