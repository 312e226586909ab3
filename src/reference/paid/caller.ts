import type { TermsNotice } from '../../purchase/index.js';
import type { Acceptance } from '../routes.js';

/** Who pays for a call: the verified agent URL, or the subject of a platform bearer; null for a bearer naming no one. */
export function payerOf(verdict: Acceptance): string | null {
  return verdict.kind === 'signature' ? verdict.agentUrl : verdict.subject;
}

/** Terms given once, or read on every call (a deployment may move to a new version at any time). */
export type TermsSource = TermsNotice | (() => TermsNotice);

export function currentTerms(terms: TermsSource): TermsNotice {
  return typeof terms === 'function' ? terms() : terms;
}
