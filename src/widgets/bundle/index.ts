export { checkBundle, type BundleReport } from './check.js';
export { readBundleFolder, wrapSingleHtmlFile, BundleReadError } from './read-folder.js';
export { findManifestLink, type ManifestLink } from './manifest-link.js';
export { injectSdkScript } from './inject-sdk.js';
export { resolveEntryHtml } from './resolve-entry.js';
