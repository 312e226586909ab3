import { LIMITS } from './limits.js';

/**
 * Where the spec leaves a point open (silent, "not shown", a tolerance such as "about 10 minutes", or words that
 * allow more than one reading), how the suite reads it. Each point is written here once: the spec's words, what
 * the suite accepts from a deployment, and what our reference does and why. A check that rests on a reading names
 * it; docs/readings.md is generated from this list (`npm run vectors`). The suite fails a deployment only where
 * the text leaves no choice; a deployment that chose differently from our reference passes, at most with a note.
 */
export interface ReadingRecord {
  readonly id: string;
  readonly sections: readonly string[];
  /** The point, in a few words. */
  readonly point: string;
  /** The spec's own words (quoted), or what it does not say. */
  readonly text: string;
  /** A standard the spec builds on that decides the point, judged exactly as it says. */
  readonly standard?: string;
  /** What the suite accepts from a deployment. */
  readonly accepted: string;
  /** What our reference does, and why. */
  readonly reference: string;
}

const reading = (id: string, sections: readonly string[], point: string, fields: Omit<ReadingRecord, 'id' | 'sections' | 'point'>): ReadingRecord =>
  Object.freeze({ id, sections: Object.freeze([...sections]), point, ...fields });

/** Seconds either side of the card refusal memory's "about 10 minutes" inside which a deployment may forget. */
export const CARD_MEMORY_TOLERANCE_S = 60;
/** Seconds of clock leeway a receiver may grant SDK tokens; checks probe past it. */
export const SDK_TOKEN_LEEWAY_S = 60;
/** Seconds a 402 challenge's `expires` may stand from 300 s after the answer's Date. */
export const CHALLENGE_EXPIRY_TOLERANCE_S = 5;
/**
 * Seconds a live run keeps a signature's times from the 60 s skew boundary, on the side its expectation needs: the run's
 * clock, the deployment's and the request's transit differ by what the run cannot measure.
 */
export const LIVE_CLOCK_MARGIN_S = 5;
/** The longest Retry-After a daily cap may ask for: a calendar day of 25 hours, across a change of summer time. */
export const DAILY_CAP_RETRY_AFTER_MAX_S = 25 * 3600;

export const READINGS = Object.freeze({
  checkOrder: reading('READING-CHECK-ORDER', ['7.3', '5.2'], 'Which code answers a request that breaks several rules', {
    text: '7.3 gives each error_code its condition ("error_code values: …") and no order among them; 5.2 gives the rules without an order of evaluation.',
    accepted:
      'For a request that meets the conditions of several codes, any one of those codes. Two are fixed by the text: too_many_failed_signatures is "refused before reading", and request_body_consumed means "nothing evaluated", so both come before any other.',
    reference:
      'The order of src/verifier/order.ts: what needs only the request before what needs the network, cheap syntax before meaning, within one label the platform SDK order (parameters, size, time), and state changes (nonce spent, registration) only once the signatures verified.',
  }),
  refusedNonce: reading('READING-REFUSED-NONCE', ['5.2'], 'Whether a refused request spends its nonce', {
    text: '5.2: "nonce | 1 to 256 characters, single use per agent URL". Whether a request refused for another reason used the nonce is not said.',
    accepted: 'A valid request reusing the nonce of a refused one is accepted, or refused signature_replayed.',
    reference: "Accepted: a nonce is spent only by a request whose signatures verified, so a forged request cannot burn an agent's nonces.",
  }),
  keySetUnreadable: reading(
    'READING-KEY-SET-UNREADABLE',
    ['7.3', '5.2', '2.4'],
    'key_set_unreachable or key_set_invalid for a body that is too large or not JSON',
    {
      text: `7.3: key_set_unreachable "Key set could not be read under the fetch rules"; key_set_invalid "Not a valid key set under 2.4". The fetch rules of 5.2 ask for "a JSON body of at most ${LIMITS.documentSize.value / 1024} KiB".`,
      accepted: 'A key set body over the size limit, or one that is not JSON, gets either code.',
      reference: 'key_set_unreachable for both: the fetch rules name the size and the JSON body, so such a document was never read as a key set.',
    },
  ),
  keySetRsa: reading('READING-KEY-SET-RSA', ['2.4'], 'A key set that carries an RSA key beside its Ed25519 keys', {
    text: '2.4: "Entries are Ed25519 public keys (kty OKP, crv Ed25519, use sig), at most 16 … Between SDK agents a key set may also carry an RSA key."',
    accepted:
      'The key set is a valid one: a request signed with one of its Ed25519 keys is accepted. The text allows the RSA key, so refusing the whole set is not a reading it leaves open.',
    reference: 'Ignores the RSA key and verifies with the Ed25519 keys.',
  }),
  legacySignatureAgent: reading('READING-LEGACY-SIGNATURE-AGENT', ['5.2', '7.3'], "A Signature-Agent sent as a bare string (the platform SDK's legacy form)", {
    text: '5.2: "Signature-Input and Signature are structured-field dictionaries with one member per label" and the Signature-Agent member is "covered exactly once as signature-agent;key=<label>"; a bare string has no member to key.',
    accepted: 'Refused, with signature_malformed, signature_agent_invalid or signature_coverage_insufficient: the string breaks the conditions of all three.',
    reference: 'signature_malformed, as for any header that is not the dictionary 5.2 asks for.',
  }),
  coveredFieldAbsent: reading('READING-COVERED-FIELD-ABSENT', ['5.2', '7.3'], 'A covered header field the request does not carry', {
    text: '5.2: "Only these and plain header fields may be covered"; 7.3 names no code for a covered field that is absent, except content-digest ("missing although covered": content_digest_mismatch).',
    standard: 'RFC 9421 section 2.5: a signature base cannot be created when a covered component is missing, and verification fails.',
    accepted: 'Refused, with signature_malformed or signature_invalid.',
    reference: 'signature_malformed, known before any fetch: the base cannot be built.',
  }),
  valueType: reading('READING-VALUE-TYPE', ['5.2', '7.3'], 'A signature parameter or Signature-Agent member of the wrong structured-field type', {
    text: '5.2 gives keyid, alg and nonce by their content ("RFC 7638 thumbprint of the key, base64url, 43 characters", "ed25519 if sent", "1 to 256 characters") and the Signature-Agent member by the URL it names; it does not say which structured-field type carries them. 7.3: signature_params_invalid "Parameter rules of 5.2 broken", signature_malformed "Headers not structured-field dictionaries", signature_agent_invalid "wrong URL form".',
    standard:
      'RFC 9421 section 2.3: keyid, alg and nonce are String values; RFC 8941 section 3.3: a Token is another bare item than a String, even when spelled the same. A Signature-Agent member names a URL as a String.',
    accepted:
      'Refused. A parameter sent as a Token: signature_params_invalid or signature_malformed. A Signature-Agent member that is not a String: signature_agent_invalid or signature_malformed.',
    reference: 'signature_params_invalid for a parameter (the rule of 5.2 is not met by a String), signature_agent_invalid for a member.',
  }),
  cardNoKeySet: reading('READING-CARD-NO-KEY-SET', ['2.4', '7.3'], 'A card naming neither jwks_uri nor an inline jwks', {
    text: '2.4: "Required self-naming fields: client_id …, url …, and jwks_uri equal to the key set URL (or an inline jwks member instead, never both)." 7.3: card_not_self_naming "client_id or url not as required"; card_key_set_mismatch "jwks_uri differs from the named key set URL, or both jwks_uri and inline jwks present".',
    accepted:
      'Refused, with card_key_set_mismatch (an absent jwks_uri is not the named key set URL) or card_not_self_naming (a required self-naming field is missing).',
    reference: 'card_key_set_mismatch: the missing field is the one that names the key set.',
  }),
  agentUrlUserInfo: reading('READING-AGENT-URL-USER-INFO', ['5.2', '7.3'], 'A Signature-Agent URL carrying user information', {
    text: '5.2: "Signature-Agent names the key set (https URL ending in /.well-known/jwks.json …)"; it says nothing of user information. 7.3: signature_agent_invalid "wrong URL form"; key_set_unreachable "Key set could not be read under the fetch rules".',
    standard:
      'RFC 9110 section 4.2.4: "A sender MUST NOT generate the userinfo subcomponent (and its "@" delimiter) when an "http" or "https" URI reference is generated within a message as a target URI or field value"; a recipient "SHOULD parse for userinfo and treat its presence as an error".',
    accepted:
      'Refused, with signature_agent_invalid (the URL form) or key_set_unreachable (fetch clients refuse a URL with credentials). Accepting it breaks the SHOULD of RFC 9110, not a MUST of the spec: the check is at SHOULD level, a warning.',
    reference: 'signature_agent_invalid, before any fetch; its fetch rules refuse such a URL as well.',
  }),
  directoryTrailingSlash: reading('READING-DIRECTORY-TRAILING-SLASH', ['5.2', '2.4'], 'A type=directory origin written with a trailing slash', {
    text: '5.2: "alternatively … an origin with type=directory"; 2.4: the agent URL has "no trailing slash". An origin is serialized without a path (RFC 6454 section 6.2), while a URL parser writes the same origin with "/" as its path.',
    accepted: 'Accepted with the agent URL written without the slash, or refused signature_agent_invalid (not an origin as serialized).',
    reference: 'Accepted: the value parses to that origin with an empty path, and the agent URL is the origin without the slash.',
  }),
  keyDirectoryHosted: reading('READING-KEY-DIRECTORY-HOSTED', ['2.4'], 'Which agents the key directory lists', {
    text: '2.4: "Key directory: served at the origin … It lists the Ed25519 keys of every agent the server hosts, one entry per thumbprint." 5.2: "Registration happens through the signed request itself."',
    accepted:
      'Every Ed25519 key of every agent served on the origin (an agent at /agents/NAME), each thumbprint once. Agents that only registered by signing requests publish their keys at their own origin; listing them too, or not, both conform.',
    reference: 'Lists the agents it hosts only: a directory describes the signers of its own origin.',
  }),
  cardMemory: reading('READING-CARD-MEMORY', ['5.2', '8'], 'How long a card refusal is remembered', {
    text: `5.2: "A card refusal is remembered about 10 minutes per agent URL"; section 8: "Card refusal memory | about 10 minutes".`,
    accepted: `Still remembered (the card is not read again) ${LIMITS.cardRefusalMemory.value - CARD_MEMORY_TOLERANCE_S} s after the refusal; read again ${LIMITS.cardRefusalMemory.value + CARD_MEMORY_TOLERANCE_S} s after it. Between the two, either.`,
    reference: `${LIMITS.cardRefusalMemory.value} s.`,
  }),
  openBodies: reading('READING-OPEN-JSON-BODIES', ['2.6', '7.2', '7.3', '7.4'], 'Members beyond those the spec names in a JSON body', {
    text: '2.6 and 7.3 list the members of the error bodies ("Endpoint scope errors: object { error: { code: string, message: string } }"; "Body: error (Unauthorized), error_code, error_description"; "503 bodies carry a retry object with sameCredential … and, when true, credentialHeader") without saying that no other member may appear; RFC 9457 problem details may carry extension members.',
    accepted: 'Every member the spec names, with the value it gives; any further member, anywhere.',
    reference: 'Writes the named members only (plus the problem fields RFC 9457 defines on a 402).',
  }),
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
  liveClockSkew: reading('READING-LIVE-CLOCK-SKEW', ['5.2', '7.3', '8'], 'The 60 s skew boundary, probed against a live deployment', {
    text: '5.2: "created, expires | … clock skew tolerance 60 seconds"; 7.3 signature_expired: "expires past, or created ahead, by more than 60 seconds".',
    accepted: `In-process, with the run's clock injected, the boundary is exact: created 60 s ahead and expires 60 s past are accepted, 61 s refused. Live, the run's clock and the deployment's differ, and the request takes its time to arrive, by amounts the run cannot measure to the second: the same checks keep ${LIVE_CLOCK_MARGIN_S} s further to the side their expectation needs (accepted at ${60 - LIVE_CLOCK_MARGIN_S} s, refused at ${61 + LIVE_CLOCK_MARGIN_S} s), so a deployment is judged on the rule and never on the run's own latency.`,
    reference: 'Whole seconds of its own clock against created and expires; more than 60 s is refused.',
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
  challengePaidAgain: reading('READING-CHALLENGE-PAID-AGAIN', ['3', '7.4'], 'What a challenge already paid answers when another credential presents it', {
    text: 'Section 3: "Credential with a charge already sent | Same credential presented again | Always | Resumes the original charge"; "Single-call credential | Presented again | Call already served | 409 call_already_served". A different credential (another card token, another transaction) for a challenge another credential already paid is not named.',
    accepted:
      'A 402 invalid-challenge with a fresh challenge, or, for a single call already served, 409 call_already_served; never a second charge, broadcast or run of the call.',
    reference: '402 invalid-challenge with a fresh challenge (the record of the payment is opened atomically, and the challenge already has one).',
  }),
  sseFraming: reading('READING-SSE-FRAMING', ['4.1', '4.2'], 'How a stream of server-sent events is read', {
    text: '4.1: "data frames are lines of the form data: <json> followed by a blank line, and a stream may end with data: [DONE]".',
    standard:
      'The event stream format (WHATWG HTML, server-sent events): lines end in CRLF, LF or CR; lines starting with a colon are comments; a field name may be followed by one space.',
    accepted:
      'Any event stream that a conforming parser reads as data events each holding JSON, optionally ending with [DONE]; comments and either line ending anywhere.',
    reference: 'LF line ends, no comments.',
  }),
  sdkTokenLeeway: reading('READING-SDK-TOKEN-LEEWAY', ['5.5', '2.2'], 'Clock leeway for SDK tokens', {
    text: '2.2 gives exp, iat and nbf as NumericDate; 5.5: "Default token lifetime 300 seconds". No leeway is given.',
    accepted: `A token expired, or not yet valid, by up to ${SDK_TOKEN_LEEWAY_S} s may be accepted or refused; past that it is refused.`,
    reference: 'No leeway.',
  }),
  probeNotDeclared: reading('READING-PROBE-NOT-DECLARED', ['4.1', '5.4', '7.2'], 'An agent under test without a conformance probe', {
    text: "The agent suites call conformance probes an agent declares for the run (docs/contracts.md); the spec does not ask any agent to declare them, and 5.4's auth modes exist in the TypeScript SDK only.",
    accepted: 'A probe answered 404 is not declared: its checks are reported not-run with that reason, never failed.',
    reference: 'Declares every probe, and one per TypeScript auth mode.',
  }),
  tokenEndpointAnswers: reading('READING-TOKEN-ENDPOINT-ANSWERS', ['4.3', '5.1'], "What an agent's POST /auth/token answers", {
    text: '4.3: "POST | /auth/token | Form fields: grant_type (client_credentials), client_id (string), client_secret (string), scope (space-separated string), target (string, an agent name with a leading @). Response body: not shown."; 5.1: "Token generation, discovery endpoints, allow/deny management and key publishing exist in the Python SDK only".',
    standard:
      'RFC 6749: the form is the client credentials grant (4.4, grant_type REQUIRED) with the client authenticated by client_id and client_secret in the body (2.3.1). A token is answered with a JSON access_token (5.1); an error with 400 and a JSON error (5.2): invalid_request for a missing required parameter, invalid_client when client authentication fails (an unknown client; 401 allowed), unsupported_grant_type for a grant type the server does not support.',
    accepted:
      'A good grant (a client the agent knows, client_credentials, scope, target @name) answered with any 2xx whose JSON body carries a non-empty string access_token, with any other members. Refusals: an unknown client 400 or 401 invalid_client; another grant type 400 unsupported_grant_type; a form without grant_type 400 invalid_request or unsupported_grant_type; a form broken in two ways (an unknown client and a bad grant) either code. An agent answering 404 at /auth/token serves no token endpoint (TypeScript agents have none): not-run.',
    reference:
      'RFC 6749 answers with Cache-Control: no-store: { access_token, token_type Bearer, expires_in, scope }, or { error, error_description }; the form checked first, then the grant type, then the client, then the target (invalid_target, RFC 8707, for a name that is no agent).',
  }),
  a2aGeneration: reading('READING-A2A-GENERATION', ['4.2'], 'Which A2A request POST /a2a answers', {
    text: '4.2: "POST | /a2a | Agent-to-agent" and "Bodies of these endpoints follow their open protocols; their field shapes are not shown."',
    standard:
      'A2A (the Agent2Agent protocol) over JSON-RPC 2.0: a request { jsonrpc "2.0", id, method, params } is answered with { jsonrpc "2.0", id, result } or with an error object. The method that sends a message is tasks/send in 0.1, message/send in 0.2 and 0.3, SendMessage in 1.0 (with the header A2A-Version: 1.0 and its own message shape).',
    accepted:
      'A success of any generation: the check sends one message/send, SendMessage and tasks/send request each, and passes when one of them is answered 2xx with a JSON-RPC 2.0 response carrying the same id and a result (of any shape). A 401 is not-run (the agent asks a credential the run does not have).',
    reference: 'Serves message/send (0.3) and SendMessage (1.0), answering a Message that repeats the text it was sent.',
  }),
  signatureFailureAnswer: reading('READING-SIGNATURE-FAILURE-ANSWER', ['7.2', '7.3'], 'How an agent endpoint refuses a signature that does not verify', {
    text: '7.2: "401 | (signature failure) | A Web Bot Auth signature that does not verify is the answer itself"; the 401 row above it, "unauthorized", is for a caller "not verifiable".',
    accepted:
      "A 401 that names the signature failure: a 7.3 error_code other than those of a missing or bearer credential (any code whose condition the request meets, READING-CHECK-ORDER), as the 7.3 body's error_code or as the 2.6 error.code. The plain unauthorized of a request without any credential is not that answer.",
    reference:
      "The reference verifier's 401 as it stands (the 7.3 body, WWW-Authenticate, Accept-Signature where 7.3 asks it), with the agent's own host as the authority.",
  }),
  mcpAppPlatformMeta: reading('READING-MCP-APP-PLATFORM-META', ['9', '4.4', '2.5'], "Where a widget's MCP App carries _meta.platform.v", {
    text: '2.5: the manifest is "Shaped as an MCP Apps manifest (SEP-1865) with a platform extension under _meta"; 9: "_meta.platform.v is the schema version, current value 1"; 4.4: "Every published widget is exposed here as an MCP App". Which object of the App carries the extension is not said.',
    accepted: "_meta.platform.v equal to 1 on the widget's ui:// resource, as resources/list lists it or as resources/read returns it (either one).",
    reference: "The published manifest's _meta.platform (v, iconRef, themeRef, remixOf) on the resource in both answers.",
  }),
  serviceName: reading('READING-SERVICE-NAME', ['7.3', '7.4', '5.2'], "A deployment's own name where the spec writes Service", {
    text: 'Line 3: "Header names and problem type addresses that carry the platform\'s own name are given with the neutral word Service in that place"; 7.3: "WWW-Authenticate: Bearer realm=service"; 7.4 writes Service-Terms-Version, Service-Terms-Accepted, Service-Payment-Methods and Service-Purchase, 5.2 X-Service-Owner-Key.',
    standard:
      'RFC 9110 section 5.1: field names are case-insensitive. Section 11.5 makes the realm a case-sensitive string, but the spec writes Service capitalised in the header names and lower case in the realm, so the case of a name in the realm is not fixed by the text.',
    accepted:
      "The deployment's name (run --service-name NAME) in place of Service in each of those header names, in any case, and as the realm compared case-insensitively (realm=Acme or realm=acme for Acme; realm=service or realm=Service for the spec's own word). Without --service-name the spec's own names are expected; a check that finds the header under another name says which --service-name would match.",
    reference:
      'The spec\'s own names; serve --service-name NAME writes NAME lower case in their place (acme-terms-version, x-acme-owner-key, realm="acme") and reads its requests, and the headers their signatures cover, under those names.',
  }),
  widgetPublishObserved: reading('READING-WIDGET-PUBLISH-OBSERVED', ['4.5', '4.4', '2.5'], 'How the records of publish steps 2 to 4 are observed', {
    text: '4.4: the publish "Request and response body: not shown"; "Fields of catalog row and post row beyond those named in the publish pipeline: not shown"; 4.5 names the agent slug, the function source records and the stamped configuration (functions, custom HTTP endpoints, custom tools) without saying where any is shown; 2.5: "Billable tools write payment charges through the platform\'s payment-token settlement", free tools "only attribution rows"; 4.1: "an agent named <name> is reached as /agents/<name>/<declared_path>".',
    accepted:
      "The agent's slug from the publish answer's agentSlug member, else from the catalog entry's, and the stamped HTTP endpoints (path and method) from the publish answer's reported configuration: a deployment that names them nowhere gets those checks not-run, saying so. A function per tool is judged on the wire: each tool answers tools/call on the widget's MCP endpoint. An exposed tool is judged on the wire: it answers at /agents/<slug>/<path>. The agent's custom tools and the charge or attribution row a tool call writes are shown by no public surface: they are checked only against the embedded reference, through its own records (not-run on a live deployment). The entry's manifest link and the assets a manifest names (iconRef, themeRef) change nothing a deployment is said to do: check-widget judges them in a bundle, no run judges them on a deployment.",
    reference:
      'The publish answer carries postId, catalogId, agentSlug, mcp and the steps of 4.5 as they ran (the configure step holds the stamped configuration); the catalog entry carries agentSlug; an exposed tool answers POST /agents/<slug>/tools/<name> with its JSON value; a tool call that answered writes a charge (billable) or an attribution row (free) to an in-memory ledger, debiting no balance.',
  }),
  singleFileManifest: reading('READING-SINGLE-FILE-MANIFEST', ['2.5', '4.5'], 'What a single HTML file publishes as', {
    text: '2.5: "A single HTML file is auto-wrapped into a one-child folder on publish." Which manifest the wrapped folder gets, and how a single file is handed to the publish route (4.4 names only folders), is not said.',
    accepted:
      'A folder holding one HTML file and nothing else publishes (2xx with a post id) and its MCP App serves that file as its entry; any manifest the platform writes for it.',
    reference:
      "The file becomes the folder's index.html; the platform writes a manifest naming the page's title (else the file's name), version 1.0.0, _meta.platform.v 1 and no tools.",
  }),
  manifestParses: reading('READING-MANIFEST-PARSES', ['4.5', '2.5'], 'What "widget.json parses" refuses', {
    text: '4.5 step 1: "Validate that the caller owns the folder and that widget.json parses"; 2.5 gives the manifest\'s fields and their types.',
    accepted:
      'A refusal (any 4xx but 401) and no new catalog entry for a folder of several files without widget.json, for a widget.json that is not JSON, and for one whose fields contradict the types 2.5 gives (tools not a list). A manifest the suite sends is otherwise conformant, so a deployment that checks more than the types passes too.',
    reference: 'Refuses with 422 and the widget problem code (manifest_missing, manifest_not_json, manifest_invalid), each problem at its JSON pointer.',
  }),
  bundleProblemsAtPublish: reading('READING-BUNDLE-PROBLEMS-AT-PUBLISH', ['2.5', '4.5', '7.1'], 'A bundle missing its entry or a tool source', {
    text: '2.5: the folder layout is "an HTML entry (default index.html) ... optional tools/<name>.js (one file per declared tool)"; 4.5 step 3: "Materialise a function source record for each tool"; 7.1: "FN_NOT_FOUND at call time". Whether a publish refuses such a bundle is not said.',
    accepted:
      'Either a refusal (any 4xx but 401), or a published widget that serves no entry content for the missing entry (resources/read fails) and answers FN_NOT_FOUND for the tool without a source. Serving another page as the entry, or running a tool from nothing, fails.',
    reference:
      'A missing tool source refuses the publish (422 tool_source_missing); a missing entry publishes, and resources/read answers the MCP resource-not-found error.',
  }),
  unpublishedValues: reading('READING-UNPUBLISHED-VALUES', ['4.4', '4.5', '4.3', '6', '8'], 'Values and shapes the spec does not give', {
    text: 'Section 8: "Numeric values of the bridge rate window, KV quota caps, live-attach cap, handler time budget, ownerless balance cap and all daily purchase caps: not shown"; 4.4 publish bodies, 4.3 the token endpoint\'s answer and 6 other socket frames: "not shown"; 4.5 gives the agent slug only as <prefix>-<userId6>-<bundleSlug>.',
    accepted: 'Whatever a deployment chooses: no check judges these values or shapes.',
    reference:
      "Configurable caps; slug prefix widget, userId6 the first six characters of the user id, the bundle slug from the manifest name (src/spec/publish.ts); a tool exposed over HTTP at POST /tools/<name>; publish refusals in the 2.6 shape; RFC 6749 answers at POST /auth/token; UAMP's response.create starts a turn.",
  }),
  bridgeWire: reading('READING-BRIDGE-WIRE', ['4.6', '7.1', '2.5'], 'How the widget SDK and its host talk, and where the three call surfaces live', {
    text: '4.6: "Three equivalent call surfaces exist in the widget iframe and all resolve to one transport: bridge.callTool(name, args); a ChatGPT-style shim global exposing callTool(name, args); and an App class with connect()"; 2.5: "Shaped as an MCP Apps manifest (SEP-1865)"; 7.1: "Every host bridge error carries a .code; the SDK rejects the promise with an Error whose .code mirrors it. Status codes of bridge errors: not shown." The wire, the name of the shim global and the other operations\' signatures are not shown.',
    standard:
      "MCP Apps (SEP-1865, @modelcontextprotocol/ext-apps): the view talks JSON-RPC 2.0 to its host over postMessage (ui/initialize, tools/call, ui/open-link); JSON-RPC's method not found (-32601) is a request no handler answers.",
    accepted:
      "The SDK checks (run by any deployment's /widgets/sdk.v2.js in a host the run plays) read the surfaces as window.bridge.callTool, window.openai.callTool (the ChatGPT Apps SDK's global) and window.App, and the transport as MCP Apps' JSON-RPC, a bridge error as a JSON-RPC error whose data.code is the 7.1 code (data.retryAfter the Retry-After in seconds). Attempts are judged by 7.1's handling column: 1 for a code to surface, exactly 2 for timeout, 1 or 2 for internal, at least 2 with Retry-After between them for rate_limited, 4 to 6 with growing waits for service_unavailable (\"about 5\"). The host checks run on the reference's own host page (not part of the spec), or live on the host page run --widget-host-url names.",
    reference:
      "The SDK is a browser bundle of ext-apps' App with the pure retry policy (src/widgets/bridge/); host.* operations are custom JSON-RPC methods of their own name; a v1 app's method unknown to the host (method not found) is unknown_op. The host page is ext-apps' AppBridge; what 8 leaves open it decides as docs/widget-host.md says (no risk tier granted, no collaboration server, caps by option).",
  }),
  openLinkGate: reading('READING-OPEN-LINK-GATE', ['2.5', '4.6', '7.1'], 'What bridge.openLink does with a domain redirectDomains does not list', {
    text: '2.5: "_meta.ui.csp.redirectDomains | list of bare domains; gated allowlist for bridge.openLink"; 7.1: "permission | Authorization denied". What the gate does, and which code a refused link carries, are not shown.',
    standard:
      'MCP Apps: ui/open-link asks the host to open a URL; the host may refuse (a JSON-RPC error) or ask the user first. HTML: window.open opens a new browsing context.',
    accepted:
      'A link on a listed domain is opened: the call resolves and the browser loads the URL (a new page or the same one). A link on an unlisted domain is not loaded while the check watches; the call may reject, stay pending (a confirmation the headless run never gives) or resolve after the gate, and a rejection\'s .code must be permission (7.1: "Authorization denied") or invalid_args (7.1: "per-operation argument validation failed", where the host judges the URL against the allowlist).',
    reference:
      'The host page opens a listed https URL with window.open; anything else needs a confirmation it has no UI for, and it refuses with permission (docs/widget-host.md).',
  }),
  folderAssets: reading('READING-FOLDER-ASSETS', ['2.5', '4.5'], "How a rendered widget reaches its folder's static assets", {
    text: '2.5: "Folder layout: an HTML entry (default index.html) that links the manifest ..., widget.json, optional tools/<name>.js (one file per declared tool) and static assets"; the default policy has "script-src self plus unsafe-inline"; _meta.platform.iconRef and themeRef are paths in the folder. Where a host serves the files is not shown.',
    accepted:
      'Wherever the host serves them (beside the entry, or inlined into it): a script the entry loads by a relative src runs and a stylesheet it links by a relative href applies. Whether the host serves the tool sources is not judged.',
    reference:
      "The render route serves the folder as published at /_reference/widgets/{postId}/render/<folder path>, the entry at its own path (so its relative URLs resolve beside it), each file typed by its extension under the entry's CSP; tools/ and the declared tool sources, server-side functions, answer 404.",
  }),
  widgetPermissions: reading('READING-WIDGET-PERMISSIONS', ['2.5'], 'What _meta.ui.permissions does', {
    text: '2.5: "_meta.ui.permissions | list of string (a browser permission name such as clipboard-write)"; it does not say how a host grants them.',
    standard: "MCP Apps: the host maps the view's permissions to the sandbox iframe's allow attribute (Permissions Policy).",
    accepted: "Each listed permission is allowed in the widget's iframe (its allow attribute and document.featurePolicy); one not listed is not.",
    reference: 'The host page writes the valid names into the iframe\'s allow attribute, joined with "; ".',
  }),
});

export type ReadingId = keyof typeof READINGS;

export const READING_LIST: readonly ReadingRecord[] = Object.freeze(Object.values(READINGS));
