import { HEADERS } from '../../spec/headers.js';
import { PUBLISH_ERROR_CODES, WIDGET_ROUTES, widgetRoutePath } from '../../spec/publish.js';
import { publishWidget, type PublishPorts, type PublishStepReport, type RefusedFunction } from '../../widgets/publish/index.js';
import { render } from '../render.js';
import type { VerifiedRoute } from '../routes.js';
import { templateMatcher } from './path-template.js';
import type { UserDirectory } from './users.js';

/**
 * The 200/201 body of a publish. 4.4 shows no body; the reference names what a client needs next (the post and
 * its MCP endpoint) and reports each step of 4.5 as it ran.
 */
export interface PublishResponse {
  readonly postId: string;
  readonly catalogId: string;
  readonly agentSlug: string;
  /** Absolute URL of the widget's MCP endpoint (4.4). */
  readonly mcp: string;
  /** True for a first publish, false for a refresh in place. */
  readonly created: boolean;
  readonly steps: readonly PublishStepReport[];
  /** Tools whose function was not published (CODE_TOO_LARGE). */
  readonly problems: readonly RefusedFunction[];
}

const STATUS = Object.freeze({ created: 201, refreshed: 200, forbidden: 403 });

/**
 * POST /api/folders/{folderId}/publish-as-widget (4.4, 4.5): verified like every platform route (a signed request
 * or a platform bearer); the caller is the user the credential maps to. The request body is not read (4.4 shows
 * none). 201 for a first publish, 200 when the folder's listing was refreshed in place; a refusal is the 2.6 shape
 * with the problems found under error.problems.
 */
export function publishRoute(ports: PublishPorts, users: UserDirectory): VerifiedRoute {
  return {
    name: WIDGET_ROUTES.publish,
    path: templateMatcher(WIDGET_ROUTES.publish),
    access: 'verified',
    methods: {
      POST: async ({ verdict, params, url }) => {
        const callerId = users.userIdOf(verdict);
        if (callerId === null) {
          return render({
            status: STATUS.forbidden,
            body: { error: { code: PUBLISH_ERROR_CODES.notFolderOwner, message: 'The credential names no user, so it owns no folder.', problems: [] } },
          });
        }
        const outcome = await publishWidget({ callerId, folderId: params.folderId! }, ports);
        if (!outcome.ok) {
          return render({ status: outcome.status, body: { error: { code: outcome.code, message: outcome.message, problems: outcome.problems } } });
        }
        const body: PublishResponse = {
          postId: outcome.post.id,
          catalogId: outcome.catalog.id,
          agentSlug: outcome.agent.slug,
          mcp: new URL(widgetRoutePath(WIDGET_ROUTES.mcp, outcome.post.id), url.origin).href,
          created: outcome.created,
          steps: outcome.steps,
          problems: outcome.catalog.snapshot.refusedFunctions,
        };
        return render({ status: outcome.created ? STATUS.created : STATUS.refreshed, headers: { [HEADERS.cacheControl]: 'no-store' }, body });
      },
    },
  };
}
