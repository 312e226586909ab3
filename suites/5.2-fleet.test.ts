import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect } from 'vitest';
import type { SignedRequestCase } from '../src/cases/types.js';
import { caseRequestBody } from '../src/cases/request-body.js';
import { runCaseOnTarget } from '../src/harness/case-on-target.js';
import { THROTTLE_WAIT_MS } from '../src/harness/failure-budget.js';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { accessTokenOf, noPlatformTokenReason } from '../src/harness/live-staging.js';
import { errorCodeOf } from '../src/harness/judge-purchase.js';
import { CAPABILITY_REASONS, missingCapabilities } from '../src/harness/target.js';
import type { FleetTarget, Instance } from '../src/harness/targets/fleet.js';
import { type ChallengeEcho, decodeBase64urlJson } from '../src/purchase/index.js';
import { accepted, buildCase, Kit, refused, type Scenario } from '../src/scenarios/kit.js';
import { flip } from '../src/scenarios/signed/credentials.js';
import { AUTH_CODES } from '../src/spec/auth-errors.js';
import { AUTH_SCHEMES } from '../src/spec/wire.js';
import { HEADERS } from '../src/spec/headers.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { requirementId } from '../src/spec/ids.js';
import { LIMITS } from '../src/spec/limits.js';
import { PURCHASE_REQUIREMENTS as P } from '../src/spec/purchase-requirements.js';
import { PURCHASE_ERRORS as E } from '../src/spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../src/spec/types.js';
import { Buyer, cardPayment, expectPaidAnswer, freshTestToken, type PaidExchange, payOrNotRun } from './lib/buyer.js';
import { check, type CheckContext, notRunAll } from './lib/check.js';
import { checkTimeout } from './lib/context.js';
import { fleetTarget, NO_FLEET_REASON } from './lib/target.js';

/**
 * One deployment of several instances (`run --base-url A --also-base-url B`): what 5.2, 5.3 and 7.4 say of "the platform"
 * holds whichever instance answers, so the state behind them (nonces, failure counts, token keys, purchases, the lock) is one. Each
 * check spreads its requests over both instances; instances keeping that state apart fail it. A single instance given
 * as both passes, as it should: it is a deployment of one. Without --also-base-url the checks are not run.
 */
const fleet = fleetTarget();
notRunAll(fleet ? undefined : NO_FLEET_REASON);
afterAll(() => fleet?.close());

const INSTANCE_NAMES = ['the instance at --base-url', 'the instance at --also-base-url'] as const;
/** Presentations of one credential sent at once, spread over both instances. */
const CONCURRENT_PRESENTATIONS = 6;
/** How often a presentation answered "re-present the same credential" is presented again before the check gives up. */
const RE_PRESENTATIONS = 5;
let serial = 0;

function need(c: CheckContext): FleetTarget {
  return fleet ?? c.notRun(NO_FLEET_REASON);
}

/** A scenario built live (the deployment's host, the fixture host's URLs, now, fresh nonces) and run over the fleet. */
async function runFleetCase(c: CheckContext, target: FleetTarget, scenario: Scenario): Promise<void> {
  const env = target.environment;
  const failing = (built: SignedRequestCase) => built.steps.filter((s) => s.expect?.ok === false).length;
  const preview = await buildCase({ now: env.now(), authority: env.authority, agentOrigin: env.agentOrigin(scenario.id), nonce: () => '' }, scenario);
  const missing = missingCapabilities(target, preview);
  if (missing.length) c.notRun(missing.map((m) => CAPABILITY_REASONS[m]).join('; '));
  await target.ready(failing(preview));
  const built = await buildCase(
    {
      now: env.now(),
      authority: env.authority,
      platformOrigin: env.platformOrigin,
      agentOrigin: env.agentOrigin(scenario.id),
      nonce: env.nonce,
      ...(env.naming ? { naming: env.naming } : {}),
      ...(env.clockMargin ? { clockMargin: env.clockMargin } : {}),
    },
    scenario,
  );
  const outcomes = await runCaseOnTarget(built, target);
  for (const o of outcomes) c.record(o.exchange);
  const problems = outcomes.flatMap((o, i) => o.problems.map((p) => `step ${i + 1} of ${outcomes.length} (sent to ${INSTANCE_NAMES[target.route(i)]}): ${p}`));
  if (problems.length) expect.fail(problems.join('\n'));
}

/** An address of the benchmarking range no other check or run uses, so the failures counted are this check's alone. */
function freshAddress(): string {
  const [a, b, c] = randomBytes(3);
  return `198.${18 + (a! & 1)}.${b}.${c! || 1}`;
}

/** The one challenge of a 402. */
function challengeOf(exchange: PaidExchange): { echo: ChallengeEcho; version: string; amount: number } {
  const [first] = exchange.challenges;
  if (!first) return expect.fail(`expected a Payment challenge, got ${exchange.status} ${exchange.refusal ?? ''}`);
  return { echo: first.echo, version: exchange.termsVersion ?? '', amount: Number((first.challenge.request as { amount?: unknown }).amount ?? Number.NaN) };
}

/** A buyer registered on the fleet, holding a challenge from the first instance it may pay (--spend-cap). */
async function payingBuyer(c: CheckContext, target: FleetTarget, name: string): Promise<{ buyer: Buyer; offer: ReturnType<typeof challengeOf> }> {
  if (!target.capabilities.has('spend')) c.notRun(CAPABILITY_REASONS.spend);
  const buyer = await new Buyer(target.to(0), `fleet-${name}-${serial++}`, c.record).register();
  const offer = challengeOf(await buyer.post());
  await payOrNotRun(target, c, offer.amount);
  return { buyer, offer };
}

/** The 7.4 row a refusal names, when it is one of `allowed`. */
function recordOf(exchange: PaidExchange, allowed: readonly PurchaseErrorRecord[]): PurchaseErrorRecord | undefined {
  const code = errorCodeOf(exchange.body);
  return allowed.find((r) => r.code === code && r.status === exchange.status);
}

const granted = (exchange: PaidExchange) => exchange.status >= 200 && exchange.status < 300;

/** The payment a success names: the reference of its Payment-Receipt (the Payment scheme draft: base64url JSON). */
function receiptReference(exchange: PaidExchange): string | undefined {
  const decoded = decodeBase64urlJson(exchange.response.headers[HEADERS.paymentReceipt] ?? '');
  const reference = decoded.ok ? (decoded.value as { reference?: unknown } | null)?.reference : undefined;
  return typeof reference === 'string' && reference !== '' ? reference : undefined;
}

/** 503s that ask for the same credential again: the purchase is still settling somewhere in the fleet. */
const STILL_SETTLING: readonly PurchaseErrorRecord[] = Object.values(E).filter((r) => r.status === 503 && r.retry?.sameCredential === true);

describe(`5.2 and 7.4 across the instances of one deployment (${fleet?.description ?? 'needs --also-base-url'})`, () => {
  // First of the file: from the run's one address it waits for the deployment's window to hold none of the run's failures.
  check({
    id: 'fleet.throttle-counts-every-instance',
    title: `failed signatures from one address spread over both instances count together: after ${LIMITS.failedSignatures.value}, each instance answers too_many_failed_signatures`,
    requirements: [requirementId('AUTH', AUTH_CODES.too_many_failed_signatures)],
    level: 'MUST',
    // From the run's one address: up to a window for the run's failures to leave it, and a window for the throttle to pass.
    timeout: checkTimeout(60_000) + (fleet && !fleet.capabilities.has('client-address') ? 2 * THROTTLE_WAIT_MS : 0),
    run: async (c) => {
      const target = need(c);
      target.route = (i) => (i % 2) as Instance;
      // With chosen client addresses, one no other check or run uses; else the run's own, held by the pacer for this check.
      const chosen = target.capabilities.has('client-address');
      const from = chosen ? { client_address: freshAddress() } : {};
      const asked = chosen ? undefined : await target.throttleTrip('fleet.throttle-counts-every-instance');
      const trip = asked === undefined || 'end' in asked ? asked : c.notRun(asked.notRun);
      try {
        await runFleetCase(c, target, {
          id: 'fleet-throttle',
          description: 'failures alternating over A and B, then a good request to each',
          flags: ['Throttle'],
          build: (k: Kit) => ({
            documents: k.docs(),
            steps: [
              ...Array.from({ length: LIMITS.failedSignatures.value }, () =>
                k.step(k.request({ labels: [{ label: 'sig1', key: k.A, tamper: (s) => flip(s) }] }), refused(AUTH_CODES.signature_invalid), from),
              ),
              k.step(k.request(), refused(AUTH_CODES.too_many_failed_signatures), from),
              k.step(k.request(), refused(AUTH_CODES.too_many_failed_signatures), from),
            ],
          }),
        });
      } finally {
        await trip?.end();
      }
    },
  });

  check({
    id: 'fleet.replay-across-instances',
    title: 'a signed request one instance accepted is refused by the other as signature_replayed (a nonce is single use across the deployment)',
    requirements: [requirementId('AUTH', AUTH_CODES.signature_replayed)],
    level: 'MUST',
    timeout: checkTimeout(60_000),
    run: async (c) => {
      const target = need(c);
      target.route = (i) => (i % 2) as Instance;
      await runFleetCase(c, target, {
        id: 'fleet-replay',
        description: 'accepted by A, replayed to B',
        flags: ['Replay'],
        build: (k: Kit) => {
          const request = k.request();
          return { documents: k.docs(), steps: [k.step(request, accepted(k.alice.agentUrl)), k.step(request, refused(AUTH_CODES.signature_replayed))] };
        },
      });
    },
  });

  check({
    id: 'fleet.platform-token-accepted-elsewhere',
    title: 'a platform token one instance issued is a credential at the other (5.3)',
    requirements: [REQUIREMENTS.signedRequestAccepted.id],
    level: 'MUST',
    timeout: checkTimeout(60_000),
    run: async (c) => {
      const target = need(c);
      const env = target.environment;
      const id = `fleet-token-${serial++}`;
      const kit = new Kit(
        {
          now: env.now(),
          authority: env.authority,
          platformOrigin: env.platformOrigin,
          agentOrigin: env.agentOrigin(id),
          nonce: env.nonce,
          ...(env.naming ? { naming: env.naming } : {}),
        },
        id,
      );
      await target.prepare({
        id,
        description: 'an agent asking for a platform token',
        now: kit.now,
        platform: { authority: env.authority },
        documents: kit.docs(),
        steps: [],
      });
      const signed = kit.request();
      const request = { method: signed.method, url: signed.url, headers: signed.headers, body: caseRequestBody(signed) };
      const issued = await target.to(0).send(request);
      c.record({ request: recordRequest(request), response: recordResponse(issued) });
      const token = accessTokenOf(issued.status, issued.body) ?? c.notRun(noPlatformTokenReason(issued.status));
      target.to(1);
      await runFleetCase(c, target, {
        id: `${id}-bearer`,
        description: 'the token presented to B',
        flags: ['Bearer'],
        build: (k: Kit) => ({
          documents: {},
          steps: [
            k.step(
              {
                method: 'POST',
                url: k.url(),
                headers: [[HEADERS.authorization, `${AUTH_SCHEMES.bearer} ${token}`]],
                body_base64: Buffer.from('{}').toString('base64'),
              },
              accepted(null),
            ),
          ],
        }),
      });
    },
  });

  check({
    id: 'fleet.in-flight-charge-resumed-elsewhere',
    title:
      'a credential whose charge is in flight at one instance is answered by the other as that charge: 503 charge_processing (or charge_outcome_unknown), no fresh challenge',
    requirements: [E.charge_processing.id, P.resumeSameCredential.id],
    level: 'MUST',
    timeout: checkTimeout(60_000),
    run: async (c) => {
      const target = need(c);
      const { buyer, offer } = await payingBuyer(c, target, 'resume');
      const headers = cardPayment(offer.echo, freshTestToken('processing'), offer.version);
      target.to(0);
      expectPaidAnswer(await buyer.post({ headers }), E.charge_processing);
      target.to(1);
      const elsewhere = await buyer.post({ headers });
      // Asked again, the processor reports the charge still processing, or the instance cannot learn its outcome: either is that charge's 503.
      const resumed = recordOf(elsewhere, [E.charge_processing, E.charge_outcome_unknown]);
      if (!resumed) {
        expect.fail(
          `${INSTANCE_NAMES[1]} answered the credential whose charge ${INSTANCE_NAMES[0]} sent with ${elsewhere.status} ${errorCodeOf(elsewhere.body) ?? elsewhere.refusal ?? ''}: ` +
            'the same credential must resume that charge (503 charge_processing, or charge_outcome_unknown), not start another purchase',
        );
      }
      expectPaidAnswer(elsewhere, resumed);
    },
  });

  check({
    id: 'fleet.concurrent-presentations-charge-once',
    title: `${CONCURRENT_PRESENTATIONS} presentations of one credential at once, spread over both instances, make one purchase: the successes name one payment, the rest are 409 purchase_already_granted or a 503 to present it again`,
    requirements: [E.purchase_already_granted.id, E.purchase_in_flight.id, P.settledCreditedOnce.id],
    level: 'MUST',
    timeout: checkTimeout(60_000),
    run: async (c) => {
      const target = need(c);
      const { buyer, offer } = await payingBuyer(c, target, 'concurrent');
      const headers = cardPayment(offer.echo, freshTestToken('settled'), offer.version);
      const present = (instance: Instance) => {
        target.to(instance);
        return buyer.post({ headers });
      };
      let sentTo = Array.from({ length: CONCURRENT_PRESENTATIONS }, (_, i) => (i % 2) as Instance);
      let answers = await Promise.all(sentTo.map(present));
      const problems: string[] = [];
      const grants: PaidExchange[] = [];
      for (let round = 0; answers.length > 0; round++) {
        const again: Instance[] = [];
        for (const [i, answer] of answers.entries()) {
          const settling = recordOf(answer, STILL_SETTLING);
          if (granted(answer)) grants.push(answer);
          else if (recordOf(answer, [E.purchase_already_granted])) expectPaidAnswer(answer, E.purchase_already_granted);
          else if (settling && round < RE_PRESENTATIONS) {
            expectPaidAnswer(answer, settling);
            again.push(sentTo[i]!);
          } else problems.push(`${INSTANCE_NAMES[sentTo[i]!]} answered ${answer.status} ${errorCodeOf(answer.body) ?? answer.refusal ?? ''}`);
        }
        sentTo = again;
        answers = [];
        for (const instance of again) answers.push(await present(instance));
      }
      if (problems.length) expect.fail(`the same credential, presented at once to both instances, was not answered as one purchase:\n${problems.join('\n')}`);
      expect(grants.length, 'presentations that succeeded').toBeGreaterThanOrEqual(1);
      // More than one success is the one purchase told twice only if each names its one payment (READING-CONCURRENT-REDEMPTION).
      const references = grants.map(receiptReference);
      if (grants.length > 1 && (references.includes(undefined) || new Set(references).size > 1))
        expect.fail(
          `${grants.length} presentations succeeded, naming the payments ${references.map((r) => r ?? '(no Payment-Receipt reference)').join(', ')}: the credential was redeemed more than once (one charge, credited once)`,
        );
      for (const instance of [0, 1] as const) expectPaidAnswer(await present(instance), E.purchase_already_granted);
    },
  });
});
