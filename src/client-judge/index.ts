/**
 * Client mode's judge (`run --client-command`): the rules the spec gives an agent's own side, judged on the requests
 * it sent to a platform double. Pure over its ports: the signer's side by the reference verifier (7.3) when each
 * request arrives (SignerJudge), the buyer's over the sequence of a case (judgeBuyer), each rule a check of the report.
 */
export { CLIENT_RULES, CLIENT_RULE_LIST, type ClientRule, type ClientRuleKey } from './rules.js';
export { SignerJudge, signerRuleOf, type SignerJudgeOptions } from './signer.js';
export { judgeBuyer } from './buyer.js';
export { judgeCase, judgeSigner, ruleVerdicts, type CaseMarks, type RuleInstance, type RuleVerdict } from './judge.js';
export type { ClientExchange, ObservedRequest, ObservedResponse, RuleMark, SignerJudgement } from './types.js';
