import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The steering repository's shared folder sits beside the project's clone (read-only). */
export const SHARED = [`${root}../shared`, `${root}shared`].find((p) => existsSync(p)) ?? `${root}../shared`;
export const PEER_VECTORS = `${SHARED}/peer-vectors/webagents`;
export const REFERENCE_DATA = `${SHARED}/reference-data`;
export const PROJECT_ROOT = root;
