export type { WidgetProblem } from '../problem.js';
export type { WidgetBilling, WidgetCsp, WidgetManifest, WidgetTool } from './types.js';
export { parseManifest, parseManifestValue, folderPath, type ManifestResult } from './parse.js';
export { WIDGET_MANIFEST_SCHEMA, WIDGET_MANIFEST_SCHEMA_ID, MCP_APPS_SCHEMA_ID, RELATIVE_PATH_PATTERN } from './schema.js';
export { toMcpAppsResourceMeta, toMcpAppsToolMeta, type McpAppsResourceMeta, type McpAppsToolMeta } from './mcp-apps.js';
