/**
 * Section 4.4 and 4.5: the widget routes, the publish pipeline's names and the records it writes.
 *
 * Where the spec leaves a value open, the reference's choice is written here once, with the reason, and listed
 * in docs/readings.md. No public source gives the platform's own values (slug prefix, userId6 rule, catalog row fields).
 */

/** The routes of 4.4, as path templates. The catalog is WELL_KNOWN.mcpWidgets (wire.ts). */
export const WIDGET_ROUTES = Object.freeze({
  publish: '/api/folders/{folderId}/publish-as-widget',
  mcp: '/api/widgets/{postId}/mcp',
});

/** A template's path for one id: `widgetRoutePath(WIDGET_ROUTES.mcp, 'post_1')` is /api/widgets/post_1/mcp. */
export function widgetRoutePath(template: string, id: string): string {
  return template.replace(/\{[A-Za-z]+\}/, encodeURIComponent(id));
}

/**
 * NOT part of the spec: the reference platform's own folder upload, so a live run against `serve` can create
 * the folder it publishes. A deployment of the real platform has its own folder API and answers 404 here.
 */
export const REFERENCE_ONLY_ROUTES = Object.freeze({
  folders: '/_reference/folders',
  /** The reference host page (4.6): renders a post's widget in a sandboxed iframe and answers its bridge calls. */
  widgetHost: '/_reference/widgets/{postId}/host',
  /**
   * The published folder's files under the CSP merged from its manifest (2.5), {path} one or more segments of a
   * folder path: the HTML entry (`_meta.ui.resourceUri`) with the SDK injected, and its static assets beside it, so
   * the entry's relative URLs (a script, a stylesheet, the icon) resolve. Never the tool sources (4.5 step 3).
   */
  widgetRender: '/_reference/widgets/{postId}/render/{path}',
  /** Where the host page forwards the widget's server-mediated bridge calls. */
  widgetBridge: '/_reference/widgets/{postId}/bridge',
  /** The host page's script (ext-apps' AppBridge). */
  widgetHostScript: '/_reference/widgets/host.v2.js',
});

/** 2.5 folder layout ("optional tools/<name>.js"): where tool sources live, server-side functions a host never serves. */
export const TOOL_SOURCES_DIRECTORY = 'tools/';

/**
 * 4.5 step 2: the dedicated agent's slug is `<prefix>-<userId6>-<bundleSlug>`, a remix's `...-r<N>`.
 * - prefix: the spec does not give it and docs/platform-sdk.md f found none; the reference uses "widget".
 * - userId6: read as the first six characters of the author's user id (lower case). How a caller maps to a user
 *   id is the platform's; the reference derives one from the verified credential (see reference/widgets).
 * - bundleSlug: the manifest name in lower case, runs of anything but a-z and 0-9 turned into one "-", at most
 *   `bundleSlugMaxLength` characters; "widget" when nothing is left.
 * - -r<N>: N is the smallest positive integer that gives a slug no other agent holds (the first remix is -r1).
 */
export const WIDGET_AGENT_SLUG = Object.freeze({
  prefix: 'widget',
  userIdLength: 6,
  bundleSlugMaxLength: 40,
  emptyBundleSlug: 'widget',
  remixSuffix: '-r',
  separator: '-',
});

/** 4.5 step 5: the catalog record's type. */
export const CATALOG_RECORD_TYPES = Object.freeze({ widget: 'widget' });

/** The steps of 4.5, in order; a publish outcome names each step it ran by these. */
export const PUBLISH_STEPS = Object.freeze(['validate', 'agent', 'functions', 'configure', 'catalog', 'post'] as const);
export type PublishStepName = (typeof PUBLISH_STEPS)[number];

/**
 * The reference's choices for what 4.5 step 4 stamps: a tool with expose http is served as POST
 * `<httpEndpointPrefix><name>` on the agent's base path (4.1), a tool with expose tool becomes a custom tool of the
 * same name. The spec names neither path nor method.
 */
export const AGENT_STAMP = Object.freeze({
  httpEndpointPrefix: '/tools/',
  httpEndpointMethod: 'POST',
});

/**
 * Codes of the reference's publish refusals. The spec shows no publish body (4.4), so these are the platform's own,
 * in the 2.6 `{ error: { code, message } }` shape; a manifest or bundle problem is named by WIDGET_PROBLEMS
 * (widgets.ts) and CODE_TOO_LARGE by the 7.1 catalogue.
 */
export const PUBLISH_ERROR_CODES = Object.freeze({
  folderNotFound: 'folder_not_found',
  notFolderOwner: 'not_folder_owner',
  /** Another folder of the same author already publishes under the slug this bundle's name gives (not a remix). */
  agentSlugTaken: 'agent_slug_taken',
});

/** The ui:// resource a published widget is exposed as (MCP Apps requires the scheme; the rest is the reference's). */
export const WIDGET_RESOURCE_URI = Object.freeze({
  scheme: 'ui://',
  authority: 'widgets',
});

/** The MCP Apps extension id a server and a client name in their capabilities (SEP-1865). */
export const MCP_APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The JSON-RPC error code MCP answers a resources/read of an unknown URI with. */
export const MCP_RESOURCE_NOT_FOUND = -32002;
