import { parseManifest, type ManifestResult, type WidgetManifest } from '../manifest/index.js';
import { wrapSingleHtmlFile } from '../bundle/read-folder.js';
import { LIMITS } from '../../spec/limits.js';
import { TOOL_SOURCES_DIRECTORY } from '../../spec/publish.js';
import { WIDGET_MANIFEST } from '../../spec/widgets.js';
import type { ToolView } from './manifest-view.js';
import { agentSlug } from './slug.js';

/** A single HTML file as the pipeline publishes it: the one-child folder and the manifest the platform writes for it. */
export interface WrappedFile {
  readonly files: ReadonlyMap<string, Uint8Array>;
  readonly manifestText: string;
}

/** What one call of a published tool writes (2.5 `_meta.platform.billing`). */
export type ToolUsageKind = 'charge' | 'attribution';

/**
 * The decisions of the publish pipeline and of a tool call, each in one function: the pipeline and the widget
 * routes take them from here, so a fault of one (src/mutants/) is switched on where the rule is decided.
 */
export interface PublishRules {
  /** 4.5 step 1: widget.json's text as a manifest. */
  parseManifest(text: string): ManifestResult;
  /** 2.5: a folder holding a single HTML file as a one-child folder with a manifest, or null when it is not one. */
  wrapSingleFile(files: ReadonlyMap<string, Uint8Array>): WrappedFile | null;
  /** 4.5 step 2: the agent slug. */
  agentSlug(userId: string, name: string, remixNumber?: number): string;
  /** 4.5 step 3: the bytes a tool's function source is materialised from; undefined when the folder lacks its file. */
  toolSource(files: ReadonlyMap<string, Uint8Array>, tool: ToolView): Uint8Array | undefined;
  /** Section 8: the largest function source materialised (64 KB); a larger one is refused with CODE_TOO_LARGE. */
  readonly maxSourceBytes: number;
  /**
   * What a source over the limit refuses: its tool's function only (the widget publishes, the tool answers FN_NOT_FOUND;
   * the reference) or the whole publish. 7.1 allows either (READING-FUNCTION-SOURCE-KB).
   */
  readonly oversizedSource: 'function' | 'publish';
  /**
   * 4.5 step 2: the catalog record a folder remixes, which makes the agent a remix (-r<N>): the platform's own record of
   * the folder (2.5: the manifest's `_meta.platform.remixOf` is informational only).
   */
  remixOf(folder: { readonly remixOf?: string }, manifest: WidgetManifest): string | undefined;
  /** 2.5: the HTML entry (`_meta.ui.resourceUri`) as the MCP App serves it; undefined when the folder lacks it. */
  entryHtml(files: ReadonlyMap<string, Uint8Array>, resourceUri: string): Uint8Array | undefined;
  /** 2.5: the folder's static assets a host may serve beside the entry: every file but the tool sources. */
  staticAssets(files: ReadonlyMap<string, Uint8Array>, tools: readonly Pick<ToolView, 'file'>[]): ReadonlyMap<string, Uint8Array>;
  /** 2.5: what a call of this tool writes: a payment charge when it is billable, attribution rows only when free. */
  usageOf(tool: Pick<ToolView, 'billing'>): ToolUsageKind;
}

const decoder = new TextDecoder();
const HTML_FILE = /\.html?$/i;

/** The page's <title>, when it has a plain one. */
function titleOf(html: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  return title ? title : undefined;
}

/**
 * 2.5: "A single HTML file is auto-wrapped into a one-child folder on publish." The file becomes the entry
 * (index.html) of a folder with no other child, and the platform writes the manifest the file could not carry: the
 * page's title (else the file's name) as name, version 1.0.0, schema version 1, no tools. The spec does not say what
 * that manifest holds (READING-SINGLE-FILE-MANIFEST).
 */
export function wrapSingleFile(files: ReadonlyMap<string, Uint8Array>): WrappedFile | null {
  if (files.size !== 1) return null;
  const [path, html] = [...files][0]!;
  if (!HTML_FILE.test(path)) return null;
  const name = titleOf(decoder.decode(html)) ?? path.replace(/^.*\//, '').replace(HTML_FILE, '');
  const manifest = {
    name,
    version: '1.0.0',
    _meta: {
      ui: { resourceUri: WIDGET_MANIFEST.defaultEntry, mimeType: WIDGET_MANIFEST.mimeType },
      platform: { v: WIDGET_MANIFEST.schemaVersion },
    },
    tools: [],
  };
  return { files: wrapSingleHtmlFile(html), manifestText: JSON.stringify(manifest) };
}

/**
 * 2.5's folder layout less the tool sources: a declared tool's file wherever it is, and everything under tools/ (the
 * layout's place for them). Those are server-side functions (4.5 step 3 materialises them for the agent): a widget
 * never loads them, and serving them would publish code the author wrote to run out of the browser's sight.
 */
function staticAssets(files: ReadonlyMap<string, Uint8Array>, tools: readonly Pick<ToolView, 'file'>[]): ReadonlyMap<string, Uint8Array> {
  const sources = new Set(tools.map((tool) => tool.file));
  return new Map([...files].filter(([path]) => !sources.has(path) && !path.startsWith(TOOL_SOURCES_DIRECTORY)));
}

/** The rules as the spec gives them (src/spec/publish.ts for the values it leaves open). */
export const PUBLISH_RULES: PublishRules = Object.freeze({
  parseManifest,
  wrapSingleFile,
  agentSlug,
  toolSource: (files: ReadonlyMap<string, Uint8Array>, tool: ToolView) => files.get(tool.file),
  maxSourceBytes: LIMITS.functionSourceSize.value,
  oversizedSource: 'function',
  remixOf: (folder: { readonly remixOf?: string }) => folder.remixOf,
  entryHtml: (files: ReadonlyMap<string, Uint8Array>, resourceUri: string) => files.get(resourceUri),
  staticAssets,
  usageOf: (tool: Pick<ToolView, 'billing'>): ToolUsageKind => (tool.billing ? 'charge' : 'attribution'),
});
