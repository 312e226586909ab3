import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { readClientEnvironment, SYSTEM_CLIENT_CLOCK } from '../../../src/reference/client/environment.js';
import type { ClientClock, ClientEnvironment, ClientIdentity } from '../../../src/reference/client/types.js';

/** What a wrapper is given besides the case: a fetch (global fetch in a process, the double's handler in a test) and a clock. */
export interface WrapperPorts {
  readonly fetch: (url: string, init: { method: string; headers: Array<[string, string]> | Record<string, string>; body?: Uint8Array }) => Promise<Response>;
  readonly clock: ClientClock;
}

/** A client-mode wrapper: one case's request sent as the client under test sends it, and what it does next. */
export type Wrapper = (env: ClientEnvironment, identity: ClientIdentity, ports: WrapperPorts) => Promise<void>;

/** The agent the wrapper signs as: CLIENT_KEY_FILE (private JWK files, comma-separated) and CLIENT_AGENT_URL. */
export function identityFromEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): ClientIdentity {
  const files = (env.CLIENT_KEY_FILE ?? '').split(',').filter(Boolean);
  const agentUrl = env.CLIENT_AGENT_URL;
  if (files.length === 0 || !agentUrl) throw new Error('set CLIENT_KEY_FILE (a private JWK file, or two comma-separated) and CLIENT_AGENT_URL');
  return { agentUrl, keys: files.map((file) => JSON.parse(readFileSync(file, 'utf8'))) };
}

/** Runs `wrapper` when `moduleUrl` is the script node was started with: the case from APC_*, real fetch and time. */
export async function runIfMain(moduleUrl: string, wrapper: Wrapper): Promise<void> {
  if (process.argv[1] === undefined || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  await wrapper(readClientEnvironment(process.env), identityFromEnvironment(), {
    fetch: (url, init) => fetch(url, init),
    clock: SYSTEM_CLIENT_CLOCK,
  });
}
