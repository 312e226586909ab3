import { LIMITS } from '../limits.js';
import { reading } from './record.js';

/** Seconds a 402 challenge's `expires` may stand from 300 s after the answer's Date. */
export const CHALLENGE_EXPIRY_TOLERANCE_S = 5;
/** The longest Retry-After a daily cap may ask for: a calendar day of 25 hours, across a change of summer time. */
export const DAILY_CAP_RETRY_AFTER_MAX_S = 25 * 3600;

/** Sections 3, 6 and 7.4: machine purchases. */
export const PURCHASE_READINGS = {
  termsLink: reading('READING-TERMS-LINK', ['7.4'], 'The form of the terms Link header', {
    text: '7.4: "the header Link: <{terms_url}>; rel=terms-of-service".',
    standard:
      'RFC 8288 section 3: link-params may come in any order, a parameter value may be a token or a quoted string, relation types compare case-insensitively, and one field may carry several links.',
    accepted: 'Any Link field, under RFC 8288, holding a link to the terms URL whose rel includes terms-of-service.',
    reference: "Writes the spec's form exactly.",
  }),
  paymentChallenge: reading('READING-PAYMENT-CHALLENGE-SYNTAX', ['7.4'], "The form of the Payment challenge and the 402's caching", {
    text: '7.4: "A 402 carries exactly one WWW-Authenticate: Payment challenge".',
    standard:
      'RFC 9110 section 11: the scheme name is case-insensitive, auth-params come in any order with case-insensitive names and token or quoted-string values. The Payment HTTP authentication scheme draft (draft-httpauth-payment): unknown parameters are ignored, and a 402 carries Cache-Control: no-store.',
    accepted:
      'A challenge in any order and spelling RFC 9110 allows; a Cache-Control field on the 402 whose directives include no-store, with any other directives beside it.',
    reference: "id, realm, method, intent, expires, request, opaque, header, in that order (the platform SDK's); Cache-Control: no-store alone.",
  }),
  challengeExpiry: reading('READING-CHALLENGE-EXPIRY', ['7.4', '8'], 'When a challenge says it expires', {
    text: `7.4: "A challenge expires after ${LIMITS.paymentChallengeLifetime.value} seconds".`,
    accepted: `An expires ${LIMITS.paymentChallengeLifetime.value} s after the answer's Date header, within ${CHALLENGE_EXPIRY_TOLERANCE_S} s either way (against the run's own clock, within the 60 s skew 5.2 tolerates, when the answer has no Date); a credential for a challenge older than ${LIMITS.paymentChallengeLifetime.value} s refused with a fresh challenge. The checks present a credential ${LIMITS.paymentChallengeLifetime.value - CHALLENGE_EXPIRY_TOLERANCE_S} s after its challenge (it must be honoured) and ${LIMITS.paymentChallengeLifetime.value + CHALLENGE_EXPIRY_TOLERANCE_S + 1} s after (it must be refused); in between, either.`,
    reference: `expires = the time of issue + ${LIMITS.paymentChallengeLifetime.value} s.`,
  }),
  dailyCapRetryAfter: reading('READING-DAILY-CAP-RETRY-AFTER', ['7.4'], 'How long the Retry-After of a daily cap may be', {
    text: '7.4: metered_instrument_cap, metered_platform_ceiling, metered_ip_cap, metered_principal_cap and wallet_daily_cap are daily limits: "retry after Retry-After". Section 8 gives no value of the caps and no hour at which a day starts.',
    standard: 'RFC 9110 section 10.2.3: Retry-After is an HTTP-date or a number of seconds.',
    accepted: `A number of seconds from 0 to ${DAILY_CAP_RETRY_AFTER_MAX_S} (a day of 25 hours, whatever hour and time zone the deployment's day starts in), or an HTTP-date, which is not judged; a daily limit never asks for a longer wait.`,
    reference: 'The seconds until the next UTC midnight.',
  }),
  concurrentRedemption: reading('READING-CONCURRENT-REDEMPTION', ['3', '7.4'], 'What presentations of one credential at the same moment are answered', {
    text: '3: "Same credential presented again | Always | Resumes the original charge"; "Credential presented again on a paid resource | Usage already credited | 409 purchase_already_granted". Which of these answers a presentation that arrived before the credit, and resumed the charge while another presentation credited it, is not said.',
    standard: 'The Payment HTTP authentication scheme draft: a success carries Payment-Receipt, whose reference names the payment.',
    accepted:
      'The usage credited once, whichever presentation credits it: one success, or several that each name the same payment in the reference of their Payment-Receipt; the other presentations 409 purchase_already_granted, or a 503 that asks for the same credential again. Successes naming different payments, or none, fail: the credential was redeemed more than once.',
    reference:
      'The presentation whose grant the store records, and one whose charge a settlement report credited while it was in flight, answer 200 with the one receipt; a presentation arriving after the credit answers 409.',
  }),
  purchaseBodyMembers: reading('READING-PURCHASE-BODY-MEMBERS', ['2.6', '7.4'], 'Which member of a 7.4 body carries what the spec names only by meaning', {
    text: '7.4: "403 and 503 carry no challenge and a stable error code in the body"; payment_unreconciled: "body says whether the refund is issued or pending"; funding_failed: "body has the purchase block". No member is named, and 2.6 gives two shapes: { error: { code, message } } and { error, error_code, error_description }.',
    accepted:
      'The code in error_code, in error as a string, or in error.code; the refund state as any member holding issued or pending; the purchase block as a member named purchase.',
    reference:
      "Both error and error_code carry the code (the platform's SDK reads error, every other refusal of the platform names it error_code), with error_description; refund; purchase.",
  }),
  problemTypeAddress: reading('READING-PROBLEM-TYPE-ADDRESS', ['7.4'], 'Where the problem types of 7.4 live', {
    text: "7.4 writes the problem types as {problems_url}/terms-acceptance-required and {payment_problems_url}/method-unsupported; the intro names {problems_url} among the service's addresses without giving it, and {payment_problems_url} not at all.",
    standard:
      "RFC 9457 section 3.1.1: type is a URI reference, resolved against the document's base when relative. The Payment HTTP authentication scheme draft publishes its problem types under https://paymentauth.org/problems.",
    accepted:
      "The whole type URL is judged, never its last segment alone: against the embedded reference, its own {problems_url} and the Payment scheme's base; against a live deployment, the address of the first type of each kind it answers with, which every later type of that kind must share.",
    reference: '{problems_url} is <origin>/problems; {payment_problems_url} is https://paymentauth.org/problems.',
  }),
  nonMatchingTransaction: reading('READING-NON-MATCHING-TRANSACTION', ['7.4'], 'Which problem answers a transaction that does not pay the quote', {
    text: '7.4: "A non-matching transaction is answered with a fresh challenge and never broadcast." The invalid-payload row: "Payload readable but not admitted: stablecoin challenge admits payload.type transaction only". No problem type is named for a transaction of type transaction that pays the wrong amount, address, memo, chain or token, makes other calls, is unsigned or signed by no recoverable signer, is valid at the wrong times, or whose bytes do not decode.',
    standard:
      'The Payment HTTP authentication scheme draft: verification-failed for a payment proof that does not verify, invalid-payload for a payload the method does not admit.',
    accepted: 'A 402 carrying one fresh stablecoin challenge whose problem type is verification-failed or invalid-payload, and nothing broadcast.',
    reference: 'verification-failed: the payload is of the admitted type, and what it carries does not pay the quote.',
  }),
  unauthenticatedPurchaseChallenge: reading(
    'READING-UNAUTHENTICATED-PURCHASE-401',
    ['7.4'],
    'What the 401 terms_acceptance_unauthenticated carries as WWW-Authenticate',
    {
      text: '7.4: terms_acceptance_unauthenticated "Acceptance is taken only from a request authenticated as the buying agent; nothing claimed or charged; no challenge"; "A 402 carries exactly one WWW-Authenticate: Payment challenge". The "no challenge" of the row is the Payment challenge the 402 rows carry; which challenge a 401 names is not said.',
      standard:
        'RFC 9110 section 15.5.2: "The server generating a 401 response MUST send a WWW-Authenticate header field containing at least one challenge applicable to the target resource."',
      accepted:
        'A WWW-Authenticate field holding at least one challenge, none of the Payment scheme (Bearer, or any scheme that would authenticate the buying agent), with the error_code and error_description a 401 on a paid surface carries.',
      reference: 'WWW-Authenticate: Bearer realm="…" (the platform token authenticates a buyer; no error parameter, as no token was refused).',
    },
  ),
  cardPayloadWithoutToken: reading(
    'READING-CARD-PAYLOAD-WITHOUT-TOKEN',
    ['7.4'],
    'Which problem answers a card credential whose payload carries no shared payment token',
    {
      text: '7.4: a card challenge is paid with "a shared payment token"; invalid-payload: "Payload readable but not admitted". No row names a card payload without a token, or with one that is empty or not a string.',
      standard:
        'The Payment HTTP authentication scheme draft: malformed-credential for a credential that cannot be read, invalid-payload for a payload the method does not admit, verification-failed for a payment that does not verify (a processor refusing the token).',
      accepted: 'A 402 carrying one fresh challenge whose problem type is invalid-payload, malformed-credential or verification-failed; never the pack.',
      reference: 'invalid-payload, before terms or payment are weighed: the credential is readable and its payload carries nothing to charge.',
    },
  ),
  stablecoinPayloadNotTransaction: reading(
    'READING-STABLECOIN-PAYLOAD-NOT-TRANSACTION',
    ['7.4'],
    'Which problem answers a stablecoin credential whose payload carries no transaction',
    {
      text: '7.4: the paid retry "carries an unbroadcast transaction signed by the paying wallet (payload.type transaction)"; invalid-payload: "Payload readable but not admitted: stablecoin challenge admits payload.type transaction only". No row names a payload with no type, of a type 7.4 does not name, or of type transaction without the transaction.',
      standard:
        'The Payment HTTP authentication scheme draft: malformed-credential for a credential that cannot be read, invalid-payload for a payload the method does not admit, verification-failed for a payment proof that does not verify.',
      accepted:
        'A 402 carrying one fresh stablecoin challenge whose problem type is invalid-payload, malformed-credential or verification-failed, and nothing broadcast; never the pack.',
      reference: 'invalid-payload, before terms or payment are weighed: the credential is readable and its payload carries no transaction to broadcast.',
    },
  ),
  unsentTransferAfterExpiry: reading(
    'READING-UNSENT-TRANSFER-AFTER-EXPIRY',
    ['7.4', '3'],
    'What answers a transfer never broadcast, presented again after its challenge expired while the network cannot be read',
    {
      text: '7.4: tempo_unavailable (stablecoin network unreachable): "Nothing broadcast; re-present the same credential after Retry-After while challenge and transaction are valid"; tempo_settlement_pending is for a "transfer broadcast, not yet settled". Section 3: a credential whose challenge is older than 300 seconds, "No charge record read", is "Refused as expired and answered with a fresh challenge". For a transfer recorded but never broadcast, presented after its challenge (and so its transaction) expired while the network still cannot be read, no row is written.',
      accepted:
        'A 503 tempo_unavailable (the network still cannot be read), or a 402 with one fresh challenge (the transaction can no longer land); never tempo_settlement_pending (nothing was broadcast), and nothing broadcast.',
      reference:
        '503 tempo_unavailable: a broadcast that failed may still have reached the network, so the reference reads the network before it refuses the credential as expired, and credits a transfer that landed.',
    },
  ),
  purchaseKindDefault: reading('READING-PURCHASE-KIND-DEFAULT', ['7.4'], 'What a signed agent naming no Service-Purchase is sold', {
    text: '7.4: "A signed agent sets Service-Purchase to exact (per-call sizing) or pack (usage pack) among its covered components. An unsigned caller of a resource that sells single calls gets a 402 sized to that call". What a signed agent that sets neither (or sets one the signature does not cover) gets is not said.',
    accepted:
      'Either a single call or the pack, as long as an uncovered Service-Purchase gets the same offer as none at all; the checks that buy a single call as a signed agent send Service-Purchase: exact, covered.',
    reference: 'A single call (the priced resource sells calls; the pack is one covered header away).',
  }),
  paidSuccess: reading('READING-PAID-SUCCESS', ['4.7', '7.4'], 'What a paid request succeeds with', {
    text: '4.7: POST /api/mpp/credits "Body: not shown"; section 2.6: "Fields of the receipt and of the purchase block in bodies: not shown". The spec gives no status for a purchase that went through, and names no priced single-call resource.',
    accepted:
      "Any 2xx without a Payment challenge, carrying Payment-Receipt; no member of its body is judged. Single calls are checked at the reference's priced paths (/api/priced/echo and /api/priced/echo-again) and reported not-run where the target serves nothing there.",
    reference:
      "200 with {ok, granted, packId, balance, paymentIntentId, receipt} (the platform's SDK shape), and the called resource's own answer for a single call.",
  }),
  echoMethodChanged: reading('READING-ECHO-METHOD-CHANGED', ['7.4'], 'What answers an echo whose method was changed to one not accepted', {
    text: '7.4: method-unsupported (400) "Credential echoes a challenge whose method the resource does not accept … no challenge; request again"; the Payment scheme\'s invalid-challenge (402, a fresh challenge) answers an echo of a challenge that was not issued. An issued challenge whose method member was changed meets both conditions, and no order is given.',
    accepted: 'A 400 method-unsupported with no challenge, or a 402 invalid-challenge with one fresh challenge; never a charge.',
    reference: '400 method-unsupported: the method is read before the challenge is looked up (src/purchase/machine/guards/before-challenge.ts).',
  }),
  methodNoLongerSold: reading('READING-METHOD-NO-LONGER-SOLD', ['7.4'], 'What answers a stablecoin credential once the deployment no longer offers transfers', {
    text: '7.4: method-unsupported "Credential echoes a challenge whose method the resource does not accept (card always; stablecoin only where a transfer was offered)"; mpp_disabled "Buying with this payment method is not open on the deployment; nothing charged". A challenge issued while transfers were offered, presented once they are not, meets both conditions.',
    accepted: 'A 400 method-unsupported with no challenge, or a 403 mpp_disabled; nothing broadcast, nothing credited.',
    reference: '400 method-unsupported: the methods a surface sells are read now, before the challenge is looked up.',
  }),
  pointerStatus: reading('READING-POINTER-STATUS', ['6'], "The status of the LLM rail's purchase pointer", {
    text: '6: "a caller whose platform token ran out receives requirements.schemes with the token entry at index 0 and an mpp entry holding only purchase_url (a pointer, no challenge), where the deployment sells usage at all". No status is given.',
    accepted:
      'Any status, with the pointer in the body (the token entry at index 0; an mpp entry holding only purchase_url where usage is sold, none where it is not) and no Payment challenge.',
    reference: '402, the status of a payment the call needs.',
  }),
  challengeHeaderParam: reading('READING-CHALLENGE-HEADER-PARAM', ['6', '7.4'], 'Whether a Payment challenge names the header its credential goes in', {
    text: '7.4: "the paid retry carries Service-Terms-Accepted with the version plus Payment-Authorization". The challenge\'s parameters are not shown, in the 402 or in payment.required.',
    standard:
      'The Payment HTTP authentication scheme draft (draft-httpauth-payment -01 and -02): a client sends its credential in Payment-Authorization only when the challenge carries header="Payment-Authorization"; without it, in Authorization.',
    accepted:
      'A challenge with or without the header parameter. A challenge without it, or naming another header, is a SHOULD warning (purchase.challenge-names-credential-header, events.payment-required-names-credential-header): a client following the draft would then send its credential in Authorization.',
    reference: 'header="Payment-Authorization" in every challenge.',
  }),
  challengePaidAgain: reading('READING-CHALLENGE-PAID-AGAIN', ['3', '7.4'], 'What a challenge already paid answers when another credential presents it', {
    text: 'Section 3: "Credential with a charge already sent | Same credential presented again | Always | Resumes the original charge"; "Single-call credential | Presented again | Call already served | 409 call_already_served". A different credential (another card token, another transaction) for a challenge another credential already paid is not named.',
    accepted:
      'A 402 invalid-challenge with a fresh challenge, or, for a single call already served, 409 call_already_served; never a second charge, broadcast or run of the call.',
    reference: '402 invalid-challenge with a fresh challenge (the record of the payment is opened atomically, and the challenge already has one).',
  }),
};
