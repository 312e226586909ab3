import { reading } from './record.js';

/** Seconds of clock leeway a receiver may grant SDK tokens; checks probe past it. */
export const SDK_TOKEN_LEEWAY_S = 60;

/** Sections 4.1-4.3, 5.4, 5.5 and 7.2: an agent's endpoints, its tokens and its refusals. */
export const AGENT_READINGS = {
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
  sdkTokenAlgorithm: reading('READING-SDK-TOKEN-ALGORITHM', ['5.5', '2.4', '5.1'], 'Which of the two keys an agent verifies SDK tokens under', {
    text: '5.5: "Keys (the Ed25519 identity and the RSA key) are stored in the keys directory"; 2.4: "Between SDK agents a key set may also carry an RSA key"; 5.1: "the TypeScript SDK verifies inbound tokens through its key set manager". Which key signs a token, and which algorithms a receiver verifies, is not said.',
    accepted:
      "An agent verifying EdDSA (the Ed25519 identity), RS256 (the RSA key) or both. The run's callers publish both keys and sign each token both ways: a good token is accepted under at least one; every token 2.2, 5.1 and 5.5 refuse is refused under each algorithm, with the 7.2 answer the check names under an algorithm the agent verifies (found per check by a good token of the plain caller on the user probe) and 401 unauthorized under one it does not. The callers' other tokens (5.4, 7.2) are signed with an algorithm the agent verifies.",
    reference: 'Verifies both (EdDSA and RS256); it signs the tokens of POST /auth/token with its Ed25519 identity.',
  }),
  probeNotDeclared: reading('READING-PROBE-NOT-DECLARED', ['4.1', '5.4', '7.2'], 'An agent under test without a conformance probe', {
    text: "The agent suites call conformance probes an agent declares for the run (docs/contracts.md); the spec does not ask any agent to declare them, and 5.4's auth modes exist in the TypeScript SDK only. What a server answers to an upgrade at a path it declares no socket at is not said either (ASGI servers answer 403).",
    accepted:
      "An HTTP probe answered 404 is not declared: its checks are reported not-run with that reason, never failed. A socket probe whose upgrade is refused 404 is not declared; one refused with another status is compared with an upgrade at a path no agent declares: a different answer is the socket's own and is judged; the same answer is judged only if a caller of the run (the owner) opens the socket, and is otherwise not-run (the socket cannot be shown declared). A probe whose answer lacks what a later revision of docs/contracts.md section 4 asks it to report (the items echo, the counts of the scoped probes) is judged not-run on that point, naming the revision.",
    reference: 'Declares every probe, and one per TypeScript auth mode; answers 404 to an upgrade at a path it declares no socket at.',
  }),
  tokenEndpointAnswers: reading(
    'READING-TOKEN-ENDPOINT-ANSWERS',
    ['4.3', '5.1', '5.5', '2.2'],
    "What an agent's POST /auth/token answers, and the token it issues",
    {
      text: '4.3: "POST | /auth/token | Form fields: grant_type (client_credentials), client_id (string), client_secret (string), scope (space-separated string), target (string, an agent name with a leading @). Response body: not shown."; 5.1: "Token generation, discovery endpoints, allow/deny management and key publishing exist in the Python SDK only"; 5.5: "Default token lifetime 300 seconds. aud is the receiver\'s URL."',
      standard:
        'RFC 6749 is what the form fields come from (the client credentials grant, 4.4, with the client authenticated in the body, 2.3.1), but the spec does not say the answers take its shapes (5.1 access_token, 5.2 error codes): no check demands them.',
      accepted:
        "A good grant (a client the agent knows, client_credentials, scope, target @name) answered with any 2xx, whatever its body; an unknown client, another grant type and a form without grant_type each with any 4xx, whatever its body. An agent answering 404 at /auth/token serves no token endpoint (TypeScript agents have none): not-run. The token itself is judged where it can be seen: the first compact JWT in the answer (the body itself, or any string of its JSON at any depth) is an SDK token of 2.2 (every required claim with its type, token_type Bearer, iss the agent's URL, a signature under a key of the agent's own key set, aud the URL of the target where the run knows it: the agent itself live, a sibling @name in-process; every scope entry one that was asked, since allowed_scopes may drop some) and lives the agent's token_ttl: 300 s in-process (the reference's default); live a lifetime of 300 s passes and another is not run (token_ttl is the agent's configuration, 2.1). An answer carrying no JWT: those checks are not run.",
      reference:
        'RFC 6749 answers with Cache-Control: no-store: { access_token, token_type Bearer, expires_in, scope }, or { error, error_description } (400, 401 invalid_client); the form checked first, then the grant type, then the client, then the target (invalid_target, RFC 8707, for a name that is no agent). The access_token is an SDK token signed with its Ed25519 identity, for the scopes asked, living token_ttl.',
    },
  ),
  a2aGeneration: reading('READING-A2A-GENERATION', ['4.2'], 'Which A2A request POST /a2a answers', {
    text: '4.2: "POST | /a2a | Agent-to-agent" and "Bodies of these endpoints follow their open protocols; their field shapes are not shown."',
    standard:
      'A2A (the Agent2Agent protocol) over JSON-RPC 2.0: a request { jsonrpc "2.0", id, method, params } is answered with { jsonrpc "2.0", id, result } or with an error object. The method that sends a message is tasks/send in 0.1, message/send in 0.2 and 0.3, SendMessage in 1.0 (with the header A2A-Version: 1.0 and its own message shape).',
    accepted:
      'A success of any generation: the check sends one message/send, SendMessage and tasks/send request each, and passes when one of them is answered 2xx with a JSON-RPC 2.0 response carrying the same id and a result (of any shape). A 401 is not-run (the agent asks a credential the run does not have).',
    reference: 'Serves message/send (0.3) and SendMessage (1.0), answering a Message that repeats the text it was sent.',
  }),
  unauthorizedMessage: reading('READING-UNAUTHORIZED-MESSAGE', ['7.2', '2.6'], "The words of a 401's message", {
    text: '7.2: "401 | unauthorized | Scoped endpoint, caller not verifiable. Message says the endpoint needs a caller the agent can verify."; 2.6: "Endpoint scope errors: object { error: { code: string, message: string } }".',
    accepted:
      "Any error.message that is a string with a word in it: the words are the agent's (a language, its own phrasing); an empty or missing message fails.",
    reference:
      'The SDKs\' sentence: "This endpoint needs a caller this agent can verify, and the request carries none." (or "... the credential the request carries does not verify.").',
  }),
  responseSizeCap: reading('READING-RESPONSE-SIZE-CAP', ['7.2', '8'], 'Where an answer too large is held, and how it says so', {
    text: '7.2: "n/a | RESPONSE_SIZE_CAP_EXCEEDED | The agent\'s answer is too large (mirror of the request cap)"; section 8 gives the request cap only: "Declared endpoint request body | 50 MiB (52428800 bytes)". No status, no place for the code and no party that holds the answer to the cap is given.',
    accepted:
      "The bytes probe (docs/contracts.md section 4) asked for 50 MiB + 1 bytes. Delivered whole (a 2xx with every byte): not run, since the cap may be held where the answer is received (a caller's SDK; the run is that caller). Not delivered whole (refused, or cut short, with any status): the code RESPONSE_SIZE_CAP_EXCEEDED appears in a header value or anywhere in the body (a JSON error.code, an event-stream frame, the tail of a body cut short). An answer of 1024 bytes is delivered whole (the probe works). No size between is judged: an endpoint's own smaller answer cap is not ruled out.",
    reference:
      'Holds every answer of a declared endpoint to 50 MiB: a Content-Length over it, or a body of unknown length that passes it, is answered 502 { error: { code: RESPONSE_SIZE_CAP_EXCEEDED, detail } } before a byte is sent (the mirror of the 413); an event stream, already begun, is cut at the cap and ended with a data frame carrying that error.',
  }),
  signatureFailureAnswer: reading('READING-SIGNATURE-FAILURE-ANSWER', ['7.2', '7.3'], 'How an agent endpoint refuses a signature that does not verify', {
    text: '7.2: "401 | (signature failure) | A Web Bot Auth signature that does not verify is the answer itself"; the 401 row above it, "unauthorized", is for a caller "not verifiable".',
    accepted:
      "A 401 that names the signature failure: a 7.3 error_code other than those of a missing or bearer credential (any code whose condition the request meets, READING-CHECK-ORDER), as the 7.3 body's error_code or as the 2.6 error.code. The plain unauthorized of a request without any credential is not that answer.",
    reference:
      "The reference verifier's 401 as it stands (the 7.3 body, WWW-Authenticate, Accept-Signature where 7.3 asks it), with the agent's own host as the authority.",
  }),
};
