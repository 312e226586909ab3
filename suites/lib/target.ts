import { inject } from 'vitest';
import { InProcessAgentTarget, LiveAgentTarget, type AgentTarget } from '../../src/harness/agent/index.js';
import type { LiveLimits } from '../../src/harness/live-http.js';
import type { Target } from '../../src/harness/target.js';
import { FleetTarget } from '../../src/harness/targets/fleet.js';
import { InProcessTarget } from '../../src/harness/targets/in-process.js';
import { LiveTarget } from '../../src/harness/targets/live.js';
import { context } from './context.js';

/** What the run bounds live reads by (`run --max-body`); absent under plain vitest, where the targets' defaults apply. */
const limits = inject('conformanceLimits') as LiveLimits | undefined;

/** The target this run checks: the embedded reference (default) or the live deployment the run names. */
export function suiteTarget(): Target {
  return context.target.kind === 'live'
    ? liveTarget(context.target)
    : new InProcessTarget(context.deployment?.serviceName === undefined ? {} : { serviceName: context.deployment.serviceName });
}

function liveTarget(config: Extract<typeof context.target, { kind: 'live' }>, instanceUrl?: string): LiveTarget {
  return new LiveTarget({
    ...config,
    ...(instanceUrl === undefined ? {} : { instanceUrl }),
    ...(limits ? { maxBodyBytes: limits.maxBodyBytes } : {}),
    ...(context.deployment ? { deployment: context.deployment } : {}),
  });
}

/** Why the fleet checks do not run: they need two instances of one deployment. */
export const NO_FLEET_REASON =
  'give --also-base-url: these checks need a second instance of the deployment at --base-url (run --base-url A --also-base-url B), and send to both';

/** The two instances `run --base-url A --also-base-url B` names, as one target; undefined without --also-base-url. */
export function fleetTarget(): FleetTarget | undefined {
  const config = context.target;
  if (config.kind !== 'live' || config.alsoBaseUrl === undefined) return undefined;
  return new FleetTarget([liveTarget(config), liveTarget(config, config.alsoBaseUrl)]);
}

/**
 * Why the agent suites do not run: a live run against a platform (--base-url) without --agent-url would
 * otherwise check the embedded reference agent and report it beside the deployment's results.
 */
export function agentSuiteNotRunReason(): string | undefined {
  return context.target.kind === 'live' && !context.agentUrl
    ? 'needs --agent-url URL: this live run checks a platform; the agent suites check an agent only when one is named'
    : undefined;
}

/** The agent the agent suites check: the live one `run --agent-url` names, else the embedded reference agent. */
export function agentSuiteTarget(): AgentTarget {
  if (!context.agentUrl) return new InProcessAgentTarget();
  // Its callers are self-issued agents whose key sets the run's fixture host publishes (a run with --base-url).
  const callers = context.target.kind === 'live' ? { fixture: context.target.fixture, runId: context.target.runId } : undefined;
  return new LiveAgentTarget(context.agentUrl, context.timeoutMs, context.agentClient, limits?.maxBodyBytes, callers);
}
