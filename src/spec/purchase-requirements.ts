import type { RequirementRecord } from './types.js';

const r = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/** Rules of machine purchases (3, 4.7, 6, 7.4) that are not a single row's code. */
export const PURCHASE_REQUIREMENTS = Object.freeze({
  challengeShape: r(
    'PURCHASE-402-SHAPE',
    '7.4',
    'A 402 carries exactly one WWW-Authenticate: Payment challenge (id, realm, method, intent, request, expires), an application/problem+json body whose type names the refusal, Link: <{terms_url}>; rel=terms-of-service, Service-Terms-Version and Cache-Control: no-store.',
  ),
  challengeLifetime: r('PURCHASE-CHALLENGE-LIFETIME', '7.4', 'A challenge expires 300 seconds after it is issued.'),
  termsOnFunded: r(
    'PURCHASE-TERMS-ON-FUNDED',
    '7.4',
    'The terms headers (Link, Service-Terms-Version) ride on every response of a paid surface once it funded the call.',
  ),
  verifierCodeOnPaidSurface: r('PURCHASE-401-VERIFIER-CODE', '7.4', "A 401 on a paid surface carries the verifier's error_code and error_description."),
  noChallengeOnCodes: r(
    'PURCHASE-CODES-NO-CHALLENGE',
    '7.4',
    '403 and 503 answers carry no challenge and a stable error code in the body; every 503 carries the retry object.',
  ),
  resumeSameCredential: r(
    'PURCHASE-MOVE-RESUME',
    '3',
    'The same credential presented again after its charge was sent resumes the original charge; earlier checks (card capacity, terms version, re-pricing, caps, market closure) are not asked again.',
  ),
  declineFreshChallenge: r(
    'PURCHASE-MOVE-DECLINE',
    '3',
    'A resumed charge that reports nothing captured (a genuine decline or an intent cancelled unsettled) ends in a fresh challenge.',
  ),
  expiredFreshChallenge: r(
    'PURCHASE-MOVE-EXPIRED',
    '3',
    'A credential whose challenge is older than 300 seconds, with no charge record, is refused as expired and answered with a fresh challenge; a settled payment behind it is still credited.',
  ),
  settledCreditedOnce: r(
    'PURCHASE-MOVE-CREDITED-ONCE',
    '3',
    'A purchase the card processor reports settled is credited to the agent once, even when the credential is never presented again.',
  ),
  cliTokenSameRefusal: r(
    'PURCHASE-CLI-TOKEN-SAME-REFUSAL',
    '4.7',
    'POST /api/auth/cli/token answers a refused signed request with the same error_code and error_description values as a paid surface answers the same refused request.',
  ),
  receiptOnSuccessOnly: r(
    'PURCHASE-RECEIPT-SUCCESS-ONLY',
    '7.4',
    'Payment-Receipt rides on a success only: the Payment HTTP authentication scheme draft (draft-httpauth-payment, "Servers MUST NOT include a Payment-Receipt header on error responses"), which 7.4\'s challenges and credentials follow.',
  ),
  purchaseKindCovered: r(
    'PURCHASE-SERVICE-PURCHASE-COVERED',
    '7.4',
    'A signed agent sets Service-Purchase to exact (per-call sizing) or pack (usage pack) among its covered components; an uncovered Service-Purchase decides nothing.',
  ),
});

export const PURCHASE_REQUIREMENT_LIST: readonly RequirementRecord[] = Object.freeze(Object.values(PURCHASE_REQUIREMENTS));
