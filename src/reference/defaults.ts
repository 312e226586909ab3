/** Defaults of the reference deployment that the command line names in its help, kept apart so help loads nothing else. */

/** The address `serve` binds by default: loopback only. */
export const DEFAULT_SERVE_HOST = '127.0.0.1';

/** The reference agent's name, served at /agents/NAME. */
export const DEFAULT_SERVED_AGENT_NAME = 'reference';
