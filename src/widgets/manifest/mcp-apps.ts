import mcpAppsSchema from '@modelcontextprotocol/ext-apps/schema.json' with { type: 'json' };
import { buildCspPolicy } from '../csp/policy.js';
import type { WidgetManifest, WidgetTool } from './types.js';
import { manifestValidators } from './validator.js';

/** MCP Apps' UI resource _meta.ui (McpUiResourceMeta), as the platform emits it for a widget. */
export interface McpAppsResourceMeta {
  readonly csp: { readonly connectDomains?: string[]; readonly resourceDomains?: string[]; readonly frameDomains?: string[] };
  readonly permissions: Record<string, Record<string, never>>;
}

/** MCP Apps' tool _meta.ui (McpUiToolMeta). */
export interface McpAppsToolMeta {
  readonly resourceUri: string;
  readonly visibility: Array<'model' | 'app'>;
}

/** Permission names MCP Apps can carry, read from its schema: camelCase member -> Permissions Policy name. */
const MCP_APPS_PERMISSIONS: ReadonlyMap<string, string> = new Map(
  Object.keys(mcpAppsSchema.$defs.McpUiResourcePermissions.properties).map((member) => [member.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), member]),
);

/**
 * The widget's manifest as MCP Apps resource metadata: bare domains become https:// origins (wss:// too
 * for connectDomains), since MCP Apps lists origins; a bundle that falls back gets no lists at all;
 * redirectDomains has no MCP Apps member and stays out; permissions MCP Apps does not define are left out.
 * Checked against MCP Apps' published schema; a failure there is a bug of this function, so it throws.
 */
export function toMcpAppsResourceMeta(manifest: WidgetManifest): McpAppsResourceMeta {
  const policy = buildCspPolicy(manifest._meta.ui.csp);
  const csp: Record<string, string[]> = {};
  if (!policy.fallback) {
    const { connectDomains, resourceDomains, frameDomains } = manifest._meta.ui.csp;
    if (connectDomains.length > 0) csp.connectDomains = connectDomains.flatMap((d) => [`https://${d}`, `wss://${d}`]);
    if (resourceDomains.length > 0) csp.resourceDomains = resourceDomains.map((d) => `https://${d}`);
    if (frameDomains.length > 0) csp.frameDomains = frameDomains.map((d) => `https://${d}`);
  }
  const permissions: Record<string, Record<string, never>> = {};
  for (const name of manifest._meta.ui.permissions) {
    const member = MCP_APPS_PERMISSIONS.get(name);
    if (member) permissions[member] = {};
  }
  return checked({ csp, permissions }, manifestValidators().mcpAppsResourceMeta, 'McpUiResourceMeta');
}

/**
 * A tool's MCP Apps metadata: the widget's ui:// resource and its visibility written out (MCP Apps'
 * default, model and app, differs from ours), with `user` left out, as MCP Apps has no human palette.
 */
export function toMcpAppsToolMeta(tool: WidgetTool, resourceUri: string): McpAppsToolMeta {
  if (!resourceUri.startsWith('ui://')) throw new TypeError(`an MCP Apps resourceUri starts with ui://, not "${resourceUri}"`);
  const visibility = tool._meta.ui.visibility.filter((v): v is 'model' | 'app' => v !== 'user');
  return checked({ resourceUri, visibility }, manifestValidators().mcpAppsToolMeta, 'McpUiToolMeta');
}

function checked<T>(value: T, validate: (v: unknown) => boolean, name: string): T {
  if (!validate(value)) throw new Error(`internal: the ${name} built for MCP Apps fails its schema`);
  return value;
}
