import { HEADERS } from '../spec/headers.js';
import type { BuyerConfig } from '../purchase/buyer/pointer-rule.js';
import { judgeBuyer } from './buyer.js';
import { CLIENT_RULE_LIST, type ClientRule, type ClientRuleKey } from './rules.js';
import type { ClientExchange, ClientFrame, RuleMark } from './types.js';

/** The purchase headers 7.4 says a signed request covers when it sends them. */
const PURCHASE_HEADERS: readonly string[] = [HEADERS.termsAccepted, HEADERS.paymentMethods, HEADERS.purchase];

/** Signer rules a request that verified met (the conditional ones, Content-Digest and the purchase headers, apart). */
const MET_WHEN_ACCEPTED: readonly ClientRuleKey[] = CLIENT_RULE_LIST.filter(
  (r) => r.area === 'signer' && r.key !== 'contentDigest' && r.key !== 'purchaseHeadersCovered',
).map((r) => r.key);

const at = (index: number) => `request ${index + 1}`;

/** The signer's rules over each request of a case, from the judgement made when it arrived. */
export function judgeSigner(exchanges: readonly ClientExchange[]): RuleMark[] {
  const marks: RuleMark[] = [];
  exchanges.forEach((exchange, i) => {
    const { signer, request } = exchange;
    const what = `${at(i)} (${request.method} ${new URL(request.url).pathname})`;
    if (signer.kind === 'unsigned') {
      // A platform bearer (5.3) is another credential the spec allows; this judge has no way to verify one.
      if (!signer.bearer)
        marks.push({
          rule: 'signed',
          met: false,
          exchange: i,
          detail: `${what} carries no Signature-Agent, Signature-Input and Signature (and no platform bearer)`,
        });
      return;
    }
    if (signer.kind === 'refused') {
      marks.push({
        rule: signer.rule,
        met: false,
        exchange: i,
        detail: `${what} is refused ${signer.code} (verifier check ${signer.check}): ${signer.description}`,
      });
      const passed = `${what} passed the verifier's checks before ${signer.check}`;
      for (const rule of signer.met) marks.push({ rule, met: true, exchange: i, detail: passed });
      return;
    }
    const verified = `${what} is signed by ${signer.agentUrl} (${signer.labels.join(', ')}) and verifies`;
    for (const rule of MET_WHEN_ACCEPTED) marks.push({ rule, met: true, exchange: i, detail: verified });
    if (request.body.length > 0)
      marks.push({ rule: 'contentDigest', met: true, exchange: i, detail: `${verified}, its Content-Digest matching the ${request.body.length} body bytes` });
    const sent = PURCHASE_HEADERS.filter((name) => request.headers.some(([n]) => n.toLowerCase() === name));
    if (sent.length) {
      const uncovered = sent.filter((name) => !signer.coveredFields.includes(name));
      marks.push({
        rule: 'purchaseHeadersCovered',
        met: uncovered.length === 0,
        exchange: i,
        detail: uncovered.length
          ? `${what} sends ${uncovered.join(', ')} without covering ${uncovered.length > 1 ? 'them' : 'it'}; on a signed request the purchase headers are among the covered components`
          : `${what} covers ${sent.join(', ')}`,
      });
    }
  });
  return marks;
}

/** Every rule a case's requests met or broke: the signer's per request, the buyer's over the sequence (with its configuration). */
export function judgeCase(exchanges: readonly ClientExchange[], buyer?: BuyerConfig, frames: readonly ClientFrame[] = []): RuleMark[] {
  return [...judgeSigner(exchanges), ...judgeBuyer(exchanges, buyer, frames)];
}

/** The marks one case left. */
export interface CaseMarks {
  readonly caseId: string;
  readonly marks: readonly RuleMark[];
}

/** Where a rule was met or broken: a case and a request of it (0-based), and why. */
export interface RuleInstance {
  readonly caseId: string;
  readonly exchange: number;
  readonly detail: string;
}

export interface RuleVerdict {
  readonly rule: ClientRule;
  /** fail: a case broke it; pass: cases met it and none broke it; not-run: no case gave occasion to judge it. */
  readonly verdict: 'pass' | 'fail' | 'not-run';
  readonly message: string;
  readonly broken: readonly RuleInstance[];
  readonly met: readonly RuleInstance[];
}

/**
 * A verdict per rule over every case of a run: any request that broke it fails it; requests that met it and none
 * that broke it pass it; otherwise it is not run, for `notRun(rule)`'s reason (READING-CLIENT-STOPS).
 */
export function ruleVerdicts(
  cases: readonly CaseMarks[],
  notRun: (rule: ClientRule) => string,
  rules: readonly ClientRule[] = CLIENT_RULE_LIST,
): RuleVerdict[] {
  return rules.map((rule) => {
    const broken: RuleInstance[] = [];
    const met: RuleInstance[] = [];
    for (const c of cases)
      for (const m of c.marks) if (m.rule === rule.key) (m.met ? met : broken).push({ caseId: c.caseId, exchange: m.exchange, detail: m.detail });
    if (broken.length) {
      const shown = broken.slice(0, 5).map((b) => `${b.caseId}: ${b.detail}`);
      const more = broken.length > shown.length ? [`... and ${broken.length - shown.length} more`] : [];
      return {
        rule,
        verdict: 'fail',
        message: [...shown, ...more, `${rule.requirement.id} (${rule.requirement.section}): ${rule.requirement.condition}`].join('\n'),
        broken,
        met,
      };
    }
    if (met.length) {
      const inCases = [...new Set(met.map((m) => m.caseId))];
      return { rule, verdict: 'pass', message: `met by ${met.length} request(s) in ${inCases.join(', ')}`, broken, met };
    }
    return { rule, verdict: 'not-run', message: notRun(rule), broken, met };
  });
}
