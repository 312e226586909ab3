import { PACED_FAILURES_PER_WINDOW } from './failure-budget.js';
import type { PacingRecord, RunReport } from './results.js';

/**
 * What heads every report of a live run: the platform, the agent, the fixture host and the service name, each as
 * `[field, label, value]` (field: the report.html data-field), in that order; only those the run had.
 */
export function targetHeading(report: RunReport): Array<readonly [string, string, string]> {
  const t = report.target;
  const rows: Array<readonly [string, string, string]> = [];
  if (t.platformUrl) rows.push(['platform-url', 'Platform', t.platformUrl]);
  if (t.agentUrl) rows.push(['agent-url', 'Agent', t.agentUrl]);
  if (t.fixtureUrl) rows.push(['fixture-url', 'Fixture host', t.fixtureUrl]);
  if (t.serviceName) rows.push(['service-name', 'Service name', t.serviceName]);
  return rows;
}

/** The command line that repeats a run (its options, the selection `only`, its seed). */
export function rerunCommand(report: RunReport, only: readonly string[] = report.selection): string {
  return ['npx agent-platform-conformance run', ...(report.rerun ?? []), ...only.map((o) => `--only ${o}`), `--seed ${report.seed}`].join(' ');
}

/** A run from one address in words: failing requests, wall time, the throttle's floor for them, and whether it paced. */
export function pacingWords(p: PacingRecord): string {
  const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
  const paced = p.throttled
    ? `the deployment throttled, so the run paced (waits told: ${Math.round(p.waitedMs / 1000)} s)`
    : 'the deployment never throttled, so the run did not pace';
  return `${p.failingRequests} failing signed requests from one address in ${minutes(p.wallTimeMs)}; the floor at ${PACED_FAILURES_PER_WINDOW} a minute is ${minutes(p.floorMs)}; ${paced}`;
}
