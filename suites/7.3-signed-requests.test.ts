import { afterAll, describe, expect } from 'vitest';
import type { SignedRequestCase } from '../src/cases/types.js';
import { runCaseOnTarget } from '../src/harness/case-on-target.js';
import { accessTokenOf, noPlatformTokenReason, planLive, stageLive } from '../src/harness/live-staging.js';
import { caseRequestBody } from '../src/cases/request-body.js';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { caseWaitSeconds } from '../src/harness/live-waits.js';
import { fromOneAddress, THROTTLE_WAIT_MS, TRIPPING_CASES } from '../src/harness/failure-budget.js';
import { CAPABILITY_REASONS, missingCapabilities, type ThrottleTrip } from '../src/harness/target.js';
import { AGENT_STATES } from '../src/contract/test-control.js';
import { checkTimeout } from './lib/context.js';
import { buildCase, Kit, type Scenario } from '../src/scenarios/kit.js';
import { SIGNED_REQUEST_GROUPS } from '../src/scenarios/signed/index.js';
import { SCENARIO_LIMITS, SCENARIO_RULES } from '../src/scenarios/signed/limits.js';
import { requirementId } from '../src/spec/ids.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { check, type CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';
import { readVectors } from './lib/vectors.js';

/**
 * Section 7.3 (with 5.2 and 5.3) over HTTP: every signed-request scenario sent to the target. In-process the
 * cases are exactly vectors/signed-requests.json; live they are built afresh (the deployment's host, the
 * fixture host's URLs, the current time, fresh nonces). Each refusal must be the 401 7.3 describes: status,
 * error_code, Bearer challenge, body, and Accept-Signature where due.
 */
const target = suiteTarget();
afterAll(() => target.close());
const vectors = new Map(readVectors('signed-requests.json').testGroups.flatMap((g) => g.cases.map((c) => [c.id, c] as const)));

/** A live check may wait out the platform's failure window (60 s) while pacing its failing requests; `run --timeout` overrides. */
const CHECK_TIMEOUT_MS = checkTimeout(target.kind === 'live' ? 180_000 : 30_000);

/** A live run with --allow-waits: steps at later times are waited for. */
const WAITS = target.kind === 'live' && target.capabilities.has('clock-control');

/** Cases naming an origin (type=directory) need one no other case shares: live, the fixture host opens one. */
const needsOwnOrigin = (scenario: Scenario) => scenario.flags.includes('Directory');
/** Cases whose point is refusing plain http, which a deployment reading fixtures over http must accept. */
const NEEDS_HTTPS_FIXTURES = new Set(['agent-plain-http']);

/**
 * Live from the run's one address, a case that trips the throttle holds that address (a trip of the run's pacer, under
 * --allow-waits) in place of the one address its steps name.
 */
const tripsFromOneAddress = (id: string) => target.kind === 'live' && !target.capabilities.has('client-address') && TRIPPING_CASES.has(id);

/** The case, and the trip its check holds the run's address by (ended by the check). */
interface Staged {
  readonly built: SignedRequestCase;
  readonly trip?: ThrottleTrip;
}

async function caseFor(scenario: Scenario, c: CheckContext): Promise<Staged> {
  // In-process the vectors are the cases, unless the run names the deployment's names for Service (then built with them).
  if (target.kind === 'in-process' && target.environment.naming === undefined) return { built: vectors.get(scenario.id)! };
  const env = target.environment;
  const tripping = tripsFromOneAddress(scenario.id);
  const vector = tripping ? fromOneAddress(vectors.get(scenario.id)!) : vectors.get(scenario.id)!;
  // Live, what the embedded reference seeds happens on the wire (src/harness/live-staging.ts), or the check says why not.
  const staging = { allowWaits: target.capabilities.has('clock-control'), ownerKey: target.ownerKey, control: target.control !== undefined };
  const plan = target.kind === 'live' ? planLive(vector, staging) : { delay: 0 };
  if ('notRun' in plan) return c.notRun(plan.notRun);
  // What the target cannot do is known before pacing (a case that will not run never waits for room).
  const preview =
    target.kind === 'live'
      ? stageLive(vector, vector.now, { ...staging, nonce: () => '', ...('platformToken' in plan ? { platformToken: 'to-be-issued' } : {}) })
      : vector;
  const missing = missingCapabilities(target, preview);
  if (missing.length) return c.notRun(missing.map((m) => CAPABILITY_REASONS[m]).join('; '));
  let agentOrigin = env.agentOrigin(scenario.id);
  if (target.kind === 'live' && needsOwnOrigin(scenario)) {
    const own = (await target.isolatedOrigin?.()) ?? { reason: 'the target gives no origin of its own' };
    if ('reason' in own) return c.notRun(`needs an origin of its own (a key directory is read per origin): ${own.reason}`);
    agentOrigin = own.url;
  }
  const platformToken = 'platformToken' in plan ? await issuedPlatformToken(scenario.id, c) : undefined;
  // Pace (or hold the address) before building: a case's times must be fresh when its requests go out.
  const asked = tripping ? await target.throttleTrip!(`signed.${scenario.id}`) : undefined;
  const trip = asked === undefined || 'end' in asked ? asked : c.notRun(asked.notRun);
  if (!trip) await target.ready?.(vector.steps.filter((s) => s.expect?.ok === false).length);
  const now = env.now();
  const built = await buildCase(
    {
      now: now + plan.delay,
      authority: env.authority,
      platformOrigin: env.platformOrigin,
      agentOrigin,
      nonce: env.nonce,
      naming: env.naming,
      clockMargin: env.clockMargin,
    },
    scenario,
  );
  if (target.kind !== 'live') return { built };
  // The agents the case has the platform block, blocked through the deployment's test control.
  for (const agent of built.platform.blocked_agents ?? []) {
    const answer = await target.control!({ state: AGENT_STATES.agentBlocked, agent });
    if ('notRun' in answer) return c.notRun(answer.notRun);
  }
  const staged = stageLive(built, now, { ...staging, nonce: () => env.nonce(scenario.id, 'register', 0), naming: env.naming, platformToken });
  return { built: trip ? fromOneAddress(staged) : staged, ...(trip ? { trip } : {}) };
}

/** A platform token the live deployment issues at its CLI token route to a signed request of an agent of the run's own. */
async function issuedPlatformToken(caseId: string, c: CheckContext): Promise<string> {
  const env = target.environment;
  const id = `${caseId}-token`;
  const kit = new Kit(
    { now: env.now(), authority: env.authority, platformOrigin: env.platformOrigin, agentOrigin: env.agentOrigin(id), nonce: env.nonce, naming: env.naming },
    id,
  );
  await target.prepare({
    id,
    description: 'a platform token for the case',
    now: kit.now,
    platform: { authority: env.authority },
    documents: kit.docs(),
    steps: [],
  });
  const signed = kit.request();
  const request = { method: signed.method, url: signed.url, headers: signed.headers, body: caseRequestBody(signed) };
  const response = await target.send(request);
  c.record({ request: recordRequest(request), response: recordResponse(response) });
  return accessTokenOf(response.status, response.body) ?? c.notRun(noPlatformTokenReason(response.status));
}

function requirementsOf(id: string): string[] {
  const codes = [
    ...new Set(
      vectors
        .get(id)!
        .steps.map((s) => s.expect?.error_code)
        .filter((c): c is NonNullable<typeof c> => !!c),
    ),
  ];
  const rules = codes.length ? codes.map((code) => requirementId('AUTH', code)) : [REQUIREMENTS.signedRequestAccepted.id];
  return [...rules, ...(SCENARIO_LIMITS[id] ?? []), ...(SCENARIO_RULES[id] ?? [])];
}

describe(`7.3 agent authentication over HTTP (${target.description})`, () => {
  for (const group of SIGNED_REQUEST_GROUPS) {
    describe(group.comment, () => {
      for (const scenario of group.scenarios) {
        check({
          id: `signed.${scenario.id}`,
          title: scenario.description,
          requirements: requirementsOf(scenario.id),
          level: scenario.flags.includes('Should') ? 'SHOULD' : 'MUST',
          // Under --allow-waits a time-bound case waits in real time: its limit grows by the wait.
          // One that trips the throttle from the run's one address waits up to a window before and a window after.
          timeout:
            CHECK_TIMEOUT_MS +
            (WAITS ? caseWaitSeconds(vectors.get(scenario.id)!) * 1000 : 0) +
            (WAITS && tripsFromOneAddress(scenario.id) ? 2 * THROTTLE_WAIT_MS : 0),
          run: async ({ record, notRun }) => {
            if (NEEDS_HTTPS_FIXTURES.has(scenario.id) && target.environment.agentOrigin(scenario.id).startsWith('http:')) {
              notRun(
                'needs https fixtures: the deployment reaches the fixture host over plain http (--allow-insecure-fixtures), so it cannot also be shown to refuse http agent URLs; to run it, publish the fixture host over https (--fixture-url https://..., behind a TLS proxy) to a deployment that fetches https only',
              );
            }
            const { built: c, trip } = await caseFor(scenario, { record, notRun });
            const missing = missingCapabilities(target, c);
            if (missing.length) {
              await trip?.end();
              notRun(missing.map((m) => CAPABILITY_REASONS[m]).join('; '));
            }
            const outcomes = await runCaseOnTarget(c, target).finally(() => trip?.end());
            for (const o of outcomes) record(o.exchange);
            const problems = outcomes.flatMap((o, i) => o.problems.map((p) => `step ${i + 1} of ${outcomes.length}: ${p}`));
            if (problems.length) expect.fail(problems.join('\n'));
          },
        });
      }
    });
  }
});
