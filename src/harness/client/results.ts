import { judgeCase, ruleVerdicts, type CaseMarks, type RuleVerdict } from '../../client-judge/judge.js';
import { CLIENT_RULE_LIST, type ClientRule } from '../../client-judge/rules.js';
import type { ClientExchange, ClientFrame } from '../../client-judge/types.js';
import type { ClientCase } from '../../scenarios/clients/cases.js';
import { recordRequest, recordResponse, type Exchange } from '../exchange.js';
import type { CheckResult } from '../results.js';

/** What one case of a client run gave: its exchanges, the marks its rules got, and what became of the client. */
export interface ClientCaseRun {
  readonly clientCase: ClientCase;
  readonly exchanges: readonly ClientExchange[];
  /** The agent socket's frames, either way (the socket cases). */
  readonly frames: readonly ClientFrame[];
  /** How the client under test ended: exited (with its code), stopped at the time limit, or failed to start. */
  readonly ended: string;
  readonly durationMs: number;
  /** What the case told the buyer (section 6's pointer rule is judged against it). */
  readonly buyer: { readonly allowedHosts: readonly string[]; readonly dailyCap: number | null };
}

/** A failed check keeps the requests that broke it, up to this many. */
const EXCHANGES_KEPT = 8;

/** The report's name for the checks of each area (a report groups checks by it, as it groups server checks by suite file). */
const CLIENT_SUITES: Readonly<Record<ClientRule['area'], string>> = Object.freeze({
  signer: 'client: signer (5.2, 2.4, 8)',
  buyer: 'client: buyer (7.4, 3)',
});

/** The marks of each case run, judged over its exchanges. */
function caseMarks(runs: readonly ClientCaseRun[]): CaseMarks[] {
  return runs.map((run) => ({
    caseId: run.clientCase.id,
    marks: judgeCase(run.exchanges, { allowedHosts: run.buyer.allowedHosts, dailyCapCents: run.buyer.dailyCap }, run.frames),
  }));
}

/** Why a rule no case judged was not run: the cases that give occasion to judge it, and whether they ran. */
function notRunReason(rule: ClientRule, runs: readonly ClientCaseRun[], all: readonly ClientCase[]): string {
  const ran = runs.filter((r) => r.clientCase.rules.includes(rule.key));
  const could = all.filter((c) => c.rules.includes(rule.key)).map((c) => c.id);
  if (ran.length === 0) return `no selected case judges it; ${could.length ? `the cases that do: ${could.join(', ')}` : 'no case judges it yet'}`;
  const shown = ran.slice(0, 3).map((r) => `${r.clientCase.id} (${r.exchanges.length} request(s), the client ${r.ended})`);
  return `no request the client sent in the ${ran.length} case(s) that judge it reached it (READING-CLIENT-STOPS): ${shown.join(', ')}${ran.length > 3 ? ', ...' : ''}`;
}

function exchangesOf(verdict: RuleVerdict, runs: readonly ClientCaseRun[]): Exchange[] {
  return verdict.broken.slice(0, EXCHANGES_KEPT).flatMap((b) => {
    const exchange = runs.find((r) => r.clientCase.id === b.caseId)?.exchanges[b.exchange];
    if (!exchange) return [];
    return [
      {
        request: recordRequest(exchange.request),
        response: exchange.response ? recordResponse(exchange.response) : null,
        note: `case ${b.caseId}, request ${b.exchange + 1} (answered by ${exchange.answeredBy}): ${b.detail}`,
      },
    ];
  });
}

/**
 * The checks of a client run, one per rule, in the shape of a server run's results: id, title, requirement, level, the
 * verdict over every case, the message, and the requests that broke it.
 */
export function clientCheckResults(runs: readonly ClientCaseRun[], all: readonly ClientCase[], rules: readonly ClientRule[] = CLIENT_RULE_LIST): CheckResult[] {
  const verdicts = ruleVerdicts(caseMarks(runs), (rule) => notRunReason(rule, runs, all), rules);
  const durationOf = (rule: ClientRule) => runs.filter((r) => r.clientCase.rules.includes(rule.key)).reduce((t, r) => t + r.durationMs, 0);
  return verdicts.map((v) => ({
    id: v.rule.id,
    name: v.rule.title,
    suite: CLIENT_SUITES[v.rule.area],
    requirements: [v.rule.requirement.id],
    level: v.rule.requirement.level,
    verdict: v.verdict,
    durationMs: v.verdict === 'not-run' ? 0 : durationOf(v.rule),
    message: v.message,
    ...(v.verdict === 'fail' ? { exchanges: exchangesOf(v, runs) } : {}),
  }));
}
