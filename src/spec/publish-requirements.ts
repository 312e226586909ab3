import type { RequirementRecord } from './types.js';

const r = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/** Steps 2 to 4 of the publish pipeline (4.5) and what 2.5 says they produce, as observed rules. */
export const PUBLISH_REQUIREMENTS = Object.freeze({
  agentSlug: r(
    'WIDGET-AGENT-SLUG',
    '4.5',
    'Publishing mints or reuses a dedicated agent whose slug has the form <prefix>-<userId6>-<bundleSlug>; a remix appends -r<N>.',
  ),
  functionSources: r('WIDGET-FUNCTION-SOURCES', '4.5', 'Publishing materialises a function source record for each tool of the manifest.'),
  agentHttpEndpoints: r(
    'WIDGET-AGENT-HTTP-ENDPOINTS',
    '4.5',
    "The agent configuration is stamped with custom HTTP endpoints: a tool whose _meta.platform.expose holds http answers on the agent's base path, /agents/<slug>/<path> (2.5, 4.1).",
  ),
  agentCustomTools: r(
    'WIDGET-AGENT-CUSTOM-TOOLS',
    '4.5',
    "The agent configuration is stamped with its functions and custom tools: a tool whose _meta.platform.expose holds tool is one of the agent's custom tools (2.5).",
  ),
  toolBilling: r(
    'WIDGET-TOOL-BILLING',
    '2.5',
    'A tool with _meta.platform.billing is billable and writes payment charges through the payment-token settlement; a tool without it is free and writes attribution rows only.',
  ),
  singleFileWrapped: r('WIDGET-SINGLE-FILE-WRAPPED', '2.5', 'A single HTML file is auto-wrapped into a one-child folder on publish.'),
});

export const PUBLISH_REQUIREMENT_LIST: readonly RequirementRecord[] = Object.freeze(Object.values(PUBLISH_REQUIREMENTS));
