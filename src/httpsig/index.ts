/**
 * `agent-platform-conformance/httpsig`: the RFC 9421 toolkit. Derived components, `signatureBase`,
 * `parseSignatureInput`, `contentDigestHeader` / `checkContentDigest` (RFC 9530), `jwkThumbprint` (RFC 7638),
 * `ed25519Sign` / `ed25519Verify` (node:crypto, cross-checked against @noble/ed25519), `signRequest`. The list is
 * deliberate (tests/package/public-exports.test.ts pins it).
 */
export type { HttpMessage } from './message.js';
export { fieldValue } from './message.js';
export { deriveAuthority, derivePath, deriveQuery } from './derived-components.js';
export { ComponentError, type ComponentErrorReason } from './component-error.js';
export { coveredComponent, duplicateComponentId, serializeComponentId, type CoveredComponent } from './covered-component.js';
export { componentValue } from './component-value.js';
export { signatureBase } from './signature-base.js';
export { splitDictionaryMembers, type ParamKind } from './sf-text.js';
export { parseSignatureInput, type ParsedSignatureInputMember } from './signature-input.js';
export { parseSignatureHeader } from './signature-header.js';
export { checkContentDigest, contentDigestHeader, type DigestCheck } from './content-digest.js';
export { jwkThumbprint } from './jwk-thumbprint.js';
export {
  ED25519_KEY_BYTES,
  ED25519_SIGNATURE_BYTES,
  ed25519Sign,
  ed25519Verify,
  ed25519VerifyOffThread,
  generateEd25519Jwk,
  type Ed25519PrivateJwk,
  type Ed25519PublicJwkShape,
} from './ed25519.js';
export { nobleEd25519 } from './noble-ed25519.js';
export { KEY_PARAM, SIGNATURE_AGENT_TYPE_PARAM, SIGNATURE_PARAMS } from './signature-params.js';
export { signRequest, type SignatureAgentType, type SignedHeaders, type SignerKey, type SignRequestOptions } from './sign-request.js';
export { NONCE_BYTES, randomNonce } from './nonce.js';
export type { DigestAlgorithm } from '../spec/wire.js';
