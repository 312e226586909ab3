/**
 * The widget host page a deployment may name to a live run (`run --widget-host-url URL`, docs/contracts.md section
 * 6), so that the host-side browser checks of 4.6 and 7.1 drive the deployment's own host rather than none. The URL
 * holds `{postId}` where the post the checks published goes; the page renders that post's widget in a child iframe
 * with the deployment's widget SDK and answers its bridge calls. The query names the session the spec leaves to the
 * platform (absent members: the defaults). The reference's page (`/_reference/widgets/{postId}/host`) offers it all.
 */

/** Where the published post's id goes in the host page URL. */
export const WIDGET_HOST_POST_ID = '{postId}';

/** The session a check asks the host page for, as query members of its URL. */
export interface WidgetHostSession {
  /** `user=NAME`: the signed-in user; absent, no session. */
  readonly user?: string;
  /** `content=catalog`: the widget rendered on the app's own catalog row (default: on a post). */
  readonly content?: 'post' | 'catalog';
  /** `bridge=1`: an old host of bridge version 1 (default: the current version). */
  readonly bridge?: 1 | 2;
  /** `detached=1`: no platform server behind the host. */
  readonly detached?: boolean;
}

/** The host page for one post and session: `{postId}` replaced, the session's members added to the query. */
export function widgetHostPageUrl(template: string, postId: string, session: WidgetHostSession = {}): string {
  const url = new URL(template.replaceAll(WIDGET_HOST_POST_ID, encodeURIComponent(postId)));
  if (session.user) url.searchParams.set('user', session.user);
  if (session.content) url.searchParams.set('content', session.content);
  if (session.bridge) url.searchParams.set('bridge', String(session.bridge));
  if (session.detached) url.searchParams.set('detached', '1');
  return url.href;
}

/**
 * What the page records of the bridge calls it answered, oldest first, in `window.__hostLog` of the host page: the
 * operation, the page's Date.now() when it answered, and the 7.1 code when it refused. The checks of retries count
 * these; a page without the log has those checks not run.
 */
export interface WidgetHostLogEntry {
  readonly op: string;
  readonly at: number;
  readonly code?: string;
}
