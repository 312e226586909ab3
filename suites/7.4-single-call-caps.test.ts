import { afterAll, describe, expect } from 'vitest';
import { dailyCapRetryAfterProblems, termsHeaderProblems } from '../src/harness/judge-purchase.js';
import type { SaleCaps } from '../src/purchase/index.js';
import { HEADERS } from '../src/spec/headers.js';
import { PAYMENT_PROBLEMS } from '../src/spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import type { PurchaseErrorRecord } from '../src/spec/types.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { cardPayment, expectPaidAnswer, expectPaidAnswerOf, expectSucceeded } from './lib/buyer.js';
import { check } from './lib/check.js';
import { EXACT, expectServed, ids, offered, saleSuite, token } from './lib/single-call.js';
import { defaultCovered } from '../src/scenarios/request-builder.js';
import { suiteTarget } from './lib/target.js';

/** Section 7.4 single calls: the daily caps (429 with Retry-After), and that the call bought is the request sent. */
const target = suiteTarget();
afterAll(() => target.close());

const E = PURCHASE_ERRORS;
const P = PURCHASE_REQUIREMENTS;
const M = PURCHASE_METHOD_REQUIREMENTS;
const { need, buyer, priced, call, payable, purchases, setSale, setCaps, callFrom, buyerWithPeer, callAsPeer, bearerBuyer } = saleSuite(target, 'single-call');

describe(`7.4 single calls: daily caps, and the call bought (${target.description})`, () => {
  const caps: ReadonlyArray<{ record: PurchaseErrorRecord; describe: string; signed: boolean; caps: Partial<SaleCaps> }> = [
    { record: E.metered_ip_cap, describe: 'unidentified purchases from one address', signed: false, caps: { ipPerDay: 1 } },
    { record: E.metered_principal_cap, describe: "an agent's exact top-ups", signed: true, caps: { principalPerDay: 1 } },
    { record: E.metered_instrument_cap, describe: 'single-call purchases with one card', signed: true, caps: { instrumentPerDay: 1 } },
    { record: E.metered_platform_ceiling, describe: 'single-call purchases on the whole platform', signed: true, caps: { platformPerDay: 1 } },
  ];
  for (const cap of caps) {
    check({
      id: `single-call.${cap.record.code.replaceAll('_', '-')}`,
      title: `${cap.describe} over the daily limit: ${cap.record.status} ${cap.record.code}`,
      requirements: ids(cap.record, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, cap.record.code);
        setCaps(c, cap.caps);
        // One card behind both tokens, so the card's own cap counts both purchases.
        const [first, second] = [token('settled'), token('settled')];
        purchases(c).sale.cards.cards.set(first, 'card:suite').set(second, 'card:suite');
        const one = await payable(c, b, { signed: cap.signed });
        expectServed(await call(c, b, { signed: cap.signed, headers: cardPayment(one.echo, first, one.version) }));
        const two = await payable(c, b, { signed: cap.signed });
        const capped = await call(c, b, { signed: cap.signed, headers: cardPayment(two.echo, second, two.version) });
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
      need(c, 'spend', 'payment-faults');
      const { b, bearer } = await bearerBuyer(c, 'bearer-cap');
      setCaps(c, { principalPerDay: 1 });
      const buys = async (subject: string) => {
        // A bearer request's header fields are all the agent's own: it names the call it buys.
        const offer = await payable(c, b, { signed: false, headers: { ...EXACT, ...(await bearer(subject)) } });
        return call(c, b, { signed: false, headers: { ...EXACT, ...(await bearer(subject)), ...cardPayment(offer.echo, token('settled'), offer.version) } });
      };
      const [one, other] = [`${b.agentUrl}-one`, `${b.agentUrl}-other`];
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
    title: 'each daily limit counts only its own agent, card or address',
    requirements: ids(E.metered_principal_cap, E.metered_instrument_cap, E.metered_ip_cap),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'payment-faults', 'client-address');
      const b = await buyerWithPeer(c, 'own-caps');
      setCaps(c, { principalPerDay: 1, instrumentPerDay: 1, ipPerDay: 1 });
      const one = await payable(c, b);
      expectServed(await call(c, b, { headers: { ...EXACT, ...cardPayment(one.echo, token('settled'), one.version) } }));
      const other = offered(await callAsPeer(c, b, EXACT));
      expectSucceeded(
        await callAsPeer(c, b, { ...EXACT, ...cardPayment(other.echo, token('settled'), other.version) }),
        'the call bought by another agent, with another card',
      );
      for (const address of ['198.51.100.7', '198.51.100.8']) {
        const offer = offered(await callFrom(c, b, address));
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
      need(c, 'spend', 'payment-faults');
      const b = await buyer(c, 'the-call');
      const p = purchases(c);
      const server = p.sale.server;
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
      expectServed(await withBody(sent(1), { ...EXACT, ...cardPayment(offer.echo, token('settled'), offer.version) }));
      expect(server.ran.at(-1)?.body, 'the body the bought call ran with').toEqual(sent(1));

      // A pack's balance covering exactly one call pays for it, with the request's body, and is then spent.
      const pack = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
      expectSucceeded(await b.post({ path: PLATFORM_ROUTES.mppCredits, headers: cardPayment(pack.echo, token('settled'), pack.version) }), 'the pack');
      setSale(c, () => ({ priceNano: p.config.pack.creditNano }));
      const fromBalance = await withBody(sent(2), EXACT);
      expectSucceeded(fromBalance, 'the call paid from the balance');
      expect(server.ran.at(-1)?.body, 'the body the call paid from the balance ran with').toEqual(sent(2));
      const spent = await call(c, b, { headers: EXACT });
      expectPaidAnswerOf('a call once the balance was spent', spent, PAYMENT_PROBLEMS.paymentRequired);

      // The resource answers 300: not a success, so no Payment-Receipt, and the terms headers of a funded call.
      server.enqueue('multiple-choices');
      const bought = await payable(c, b);
      const multiple = await call(c, b, { headers: { ...EXACT, ...cardPayment(bought.echo, token('settled'), bought.version) } });
      expect(multiple.status, "the resource's own status").toBe(300);
      expect(multiple.response.headers[HEADERS.paymentReceipt], 'no Payment-Receipt on a 300').toBeUndefined();
      const terms = termsHeaderProblems(multiple.response, multiple.facts);
      if (terms.length) expect.fail(`the funded call's 300: ${terms.join('\n')}`);
    },
  });
});
