/** The reference widget service (2.5, 4.4-4.6): publish, catalogue, upload and MCP routes. */
export { createWidgetService, type WidgetService, type WidgetServiceOptions } from './service.js';
export type { PublishResponse } from './publish-route.js';
export type { CatalogDocument } from './catalog-route.js';
export { createVmToolRunner } from './tool-runner.js';
export { hashedUserDirectory } from './users.js';
