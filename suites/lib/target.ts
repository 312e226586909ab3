import { inject } from 'vitest';
import { InProcessAgentTarget, LiveAgentTarget, type AgentTarget } from '../../src/harness/agent/index.js';
import type { LiveLimits } from '../../src/harness/live-http.js';
import type { Target } from '../../src/harness/target.js';
import { InProcessTarget } from '../../src/harness/targets/in-process.js';
import { LiveTarget } from '../../src/harness/targets/live.js';
import { context } from './context.js';

/** What the run bounds live reads by (`run --max-body`); absent under plain vitest, where the targets' defaults apply. */
const limits = inject('conformanceLimits') as LiveLimits | undefined;

/** The target this run checks: the embedded reference (default) or the live deployment the run names. */
export function suiteTarget(): Target {
  return context.target.kind === 'live'
    ? new LiveTarget({
        ...context.target,
        ...(limits ? { maxBodyBytes: limits.maxBodyBytes } : {}),
        ...(context.deployment ? { deployment: context.deployment } : {}),
      })
    : new InProcessTarget(context.deployment?.serviceName === undefined ? {} : { serviceName: context.deployment.serviceName });
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
