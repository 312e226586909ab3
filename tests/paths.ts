import { fileURLToPath } from 'node:url';

/** The repository's root, with a trailing slash. Every fixture a test reads lives under it. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Test fixtures of the platform's public SDK, copied with their source and licence (see SOURCE.md there). */
export const PEER_VECTORS = `${PROJECT_ROOT}tests/interop/fixtures`;
/** RFC 9421 Appendix B and Web Bot Auth draft vectors (see SOURCE.md there). */
export const REFERENCE_DATA = `${PROJECT_ROOT}tests/httpsig/fixtures`;
