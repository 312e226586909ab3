export type { WidgetProblem } from '../problem.js';
export type { WidgetManifest, WidgetTool } from './types.js';
export { parseManifest, type ManifestResult } from './parse.js';
export { WIDGET_MANIFEST_SCHEMA } from './schema.js';
export { toMcpAppsResourceMeta, toMcpAppsToolMeta } from './mcp-apps.js';
