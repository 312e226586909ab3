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

/** What 2.5 says of a bundle's manifest fields, as a deployment shows them (the sandbox, the catalog, the MCP App). */
export const BUNDLE_REQUIREMENTS = Object.freeze({
  cspResourceDomains: r(
    'WIDGET-CSP-RESOURCE-DOMAINS',
    '2.5',
    'The sandbox renders a widget with its _meta.ui.csp.resourceDomains in script-src, style-src and img-src: a script, a stylesheet and an image from a listed domain load, and from any other domain they are blocked.',
  ),
  cspFrameDomains: r(
    'WIDGET-CSP-FRAME-DOMAINS',
    '2.5',
    'The sandbox renders a widget with its _meta.ui.csp.frameDomains in frame-src: a frame from a listed domain loads, and one from any other domain is blocked.',
  ),
  catalogIcon: r(
    'WIDGET-CATALOG-ICON',
    '2.5',
    'The catalog shows the icon _meta.platform.iconRef names ("path to the icon shown on post cards and in the catalog").',
  ),
  catalogDescription: r('WIDGET-CATALOG-DESCRIPTION', '2.5', 'The catalog shows the manifest\'s description ("short summary shown in the catalog").'),
  remixOfInformational: r(
    'WIDGET-REMIX-OF-INFORMATIONAL',
    '2.5',
    "A manifest's _meta.platform.remixOf is informational only: naming another widget there does not make the publish a remix (no -r<N> slug); lineage is the catalog record's.",
  ),
  toolVisibility: r(
    'WIDGET-TOOL-VISIBILITY-APP-ONLY',
    '2.5',
    'A tool whose _meta.ui.visibility lacks model (the default [app]: only the widget UI may invoke) is not offered to a model: an MCP client that does not render apps either is not listed it, or is listed it with its visibility written out without model.',
  ),
  toolVisibilityApp: r(
    'WIDGET-TOOL-VISIBILITY-WIDGET',
    '2.5',
    'Only a tool whose _meta.ui.visibility holds app may be invoked by the widget UI: bridge.callTool of a tool whose visibility lacks app (such as [model]) rejects, and the tool does not run.',
  ),
  resourceUri: r(
    'WIDGET-RESOURCE-URI',
    '2.5',
    'A widget whose _meta.ui.resourceUri names another HTML file than index.html is served with that file as its entry.',
  ),
  toolFile: r('WIDGET-TOOL-FILE', '2.5', 'A tool whose _meta.platform.file names its source at another path than tools/<name>.js runs that source.'),
  mcpToolSchema: r(
    'WIDGET-MCP-TOOL-SCHEMA',
    '4.4',
    "tools/list on a widget's MCP App gives each tool the description and the inputSchema its manifest declares (2.5).",
  ),
  schemaVersionOne: Object.freeze({
    id: 'WIDGET-MANIFEST-SCHEMA-VERSION',
    section: '9',
    level: 'SHOULD',
    condition: 'A manifest whose _meta.platform.v is an integer other than 1, the current schema version, is refused at publish.',
  } satisfies RequirementRecord),
});

export const PUBLISH_REQUIREMENT_LIST: readonly RequirementRecord[] = Object.freeze([
  ...Object.values(PUBLISH_REQUIREMENTS),
  ...Object.values(BUNDLE_REQUIREMENTS),
]);
