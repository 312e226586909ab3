import type { WidgetManifest } from '../manifest/index.js';
import type { CATALOG_RECORD_TYPES } from '../../spec/publish.js';

/** A folder as the publish pipeline reads it: who owns it and its files by path relative to its root. */
export interface WidgetFolder {
  readonly id: string;
  /** The user id of the folder's owner. */
  readonly ownerId: string;
  readonly files: ReadonlyMap<string, Uint8Array>;
  /**
   * Set by the platform when the folder was made by remixing a published widget: that widget's catalog record id.
   * Authoritative lineage (2.5: `_meta.platform.remixOf` in the manifest is informational only).
   */
  readonly remixOf?: string;
}

/** 4.5 step 2: the agent dedicated to one bundle folder of one author. */
export interface AgentRecord {
  readonly id: string;
  readonly slug: string;
  readonly authorId: string;
  readonly folderId: string;
  /** N of the slug's -r<N> when the folder is a remix; null otherwise. */
  readonly remixNumber: number | null;
  /** The configuration step 4 stamped; empty until then. */
  readonly configuration: AgentConfiguration;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** 4.5 step 3: one tool's source, as materialised for the agent. */
export interface FunctionSourceRecord {
  readonly id: string;
  readonly agentId: string;
  readonly tool: string;
  /** The source path relative to the folder root (`_meta.platform.file`). */
  readonly file: string;
  readonly runtime: string;
  /** The source text (UTF-8). */
  readonly source: string;
  readonly bytes: number;
}

/** A tool whose source was not materialised, with why (7.1: CODE_TOO_LARGE at publish, FN_NOT_FOUND when called). */
export interface RefusedFunction {
  readonly tool: string;
  readonly file: string;
  readonly code: string;
  readonly message: string;
}

/** 4.5 step 4: what the agent serves. */
export interface AgentConfiguration {
  readonly functions: readonly { readonly name: string; readonly sourceId: string; readonly runtime: string }[];
  /** Tools with expose http, as custom HTTP endpoints on the agent's base path (4.1). */
  readonly httpEndpoints: readonly { readonly path: string; readonly method: string; readonly function: string; readonly description: string }[];
  /** Tools with expose tool, as custom tools of the agent. */
  readonly customTools: readonly { readonly name: string; readonly description: string; readonly inputSchema: unknown; readonly function: string }[];
  /** Billable tools (2.5 `_meta.platform.billing`); a tool not listed is free. */
  readonly billing: readonly { readonly tool: string; readonly currency: string; readonly amountNanocents: number }[];
}

export const EMPTY_CONFIGURATION: AgentConfiguration = Object.freeze({ functions: [], httpEndpoints: [], customTools: [], billing: [] });

/** What a published widget is, frozen at publish: re-publishing refreshes it in place. */
export interface WidgetSnapshot {
  readonly manifest: WidgetManifest;
  /** widget.json as it was read. */
  readonly manifestText: string;
  /** The HTML entry's path in the folder (`_meta.ui.resourceUri`) and its text, or null when the folder has none. */
  readonly entryPath: string;
  readonly entryHtml: string | null;
  /**
   * The folder's files a host serves beside the entry (2.5 "static assets", widget.json included), by folder path:
   * every file but the tool sources. Bounded by the folder's own limits (a signed upload, or 64 MiB / 10,000 files read
   * from disk).
   */
  readonly assets: ReadonlyMap<string, Uint8Array>;
  /** Tools whose source was not materialised. */
  readonly refusedFunctions: readonly RefusedFunction[];
}

/** 4.5 step 5: the catalog record, keyed on (authorId, folderId). */
export interface CatalogRecord {
  readonly id: string;
  readonly type: typeof CATALOG_RECORD_TYPES.widget;
  readonly authorId: string;
  readonly folderId: string;
  readonly agentId: string;
  readonly agentSlug: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly iconRef: string | null;
  /** Remix columns: the catalog record this widget was remixed from, and N of its -r<N> slug. */
  readonly remixOf: string | null;
  readonly remixNumber: number | null;
  readonly snapshot: WidgetSnapshot;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** 4.5 step 6: the post record, keyed on (authorId, metadata.bundleFolderId). */
export interface PostRecord {
  readonly id: string;
  readonly authorId: string;
  readonly title: string;
  readonly metadata: { readonly bundleFolderId: string; readonly catalogId: string; readonly agentSlug: string };
  readonly createdAt: number;
  readonly updatedAt: number;
}
