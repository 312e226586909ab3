import { buildCase } from '../scenarios/kit.js';
import { SIGNED_REQUEST_GROUPS } from '../scenarios/signed/index.js';
import { AUTH_CODES, type AuthErrorCode } from '../spec/auth-errors.js';
import { runCaseOnTarget } from './case-on-target.js';
import type { LiveTarget } from './targets/live.js';

/** The case the preflight sends: a POST signed as the platform SDK signs it, by an agent the fixture host publishes. */
const PREFLIGHT_SCENARIO = 'valid-post-one-label';
/** The case id its documents and client address are published under (no check has it). */
const PREFLIGHT_CASE = 'preflight-fixture-host';

/**
 * Refusals that say the deployment could not read what the fixture host publishes, or would not read it from there:
 * the documents' URL form (an http fixture host where https is required), the fetch itself, or the card.
 */
const FIXTURE_REFUSALS: ReadonlySet<AuthErrorCode> = new Set([AUTH_CODES.signature_agent_invalid, AUTH_CODES.key_set_unreachable, AUTH_CODES.card_unreachable]);

export type PreflightOutcome = { readonly ok: true; readonly note?: string } | { readonly ok: false; readonly problem: string };

/**
 * Before any suite of a live run: one signed request proves the deployment reads the run's fixture host. A deployment
 * that cannot (it insists on https, or cannot reach this machine) would fail every signed check for a setup fault, not
 * for its conformance; the run stops instead and says what to pass. Any other answer goes on to the checks, which
 * judge it.
 */
export async function fixturePreflight(target: LiveTarget, fixtureUrl: string): Promise<PreflightOutcome> {
  const scenario = SIGNED_REQUEST_GROUPS.flatMap((g) => g.scenarios).find((s) => s.id === PREFLIGHT_SCENARIO);
  if (!scenario) throw new Error(`the preflight scenario ${PREFLIGHT_SCENARIO} is missing from src/scenarios/signed`);
  const env = target.environment;
  const built = await buildCase(
    {
      now: env.now(),
      authority: env.authority,
      platformOrigin: env.platformOrigin,
      agentOrigin: env.agentOrigin(PREFLIGHT_CASE),
      nonce: env.nonce,
      naming: env.naming,
      clockMargin: env.clockMargin,
    },
    scenario,
  );
  const [outcome] = await runCaseOnTarget({ ...built, id: PREFLIGHT_CASE }, target);
  if (!outcome || outcome.ok) return { ok: true };
  const code = outcome.code as AuthErrorCode | null;
  const said = `${outcome.status}${code ? ` ${code}` : ''}`;
  const description = errorDescriptionOf(outcome.exchange.response?.body);
  if (code && FIXTURE_REFUSALS.has(code)) return { ok: false, problem: cannotReadFixtures(fixtureUrl, said, description) };
  return {
    ok: true,
    note: `a signed request from an agent on the fixture host was answered ${said}${description ? ` (${description})` : ''}, not the route's success; the checks will judge it`,
  };
}

function cannotReadFixtures(fixtureUrl: string, said: string, description: string | undefined): string {
  const http = fixtureUrl.startsWith('http:');
  return [
    `the deployment cannot read the run's fixture host at ${fixtureUrl}: a request signed by an agent published there was refused ${said}${description ? ` (${description})` : ''}.`,
    'Every signed check would fail for this setup, not for the deployment, so the run stops before the suites.',
    http
      ? 'A deployment reads agent documents over https from a public address only (5.2): give the fixture host such an address, e.g. a tunnel to --fixture-port, and name it with --fixture-url https://... (docs/running.md: "The fixture host"). A deployment of your own for testing may instead be told to read http fixtures (serve --allow-insecure-fixtures).'
      : 'Check that the deployment can reach that address (DNS, firewall, the tunnel in front of --fixture-port), and that it answers there with the documents the run publishes.',
  ].join(' ');
}

/** error_description of a 7.3 body, when the recorded answer has one. */
function errorDescriptionOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const value = (JSON.parse(body) as { error_description?: unknown }).error_description;
    return typeof value === 'string' ? value.slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}
