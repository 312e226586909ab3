/** The reference platform: a fetch handler with a route table other parts plug into, and the same served on node:http. */
export { createReferencePlatform, type ReferencePlatform, type ReferencePlatformOptions } from './platform.js';
export { serveReference, type ServeOptions, type ServedReference } from './serve.js';
export type { PlatformAnswer, RenderedAnswer } from './render.js';
