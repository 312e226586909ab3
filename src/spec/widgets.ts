import { BRIDGE_ERRORS } from './bridge-errors.js';
import { requirementId } from './ids.js';
import type { RequirementRecord } from './types.js';

/** Section 2.5 and 9: names, values and defaults of a widget bundle and its manifest. */
export const WIDGET_MANIFEST = Object.freeze({
  fileName: 'widget.json',
  /** The rel of the link element by which the HTML entry names its manifest. */
  linkRel: 'widget-manifest',
  defaultEntry: 'index.html',
  mimeType: 'text/html',
  /** _meta.platform.v: the only schema version this version of the suite knows (section 9). */
  schemaVersion: 1,
  defaultRuntime: 'node20',
  visibilities: Object.freeze(['app', 'model', 'user'] as const),
  defaultVisibility: Object.freeze(['app'] as const),
  exposes: Object.freeze(['http', 'tool'] as const),
  /** The default source of a tool: tools/<name>.js. */
  defaultToolFile: (toolName: string): string => `tools/${toolName}.js`,
});

export type WidgetVisibility = (typeof WIDGET_MANIFEST.visibilities)[number];
export type WidgetExpose = (typeof WIDGET_MANIFEST.exposes)[number];

/** Section 2.5 and 9: the widget SDK the folder resolver injects into the HTML entry. */
export const WIDGET_SDK = Object.freeze({ path: '/widgets/sdk.v2.js', version: 2 });

/** The MIME type MCP Apps (SEP-1865) requires of a UI resource: compared as a string by hosts, so spelled exactly. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The four domain lists of _meta.ui.csp (2.5), in the spec's order. */
export const CSP_LISTS = Object.freeze(['connectDomains', 'resourceDomains', 'frameDomains', 'redirectDomains'] as const);
export type CspListName = (typeof CSP_LISTS)[number];

/**
 * The CSP directives each list extends (2.5). redirectDomains is no directive: it is the bridge.openLink allowlist.
 * MCP Apps also puts resourceDomains into font-src and media-src; 2.5 names only these three.
 */
export const CSP_LIST_DIRECTIVES: Readonly<Record<CspListName, readonly string[]>> = Object.freeze({
  connectDomains: Object.freeze(['connect-src']),
  resourceDomains: Object.freeze(['script-src', 'style-src', 'img-src']),
  frameDomains: Object.freeze(['frame-src']),
  redirectDomains: Object.freeze([]),
});

/**
 * The restrictive default policy (2.5: "default-src none, script-src self plus unsafe-inline, and so on"),
 * filled in from the MCP Apps default (SEP-1865 2026-01-26, plus the draft's object-src) with frame-src
 * and base-uri written out: a bundle with no lists, or one with a rejected token, gets exactly this.
 * Order is the order of the rendered header.
 */
export const DEFAULT_WIDGET_CSP: ReadonlyArray<readonly [directive: string, sources: readonly string[]]> = Object.freeze([
  ['default-src', ["'none'"]],
  ['script-src', ["'self'", "'unsafe-inline'"]],
  ['style-src', ["'self'", "'unsafe-inline'"]],
  ['img-src', ["'self'", 'data:']],
  ['media-src', ["'self'", 'data:']],
  ['connect-src', ["'none'"]],
  ['frame-src', ["'none'"]],
  ['object-src', ["'none'"]],
  ['base-uri', ["'self'"]],
] as const);

const problem = (code: string, condition: string, section = '2.5'): WidgetProblemRecord =>
  Object.freeze({ id: requirementId('WIDGET', code), section, level: 'MUST', code, condition });

export interface WidgetProblemRecord extends RequirementRecord {
  readonly code: string;
}

/** Problems a widget bundle check reports (2.5, 4.5), each with a stable code. */
export const WIDGET_PROBLEMS = Object.freeze({
  manifestMissing: problem('manifest_missing', 'The folder has no widget.json at its root.'),
  manifestNotJson: problem('manifest_not_json', 'widget.json does not parse as JSON (4.5 step 1).', '4.5'),
  manifestInvalid: problem('manifest_invalid', 'widget.json does not have the shape 2.5 describes.'),
  cspDomainRejected: problem(
    'csp_domain_rejected',
    'A CSP list entry is not a bare domain (wildcard, keyword, scheme, port, path or IP literal); the whole bundle falls back to the restrictive default policy.',
  ),
  entryMissing: problem('entry_missing', 'The HTML entry (index.html or _meta.ui.resourceUri) is not in the folder.'),
  entryNotLinked: problem('entry_not_linked', 'The HTML entry has no link element with rel widget-manifest naming widget.json.'),
  toolSourceMissing: problem('tool_source_missing', 'A declared tool has no source file (default tools/<name>.js).'),
  assetMissing: problem('asset_missing', 'A file the manifest names (_meta.platform.iconRef or themeRef) is not in the folder.'),
  codeTooLarge: Object.freeze({ ...BRIDGE_ERRORS.CODE_TOO_LARGE }),
});

export const WIDGET_PROBLEM_LIST: readonly RequirementRecord[] = Object.freeze(Object.values(WIDGET_PROBLEMS));
