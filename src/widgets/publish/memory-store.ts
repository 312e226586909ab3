import type { FolderSource, IdSource, PublishStore, RecordKind, WidgetReader } from './ports.js';
import type { AgentRecord, CatalogRecord, FunctionSourceRecord, PostRecord, WidgetFolder } from './records.js';

const pairKey = (a: string, b: string): string => JSON.stringify([a, b]);

/** In-memory records of the pipeline, in insertion order; a put replaces the record with the same id. */
export class MemoryPublishStore implements PublishStore, WidgetReader {
  private readonly agents = new Map<string, AgentRecord>();
  private readonly sources = new Map<string, readonly FunctionSourceRecord[]>();
  private readonly catalog = new Map<string, CatalogRecord>();
  private readonly posts = new Map<string, PostRecord>();

  findAgentByFolder(authorId: string, folderId: string): AgentRecord | undefined {
    return [...this.agents.values()].find((a) => pairKey(a.authorId, a.folderId) === pairKey(authorId, folderId));
  }

  isSlugTaken(slug: string): boolean {
    return [...this.agents.values()].some((a) => a.slug === slug);
  }

  putAgent(record: AgentRecord): void {
    this.agents.set(record.id, record);
  }

  replaceFunctionSources(agentId: string, records: readonly FunctionSourceRecord[]): void {
    this.sources.set(agentId, [...records]);
  }

  findCatalogRecord(authorId: string, folderId: string): CatalogRecord | undefined {
    return [...this.catalog.values()].find((c) => pairKey(c.authorId, c.folderId) === pairKey(authorId, folderId));
  }

  putCatalogRecord(record: CatalogRecord): void {
    this.catalog.set(record.id, record);
  }

  findPost(authorId: string, bundleFolderId: string): PostRecord | undefined {
    return [...this.posts.values()].find((p) => pairKey(p.authorId, p.metadata.bundleFolderId) === pairKey(authorId, bundleFolderId));
  }

  putPost(record: PostRecord): void {
    this.posts.set(record.id, record);
  }

  listCatalog(): readonly CatalogRecord[] {
    return [...this.catalog.values()];
  }

  getCatalogRecord(id: string): CatalogRecord | undefined {
    return this.catalog.get(id);
  }

  getPost(postId: string): PostRecord | undefined {
    return this.posts.get(postId);
  }

  getAgent(agentId: string): AgentRecord | undefined {
    return this.agents.get(agentId);
  }

  findAgentBySlug(slug: string): AgentRecord | undefined {
    return [...this.agents.values()].find((a) => a.slug === slug);
  }

  getFunctionSources(agentId: string): readonly FunctionSourceRecord[] {
    return this.sources.get(agentId) ?? [];
  }

  /** Every record, for tests that count listings. */
  counts(): { agents: number; functionSources: number; catalog: number; posts: number } {
    return {
      agents: this.agents.size,
      functionSources: [...this.sources.values()].reduce((n, list) => n + list.length, 0),
      catalog: this.catalog.size,
      posts: this.posts.size,
    };
  }
}

/** In-memory folders; `put` seeds one (tests, the in-process target, the reference-only upload route). */
export class MemoryFolderSource implements FolderSource {
  private readonly folders = new Map<string, WidgetFolder>();

  getFolder(folderId: string): WidgetFolder | undefined {
    return this.folders.get(folderId);
  }

  put(folder: WidgetFolder): void {
    this.folders.set(folder.id, folder);
  }
}

/** Ids `<kind>_<n>`, counting per kind from 1: deterministic, for tests and vectors. */
export function counterIds(): IdSource {
  const counters = new Map<RecordKind, number>();
  return {
    next(kind) {
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      return `${kind}_${n}`;
    },
  };
}
