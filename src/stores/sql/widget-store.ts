import type { FolderSource, PublishStore, WidgetReader } from '../../widgets/publish/ports.js';
import type { AgentRecord, CatalogRecord, FunctionSourceRecord, PostRecord, WidgetFolder } from '../../widgets/publish/records.js';
import type { AttributionRow, ChargeRow, ToolUsageLedger } from '../../widgets/publish/usage.js';
import type { SqlDatabase, SqlRow } from './driver.js';
import { INSERTION_ORDER } from './schema.js';

function bodyOf<T>(row: SqlRow | undefined): T | undefined {
  return row === undefined ? undefined : (JSON.parse(row.body as string) as T);
}

/** A folder as stored: its files as base64, in the order given. */
interface StoredFolder {
  readonly id: string;
  readonly ownerId: string;
  readonly files: readonly (readonly [string, string])[];
  readonly remixOf?: string;
}

/**
 * The widget pipeline's records in SQL (4.4, 4.5), as MemoryPublishStore and MemoryFolderSource keep them: uploaded
 * folders, minted agents and their function sources, catalog records and posts, listed in the order first written
 * (a put replaces a record in its place), and the tool calls' charge and attribution rows. Every instance on the
 * database then serves the widget another published.
 */
export class SqlWidgetStore implements PublishStore, WidgetReader, FolderSource, ToolUsageLedger {
  private readonly order: string;

  constructor(private readonly db: SqlDatabase) {
    this.order = INSERTION_ORDER[db.dialect];
  }

  /** Upserts one record keyed by id, keeping the position (seq) of the first write. */
  private async upsert(table: string, columns: Record<string, string | null>, body: unknown): Promise<void> {
    const names = Object.keys(columns);
    const values = Object.values(columns);
    await this.db.all(
      `INSERT INTO ${table} (${names.join(', ')}, body) VALUES (${names.map(() => '?').join(', ')}, ?)
        ON CONFLICT (id) DO UPDATE SET ${[...names.filter((n) => n !== 'id'), 'body'].map((n) => `${n} = excluded.${n}`).join(', ')}`,
      [...values, JSON.stringify(body)],
    );
  }

  async getFolder(folderId: string): Promise<WidgetFolder | undefined> {
    const stored = bodyOf<StoredFolder>((await this.db.all('SELECT body FROM widget_folders WHERE id = ?', [folderId]))[0]);
    if (stored === undefined) return undefined;
    const files = new Map(stored.files.map(([path, data]) => [path, new Uint8Array(Buffer.from(data, 'base64'))] as const));
    return { id: stored.id, ownerId: stored.ownerId, files, ...(stored.remixOf === undefined ? {} : { remixOf: stored.remixOf }) };
  }

  /** Stores an uploaded folder (the reference-only upload route). */
  async put(folder: WidgetFolder): Promise<void> {
    const stored: StoredFolder = {
      id: folder.id,
      ownerId: folder.ownerId,
      files: [...folder.files].map(([path, data]) => [path, Buffer.from(data).toString('base64')] as const),
      ...(folder.remixOf === undefined ? {} : { remixOf: folder.remixOf }),
    };
    await this.upsert('widget_folders', { id: folder.id }, stored);
  }

  async findAgentByFolder(authorId: string, folderId: string): Promise<AgentRecord | undefined> {
    return bodyOf(
      (await this.db.all(`SELECT body FROM widget_agents WHERE author_id = ? AND folder_id = ? ORDER BY ${this.order} LIMIT 1`, [authorId, folderId]))[0],
    );
  }
  async isSlugTaken(slug: string): Promise<boolean> {
    return (await this.db.all('SELECT 1 AS taken FROM widget_agents WHERE slug = ? LIMIT 1', [slug])).length > 0;
  }
  async putAgent(record: AgentRecord): Promise<void> {
    await this.upsert('widget_agents', { id: record.id, author_id: record.authorId, folder_id: record.folderId, slug: record.slug }, record);
  }
  async replaceFunctionSources(agentId: string, records: readonly FunctionSourceRecord[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.all('DELETE FROM widget_sources WHERE agent_id = ?', [agentId]);
      await tx.all('INSERT INTO widget_sources (agent_id, body) VALUES (?, ?)', [agentId, JSON.stringify(records)]);
    });
  }
  async findCatalogRecord(authorId: string, folderId: string): Promise<CatalogRecord | undefined> {
    return bodyOf(
      (await this.db.all(`SELECT body FROM widget_catalog WHERE author_id = ? AND folder_id = ? ORDER BY ${this.order} LIMIT 1`, [authorId, folderId]))[0],
    );
  }
  async putCatalogRecord(record: CatalogRecord): Promise<void> {
    await this.upsert('widget_catalog', { id: record.id, author_id: record.authorId, folder_id: record.folderId }, record);
  }
  async findPost(authorId: string, bundleFolderId: string): Promise<PostRecord | undefined> {
    return bodyOf(
      (
        await this.db.all(`SELECT body FROM widget_posts WHERE author_id = ? AND bundle_folder_id = ? ORDER BY ${this.order} LIMIT 1`, [
          authorId,
          bundleFolderId,
        ])
      )[0],
    );
  }
  async putPost(record: PostRecord): Promise<void> {
    await this.upsert('widget_posts', { id: record.id, author_id: record.authorId, bundle_folder_id: record.metadata.bundleFolderId }, record);
  }

  async listCatalog(): Promise<readonly CatalogRecord[]> {
    return (await this.db.all(`SELECT body FROM widget_catalog ORDER BY ${this.order}`)).map((row) => bodyOf<CatalogRecord>(row)!);
  }
  async getCatalogRecord(id: string): Promise<CatalogRecord | undefined> {
    return bodyOf((await this.db.all('SELECT body FROM widget_catalog WHERE id = ?', [id]))[0]);
  }
  async getPost(postId: string): Promise<PostRecord | undefined> {
    return bodyOf((await this.db.all('SELECT body FROM widget_posts WHERE id = ?', [postId]))[0]);
  }
  async getAgent(agentId: string): Promise<AgentRecord | undefined> {
    return bodyOf((await this.db.all('SELECT body FROM widget_agents WHERE id = ?', [agentId]))[0]);
  }
  async findAgentBySlug(slug: string): Promise<AgentRecord | undefined> {
    return bodyOf((await this.db.all(`SELECT body FROM widget_agents WHERE slug = ? ORDER BY ${this.order} LIMIT 1`, [slug]))[0]);
  }
  async getFunctionSources(agentId: string): Promise<readonly FunctionSourceRecord[]> {
    return bodyOf<FunctionSourceRecord[]>((await this.db.all('SELECT body FROM widget_sources WHERE agent_id = ?', [agentId]))[0]) ?? [];
  }

  async settle(charge: ChargeRow): Promise<void> {
    await this.db.all("INSERT INTO tool_usage (id, kind, body) VALUES (?, 'charge', ?) ON CONFLICT (id) DO NOTHING", [charge.id, JSON.stringify(charge)]);
  }
  async attribute(row: AttributionRow): Promise<void> {
    await this.db.all("INSERT INTO tool_usage (id, kind, body) VALUES (?, 'attribution', ?) ON CONFLICT (id) DO NOTHING", [row.id, JSON.stringify(row)]);
  }
}
