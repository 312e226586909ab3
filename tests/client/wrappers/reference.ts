/**
 * A client-mode wrapper around the reference client (src/reference/client): what `run --client-command` runs for our own
 * signer and buyer. CLIENT_KEY_FILE names the agent's private JWK (keygen writes one), CLIENT_AGENT_URL its agent URL,
 * whose key set and card are published elsewhere. CLIENT_FAULT names a fault of the reference client (a client mutant,
 * src/mutants/client.ts), CLIENT_VARIANT a conformant choice (src/variants/client.ts): the e2e tests run both.
 *
 *   agent-platform-conformance run --client-command 'npx tsx tests/client/wrappers/reference.ts' --allow-insecure-fixtures
 */
import { readFileSync } from 'node:fs';
import { CLIENT_MUTANTS } from '../../../src/mutants/client.js';
import { runReferenceClient } from '../../../src/reference/client/client.js';
import { readClientEnvironment, SYSTEM_CLIENT_CLOCK } from '../../../src/reference/client/environment.js';
import { wsConnect } from '../../../src/reference/client/socket.js';
import type { ClientFault } from '../../../src/reference/client/types.js';
import { CLIENT_VARIANTS } from '../../../src/variants/client.js';

function named<T extends { id: string }>(list: readonly T[], id: string | undefined, what: string): T | undefined {
  if (id === undefined || id === '') return undefined;
  const found = list.find((x) => x.id === id);
  if (!found) throw new Error(`${what} ${id} is not one of ${list.map((x) => x.id).join(', ')}`);
  return found;
}

const env = readClientEnvironment(process.env);
const keyFiles = (process.env.CLIENT_KEY_FILE ?? '').split(',').filter(Boolean);
const agentUrl = process.env.CLIENT_AGENT_URL;
if (keyFiles.length === 0 || !agentUrl)
  throw new Error('set CLIENT_KEY_FILE (a private JWK file; two, comma-separated, sign with two labels) and CLIENT_AGENT_URL');
const keys = keyFiles.map((file) => JSON.parse(readFileSync(file, 'utf8')));
const mutant = named(CLIENT_MUTANTS, process.env.CLIENT_FAULT, 'CLIENT_FAULT');
const variant = named(CLIENT_VARIANTS, process.env.CLIENT_VARIANT, 'CLIENT_VARIANT');
const faults: ClientFault[] = mutant ? [mutant.fault()] : [];
const trace = await runReferenceClient(env, {
  identity: { agentUrl, keys },
  fetch: (url, init) => fetch(url, init),
  connect: wsConnect,
  clock: SYSTEM_CLIENT_CLOCK,
  faults,
  ...(variant ? { choices: variant.choices } : {}),
});
process.stdout.write(`${env.caseId}: ${trace.answers.map((a) => `${a.status}${a.code ? ` ${a.code}` : ''}`).join(', ')}; ${trace.stopped}\n`);
