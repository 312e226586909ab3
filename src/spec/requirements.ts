import { INBAND_REQUIREMENTS } from './inband.js';
import { PURCHASE_REQUIREMENT_LIST } from './purchase-requirements.js';
import { SDK_AUTH_REQUIREMENTS } from './sdk-auth.js';
import { PLATFORM_MCP_REQUIREMENTS } from './platform-mcp.js';
import { SIGNED_REQUIREMENTS } from './signed-requirements.js';
import { PURCHASE_METHOD_REQUIREMENTS } from './purchase-method-requirements.js';
import { PUBLISH_REQUIREMENT_LIST } from './publish-requirements.js';
import type { RequirementRecord } from './types.js';

const r = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/** Requirements that are rules rather than codes: what must be accepted, and how. */
export const REQUIREMENTS = Object.freeze({
  signedRequestAccepted: r(
    'AUTH-SIGNED-REQUEST-ACCEPTED',
    '5.2',
    'A request signed as 5.2 describes (any of the three Signature-Agent forms, one or two labels, sha-256 or sha-512 Content-Digest, within the limits of section 8) is accepted, and a platform token with the agent-use scope is a credential (5.3).',
  ),
  keyDirectoryMediaType: r(
    'KEY-DIRECTORY-MEDIA-TYPE',
    '2.4',
    'The key directory is served at the origin at /.well-known/http-message-signatures-directory with media type application/http-message-signatures-directory+json.',
  ),
  keyDirectoryEntries: r('KEY-DIRECTORY-ENTRIES', '2.4', 'The key directory lists the Ed25519 keys of every agent the server hosts, one entry per thumbprint.'),
  endpointSseFraming: r(
    'ENDPOINT-SSE-FRAMING',
    '4.1',
    'An SSE response carries Content-Type text/event-stream, Cache-Control no-cache and Connection keep-alive; data frames are lines data: <json> followed by a blank line, and a stream may end with data: [DONE].',
  ),
  endpointSocketScope: r(
    'ENDPOINT-SOCKET-SCOPE',
    '4.1',
    'A scoped WebSocket endpoint checks its scope before the handshake completes; a refused upgrade answers with the HTTP status and JSON body of 7.2.',
  ),
  endpointSocketTokenParam: r('ENDPOINT-SOCKET-TOKEN-PARAM', '4.1', 'A scoped WebSocket endpoint reads its credential from the query parameter token.'),
  endpointPathParameters: r('ENDPOINT-PATH-PARAMETERS', '4.1', 'Declared paths take parameters written :<param>, and query strings are supported.'),
  agentCardSelfNaming: r(
    'AGENT-CARD-SELF-NAMING',
    '2.4',
    'The agent card at {agent_url}/.well-known/agent.json names itself: client_id equal to the card URL, url equal to the agent URL (no trailing slash), and jwks_uri equal to the key set URL or an inline jwks, never both. It carries no key.',
  ),
  agentKeySetRules: r(
    'AGENT-KEY-SET-RULES',
    '2.4',
    'The key set at {agent_url}/.well-known/jwks.json is a JWK Set of Ed25519 public keys (kty OKP, crv Ed25519, use sig), at most 16, none of the RFC 9421 test keys.',
  ),
  agentDocumentsFetchable: r(
    'AGENT-DOCUMENTS-FETCHABLE',
    '5.2',
    'The key set and the agent card answer 200 directly (no redirect) with a JSON body of at most 64 KiB within 5 seconds, over https.',
  ),
  agentDiscoveryDocuments: r(
    'AGENT-DISCOVERY-DOCUMENTS',
    '4.3',
    'An SDK agent serves its OpenID Connect discovery document at /.well-known/openid-configuration and its JWK Set at /.well-known/jwks.json.',
  ),
  agentKeyDirectoryWithoutIdentity: r('AGENT-KEY-DIRECTORY-NO-IDENTITY', '4.3', 'The key directory answers 404 when the server has no signing identity.'),
  agentTokenEndpointForm: r(
    'AGENT-TOKEN-ENDPOINT-FORM',
    '4.3',
    'POST /auth/token takes form fields grant_type (client_credentials), client_id, client_secret, scope and target (an agent name with a leading @).',
  ),
  agentTransportEndpoints: r(
    'AGENT-TRANSPORT-ENDPOINTS',
    '4.2',
    'Transport components add GET /v1/models, the agent card at GET /.well-known/agent.json and POST /v1/chat/completions, which streams server-sent events.',
  ),
  widgetPublishAccepted: r(
    'WIDGET-PUBLISH-ACCEPTED',
    '4.5',
    'POST /api/folders/{folderId}/publish-as-widget publishes a folder the verified caller owns whose widget.json parses, running the steps of 4.5 in order.',
  ),
  widgetPublishOwnership: r(
    'WIDGET-PUBLISH-OWNERSHIP',
    '4.5',
    'Publishing first validates that the caller owns the folder: a caller who does not own it publishes nothing.',
  ),
  widgetRepublishInPlace: r(
    'WIDGET-REPUBLISH-IN-PLACE',
    '4.5',
    'Re-running the publish on an unchanged folder refreshes the manifest snapshot and the catalog record in place (upserts keyed on the author and the bundle folder); no duplicate listing results.',
  ),
  widgetCatalogListing: r(
    'WIDGET-CATALOG-LISTING',
    '4.4',
    'GET /.well-known/mcp/widgets.json is the catalog of published widgets and lists each published widget.',
  ),
  widgetMcpAppResource: r(
    'WIDGET-MCP-APP-RESOURCE',
    '4.4',
    'Every published widget is exposed at /api/widgets/{postId}/mcp as an MCP App: a ui:// resource of mimeType text/html;profile=mcp-app whose content is the HTML entry.',
  ),
  widgetSdkInjected: r('WIDGET-SDK-INJECTED', '2.5', 'The widget SDK at /widgets/sdk.v2.js is injected into the HTML entry the folder resolver serves.'),
  widgetSdkServed: r('WIDGET-SDK-SERVED', '9', 'The widget SDK (version 2) is served at /widgets/sdk.v2.js as JavaScript.'),
  widgetMcpToolVisibility: r(
    'WIDGET-MCP-TOOL-VISIBILITY',
    '2.5',
    'The MCP App lists the manifest tools with their visibility (_meta.ui.visibility; app, model, default [app]) and their link to the ui:// resource.',
  ),
  widgetMcpToolCall: r(
    'WIDGET-MCP-TOOL-CALL',
    '4.4',
    'A tool of a published widget can be called through its MCP endpoint with tools/call and answers a tool result.',
  ),
  platformNoTokenEndpoint: r(
    'PLATFORM-NO-TOKEN-ENDPOINT',
    '4.3',
    'The platform itself serves no agent token endpoint, and neither {authority}/api/auth/jwks nor {authority}/api/auth/token: on the platform those paths never answer a success.',
  ),
  agentA2aEndpoint: r(
    'AGENT-A2A-ENDPOINT',
    '4.2',
    "POST /a2a, the agent-to-agent transport endpoint, answers a request of its open protocol (A2A, JSON-RPC 2.0) with that protocol's success: a JSON-RPC response carrying a result.",
  ),
  widgetBridgeSurfaces: r(
    'WIDGET-BRIDGE-SURFACES',
    '4.6',
    'The widget iframe has three equivalent call surfaces, bridge.callTool(name, args), a ChatGPT-style shim global exposing callTool(name, args) and an App class with connect(), and all resolve to one transport.',
  ),
  widgetSdkErrorHandling: r(
    'WIDGET-SDK-ERROR-HANDLING',
    '4.6',
    "The widget SDK rejects a failed bridge call with an Error whose .code mirrors the host's code (7.1), after 7.1's handling column: surfaced at once, timeout retried once, internal at most once, rate_limited after the Retry-After window, service_unavailable with exponential backoff up to about 5 attempts.",
  ),
  widgetCspRender: r(
    'WIDGET-CSP-RENDER',
    '2.5',
    'The sandbox renders a widget under its CSP lists merged with the default policy: a connection to a domain its connectDomains lists is allowed, one to any other domain is blocked (connect-src).',
  ),
  widgetCspFallback: r(
    'WIDGET-CSP-FALLBACK',
    '2.5',
    'If any CSP list token is rejected the whole bundle renders under the restrictive default policy: even a listed domain is blocked.',
  ),
  widgetPermissionsAllow: r(
    'WIDGET-PERMISSIONS-ALLOW',
    '2.5',
    "The browser permissions of _meta.ui.permissions (such as clipboard-write) are granted to the widget's iframe (its allow attribute).",
  ),
  widgetOpenLinkRedirectDomains: r(
    'WIDGET-OPEN-LINK-REDIRECT-DOMAINS',
    '2.5',
    'bridge.openLink is gated by _meta.ui.csp.redirectDomains: a URL on a listed domain is opened; one on any other domain is not opened without passing the gate, and a refusal is a bridge error with a 7.1 code.',
  ),
  widgetFolderAssets: r(
    'WIDGET-FOLDER-ASSETS',
    '2.5',
    "The rendered widget loads the static assets of its folder that its HTML entry names by relative URL: a script runs and a stylesheet applies, under the widget's CSP.",
  ),
  widgetMcpAppSchemaVersion: r(
    'WIDGET-MCP-APP-SCHEMA-VERSION',
    '9',
    "Where a published widget's MCP App carries _meta.platform.v, it is the manifest schema version, whose current value is 1 (the App need not carry it: READING-MCP-APP-PLATFORM-META).",
  ),
});

export const REQUIREMENT_LIST: readonly RequirementRecord[] = Object.freeze([
  ...Object.values(REQUIREMENTS),
  ...PURCHASE_REQUIREMENT_LIST,
  ...Object.values(INBAND_REQUIREMENTS),
  ...Object.values(SDK_AUTH_REQUIREMENTS),
  ...Object.values(PURCHASE_METHOD_REQUIREMENTS),
  ...Object.values(PLATFORM_MCP_REQUIREMENTS),
  ...Object.values(SIGNED_REQUIREMENTS),
  ...PUBLISH_REQUIREMENT_LIST,
]);
