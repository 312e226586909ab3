/**
 * `agent-platform-conformance/spec`: the catalogue of the spec. Every code of 7.1-7.4 (AUTH_ERRORS, ENDPOINT_ERRORS,
 * BRIDGE_ERRORS, PURCHASE_ERRORS), every limit of section 8 (LIMITS), header names (HEADERS), media and problem
 * types, the wire tokens of each part, and the rules that are not a single row's code (REQUIREMENTS and the like),
 * each a typed record with section, level and condition. The list is deliberate (tests/package/public-exports.test.ts
 * pins it).
 */
// The records, and requirement ids.
export type {
  Level,
  RequirementRecord,
  AuthErrorRecord,
  EndpointErrorRecord,
  BridgeHandling,
  BridgeErrorRecord,
  RetryObjectRule,
  PurchaseErrorRecord,
  LimitRecord,
} from './types.js';
export { requirementId } from './ids.js';
// The codes of 7.1-7.4.
export { AUTH_ERROR_LIST, AUTH_ERRORS, AUTH_CODES, isAuthErrorCode, AUTH_ERROR_BODY_ERROR, type AuthErrorCode } from './auth-errors.js';
export { ENDPOINT_ERRORS, ENDPOINT_ERROR_LIST } from './endpoint-errors.js';
export { BRIDGE_TABLE_LIST, BRIDGE_ERROR_LIST, BRIDGE_ERRORS, type BridgeErrorCode } from './bridge-errors.js';
export { PURCHASE_ERROR_LIST, PURCHASE_ERRORS, type PurchaseErrorCode } from './purchase-errors.js';
// Section 8, headers, media types, problem types.
export { LIMITS, LIMIT_LIST, PAYMENT_CHALLENGE_LIFETIME_S } from './limits.js';
export { HEADERS, type HeaderName } from './headers.js';
export { serviceNaming, deployedHeader, type ServiceNaming } from './naming.js';
export { MEDIA_TYPES } from './media-types.js';
export { DEFAULT_PROBLEM_BASES, PROBLEM_TYPES, problemTypeUrl, type ProblemBases } from './problem-types.js';
// Wire tokens and the rules that are not a single code, part by part.
export {
  WEB_BOT_AUTH_TAG,
  ED25519_ALG,
  COMPONENTS,
  ALLOWED_DERIVED_COMPONENTS,
  SIGNATURE_AGENT_TYPES,
  WELL_KNOWN,
  PLATFORM_ROUTES,
  BEARER_CHALLENGE,
  AUTH_SCHEMES,
  DIGEST_ALGORITHMS,
  SIGNATURE_LABELS,
  MAX_SIGNATURE_LABELS,
  CARD_FIELDS,
  ED25519_JWK,
  RFC9421_TEST_KEYS,
  type DigestAlgorithm,
} from './wire.js';
export { REQUIREMENTS, REQUIREMENT_LIST } from './requirements.js';
export { PURCHASE_REQUIREMENTS, PURCHASE_REQUIREMENT_LIST } from './purchase-requirements.js';
export {
  wireFieldName,
  PAYMENT_CREDENTIAL_HEADER,
  DEFAULT_CREDENTIAL_HEADER,
  TERMS_ACCEPTED_HEADER,
  PAYMENT_METHODS,
  PAYMENT_METHOD_OF,
  PAYMENT_INTENTS,
  PAYMENT_METHOD_ID_PATTERN,
  PAYMENT_INTENT_PATTERN,
  LINK_RELS,
  TEMPO_PAYLOAD_TYPES,
  STRIPE_PAYLOAD_MEMBERS,
  PURCHASE_KINDS,
  CHALLENGE_PARAMS,
  CHALLENGE_PARAM_ORDER,
  REQUIRED_CHALLENGE_PARAMS,
  CREDENTIAL_MEMBERS,
  PURCHASE_BODY_MEMBERS,
  TERMS_OBJECT_MEMBERS,
  RETRY_MEMBERS,
  REFUND_STATES,
  PURCHASE_ROW_BODY,
  PAYMENT_CACHE_CONTROL,
  PAYMENT_PROBLEMS,
  TEMPO_REQUEST_MEMBERS,
  TEMPO_METHOD_DETAILS_MEMBERS,
  TEMPO_MODES,
  TEMPO_PAYLOAD_MEMBERS,
  TIP20_TRANSFER_WITH_MEMO,
  TEMPO_TRANSACTION_TYPE,
  type PaymentMethodId,
  type ChallengeParamName,
  type PurchaseBodyMember,
  type RefundState,
  type PaymentProblemRecord,
} from './payments.js';
export {
  SSE,
  SOCKET_TOKEN_PARAM,
  AGENT_MOUNT_PREFIX,
  AGENT_TRANSPORT_ROUTES,
  AGENT_TOKEN_ROUTE,
  TOKEN_FORM_FIELDS,
  CLIENT_CREDENTIALS_GRANT,
  AGENT_NAME_SIGIL,
  TOKEN_ERROR_CODES,
  ENDPOINT_MESSAGES,
  ENDPOINT_OWN_CODES,
} from './agent-endpoints.js';
export {
  SDK_CLAIMS,
  SDK_REQUIRED_CLAIMS,
  SDK_TOKEN_TYPE,
  SDK_JWT_ALGORITHMS,
  SDK_SCOPES,
  SDK_SCOPE_PREFIXES,
  SDK_SCOPE_WILDCARD_SUFFIX,
  SDK_DEFAULT_ALLOWED_SCOPES,
  SDK_AUTH_MODES,
  PORTAL_ROUTES,
  ISSUER_TYPES,
  DEFAULT_ISSUER_TYPE,
  AUTH_SKILL_FIELDS,
  SDK_TOKEN_REFUSALS,
  SDK_TOKEN_REFUSAL_REASONS,
  ENDPOINT_SCOPES,
  ENDPOINT_GROUP_SCOPE_PREFIX,
  ENDPOINT_UNVERIFIED_CREDENTIAL_MESSAGE,
  ENDPOINT_AUTH_MODES,
  DEFAULT_ENDPOINT_AUTH_MODE,
  SDK_AUTH_REQUIREMENTS,
  type SdkJwtAlgorithm,
  type SdkAuthMode,
  type IssuerType,
  type SdkTokenRefusalReason,
  type EndpointAuthMode,
} from './sdk-auth.js';
export {
  WIDGET_MANIFEST,
  WIDGET_SDK,
  MCP_APP_MIME_TYPE,
  CSP_LISTS,
  CSP_LIST_DIRECTIVES,
  DEFAULT_WIDGET_CSP,
  WIDGET_PROBLEMS,
  WIDGET_PROBLEM_LIST,
  type WidgetVisibility,
  type WidgetExpose,
  type CspListName,
  type WidgetProblemRecord,
} from './widgets.js';
export {
  INBAND_FRAME_TYPES,
  FUNDED_FRAME_TYPES,
  INBAND_SCHEMES,
  FRAME_MEMBERS,
  PAYMENT_REQUIREMENTS_MEMBERS,
  SCHEME_ENTRY_MEMBERS,
  PAYMENT_SUBMIT_MEMBERS,
  RESPONSE_MEMBERS,
  RESPONSE_STATUS_COMPLETED,
  SOCKET_ERROR_MEMBERS,
  REQUIREMENTS_CURRENCY,
  NANO_PER_CURRENCY_UNIT,
  POINTER_BODY_MEMBERS,
  POINTER_BODY_TEXT,
  DELEGATE_MEMBERS,
  DELEGATE_STATUSES,
  BUYER_REFUSAL_REASONS,
  SOCKET_ERROR_CODES,
  INBAND_REQUIREMENTS,
  type InbandFrameType,
} from './inband.js';
export { AGENT_CHECK_PROBLEMS, type AgentCheckProblemCode } from './agent-check.js';
export {
  WIDGET_ROUTES,
  widgetRoutePath,
  REFERENCE_ONLY_ROUTES,
  WIDGET_AGENT_SLUG,
  CATALOG_RECORD_TYPES,
  PUBLISH_STEPS,
  AGENT_STAMP,
  PUBLISH_ERROR_CODES,
  WIDGET_RESOURCE_URI,
  MCP_APPS_EXTENSION_ID,
  MCP_RESOURCE_NOT_FOUND,
  type PublishStepName,
} from './publish.js';
export { PLATFORM_MCP_REQUIREMENTS } from './platform-mcp.js';
export { PURCHASE_METHOD_REQUIREMENTS } from './purchase-method-requirements.js';
export { CLIENT_REQUIREMENTS, CLIENT_REQUIREMENT_LIST } from './client-requirements.js';
