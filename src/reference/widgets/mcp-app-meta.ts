import { toMcpAppsResourceMeta, toMcpAppsToolMeta, type WidgetManifest, type WidgetTool } from '../../widgets/manifest/index.js';
import { buildCspPolicy } from '../../widgets/csp/index.js';
import { WIDGET_RESOURCE_URI } from '../../spec/publish.js';

/** The ui:// URI a post's widget is exposed under: `ui://widgets/<postId>/<entry path>`. */
export function widgetResourceUri(postId: string, entryPath: string): string {
  const path = entryPath.replace(/^\.\//, '').split('/').map(encodeURIComponent).join('/');
  return `${WIDGET_RESOURCE_URI.scheme}${WIDGET_RESOURCE_URI.authority}/${encodeURIComponent(postId)}/${path}`;
}

/**
 * The UI resource's `_meta`: `ui` is MCP Apps' McpUiResourceMeta as the manifest gives it (toMcpAppsResourceMeta:
 * https:// origins, nothing of the author's on a CSP fallback), plus the platform's own origin as a resource domain,
 * because the injected widget SDK loads from there. `openai/widgetCSP` repeats the lists for ChatGPT and carries
 * redirectDomains, which MCP Apps has no member for (docs/widgets.md: how widget.json differs from MCP Apps). `platform` is the
 * manifest's platform extension as published (2.5, 9: v, the schema version, and iconRef, themeRef, remixOf when given;
 * READING-MCP-APP-PLATFORM-META).
 */
export function resourceMeta(manifest: WidgetManifest, platformOrigin: string, withPlatform = true): Record<string, unknown> {
  const ui = toMcpAppsResourceMeta(manifest);
  const csp = { ...ui.csp, resourceDomains: [...new Set([platformOrigin, ...(ui.csp.resourceDomains ?? [])])] };
  const policy = buildCspPolicy(manifest._meta.ui.csp);
  const redirect = policy.openLinkAllowlist.map((domain) => `https://${domain}`);
  const openai: Record<string, string[]> = { resource_domains: csp.resourceDomains };
  if (csp.connectDomains) openai.connect_domains = csp.connectDomains;
  if (csp.frameDomains) openai.frame_domains = csp.frameDomains;
  if (redirect.length) openai.redirect_domains = redirect;
  return { ui: { ...ui, csp }, ...(withPlatform ? { platform: { ...manifest._meta.platform } } : {}), 'openai/widgetCSP': openai };
}

/**
 * A tool's `_meta`: `ui` is MCP Apps' McpUiToolMeta (toMcpAppsToolMeta: the resource and the visibility written out,
 * `user` left out since MCP Apps has none); the whole 2.5 list stays under `platform.visibility`.
 */
export function toolMeta(tool: WidgetTool, resourceUri: string): Record<string, unknown> {
  return { ui: toMcpAppsToolMeta(tool, resourceUri), platform: { visibility: [...tool._meta.ui.visibility] } };
}
