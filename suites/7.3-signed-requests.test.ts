import { afterAll, describe, expect } from 'vitest';
import type { SignedRequestCase } from '../src/cases/types.js';
import { runCaseOnTarget } from '../src/harness/case-on-target.js';
import { CAPABILITY_REASONS, missingCapabilities } from '../src/harness/target.js';
import { checkTimeout } from './lib/context.js';
import { buildCase, type Scenario } from '../src/scenarios/kit.js';
import { SIGNED_REQUEST_GROUPS } from '../src/scenarios/signed/index.js';
import { SCENARIO_LIMITS } from '../src/scenarios/signed/limits.js';
import { requirementId } from '../src/spec/ids.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { check } from './lib/check.js';
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

/** Cases live targets cannot isolate: a directory names an origin, which every run shares. */
const NEEDS_OWN_ORIGIN = new Set(['valid-directory-origin', 'key-directory-wrong-media-type']);
/** Cases whose point is refusing plain http, which a deployment reading fixtures over http must accept. */
const NEEDS_HTTPS_FIXTURES = new Set(['agent-plain-http']);

async function caseFor(scenario: Scenario): Promise<SignedRequestCase> {
  if (target.kind === 'in-process') return vectors.get(scenario.id)!;
  // Pace before building: a case's times must be fresh when its requests go out.
  await target.ready?.(vectors.get(scenario.id)!.steps.filter((s) => s.expect?.ok === false).length);
  const env = target.environment;
  return buildCase(
    { now: env.now(), authority: env.authority, platformOrigin: env.platformOrigin, agentOrigin: env.agentOrigin(scenario.id), nonce: env.nonce },
    scenario,
  );
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
  return [...rules, ...(SCENARIO_LIMITS[id] ?? [])];
}

describe(`7.3 agent authentication over HTTP (${target.description})`, () => {
  for (const group of SIGNED_REQUEST_GROUPS) {
    describe(group.comment, () => {
      for (const scenario of group.scenarios) {
        check({
          id: `signed.${scenario.id}`,
          title: scenario.description,
          requirements: requirementsOf(scenario.id),
          level: 'MUST',
          timeout: CHECK_TIMEOUT_MS,
          run: async ({ record, notRun }) => {
            if (target.kind === 'live' && NEEDS_OWN_ORIGIN.has(scenario.id))
              notRun("needs an origin of its own: a key directory is read per origin, and a live run shares the fixture host's origin between cases");
            if (NEEDS_HTTPS_FIXTURES.has(scenario.id) && target.environment.agentOrigin(scenario.id).startsWith('http:')) {
              notRun(
                'needs https fixtures: the deployment reaches the fixture host over plain http (--allow-insecure-fixtures), so it cannot also be shown to refuse http agent URLs',
              );
            }
            const c = await caseFor(scenario);
            const missing = missingCapabilities(target, c);
            if (missing.length) notRun(missing.map((m) => CAPABILITY_REASONS[m]).join('; '));
            const outcomes = await runCaseOnTarget(c, target);
            for (const o of outcomes) record(o.exchange);
            const problems = outcomes.flatMap((o, i) => o.problems.map((p) => `step ${i + 1} of ${outcomes.length}: ${p}`));
            if (problems.length) expect.fail(problems.join('\n'));
          },
        });
      }
    });
  }
});
