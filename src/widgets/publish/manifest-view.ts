import type { WidgetManifest } from '../manifest/index.js';

/** A tool as the pipeline and the MCP exposure use it: the 2.5 fields with their defaults applied. */
export interface ToolView {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly visibility: readonly string[];
  readonly file: string;
  readonly runtime: string;
  readonly expose: readonly string[];
  readonly billing: { readonly currency: string; readonly amountNanocents: number } | null;
}

export interface ManifestCspLists {
  readonly connectDomains: readonly string[];
  readonly resourceDomains: readonly string[];
  readonly frameDomains: readonly string[];
  readonly redirectDomains: readonly string[];
}

/** The parts of a manifest (2.5) the publish pipeline and the MCP App exposure read. */
export interface ManifestView {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** `_meta.ui.resourceUri`: the HTML entry's path relative to the folder root. */
  readonly resourceUri: string;
  readonly iconRef: string | null;
  readonly csp: ManifestCspLists;
  readonly permissions: readonly string[];
  readonly tools: readonly ToolView[];
}

/** A tool that declares no inputSchema takes an object of any members (MCP requires an object schema). */
const EMPTY_INPUT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({ type: 'object' });

/** One place that knows the manifest's member names, so nothing else depends on them. */
export function manifestView(manifest: WidgetManifest): ManifestView {
  const ui = manifest._meta.ui;
  return {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description ?? '',
    resourceUri: ui.resourceUri,
    iconRef: manifest._meta.platform.iconRef ?? null,
    csp: ui.csp,
    permissions: ui.permissions,
    tools: manifest.tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema ?? EMPTY_INPUT_SCHEMA,
      visibility: tool._meta.ui.visibility,
      file: tool._meta.platform.file,
      runtime: tool._meta.platform.runtime,
      expose: tool._meta.platform.expose,
      billing: tool._meta.platform.billing ?? null,
    })),
  };
}
