export { checkBundle, type BundleReport } from './check.js';
export { readBundleFolder, BundleReadError } from './read-folder.js';
export { findManifestLink } from './manifest-link.js';
export { injectSdkScript } from './inject-sdk.js';
export { resolveEntryHtml } from './resolve-entry.js';
