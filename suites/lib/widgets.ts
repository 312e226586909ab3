import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { jsonBody, WidgetSession, type SentExchange, type WidgetCaller } from '../../src/harness/widget-session.js';
import { suiteWidgetFiles } from '../../src/harness/widget-bundle.js';
import { REFERENCE_ONLY_ROUTES } from '../../src/spec/publish.js';
import { WIDGET_MANIFEST } from '../../src/spec/widgets.js';
import { READINGS } from '../../src/spec/readings.js';
import { check, type CheckContext, type CheckDefinition } from './check.js';
import { checkTimeout } from './context.js';
import { suiteTarget } from './target.js';

/** How long a widget check may take: it uploads, publishes and talks MCP. */
export const WIDGET_CHECK_TIMEOUT_MS = checkTimeout(60_000);

/** A MUST check of the widget suites, with their timeout. */
export function widgetCheck(definition: Omit<CheckDefinition, 'level' | 'timeout'>): void {
  check({ level: 'MUST', timeout: WIDGET_CHECK_TIMEOUT_MS, ...definition });
}

/** A SHOULD check of the widget suites (a failure is a warning), with their timeout. */
export function widgetShouldCheck(definition: Omit<CheckDefinition, 'level' | 'timeout'>): void {
  check({ level: 'SHOULD', timeout: WIDGET_CHECK_TIMEOUT_MS, ...definition });
}

/** A member of a JSON answer's body, when it is a string. */
export function stringMember(sent: SentExchange, name: string): string | undefined {
  const value = (jsonBody(sent.response) as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** How a catalog entry may name a published widget: its post id, its MCP endpoint, and the catalog record id if the publish named one. */
export interface WidgetRef {
  readonly postId: string;
  /** The absolute URL of the post's MCP endpoint (4.4). */
  readonly mcpUrl: string;
  readonly catalogId?: string;
}

/** Where the catalog lists a widget (READING-CATALOG-SHAPE): the entries naming it, and how many entries their list holds. */
export interface CatalogFinding {
  readonly entries: ReadonlyArray<Record<string, unknown>>;
  /** Entries of the list (an array, or an object keyed by id) the widget's entry sits in. */
  readonly listed: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every string value anywhere in `value` (to a bounded depth). */
export function stringsIn(value: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 8) return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value) || isObject(value)) for (const v of Object.values(value)) stringsIn(v, depth + 1, out);
  return out;
}

/** Whether a string names the widget: its post id or catalog id, or its MCP endpoint as an absolute URL or a path. */
function namesWidget(s: string, ref: WidgetRef): boolean {
  if (s === ref.postId || (ref.catalogId !== undefined && s === ref.catalogId) || s === ref.mcpUrl) return true;
  // Only an absolute URL or an absolute path names an endpoint: any other string ("", "mcp") would resolve against it.
  if (!s.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(s)) return false;
  try {
    const mcp = new URL(ref.mcpUrl);
    const url = new URL(s, mcp);
    return url.origin === mcp.origin && url.pathname.replace(/\/+$/, '') === mcp.pathname;
  } catch {
    return false;
  }
}

/**
 * Finds a widget in the catalog document, whatever its shape (4.4 shows none, READING-CATALOG-SHAPE): the shallowest list
 * (an array, or an object keyed by id) holding an object that names the widget by its post id, catalog id or MCP
 * endpoint, anywhere inside it. Undefined when nothing in the document names it.
 */
export function findInCatalog(doc: unknown, ref: WidgetRef): CatalogFinding | undefined {
  let level: unknown[] = [doc];
  for (let depth = 0; depth < 8 && level.length; depth++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (Array.isArray(node)) {
        const items = node.filter(isObject);
        const entries = items.filter((item) => stringsIn(item).some((s) => namesWidget(s, ref)));
        if (entries.length) return { entries, listed: items.length };
        next.push(...node);
      } else if (isObject(node)) {
        const keyed = Object.entries(node).filter(([key, v]) => isObject(v) && (key === ref.postId || key === ref.catalogId));
        if (keyed.length) return { entries: keyed.map(([, v]) => v as Record<string, unknown>), listed: Object.values(node).filter(isObject).length };
        next.push(...Object.values(node));
      }
    }
    level = next;
  }
  return undefined;
}

/** The widget's reference for a publish answer: its post id, its MCP endpoint on the session's deployment, its catalog id if named. */
export function widgetRef(session: WidgetSession, postId: string, published?: SentExchange): WidgetRef {
  const catalogId = published ? stringMember(published, 'catalogId') : undefined;
  return { postId, mcpUrl: session.mcpUrl(postId), ...(catalogId === undefined ? {} : { catalogId }) };
}

/** The catalog as the deployment answers it now, and where it lists `ref`. */
export async function catalogFinding(session: WidgetSession, ref: WidgetRef): Promise<{ sent: SentExchange; found: CatalogFinding | undefined }> {
  const sent = await session.catalog();
  return { sent, found: findInCatalog(jsonBody(sent.response), ref) };
}

/** Why a check cannot count catalog entries: the catalog names no widget the suite published, in any shape it can read. */
export function unreadableCatalogReason(ref: WidgetRef): string {
  return `the catalog names the published widget nowhere by its post id (${ref.postId}) or MCP endpoint, so whether an entry was added cannot be seen (${READINGS.catalogShape.id})`;
}

/** The suites' bundle with its manifest changed by `edit`, and `files` added. */
export function withManifest(
  name: string,
  edit: (manifest: Record<string, unknown>) => void,
  files: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const bundle = suiteWidgetFiles(name);
  const manifest = JSON.parse(bundle[WIDGET_MANIFEST.fileName]!) as Record<string, unknown>;
  edit(manifest);
  return { ...bundle, ...files, [WIDGET_MANIFEST.fileName]: JSON.stringify(manifest) };
}

export const is2xx = (sent: SentExchange): boolean => sent.response.status >= 200 && sent.response.status < 300;

/** Why a widget check cannot run on a deployment that refused the reference-only folder upload. */
export function noFolderReason(upload: SentExchange): string {
  return `needs a folder: the deployment answered ${upload.response.status} to the reference-only upload ${REFERENCE_ONLY_ROUTES.folders}, and the spec gives no folder API the suite could use`;
}

/** An upload and the publish of the folder it made. */
export interface Publishing {
  readonly upload: SentExchange;
  readonly published: SentExchange;
  readonly folderId: string;
  /** The post the publish names, when it succeeded and named one. */
  readonly postId: string | undefined;
}

/** A session of a check's own, on a target of its own. */
export interface OwnSession {
  readonly session: WidgetSession;
  /** Uploads `files` as `caller` (not-run when the deployment has no reference-only upload) and publishes the folder. */
  publish(caller: WidgetCaller, files: Readonly<Record<string, string>>, remixOf?: string): Promise<Publishing>;
  /** Like `publish`, and fails the check unless the publish succeeded with a post id. */
  published(caller: WidgetCaller, files: Readonly<Record<string, string>>, remixOf?: string): Promise<Publishing & { readonly postId: string }>;
  /** An MCP client of the post's endpoint, closed with the session (announcing MCP Apps unless `apps` is false). */
  mcp(postId: string, apps?: boolean): Promise<Client>;
}

/**
 * Runs `fn` with a widget session on a target of its own, so the deployment it publishes to is the one as it stands
 * now (a fault the self-test switches on is in it) and no other check's widgets are there; every exchange is recorded.
 */
export async function withOwnSession<T>(c: CheckContext, name: string, fn: (own: OwnSession) => Promise<T>): Promise<T> {
  const target = suiteTarget();
  const session = new WidgetSession(target, name);
  const clients: Client[] = [];
  const publish = async (caller: WidgetCaller, files: Readonly<Record<string, string>>, remixOf?: string): Promise<Publishing> => {
    const upload = await session.uploadFolder(caller, files, remixOf);
    const folderId = stringMember(upload, 'folderId');
    if (upload.response.status !== 201 || folderId === undefined) c.notRun(noFolderReason(upload));
    const published = await session.publish(caller, folderId);
    return { upload, published, folderId, postId: is2xx(published) ? stringMember(published, 'postId') : undefined };
  };
  const own: OwnSession = {
    session,
    publish,
    async published(caller, files, remixOf) {
      const p = await publish(caller, files, remixOf);
      if (p.postId === undefined) throw new Error(`the publish answered ${p.published.response.status} without a post id`);
      return { ...p, postId: p.postId };
    },
    async mcp(postId, apps = true) {
      const client = await session.mcpClient(postId, apps);
      clients.push(client);
      return client;
    },
  };
  try {
    await session.open();
    return await fn(own);
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const e of session.recorded()) c.record(e);
    await target.close();
  }
}

/** Every ui:// resource the post's MCP App lists. */
export async function uiResources(mcp: Client): Promise<Array<{ uri: string; mimeType?: string; _meta?: Record<string, unknown> }>> {
  const { resources } = await mcp.listResources();
  return resources.filter((r) => r.uri.startsWith('ui://'));
}

/** The text of the first ui:// resource as read, or undefined when none is listed or reading it fails. */
export async function readEntryText(mcp: Client): Promise<string | undefined> {
  const ui = (await uiResources(mcp))[0];
  if (!ui) return undefined;
  try {
    const { contents } = await mcp.readResource({ uri: ui.uri });
    const text = contents.map((item) => (item as { text?: unknown }).text).find((t) => typeof t === 'string');
    return text as string | undefined;
  } catch {
    return undefined;
  }
}

/** The 7.1 code of a tool result that is an error (structuredContent.error.code), or undefined. */
export function toolErrorCode(result: object): string | undefined {
  const { isError, structuredContent } = result as { isError?: unknown; structuredContent?: { error?: { code?: string } } };
  return isError ? structuredContent?.error?.code : undefined;
}
