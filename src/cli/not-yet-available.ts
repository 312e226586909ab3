import type { Command, OptionSpec } from './command.js';
import { InputError } from './errors.js';

/** A command of the contract (CONTRACTS.md section 1) that this version lists but does not run yet. */
export function notYetAvailable(spec: Omit<Command, 'available' | 'run'>): Command {
  return {
    ...spec,
    available: false,
    run: async () => {
      throw new InputError(`${spec.name} is not available in this version yet`);
    },
  };
}

const json: OptionSpec = { type: 'boolean', help: 'print one JSON document' };

export const checkAgentCommand = notYetAvailable({
  name: 'check-agent',
  summary: "fetch and check an agent's key set, card and key directory under the fetch rules",
  usage: 'AGENT_URL [--json] [--allow-insecure]',
  description: "Fetches an agent's key set, card and key directory under the fetch rules of spec 5.2 and checks them against 2.4.",
  options: {
    json,
    'allow-insecure': { type: 'boolean', help: 'accept plain http documents on loopback (local testing only)' },
  },
  positionals: { names: ['AGENT_URL'], min: 0, max: 1 },
  examples: ['agent-platform-conformance check-agent https://agents.example/a/alice'],
});

export const checkWidgetCommand = notYetAvailable({
  name: 'check-widget',
  summary: 'check a widget bundle',
  usage: 'FOLDER [--json]',
  description: 'Checks a widget bundle (spec 2.5, 4.4-4.6). JSON: { "valid", "errors": [{ "code", "path", "message" }], "csp": { "policy", "fallback" } }.',
  options: { json },
  positionals: { names: ['FOLDER'], min: 0, max: 1 },
  examples: ['agent-platform-conformance check-widget ./my-widget'],
});

