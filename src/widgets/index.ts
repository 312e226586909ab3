/** Widgets (spec 2.5, 4.4-4.6, 7.1): manifest, CSP rules, bundle checks and the host bridge's retry policy. */
export * from './manifest/index.js';
export * from './csp/index.js';
export * from './bundle/index.js';
export * from './bridge/index.js';
export * from './publish/index.js';
