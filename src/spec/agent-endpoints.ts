/**
 * Names of the agent's own surface (4.1, 4.2, 4.3, 7.2): SSE framing, the scoped socket's credential
 * parameter, transport and discovery paths, the token endpoint's form, and the words of the 7.2 refusals.
 */

/** 4.1: server-sent events as declared endpoints and chat completions frame them. */
export const SSE = Object.freeze({
  /** Every data frame is `data: <json>` followed by a blank line. */
  dataPrefix: 'data: ',
  frameEnd: '\n\n',
  /** A stream may end with `data: [DONE]`. */
  done: '[DONE]',
  /** The three headers of an SSE response (Content-Type is MEDIA_TYPES.eventStream). */
  cacheControl: 'no-cache',
  connection: 'keep-alive',
});

/** 4.1: a scoped WebSocket endpoint also reads its credential from this query parameter. */
export const SOCKET_TOKEN_PARAM = 'token';

/** 4.1: on the platform an agent named <name> is reached as /agents/<name>/<declared_path>. */
export const AGENT_MOUNT_PREFIX = '/agents/';

/** 4.2: transport endpoints, relative to the agent URL. */
export const AGENT_TRANSPORT_ROUTES = Object.freeze({
  chatCompletions: '/v1/chat/completions',
  models: '/v1/models',
  a2a: '/a2a',
  uamp: '/uamp',
});

/**
 * 4.2: POST /a2a follows its open protocol, A2A (JSON-RPC 2.0). The method that sends a message in each generation
 * of the protocol: message/send (0.2, 0.3), SendMessage (1.0, which names its version in the A2A-Version header),
 * tasks/send (0.1). READING-A2A-GENERATION.
 */
export const A2A = Object.freeze({
  jsonrpc: '2.0',
  sendMethods: Object.freeze({ v03: 'message/send', v1: 'SendMessage', v01: 'tasks/send' }),
  versionHeader: 'a2a-version',
  version1: '1.0',
  /** JSON-RPC 2.0: the method does not exist or is not available. */
  methodNotFound: -32601,
});

/** 4.3: the token endpoint of an SDK agent and its form fields. */
export const AGENT_TOKEN_ROUTE = '/auth/token';
export const TOKEN_FORM_FIELDS = Object.freeze({
  grantType: 'grant_type',
  clientId: 'client_id',
  clientSecret: 'client_secret',
  scope: 'scope',
  target: 'target',
});
export const CLIENT_CREDENTIALS_GRANT = 'client_credentials';
/** A target names an agent with a leading @. */
export const AGENT_NAME_SIGIL = '@';

/**
 * Error codes of the token endpoint (its response body is not shown in 4.3): the RFC 6749 section 5.2 codes,
 * plus invalid_target (RFC 8707) for a target that is not an @name.
 */
export const TOKEN_ERROR_CODES = Object.freeze({
  invalidRequest: 'invalid_request',
  invalidClient: 'invalid_client',
  unsupportedGrantType: 'unsupported_grant_type',
  invalidScope: 'invalid_scope',
  invalidTarget: 'invalid_target',
});

/**
 * 7.2 refusals of a scoped endpoint, in the words of the SDKs' shared fixture (endpoint-gate-refusals.json);
 * the spec asks that the 401 message say the endpoint needs a caller the agent can verify.
 */
export const ENDPOINT_MESSAGES = Object.freeze({
  unauthorized: 'This endpoint needs a caller this agent can verify, and the request carries none.',
  forbidden: 'This endpoint is not open to this caller.',
});

/**
 * 405 and 415 carry no code in 7.2; the reference answers them in the 2.6 `{ error: { code, message } }` shape
 * with these codes of its own (a check asserts the status only).
 */
export const ENDPOINT_OWN_CODES = Object.freeze({
  methodNotAllowed: 'method_not_allowed',
  unsupportedMediaType: 'unsupported_media_type',
  notFound: 'not_found',
  badRequest: 'bad_request',
  internal: 'internal_error',
});
