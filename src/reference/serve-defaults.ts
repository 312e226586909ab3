/**
 * The defaults of `serve` that its help names: kept apart from the server so that help and --version load none of
 * the reference (src/cli/serve.ts imports the server only when it serves).
 */
export const DEFAULT_SERVE_HOST = '127.0.0.1';

/** The name the served reference agent answers at, /agents/NAME. */
export const DEFAULT_SERVED_AGENT_NAME = 'reference';
