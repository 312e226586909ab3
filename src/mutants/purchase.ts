import {
  CAP_COUNTERS,
  chargeOfSameCredential,
  purchaseAnswer,
  stablecoinOf,
  surfaceOf,
  takeCaps,
  type CapCounters,
  type ChargeReply,
  given,
  givenOf,
  type IssuedChallenge,
  type OutcomeOf,
  type PurchaseBase,
  type PurchaseFacts,
  type PurchaseGuard,
  type SingleCallOffer,
} from '../purchase/index.js';
import { REFERENCE_PRICED_PATH, type ReferencePurchases } from '../reference/purchases.js';
import { withMethod } from '../reference/test-control.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_BODY_MEMBERS, RETRY_MEMBERS } from '../spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS as M } from '../spec/purchase-method-requirements.js';
import { PURCHASE_REQUIREMENTS as P } from '../spec/purchase-requirements.js';
import { PURCHASE_ERRORS, PURCHASE_ERROR_LIST } from '../spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../spec/types.js';
import { PLATFORM_ROUTES } from '../spec/wire.js';
import { SIGNED_REQUEST_CHECKS } from '../verifier/order.js';
import { jsonOf, pathOf, rewrite, setJson, type OpenAnswer } from './answer.js';
import type { FaultRequest, Mutant } from './types.js';

/** Section 7.4 (with 3 and 4.7): faults of the paid surface's answers and of the purchase machine behind it. */

/** The refusal an answer names: the problem type's last segment, or the error code. */
function refusalOf(a: OpenAnswer): string | undefined {
  const body = jsonOf(a);
  if (typeof body?.type === 'string') return body.type.slice(body.type.lastIndexOf('/') + 1);
  const code = body?.[PURCHASE_BODY_MEMBERS.errorCode];
  return typeof code === 'string' ? code : undefined;
}

/** The paid surfaces a 401 may come from: the pack route and the reference's priced single-call resource. */
const paid = (request: FaultRequest) => pathOf(request) === PLATFORM_ROUTES.mppCredits || pathOf(request) === REFERENCE_PRICED_PATH;
/** A 7.4 answer wherever it comes from (the pack, a priced call, the rails): the body names the refusal. */
const naming = (slug: string) => (a: OpenAnswer) => refusalOf(a) === slug;
const challenged = (a: OpenAnswer) => a.status === 402;

function rename(a: OpenAnswer, to: string): void {
  const body = jsonOf(a)!;
  if (typeof body.type === 'string') setJson(a, { ...body, type: `${body.type.slice(0, body.type.lastIndexOf('/') + 1)}${to}` });
  else setJson(a, { ...body, [PURCHASE_BODY_MEMBERS.errorCode]: to });
}

function setRetry(a: OpenAnswer, retry: unknown): void {
  setJson(a, { ...jsonOf(a), [PURCHASE_BODY_MEMBERS.retry]: retry });
}

/** A readable Payment challenge a fault adds where none may ride. */
const STRAY_CHALLENGE = 'Payment id="stray", realm="fault.example", method="stripe", intent="charge", request="e30"';

function perRow(record: PurchaseErrorRecord): Mutant[] {
  const other =
    record.kind === 'problem'
      ? record.code === 'terms-version-stale'
        ? 'terms-acceptance-required'
        : 'terms-version-stale'
      : record.code === 'mpp_disabled'
        ? 'purchases_disabled'
        : 'mpp_disabled';
  const mutants: Mutant[] = [
    {
      id: `purchase-${record.code}-answers-${other}`,
      description: `names ${other} where 7.4 gives ${record.code}`,
      requirements: [record.id],
      platform: { answer: rewrite(naming(record.code), (a) => rename(a, other)) },
    },
    {
      id: `purchase-${record.code}-status-${record.status === 400 ? 422 : 400}`,
      description: `answers ${record.code} with status ${record.status === 400 ? 422 : 400} instead of ${record.status}`,
      requirements: [record.id],
      platform: { answer: rewrite(naming(record.code), (a) => void (a.status = record.status === 400 ? 422 : 400)) },
    },
  ];
  if (record.retry) {
    mutants.push({
      id: `purchase-${record.code}-same-credential-flipped`,
      description: `says retry.sameCredential ${!record.retry.sameCredential} for ${record.code}`,
      requirements: [record.id],
      platform: {
        answer: rewrite(naming(record.code), (a) =>
          setRetry(a, { ...(jsonOf(a)?.[PURCHASE_BODY_MEMBERS.retry] as object), [RETRY_MEMBERS.sameCredential]: !record.retry!.sameCredential }),
        ),
      },
    });
    mutants.push({
      id: `purchase-${record.code}-without-retry`,
      description: `drops the retry object from ${record.code}`,
      requirements: [record.id],
      platform: {
        answer: rewrite(naming(record.code), (a) => {
          const { [PURCHASE_BODY_MEMBERS.retry]: _dropped, ...rest } = jsonOf(a)!;
          setJson(a, rest);
        }),
      },
    });
    if (record.retry.sameCredential) {
      mutants.push({
        id: `purchase-${record.code}-without-credential-header`,
        description: `drops retry.credentialHeader from ${record.code}`,
        requirements: [record.id],
        platform: { answer: rewrite(naming(record.code), (a) => setRetry(a, { [RETRY_MEMBERS.sameCredential]: true })) },
      });
    }
  }
  if (record.retryAfter) {
    mutants.push({
      id: `purchase-${record.code}-without-retry-after`,
      description: `drops Retry-After from ${record.code}`,
      requirements: [record.id],
      platform: { answer: rewrite(naming(record.code), (a) => a.headers.delete(HEADERS.retryAfter)) },
    });
  }
  if (!record.challenge) {
    mutants.push({
      id: `purchase-${record.code}-with-challenge`,
      description: `adds a Payment challenge to ${record.code}`,
      requirements: [record.id],
      platform: { answer: rewrite(naming(record.code), (a) => a.headers.append(HEADERS.wwwAuthenticate, STRAY_CHALLENGE)) },
    });
  }
  return mutants;
}

const CHALLENGE_ROWS = [P.challengeShape.id, ...PURCHASE_ERROR_LIST.filter((r) => r.challenge).map((r) => r.id)];

/** Replaces the purchase configuration's accessor so a switch a deployment should honour is ignored. */
export function ignoreConfig(purchases: ReferencePurchases, keep: (config: ReferencePurchases['config']) => ReferencePurchases['config']): void {
  let config = keep(purchases.config);
  Object.defineProperty(purchases, 'config', {
    get: () => config,
    set: (next: ReferencePurchases['config']) => void (config = keep(next)),
    configurable: true,
  });
}

const specific: Mutant[] = [
  {
    id: 'purchase-codes-carry-challenge',
    description: 'every 403 and 503 of the paid surface carries a Payment challenge',
    requirements: [P.noChallengeOnCodes.id],
    platform: {
      answer: rewrite(
        (a) => (a.status === 403 || a.status === 503) && refusalOf(a) !== undefined,
        (a) => a.headers.append(HEADERS.wwwAuthenticate, STRAY_CHALLENGE),
      ),
    },
  },
  {
    id: 'purchase-402-two-challenges',
    description: 'a 402 carries two Payment challenges',
    requirements: CHALLENGE_ROWS,
    platform: { answer: rewrite(challenged, (a) => a.headers.append(HEADERS.wwwAuthenticate, a.headers.get(HEADERS.wwwAuthenticate) ?? STRAY_CHALLENGE)) },
  },
  {
    id: 'purchase-402-without-challenge',
    description: 'a 402 carries no Payment challenge',
    requirements: [...CHALLENGE_ROWS, P.declineFreshChallenge.id, P.expiredFreshChallenge.id],
    platform: { answer: rewrite(challenged, (a) => a.headers.delete(HEADERS.wwwAuthenticate)) },
  },
  {
    id: 'purchase-402-without-link',
    description: 'a 402 carries no Link to the terms',
    requirements: CHALLENGE_ROWS,
    platform: { answer: rewrite(challenged, (a) => a.headers.delete(HEADERS.link)) },
  },
  {
    id: 'purchase-402-without-terms-version',
    description: 'a 402 carries no terms version header',
    requirements: CHALLENGE_ROWS,
    platform: { answer: rewrite(challenged, (a) => a.headers.delete(HEADERS.termsVersion)) },
  },
  {
    id: 'purchase-402-cacheable',
    description: 'a 402 carries Cache-Control: max-age=60 instead of no-store',
    requirements: CHALLENGE_ROWS,
    platform: { answer: rewrite(challenged, (a) => a.headers.set(HEADERS.cacheControl, 'max-age=60')) },
  },
  {
    id: 'purchase-receipt-on-failed-call',
    description: 'a bought call that ran and failed is answered with a Payment-Receipt beside its error status',
    requirements: [P.receiptOnSuccessOnly.id],
    platform: {
      answer: rewrite(
        (a, request) => pathOf(request) === REFERENCE_PRICED_PATH && a.status >= 500 && refusalOf(a) === undefined,
        (a) => a.headers.set(HEADERS.paymentReceipt, 'eyJzdGF0dXMiOiJzdWNjZXNzIn0'),
      ),
    },
  },
  {
    id: 'purchase-402-as-json',
    description: 'a 402 problem is labelled application/json',
    requirements: CHALLENGE_ROWS,
    platform: { answer: rewrite(challenged, (a) => a.headers.set(HEADERS.contentType, 'application/json')) },
  },
  {
    id: 'purchase-challenge-lives-a-day',
    description: 'a challenge expires a day after it is issued instead of 300 seconds',
    requirements: [P.challengeLifetime.id, LIMITS.paymentChallengeLifetime.id],
    platform: {
      answer: rewrite(challenged, (a) => {
        const value = a.headers.get(HEADERS.wwwAuthenticate) ?? '';
        a.headers.set(
          HEADERS.wwwAuthenticate,
          value.replace(/expires="([^"]+)"/, (_m, at: string) => `expires="${new Date(Date.parse(at) + 86_400_000).toISOString()}"`),
        );
      }),
    },
  },
  {
    id: 'purchase-payment-required-renamed',
    description: 'the first 402 names verification-failed instead of payment-required',
    requirements: [P.challengeShape.id],
    platform: { answer: rewrite(naming(PAYMENT_PROBLEMS.paymentRequired.slug), (a) => rename(a, PAYMENT_PROBLEMS.verificationFailed.slug)) },
  },
  {
    id: 'purchase-decline-renamed',
    description: 'a declined charge names payment-required instead of verification-failed',
    requirements: [P.declineFreshChallenge.id],
    platform: { answer: rewrite(naming(PAYMENT_PROBLEMS.verificationFailed.slug), (a) => rename(a, PAYMENT_PROBLEMS.paymentRequired.slug)) },
  },
  {
    id: 'purchase-expired-renamed',
    description: 'an expired challenge names payment-required instead of payment-expired',
    requirements: [P.expiredFreshChallenge.id],
    platform: { answer: rewrite(naming(PAYMENT_PROBLEMS.paymentExpired.slug), (a) => rename(a, PAYMENT_PROBLEMS.paymentRequired.slug)) },
  },
  {
    id: 'purchase-granted-without-terms-headers',
    description: 'a granted purchase carries no terms headers',
    requirements: [P.termsOnFunded.id],
    platform: {
      answer: rewrite(
        (a, r) => pathOf(r) === PLATFORM_ROUTES.mppCredits && a.status === 200,
        (a) => {
          a.headers.delete(HEADERS.link);
          a.headers.delete(HEADERS.termsVersion);
        },
      ),
    },
  },
  {
    id: 'purchase-401-code-dropped',
    description: 'a 401 on the paid surface carries no verifier error_code',
    requirements: [P.verifierCodeOnPaidSurface.id],
    platform: {
      answer: rewrite(
        (a, r) => paid(r) && a.status === 401,
        (a) => {
          const { [PURCHASE_BODY_MEMBERS.errorCode]: _dropped, ...rest } = jsonOf(a) ?? {};
          setJson(a, rest);
        },
      ),
    },
  },
  {
    id: 'purchase-processor-charges-twice',
    description: 'every card charge is sent twice under different idempotency keys',
    requirements: [PURCHASE_ERRORS.charge_outcome_unknown.id, P.resumeSameCredential.id],
    platform: {
      purchases: (purchases) => {
        const charge = purchases.processor.charge.bind(purchases.processor);
        purchases.processor.charge = (token, amount, key) => {
          charge(token, amount, `${key}#again`);
          return charge(token, amount, key);
        };
      },
    },
  },
  {
    id: 'purchase-lock-holds-ignored',
    description: "a buyer's purchase settling elsewhere does not hold the lock",
    requirements: [PURCHASE_ERRORS.purchase_in_flight.id],
    platform: {
      purchases: (purchases) =>
        guardSees(purchases, 'lock', (ctx) => ({
          ports: { ...ctx.ports, lock: { acquire: async (buyer) => (await ctx.ports.lock.acquire(buyer)) ?? (() => undefined) } },
        })),
    },
  },
  {
    id: 'purchase-lock-outage-ignored',
    description: 'purchases go ahead without the lock when the lock service is down',
    requirements: [PURCHASE_ERRORS.purchase_lock_unavailable.id],
    platform: {
      purchases: (purchases) =>
        guardSees(purchases, 'lock', (ctx) => ({
          ports: {
            ...ctx.ports,
            lock: {
              acquire: async (buyer) =>
                settled(
                  () => ctx.ports.lock.acquire(buyer),
                  () => () => undefined,
                ),
            },
          },
        })),
    },
  },
  {
    id: 'purchase-assent-failure-ignored',
    description: 'the charge goes ahead although the assent could not be recorded',
    requirements: [PURCHASE_ERRORS.terms_record_failed.id],
    platform: {
      purchases: (purchases) =>
        guardSees(purchases, 'lock', (ctx) => ({
          ports: {
            ...ctx.ports,
            store: withMethod(ctx.ports.store, 'recordAssent', (assent) =>
              settled(
                () => ctx.ports.store.recordAssent(assent),
                () => undefined,
              ),
            ),
          },
        })),
    },
  },
  {
    id: 'purchase-mpp-switch-ignored',
    description: 'buying stays open when the operator closes it',
    requirements: [PURCHASE_ERRORS.mpp_disabled.id],
    platform: { purchases: (purchases) => guardSees(purchases, 'switches', (ctx) => ({ config: { ...ctx.config, mppEnabled: true } })) },
  },
  {
    id: 'purchase-markets-switch-ignored',
    description: 'purchases stay open when every market is closed',
    requirements: [PURCHASE_ERRORS.purchases_disabled.id],
    platform: { purchases: (purchases) => guardSees(purchases, 'switches', (ctx) => ({ config: { ...ctx.config, purchasesOpen: true } })) },
  },
  {
    id: 'purchase-closed-markets-ignored',
    description: "a closed market's cards are charged",
    requirements: [PURCHASE_ERRORS.purchases_unavailable_region.id],
    platform: { purchases: (purchases) => guardSees(purchases, 'market', ({ config: { closedMarkets: _dropped, ...config } }) => ({ config })) },
  },
  {
    id: 'purchase-ownerless-cap-ignored',
    description: 'an ownerless agent buys past its cap',
    requirements: [PURCHASE_ERRORS.ownerless_balance_cap.id],
    platform: { purchases: (purchases) => guardSees(purchases, 'ownerless', ({ config: { ownerlessBalanceCapNano: _dropped, ...config } }) => ({ config })) },
  },
];

/** Replaces the guard named `name` in both orders of guards the paid routes decide by (the pack's and the sale's). */
export function changeGuard(
  purchases: ReferencePurchases,
  name: string,
  change: <B extends PurchaseBase<unknown>, F extends PurchaseFacts>(guard: PurchaseGuard<B, F>) => PurchaseGuard<B, F> | undefined,
): void {
  const changed = <B extends PurchaseBase<unknown>, F extends PurchaseFacts>(guards: readonly PurchaseGuard<B, F>[]): PurchaseGuard<B, F>[] =>
    guards.flatMap((guard) => {
      if (guard.name !== name) return [guard];
      const replaced = change(guard);
      return replaced === undefined ? [] : [replaced];
    });
  purchases.guards = { pack: changed(purchases.guards.pack), sale: changed(purchases.guards.sale) };
}

/**
 * The guard named `name` decides over what `see` makes of its context's configuration and ports: a fault where the
 * rule is decided, which holds whatever state the test control (or a port's own switch) put the deployment in.
 */
function guardSees(
  purchases: ReferencePurchases,
  name: string,
  see: (ctx: PurchaseBase<unknown>) => Partial<Pick<PurchaseBase<unknown>, 'config' | 'ports'>>,
): void {
  changeGuard(purchases, name, (guard) => ({
    ...guard,
    run: (ctx) => {
      const seen = see(ctx);
      // Reads of config and ports see the fault; the facts the guard gives are what it answers.
      return guard.run(new Proxy(ctx, { get: (target, key, receiver) => (key in seen ? seen[key as keyof typeof seen] : Reflect.get(target, key, receiver)) }));
    },
  }));
}

/** What `call` answers, or `fallback`'s answer when it throws or rejects. */
async function settled<T>(call: () => T | Promise<T>, fallback: () => T): Promise<T> {
  try {
    return await call();
  } catch {
    return fallback();
  }
}

/** The reference's order of checks with `authority` asked first: a verifier of its own on the paid routes. */
const AUTHORITY_FIRST = [...SIGNED_REQUEST_CHECKS.filter((c) => c.name === 'authority'), ...SIGNED_REQUEST_CHECKS.filter((c) => c.name !== 'authority')];

/** Faults of the purchase machine where the rule is decided (its configuration, its orders of guards, its processor adapter, its routes' policy). */
const deep: Mutant[] = [
  {
    id: 'purchase-challenges-expire-in-10s',
    description: 'the purchase machine issues challenges that expire 10 s after they are issued',
    requirements: [P.challengeLifetime.id, LIMITS.paymentChallengeLifetime.id],
    platform: { purchases: (purchases) => ignoreConfig(purchases, (c) => ({ ...c, challengeLifetimeSeconds: 10 })) },
  },
  {
    id: 'purchase-expired-challenge-honoured',
    description: 'the purchase machine never refuses a credential for an expired challenge (no expiry guard)',
    requirements: [P.expiredFreshChallenge.id, P.challengeLifetime.id],
    platform: { purchases: (purchases) => changeGuard(purchases, 'expiry', () => undefined) },
  },
  {
    id: 'purchase-expired-settlement-not-credited',
    description: "the settlement intake drops a processor's report of a charge whose challenge has expired",
    requirements: [P.expiredFreshChallenge.id],
    platform: {
      purchases: (purchases) => {
        const intake = purchases.settlementIntake;
        purchases.settlementIntake = async (report) => {
          const record =
            (await purchases.store.chargeById(report.chargeId)) ?? (report.token === undefined ? undefined : await purchases.store.chargeByToken(report.token));
          const issued = record === undefined ? undefined : await purchases.store.challenge(record.challengeId);
          if (issued !== undefined && purchases.ports.clock.now() > issued.expiresAt) return { credited: false, reason: 'grant-failed' };
          return intake(report);
        };
      },
    },
  },
  {
    id: 'purchase-paid-surface-verifies-authority-first',
    description: 'the paid routes run a verifier of their own that checks the authority before the signature parameters, unlike POST /api/auth/cli/token',
    requirements: [P.cliTokenSameRefusal.id, P.verifierCodeOnPaidSurface.id],
    platform: { purchases: (purchases) => void (purchases.routes = { ...purchases.routes, verifierConfig: (c) => ({ ...c, checks: AUTHORITY_FIRST }) }) },
  },
  {
    id: 'purchase-uncovered-service-purchase-trusted',
    description: 'the paid routes trust Service-Purchase whether or not the signature covers it',
    requirements: [P.purchaseKindCovered.id],
    platform: {
      purchases: (purchases) => void (purchases.routes = { ...purchases.routes, trusted: (acceptance) => [...acceptance.coveredFields, HEADERS.purchase] }),
    },
  },
  {
    id: 'purchase-uncovered-payment-methods-trusted',
    description: 'the paid routes trust Service-Payment-Methods whether or not the signature covers it',
    requirements: [M.methodsHint.id],
    platform: {
      purchases: (purchases) =>
        void (purchases.routes = { ...purchases.routes, trusted: (acceptance) => [...acceptance.coveredFields, HEADERS.paymentMethods] }),
    },
  },
  {
    id: 'purchase-pack-challenge-only-where-issued',
    description: 'POST /api/mpp/credits refuses a pack challenge another resource issued with challenge_origin_mismatch',
    requirements: [PURCHASE_ERRORS.challenge_origin_mismatch.id],
    platform: {
      purchases: (purchases) => {
        purchases.guards = {
          ...purchases.guards,
          pack: purchases.guards.pack.map((guard) =>
            guard.name !== 'pack-challenge'
              ? guard
              : {
                  ...guard,
                  run: async (ctx) => {
                    const ran = await guard.run(ctx);
                    const issued = givenOf<{ issued?: IssuedChallenge }>(ran)?.issued;
                    return issued !== undefined && issued.origin !== PLATFORM_ROUTES.mppCredits
                      ? purchaseAnswer(PURCHASE_ERRORS.challenge_origin_mismatch, surfaceOf(ctx.config))
                      : ran;
                  },
                },
          ),
        };
      },
    },
  },
  {
    id: 'purchase-unknown-card-country-defaulted',
    description: "the deployment's card processor adapter places a card whose country cannot be established in the US",
    requirements: [PURCHASE_ERRORS.purchases_unavailable_region.id],
    platform: {
      purchases: (purchases) =>
        guardSees(purchases, 'market', (ctx) => ({
          ports: {
            ...ctx.ports,
            processor: withMethod(ctx.ports.processor, 'instrumentCountry', async (token) => (await ctx.ports.processor.instrumentCountry(token)) ?? 'US'),
          },
        })),
    },
  },
  {
    id: 'purchase-cancelled-intent-read-as-unknown',
    description: "the deployment's card processor adapter reads an intent cancelled unsettled as an unknown outcome",
    requirements: [P.declineFreshChallenge.id],
    platform: {
      purchases: (purchases) => {
        const unknownIfCancelled = (reply: ChargeReply): ChargeReply => (reply.outcome === 'cancelled-unsettled' ? { ...reply, outcome: 'unknown' } : reply);
        const charge = purchases.processor.charge.bind(purchases.processor);
        const status = purchases.processor.status.bind(purchases.processor);
        purchases.processor.charge = (token, amount, key) => unknownIfCancelled(charge(token, amount, key));
        purchases.processor.status = (chargeId) => unknownIfCancelled(status(chargeId));
      },
    },
  },
  {
    id: 'purchase-transaction-valid-past-expiry-admitted',
    description: 'the stablecoin transaction check admits a transaction that stays valid past the challenge expiry',
    requirements: [M.stablecoinNonMatching.id],
    platform: {
      purchases: (purchases) =>
        changeGuard(purchases, 'transaction', (guard) => ({
          ...guard,
          run: (ctx) => guard.run({ ...ctx, issued: { ...ctx.issued, expiresAt: Number.MAX_SAFE_INTEGER } }),
        })),
    },
  },
  {
    id: 'purchase-problem-types-under-payment-base',
    description: 'the deployment publishes its own problem types under {payment_problems_url} instead of {problems_url}',
    requirements: [PURCHASE_ERRORS['terms-acceptance-required'].id, PURCHASE_ERRORS['terms-version-stale'].id],
    platform: {
      purchases: (purchases) => ignoreConfig(purchases, (c) => ({ ...c, problemBases: { ...c.problemBases, problems: c.problemBases['payment-problems'] } })),
    },
  },
  {
    id: 'purchase-terms-link-names-other-url',
    description: 'the deployment names its terms at another address than its {terms_url}',
    requirements: [P.challengeShape.id],
    platform: {
      purchases: (purchases) => ignoreConfig(purchases, (c) => ({ ...c, terms: { ...c.terms, url: `${c.terms.url.replace(/\/+$/, '')}-draft` } })),
    },
  },
];

/** Section 3 row 1 broken where it is decided: a resumed charge is asked again what was asked before it was sent. */
const resumeAsksAgain: Mutant[] = [
  {
    id: 'purchase-resume-asks-market-again',
    description: "the same-credential guard asks the card's market again before it resumes a charge already sent",
    requirements: [P.resumeSameCredential.id, PURCHASE_ERRORS.purchases_unavailable_region.id],
    platform: {
      purchases: (purchases) =>
        changeGuard(purchases, 'same-credential', (guard) => ({
          ...guard,
          run: async (ctx) => {
            const token = ctx.presented.token;
            const sent = await chargeOfSameCredential(ctx.presented, ctx.ports.store);
            if (sent !== undefined && token !== undefined) {
              const country = await ctx.ports.processor.instrumentCountry(token);
              if (country === undefined || (ctx.config.closedMarkets ?? []).includes(country))
                return purchaseAnswer(PURCHASE_ERRORS.purchases_unavailable_region, surfaceOf(ctx.config)) as OutcomeOf<typeof ctx>;
            }
            return guard.run(ctx);
          },
        })),
    },
  },
  {
    id: 'purchase-resume-asks-caps-again',
    description: "the same-credential guard counts a resumed call on its agent's daily cap again before it resumes it",
    requirements: [P.resumeSameCredential.id, PURCHASE_ERRORS.metered_principal_cap.id],
    platform: {
      purchases: (purchases) =>
        changeGuard(purchases, 'same-credential', (guard) => ({
          ...guard,
          run: async (ctx) => {
            const caps = (ctx.ports as { caps?: CapCounters }).caps;
            const sale = (ctx.config as { sale?: SingleCallOffer }).sale;
            const sent = await chargeOfSameCredential(ctx.presented, ctx.ports.store);
            if (sent !== undefined && caps !== undefined && sale !== undefined) {
              const counted = await takeCaps(
                [{ name: CAP_COUNTERS.account + sent.record.buyer, limit: sale.caps.principalPerDay, refusal: PURCHASE_ERRORS.metered_principal_cap }],
                caps,
                ctx.input.now,
              );
              if (!counted.taken)
                return purchaseAnswer(counted.refusal, surfaceOf(ctx.config), { retryAfterSeconds: counted.retryAfterSeconds }) as OutcomeOf<typeof ctx>;
              await caps.release(counted.names, counted.day);
            }
            return guard.run(ctx);
          },
        })),
    },
  },
  {
    id: 'purchase-stablecoin-accepted-when-not-offered',
    description: 'the method guard takes a stablecoin credential as one it sells whether or not the deployment still offers transfers',
    requirements: [PURCHASE_ERRORS['method-unsupported'].id],
    platform: {
      purchases: (purchases) => {
        const offered = purchases.config.stablecoin;
        changeGuard(purchases, 'method', (guard) => ({
          ...guard,
          run: async (ctx) => {
            const ran = await guard.run(ctx);
            const stablecoin = stablecoinOf(ctx.ports, { ...ctx.config, stablecoin: offered });
            if (givenOf(ran) !== undefined || ctx.credential.challenge.method !== PAYMENT_METHODS.tempo || stablecoin === undefined) return ran;
            return given({ rail: { by: 'stablecoin' as const, stablecoin } });
          },
        }));
      },
    },
  },
];

export const PURCHASE_MUTANTS: readonly Mutant[] = [...PURCHASE_ERROR_LIST.flatMap(perRow), ...specific, ...deep, ...resumeAsksAgain];
