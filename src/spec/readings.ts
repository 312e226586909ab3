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
  cardMemory: reading('READING-CARD-MEMORY', ['5.2', '8'], 'How long a card refusal is remembered', {
    text: `5.2: "A card refusal is remembered about 10 minutes per agent URL"; section 8: "Card refusal memory | about 10 minutes".`,
    accepted: `Still remembered (the card is not read again) ${LIMITS.cardRefusalMemory.value - CARD_MEMORY_TOLERANCE_S} s after the refusal; read again ${LIMITS.cardRefusalMemory.value + CARD_MEMORY_TOLERANCE_S} s after it. Between the two, either.`,
    reference: `${LIMITS.cardRefusalMemory.value} s.`,
  }),
  openBodies: reading('READING-OPEN-JSON-BODIES', ['2.6', '7.3', '7.4'], 'Members beyond those the spec names in a JSON body', {
    text: '2.6 and 7.3 list the members of the error bodies ("Body: error (Unauthorized), error_code, error_description"; "503 bodies carry a retry object with sameCredential … and, when true, credentialHeader") without saying that no other member may appear; RFC 9457 problem details may carry extension members.',
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
    accepted: `An expires ${LIMITS.paymentChallengeLifetime.value} s after the answer's Date header, within ${CHALLENGE_EXPIRY_TOLERANCE_S} s either way (against the run's own clock, within the 60 s skew 5.2 tolerates, when the answer has no Date); a credential for a challenge older than ${LIMITS.paymentChallengeLifetime.value} s refused with a fresh challenge.`,
    reference: `expires = the time of issue + ${LIMITS.paymentChallengeLifetime.value} s.`,
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
  unpublishedValues: reading('READING-UNPUBLISHED-VALUES', ['4.4', '4.5', '4.3', '6', '8'], 'Values and shapes the spec does not give', {
    text: 'Section 8: "Numeric values of the bridge rate window, KV quota caps, live-attach cap, handler time budget, ownerless balance cap and all daily purchase caps: not shown"; 4.4 publish bodies, 4.3 the token endpoint\'s answer and 6 other socket frames: "not shown"; 4.5 gives the agent slug only as <prefix>-<userId6>-<bundleSlug>.',
    accepted: 'Whatever a deployment chooses: no check judges these values or shapes.',
    reference:
      "Configurable caps; slug prefix widget, userId6 the first six characters of the user id, the bundle slug from the manifest name (src/spec/publish.ts); a tool exposed over HTTP at POST /tools/<name>; publish refusals in the 2.6 shape; RFC 6749 answers at POST /auth/token; UAMP's response.create starts a turn.",
  }),
});

export type ReadingId = keyof typeof READINGS;

export const READING_LIST: readonly ReadingRecord[] = Object.freeze(Object.values(READINGS));
