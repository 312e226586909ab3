import type { PublishRules } from './rules.js';
import type { AgentRecord, CatalogRecord, FunctionSourceRecord, PostRecord, WidgetFolder } from './records.js';

/**
 * The ports of the publish pipeline (docs/architecture.md): it owns no clock, ids or storage. Every port may
 * answer synchronously (the in-memory adapters of ./memory-store.ts) or with a promise (a database).
 */
export type Awaitable<T> = T | Promise<T>;

/** Seconds since the epoch. */
export interface Clock {
  now(): number;
}

export type RecordKind = 'agent' | 'function' | 'catalog' | 'post' | 'folder' | 'charge' | 'attribution';

/** New record ids; never one given before. */
export interface IdSource {
  next(kind: RecordKind): string;
}

/** Where folders are read from. */
export interface FolderSource {
  getFolder(folderId: string): Awaitable<WidgetFolder | undefined>;
}

/** The records the pipeline writes, with the lookups by the keys 4.5 names. */
export interface PublishStore {
  /** The agent minted for this author's bundle folder, if any (step 2 reuses it). */
  findAgentByFolder(authorId: string, folderId: string): Awaitable<AgentRecord | undefined>;
  isSlugTaken(slug: string): Awaitable<boolean>;
  putAgent(record: AgentRecord): Awaitable<void>;
  /** Replaces every function source of the agent with these (step 3). */
  replaceFunctionSources(agentId: string, records: readonly FunctionSourceRecord[]): Awaitable<void>;
  findCatalogRecord(authorId: string, folderId: string): Awaitable<CatalogRecord | undefined>;
  putCatalogRecord(record: CatalogRecord): Awaitable<void>;
  findPost(authorId: string, bundleFolderId: string): Awaitable<PostRecord | undefined>;
  putPost(record: PostRecord): Awaitable<void>;
}

/** What the routes read: the catalog, a post and what it exposes. */
export interface WidgetReader {
  listCatalog(): Awaitable<readonly CatalogRecord[]>;
  getCatalogRecord(id: string): Awaitable<CatalogRecord | undefined>;
  getPost(postId: string): Awaitable<PostRecord | undefined>;
  getAgent(agentId: string): Awaitable<AgentRecord | undefined>;
  getFunctionSources(agentId: string): Awaitable<readonly FunctionSourceRecord[]>;
  /** The agent minted with this slug, if any (its routes, /agents/<slug>/...). */
  findAgentBySlug(slug: string): Awaitable<AgentRecord | undefined>;
}

export interface PublishPorts {
  readonly folders: FolderSource;
  readonly store: PublishStore;
  readonly clock: Clock;
  readonly ids: IdSource;
  /** The pipeline's decisions; PUBLISH_RULES by default (a fault of one is a mutant's, src/mutants/). */
  readonly rules?: PublishRules;
}
