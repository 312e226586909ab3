import { jsonOf, pathOf, rewrite, setJson } from '../mutants/answer.js';
import { changeGuard } from '../mutants/purchase.js';
import { givenOf, isToken, parseAuthenticate, purchaseAnswer, quotedString, surfaceOf, type Clock, type OutcomeOf } from '../purchase/index.js';
import { HTTP_DATE_FIELD } from '../purchase/wire/wire.js';
import { HEADERS } from '../spec/headers.js';
import { LINK_RELS, PAYMENT_CACHE_CONTROL, PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_BODY_MEMBERS, PURCHASE_KINDS } from '../spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS as M } from '../spec/purchase-method-requirements.js';
import { PURCHASE_REQUIREMENTS as P } from '../spec/purchase-requirements.js';
import { PURCHASE_ERROR_LIST, PURCHASE_ERRORS } from '../spec/purchase-errors.js';
import { DAILY_CAP_RETRY_AFTER_MAX_S } from '../spec/readings.js';
import { AUTH_SCHEMES, PLATFORM_ROUTES } from '../spec/wire.js';
import { INBAND_REQUIREMENTS, POINTER_BODY_MEMBERS } from '../spec/inband.js';
import type { Variant } from './types.js';

/**
 * Section 7.4: the reference's paid surface making other choices the spec (and the standards it builds on) allow.
 * Each rewrites the answers of the paid routes, or changes the purchase machine, and every check naming its
 * requirements must pass it.
 */

/** The 402 rows: every check judging a challenge, its terms headers or its caching runs against these variants. */
const CHALLENGE_ROWS = [P.challengeShape.id, ...PURCHASE_ERROR_LIST.filter((r) => r.challenge).map((r) => r.id)];
/** Rows whose body carries the retry object, and the problem rows. */
const BODY_ROWS = PURCHASE_ERROR_LIST.filter((r) => r.retry || r.kind === 'problem').map((r) => r.id);
/** Rows answered with a code in the body. */
const CODE_ROWS = [P.noChallengeOnCodes.id, ...PURCHASE_ERROR_LIST.filter((r) => r.kind === 'code').map((r) => r.id)];

/** The daily caps of 7.4 (READING-DAILY-CAP-RETRY-AFTER). */
const DAILY_CAP_ROWS = [
  PURCHASE_ERRORS.metered_instrument_cap,
  PURCHASE_ERRORS.metered_platform_ceiling,
  PURCHASE_ERRORS.metered_ip_cap,
  PURCHASE_ERRORS.metered_principal_cap,
  PURCHASE_ERRORS.wallet_daily_cap,
].map((r) => r.id);

const isPayment = (scheme: string) => scheme.toLowerCase() === AUTH_SCHEMES.payment.toLowerCase();

/**
 * A Payment challenge as RFC 9110 also allows it: the scheme in lower case, the auth-params in reverse order with
 * their names in upper case, every value that is a token written as a token, and a parameter the Payment scheme does
 * not define (which a client ignores) in the middle. The values are the very ones issued, so a credential echoing
 * them still redeems the challenge.
 */
function respelled(value: string): string {
  const parsed = parseAuthenticate(value);
  const [challenge] = parsed.ok ? parsed.challenges : [];
  if (!parsed.ok || parsed.challenges.length !== 1 || challenge === undefined || !isPayment(challenge.scheme) || challenge.token68 !== undefined) return value;
  const params = [...challenge.params].reverse().map(([name, v]) => `${name.toUpperCase()}=${isToken(v) ? v : quotedString(v)}`);
  params.splice(Math.floor(params.length / 2), 0, 'X-Unknown-Hint="ignored by clients"');
  return `${challenge.scheme.toLowerCase()} ${params.join(' , ')}`;
}

/** The terms link written another way RFC 8288 allows: a second link first, then the terms with a title before a quoted, mixed-case rel. */
function relinked(field: string): string {
  const match = /<([^>]*)>/.exec(field);
  if (!match) return field;
  const terms = match[1]!;
  return `<${new URL(terms).origin}/doc/privacy>; rel="privacy-policy", <${terms}>;title="Terms of service" ; REL="${LINK_RELS.termsOfService.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())}"`;
}

/** The deployment's clock, as the last deployment built under the variant has it (the dated variant writes its Date from it). */
let deploymentClock: Clock | undefined;

export const PURCHASE_VARIANTS: readonly Variant[] = [
  {
    id: 'purchase-challenge-params-respelled',
    description: 'writes the Payment challenge in another order and case, tokens unquoted, with a parameter clients ignore',
    readings: ['paymentChallenge'],
    requirements: CHALLENGE_ROWS,
    platform: {
      answer: rewrite(
        (a) => a.headers.has(HEADERS.wwwAuthenticate),
        (a) => a.headers.set(HEADERS.wwwAuthenticate, respelled(a.headers.get(HEADERS.wwwAuthenticate)!)),
      ),
    },
  },
  {
    id: 'purchase-terms-link-rfc8288',
    description: 'writes the terms Link after another link, with a title before a quoted, mixed-case rel',
    readings: ['termsLink'],
    requirements: [...CHALLENGE_ROWS, P.termsOnFunded.id],
    platform: {
      answer: rewrite(
        (a) => a.headers.has(HEADERS.link),
        (a) => a.headers.set(HEADERS.link, relinked(a.headers.get(HEADERS.link)!)),
      ),
    },
  },
  {
    id: 'purchase-open-bodies',
    description: 'adds members the spec does not name to the retry object, to problem bodies and to code bodies',
    readings: ['openBodies'],
    requirements: [...BODY_ROWS, ...CODE_ROWS],
    platform: {
      answer: rewrite(
        (a) => {
          const body = jsonOf(a);
          return body !== undefined && (typeof body.type === 'string' || body[PURCHASE_BODY_MEMBERS.errorCode] !== undefined);
        },
        (a) => {
          const body = jsonOf(a)!;
          const retry = body[PURCHASE_BODY_MEMBERS.retry];
          setJson(a, {
            requestId: 'req_variant',
            ...body,
            ...(typeof body.type === 'string' ? { instance: '/requests/req_variant' } : {}),
            ...(retry !== null && typeof retry === 'object' ? { [PURCHASE_BODY_MEMBERS.retry]: { ...retry, backoff: 'exponential' } } : {}),
          });
        },
      ),
    },
  },
  {
    id: 'purchase-cache-control-private',
    description: 'answers Cache-Control: private, no-store where the reference writes no-store',
    readings: ['paymentChallenge'],
    requirements: CHALLENGE_ROWS,
    platform: {
      answer: rewrite(
        (a) => a.headers.get(HEADERS.cacheControl) === PAYMENT_CACHE_CONTROL,
        (a) => a.headers.set(HEADERS.cacheControl, `private, ${PAYMENT_CACHE_CONTROL.toUpperCase()}`),
      ),
    },
  },
  {
    id: 'purchase-code-in-error-member',
    description: 'carries the stable code of a 403, 409, 429 or 503 in error only, without error_code',
    readings: ['purchaseBodyMembers'],
    requirements: CODE_ROWS,
    platform: {
      answer: rewrite(
        (a) => a.status !== 401 && typeof jsonOf(a)?.[PURCHASE_BODY_MEMBERS.errorCode] === 'string',
        (a) => {
          const { [PURCHASE_BODY_MEMBERS.errorCode]: code, ...rest } = jsonOf(a)!;
          setJson(a, { ...rest, [PURCHASE_BODY_MEMBERS.error]: code });
        },
      ),
    },
  },
  {
    id: 'purchase-answers-dated',
    description: "dates every answer (RFC 9110 Date) by the deployment's own clock, two seconds late",
    readings: ['challengeExpiry'],
    requirements: [...CHALLENGE_ROWS, P.challengeLifetime.id],
    platform: {
      purchases: (purchases) => void (deploymentClock = purchases.ports.clock),
      answer: rewrite(
        () => deploymentClock !== undefined,
        (a) => a.headers.set(HTTP_DATE_FIELD, new Date((deploymentClock!.now() - 2) * 1000).toUTCString()),
      ),
    },
  },
  {
    id: 'purchase-mismatch-invalid-payload',
    description: 'answers a stablecoin transaction that does not pay the quote with the invalid-payload problem, not verification-failed',
    readings: ['nonMatchingTransaction'],
    requirements: [M.stablecoinNonMatching.id],
    platform: {
      answer: rewrite(
        (a) => a.status === 402 && String(jsonOf(a)?.type ?? '').endsWith(`/${PAYMENT_PROBLEMS.verificationFailed.slug}`),
        (a) => {
          const body = jsonOf(a)!;
          const type = String(body.type).replace(/[^/]*$/, PURCHASE_ERRORS['invalid-payload'].code);
          setJson(a, { ...body, type, title: 'Invalid Payload' });
        },
      ),
    },
  },
  {
    id: 'purchase-daily-cap-retry-after-day-long',
    description:
      'asks a daily cap to wait a whole 25-hour day (its day starts at local midnight, across a change of summer time), and the wallet cap as an HTTP-date',
    readings: ['dailyCapRetryAfter'],
    requirements: DAILY_CAP_ROWS,
    platform: {
      answer: rewrite(
        (a) => a.status === 429 && a.headers.has(HEADERS.retryAfter),
        (a, request) =>
          a.headers.set(
            HEADERS.retryAfter,
            new URL(request.url).pathname === PLATFORM_ROUTES.mppCredits
              ? new Date(Date.now() + DAILY_CAP_RETRY_AFTER_MAX_S * 1000).toUTCString()
              : String(DAILY_CAP_RETRY_AFTER_MAX_S),
          ),
      ),
    },
  },
  {
    id: 'purchase-signed-default-pack',
    description: 'sells a signed agent that names no Service-Purchase the pack, not a single call',
    readings: ['purchaseKindDefault'],
    requirements: [P.purchaseKindCovered.id, M.unsignedSizedToCall.id],
    platform: { purchases: (purchases) => void (purchases.saleOffer = { ...purchases.saleOffer, defaultKind: PURCHASE_KINDS.pack }) },
  },
  {
    id: 'purchase-challenge-looked-up-before-method',
    description: "looks a credential's challenge up before it reads the method: an echo whose method was changed is 402 invalid-challenge",
    readings: ['echoMethodChanged'],
    requirements: [PURCHASE_ERRORS['method-unsupported'].id],
    platform: {
      purchases: (purchases) => {
        const later = <G extends { readonly name: string }>(guards: readonly G[], after: string): G[] => {
          const method = guards.find((g) => g.name === 'method')!;
          const rest = guards.filter((g) => g !== method);
          rest.splice(rest.findIndex((g) => g.name === after) + 1, 0, method);
          return rest;
        };
        purchases.guards = { pack: later(purchases.guards.pack, 'pack-challenge'), sale: later(purchases.guards.sale, 'call-challenge') };
      },
    },
  },
  {
    id: 'purchase-method-no-longer-sold-mpp-disabled',
    description: 'answers a stablecoin credential, once it sells no transfers, with 403 mpp_disabled rather than 400 method-unsupported',
    readings: ['methodNoLongerSold'],
    requirements: [PURCHASE_ERRORS['method-unsupported'].id],
    platform: {
      purchases: (purchases) =>
        changeGuard(purchases, 'method', (guard) => ({
          ...guard,
          run: async (ctx) => {
            const answer = await guard.run(ctx);
            if (givenOf(answer) !== undefined || ctx.credential.challenge.method !== PAYMENT_METHODS.tempo || ctx.config.stablecoin !== undefined)
              return answer;
            return purchaseAnswer(PURCHASE_ERRORS.mpp_disabled, surfaceOf(ctx.config)) as OutcomeOf<typeof ctx>;
          },
        })),
    },
  },
  {
    id: 'inband-pointer-status-403',
    description: "answers the LLM rail's purchase pointer with status 403 rather than 402",
    readings: ['pointerStatus'],
    requirements: [INBAND_REQUIREMENTS.pointer.id],
    platform: {
      answer: rewrite(
        (a, r) => pathOf(r) === PLATFORM_ROUTES.llmChatCompletions && jsonOf(a)?.[POINTER_BODY_MEMBERS.requirements] !== undefined,
        (a) => void (a.status = 403),
      ),
    },
  },
];
