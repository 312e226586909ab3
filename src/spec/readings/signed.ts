import { LIMITS } from '../limits.js';
import { reading } from './record.js';

/** Seconds either side of the card refusal memory's "about 10 minutes" inside which a deployment may forget. */
export const CARD_MEMORY_TOLERANCE_S = 60;
/**
 * Seconds a live run keeps a signature's times from the 60 s skew boundary, on the side its expectation needs: the run's
 * clock, the deployment's and the request's transit differ by what the run cannot measure.
 */
export const LIVE_CLOCK_MARGIN_S = 5;

/** Sections 2.4, 5.2, 7.3 and 8: signed requests, key sets and cards. */
export const SIGNED_READINGS = {
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
    reference:
      "Accepted: a nonce counts as spent only for a request whose signatures verified, so a forged request cannot burn an agent's nonces. A store that can forget a nonce is asked to spend it while the signatures are checked, and forgets it before the refusal is answered.",
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
  keySetRsa: reading('READING-KEY-SET-RSA', ['2.4', '8'], 'A key set that carries an RSA key beside its Ed25519 keys', {
    text: '2.4: "Entries are Ed25519 public keys (kty OKP, crv Ed25519, use sig), at most 16 … Between SDK agents a key set may also carry an RSA key." Section 8: "Keys per key set | 16". Whether the 16 counts the Ed25519 keys or every entry is not said.',
    accepted: `The key set is a valid one: a request signed with one of its Ed25519 keys is accepted. The text allows the RSA key, so refusing the whole set for it is not a reading it leaves open. With ${LIMITS.keysPerKeySet.value} Ed25519 keys beside the RSA key the set holds ${LIMITS.keysPerKeySet.value + 1} keys: acceptance, or key_set_invalid (section 8 counting every key, as the platform SDK's verifier counts every entry).`,
    reference: `Ignores the RSA key and verifies with the Ed25519 keys; ${LIMITS.keysPerKeySet.value} counts the Ed25519 signing entries, and check-agent warns when a set holds more entries than that in all.`,
  }),
  keySetUnusableEntry: reading('READING-KEY-SET-UNUSABLE-ENTRY', ['2.4', '7.3'], 'A key set entry no verifier can use, beside the signing key', {
    text: '2.4: "Entries are Ed25519 public keys (kty OKP, crv Ed25519, use sig), at most 16, and none of the RFC 9421 test keys." 7.3: key_set_invalid "Not a valid key set under 2.4". Whether one entry that is no Ed25519 signing key (null, X25519, EC, an x that is not 32 bytes of base64url, use enc, no use at all) voids the set or is passed over is not said.',
    standard:
      'RFC 7517 section 5: "Implementations SHOULD ignore JWKs within a JWK Set that use "kty" (key type) values that are not understood by them, that are missing required members, or for which values are out of the supported ranges." RFC 7517 section 4.2: "use" is OPTIONAL.',
    accepted:
      'A request signed with a good key of the set is accepted, or refused key_set_invalid. A signing key published without use: accepted, or refused key_set_invalid or signature_key_unknown (the entry passed over). A published private key (d) and an RFC 9421 test key are never passed over: 2.4 names public keys and no test key, so such a set is refused key_set_invalid; so is a set left with no Ed25519 signing key.',
    reference:
      "Passes over an entry it cannot use, as RFC 7517 asks and as the platform SDK's verifier does, and uses an Ed25519 key without use; check-agent warns about each such entry, since a platform reading 2.4 strictly refuses the whole set.",
  }),
  legacySignatureAgent: reading('READING-LEGACY-SIGNATURE-AGENT', ['5.2', '7.3'], "A Signature-Agent sent as a bare string (the platform SDK's legacy form)", {
    text: '5.2: "Signature-Input and Signature are structured-field dictionaries with one member per label" and the Signature-Agent member is "covered exactly once as signature-agent;key=<label>"; a bare string has no member to key.',
    accepted: 'Refused, with signature_malformed, signature_agent_invalid or signature_coverage_insufficient: the string breaks the conditions of all three.',
    reference: 'signature_malformed, as for any header that is not the dictionary 5.2 asks for.',
  }),
  agentFieldCoveredWhole: reading(
    'READING-AGENT-FIELD-COVERED-WHOLE',
    ['5.2', '7.3'],
    'The whole Signature-Agent field covered, beside or instead of its member',
    {
      text: '5.2: "Covered components: @method, @authority, @path, @query, content-digest (when there is a body), and the Signature-Agent member, covered exactly once as signature-agent;key=<label>. Only these and plain header fields may be covered." 7.3: signature_coverage_insufficient "… missing content-digest or Signature-Agent member". Whether "exactly once" counts the member\'s value signed again inside the whole field, and whether the field covered whole stands for the member, is not said.',
      standard:
        'RFC 9421 section 2.1.2: a Dictionary member is covered with the key parameter; a field covered without it is covered whole, its value (every member) in the signature base.',
      accepted:
        "The whole field covered beside the member: accepted (the member is covered once as signature-agent;key=<label>, the field is a plain header field), or refused signature_coverage_insufficient (the member's value is then signed twice; the platform SDK's verifier takes exactly one signature-agent item). The whole field covered instead of the member: refused signature_coverage_insufficient (the member is not covered as signature-agent;key=<label>), or accepted as the member keyed by the label when the field holds one (its value is signed within the field). A field without a member keyed by the label is refused either way: signature_coverage_insufficient or signature_agent_invalid.",
      reference: 'Accepts the field beside the member, and refuses it in place of the member: 5.2 names the form the member is covered in.',
    },
  ),
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
  cardCarryingKey: reading('READING-CARD-CARRYING-KEY', ['2.4', '7.3'], 'A request signed with a key only the agent card names', {
    text: '2.4: "Agent card: JSON at {agent_url}/.well-known/agent.json. It carries no key." 7.3 names no code for a card that carries one.',
    accepted:
      'Refused: signature_key_unknown (no key in the key set has that thumbprint), or credential_refused ("covers several conditions without saying which": the card, which breaks 2.4, refused on first sight). Never accepted: the key set is where keys are read.',
    reference: "signature_key_unknown: keys come from the key set (or the card's inline jwks) only; no other member of the card is read for keys.",
  }),
  cardMemory: reading('READING-CARD-MEMORY', ['5.2', '8'], 'How long a card refusal is remembered', {
    text: `5.2: "A card refusal is remembered about 10 minutes per agent URL"; section 8: "Card refusal memory | about 10 minutes".`,
    accepted: `Still remembered (the card is not read again) ${LIMITS.cardRefusalMemory.value - CARD_MEMORY_TOLERANCE_S} s after the refusal; read again ${LIMITS.cardRefusalMemory.value + CARD_MEMORY_TOLERANCE_S} s after it. Between the two, either.`,
    reference: `${LIMITS.cardRefusalMemory.value} s.`,
  }),
  refusalHeaders: reading('READING-REFUSAL-HEADERS', ['7.3', '4'], "A 401's Retry-After and media type", {
    text: '7.3: "A refused signed request answers 401 with WWW-Authenticate: Bearer realm=service, error=invalid_token and an error_description, plus Accept-Signature (on missing credential and insufficient coverage) ... Body: error (Unauthorized), error_code, error_description"; too_many_failed_signatures: "no Retry-After". Section 4: "Bodies are JSON unless stated." No other 401 is said to carry or omit Retry-After, and no media type is named.',
    standard: 'RFC 6839: a media type ending in +json is JSON; RFC 9110 section 10.2.3: Retry-After says how long to wait before a follow-up request.',
    accepted: 'Any 401 but too_many_failed_signatures may carry Retry-After; the body may be typed application/json or any +json type, with any parameters.',
    reference: 'application/json, and no Retry-After on any 401.',
  }),
  liveClockSkew: reading('READING-LIVE-CLOCK-SKEW', ['5.2', '7.3', '8'], 'The 60 s skew boundary, probed against a live deployment', {
    text: '5.2: "created, expires | … clock skew tolerance 60 seconds"; 7.3 signature_expired: "expires past, or created ahead, by more than 60 seconds".',
    accepted: `In-process, with the run's clock injected, the boundary is exact: created 60 s ahead and expires 60 s past are accepted, 61 s refused. Live, the run's clock and the deployment's differ, and the request takes its time to arrive, by amounts the run cannot measure to the second: the same checks keep ${LIVE_CLOCK_MARGIN_S} s further to the side their expectation needs (accepted at ${60 - LIVE_CLOCK_MARGIN_S} s, refused at ${61 + LIVE_CLOCK_MARGIN_S} s), so a deployment is judged on the rule and never on the run's own latency.`,
    reference: 'Whole seconds of its own clock against created and expires; more than 60 s is refused.',
  }),
};
