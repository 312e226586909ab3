import { HEADERS } from '../../spec/headers.js';
import { WIDGET_ROUTES, widgetRoutePath } from '../../spec/publish.js';
import { WELL_KNOWN } from '../../spec/wire.js';
import { isSignedRequest } from '../../verifier/verify-request.js';
import type { CatalogRecord, PublishStore, WidgetReader } from '../../widgets/publish/index.js';
import { render } from '../render.js';
import type { PublicRoute } from '../routes.js';
import { widgetResourceUri } from './mcp-app-meta.js';

/** One entry of the catalog document. 4.4 shows no fields; these are the reference's. */
export interface CatalogEntry {
  readonly id: string;
  readonly type: CatalogRecord['type'];
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly authorId: string;
  readonly agentSlug: string;
  readonly postId: string;
  /** Absolute URL of the widget's MCP endpoint. */
  readonly mcp: string;
  /** The ui:// resource its MCP endpoint serves. */
  readonly resourceUri: string;
  readonly iconRef: string | null;
  readonly remixOf: string | null;
  readonly updatedAt: number;
}

export interface CatalogDocument {
  readonly widgets: readonly CatalogEntry[];
}

/** The catalog document built from its entries: `{ widgets: [...] }` by default (4.4 shows no shape; a variant picks another). */
export type CatalogShape = (entries: readonly CatalogEntry[]) => unknown;

const referenceShape: CatalogShape = (widgets): CatalogDocument => ({ widgets });

/**
 * GET /.well-known/mcp/widgets.json (4.4): every published widget, once per (author, bundle folder). Public like the
 * key directory; a request that is signed is verified, and one that does not verify is refused as the verifier says.
 */
export function catalogRoute(store: PublishStore & WidgetReader, shape: CatalogShape = referenceShape): PublicRoute {
  return {
    name: WELL_KNOWN.mcpWidgets,
    path: WELL_KNOWN.mcpWidgets,
    access: 'public',
    methods: {
      GET: async (ctx) => {
        if (isSignedRequest((await ctx.read()).request)) {
          const verdict = await ctx.verify();
          if (!verdict.ok) return render(verdict);
        }
        const widgets: CatalogEntry[] = [];
        for (const record of await store.listCatalog()) {
          const post = await store.findPost(record.authorId, record.folderId);
          if (!post) continue;
          widgets.push({
            id: record.id,
            type: record.type,
            name: record.name,
            version: record.version,
            description: record.description,
            authorId: record.authorId,
            agentSlug: record.agentSlug,
            postId: post.id,
            mcp: new URL(widgetRoutePath(WIDGET_ROUTES.mcp, post.id), ctx.url.origin).href,
            resourceUri: widgetResourceUri(post.id, record.snapshot.entryPath),
            iconRef: record.iconRef,
            remixOf: record.remixOf,
            updatedAt: record.updatedAt,
          });
        }
        return render({ status: 200, headers: { [HEADERS.cacheControl]: 'no-cache' }, body: shape(widgets) });
      },
    },
  };
}
