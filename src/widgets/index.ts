/**
 * `agent-platform-conformance/widgets`: widgets (2.5, 4.4-4.6, 7.1): the manifest, the CSP rules, bundle checks, the
 * host bridge's retry policy, and the publish pipeline. The list is deliberate (tests/package/public-exports.test.ts
 * pins it).
 */
export type { WidgetProblem } from './problem.js';
// widget.json: its types, parser and JSON Schema, and its mapping to MCP Apps metadata.
export type { WidgetCsp, WidgetBilling, WidgetTool, WidgetManifest } from './manifest/types.js';
export { parseManifest, parseManifestValue, folderPath, type ManifestResult } from './manifest/parse.js';
export { MCP_APPS_SCHEMA_ID, WIDGET_MANIFEST_SCHEMA_ID, RELATIVE_PATH_PATTERN, WIDGET_MANIFEST_SCHEMA } from './manifest/schema.js';
export { toMcpAppsResourceMeta, toMcpAppsToolMeta, type McpAppsResourceMeta, type McpAppsToolMeta } from './manifest/mcp-apps.js';
// The widget's Content Security Policy.
export { checkBareDomain, isBareDomain, type DomainRejection, type DomainVerdict } from './csp/bare-domain.js';
export {
  CSP_POINTER,
  buildCspPolicy,
  defaultCspPolicy,
  renderPolicy,
  type CspLists,
  type RejectedDomain,
  type CspDirectives,
  type WidgetCspPolicy,
} from './csp/policy.js';
export { openLinkDecision } from './csp/open-link.js';
// Bundle checks: the folder, its entry HTML and manifest link, the SDK script.
export { checkBundle, type BundleReport } from './bundle/check.js';
export { BundleReadError, readBundleFolder, wrapSingleHtmlFile } from './bundle/read-folder.js';
export { findManifestLink, type ManifestLink } from './bundle/manifest-link.js';
export { injectSdkScript } from './bundle/inject-sdk.js';
export { resolveEntryHtml } from './bundle/resolve-entry.js';
// The host bridge: the retry policy and the operations a widget may dispatch.
export { nextStep, type BridgeStep, type RetryPolicyOptions } from './bridge/retry-policy.js';
export { BridgeError, bridgeErrorFrom } from './bridge/bridge-error.js';
export { callWithRetry, type RetryPorts } from './bridge/call-with-retry.js';
export { checkDispatch, type BridgeOperation, type BridgeHostInfo, type DispatchVerdict } from './bridge/operations.js';
// The publish pipeline, its ports and records, with in-memory adapters.
export {
  publishWidget,
  type PublishRequest,
  type PublishStepReport,
  type PublishRefusal,
  type PublishSuccess,
  type PublishOutcome,
} from './publish/pipeline.js';
export { userId6, bundleSlug, agentSlug } from './publish/slug.js';
export { manifestView, type ToolView, type ManifestCspLists, type ManifestView } from './publish/manifest-view.js';
export { MemoryPublishStore, MemoryFolderSource, counterIds } from './publish/memory-store.js';
export type { Awaitable, Clock, RecordKind, IdSource, FolderSource, PublishStore, WidgetReader, PublishPorts } from './publish/ports.js';
export {
  EMPTY_CONFIGURATION,
  type WidgetFolder,
  type AgentRecord,
  type FunctionSourceRecord,
  type RefusedFunction,
  type AgentConfiguration,
  type WidgetSnapshot,
  type CatalogRecord,
  type PostRecord,
} from './publish/records.js';
