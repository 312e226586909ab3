import { WIDGET_PROBLEMS } from '../../spec/widgets.js';

export interface ExpectedProblem {
  readonly code: string;
  readonly path: string;
}

export interface ManifestScenario {
  readonly id: string;
  readonly comment: string;
  /** The widget.json text. */
  readonly manifest: string;
  readonly errors: readonly ExpectedProblem[];
  /** For a valid manifest: the manifest with every default applied, written out by hand. */
  readonly normalized?: unknown;
  readonly flags: readonly string[];
}

const invalid = (...paths: string[]): ExpectedProblem[] => paths.map((path) => ({ code: WIDGET_PROBLEMS.manifestInvalid.code, path }));
const json = (value: unknown): string => JSON.stringify(value, null, 2);

const EMPTY_CSP = { connectDomains: [], resourceDomains: [], frameDomains: [], redirectDomains: [] };

export const MANIFEST_SCENARIOS: readonly ManifestScenario[] = [
  {
    id: 'minimal-defaults',
    comment: 'name and version only: every default of 2.5 applied',
    manifest: json({ name: 'counter', version: '1.0.0' }),
    errors: [],
    normalized: {
      name: 'counter',
      version: '1.0.0',
      _meta: { ui: { resourceUri: 'index.html', mimeType: 'text/html', csp: EMPTY_CSP, permissions: [] }, platform: { v: 1 } },
      tools: [],
    },
    flags: ['Valid', 'Defaults'],
  },
  {
    id: 'tool-defaults',
    comment: 'a tool with a name only: visibility [app], file tools/<name>.js, runtime node20, no exposure',
    manifest: json({ name: 'calc', version: '2', description: 'A calculator', tools: [{ name: 'add', description: 'adds', inputSchema: { type: 'object' } }] }),
    errors: [],
    normalized: {
      name: 'calc',
      version: '2',
      description: 'A calculator',
      _meta: { ui: { resourceUri: 'index.html', mimeType: 'text/html', csp: EMPTY_CSP, permissions: [] }, platform: { v: 1 } },
      tools: [
        {
          name: 'add',
          description: 'adds',
          inputSchema: { type: 'object' },
          _meta: { ui: { visibility: ['app'] }, platform: { file: 'tools/add.js', runtime: 'node20', expose: [] } },
        },
      ],
    },
    flags: ['Valid', 'Defaults'],
  },
  {
    id: 'everything',
    comment: 'every field of 2.5 given; a leading ./ is dropped from paths',
    manifest: json({
      name: 'shop',
      version: '3.1.0',
      description: 'A shop',
      _meta: {
        ui: {
          resourceUri: './app/main.html',
          mimeType: 'text/html',
          csp: {
            connectDomains: ['api.example.com'],
            resourceDomains: ['cdn.example.com'],
            frameDomains: ['pay.example.com'],
            redirectDomains: ['docs.example.com'],
          },
          permissions: ['clipboard-write', 'camera'],
        },
        platform: { v: 1, iconRef: 'icon.png', themeRef: 'theme.css', remixOf: 'post-123' },
        'com.example/other': { kept: false },
      },
      tools: [
        {
          name: 'buy',
          description: 'buys',
          inputSchema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
          _meta: {
            ui: { visibility: ['app', 'model', 'user'] },
            platform: { file: 'fn/buy.mjs', runtime: 'node22', expose: ['http', 'tool'], billing: { currency: 'USD', amountNanocents: 2500000 } },
          },
        },
      ],
    }),
    errors: [],
    normalized: {
      name: 'shop',
      version: '3.1.0',
      description: 'A shop',
      _meta: {
        ui: {
          resourceUri: 'app/main.html',
          mimeType: 'text/html',
          csp: {
            connectDomains: ['api.example.com'],
            resourceDomains: ['cdn.example.com'],
            frameDomains: ['pay.example.com'],
            redirectDomains: ['docs.example.com'],
          },
          permissions: ['clipboard-write', 'camera'],
        },
        platform: { v: 1, iconRef: 'icon.png', themeRef: 'theme.css', remixOf: 'post-123' },
      },
      tools: [
        {
          name: 'buy',
          description: 'buys',
          inputSchema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
          _meta: {
            ui: { visibility: ['app', 'model', 'user'] },
            platform: { file: 'fn/buy.mjs', runtime: 'node22', expose: ['http', 'tool'], billing: { currency: 'USD', amountNanocents: 2500000 } },
          },
        },
      ],
    },
    flags: ['Valid'],
  },
  {
    id: 'bad-domains-still-parse',
    comment: 'the schema checks the lists hold strings; whether they are bare domains is the CSP rule, which falls back',
    manifest: json({ name: 'w', version: '1', _meta: { ui: { csp: { connectDomains: ['*', '127.0.0.1'] } } } }),
    errors: [],
    normalized: {
      name: 'w',
      version: '1',
      _meta: {
        ui: { resourceUri: 'index.html', mimeType: 'text/html', csp: { ...EMPTY_CSP, connectDomains: ['*', '127.0.0.1'] }, permissions: [] },
        platform: { v: 1 },
      },
      tools: [],
    },
    flags: ['Valid', 'Fallback'],
  },
  {
    id: 'not-json',
    comment: 'a truncated document',
    manifest: '{"name": "w", "version": "1"',
    errors: [{ code: WIDGET_PROBLEMS.manifestNotJson.code, path: 'widget.json' }],
    flags: ['Syntax'],
  },
  {
    id: 'not-an-object',
    comment: 'a list at the root',
    manifest: '[]',
    errors: [{ code: WIDGET_PROBLEMS.manifestInvalid.code, path: 'widget.json' }],
    flags: ['Shape'],
  },
  {
    id: 'missing-name-version',
    comment: 'name and version are required',
    manifest: json({ description: 'x' }),
    errors: invalid('/name', '/version'),
    flags: ['Shape'],
  },
  {
    id: 'version-number',
    comment: 'version is a string (section 9)',
    manifest: json({ name: 'w', version: 1 }),
    errors: invalid('/version'),
    flags: ['Shape'],
  },
  {
    id: 'schema-version-2',
    comment: '_meta.platform.v must be 1',
    manifest: json({ name: 'w', version: '1', _meta: { platform: { v: 2 } } }),
    errors: invalid('/_meta/platform/v'),
    flags: ['Shape'],
  },
  {
    id: 'mcp-apps-mime-type',
    comment: 'the MCP Apps resource type belongs to the resource the platform serves, not to widget.json',
    manifest: json({ name: 'w', version: '1', _meta: { ui: { mimeType: 'text/html;profile=mcp-app' } } }),
    errors: invalid('/_meta/ui/mimeType'),
    flags: ['McpAppsField'],
  },
  {
    id: 'mcp-apps-base-uri',
    comment: 'baseUriDomains is MCP Apps, not 2.5',
    manifest: json({ name: 'w', version: '1', _meta: { ui: { csp: { baseUriDomains: ['example.com'] } } } }),
    errors: invalid('/_meta/ui/csp/baseUriDomains'),
    flags: ['McpAppsField'],
  },
  {
    id: 'mcp-apps-permissions-object',
    comment: 'MCP Apps writes permissions as an object; 2.5 as a list of names',
    manifest: json({ name: 'w', version: '1', _meta: { ui: { permissions: { clipboardWrite: {} } } } }),
    errors: invalid('/_meta/ui/permissions'),
    flags: ['McpAppsField'],
  },
  {
    id: 'mcp-apps-domain',
    comment: "the sandbox origin is the platform's choice",
    manifest: json({ name: 'w', version: '1', _meta: { ui: { domain: 'w.example.com' } } }),
    errors: invalid('/_meta/ui/domain'),
    flags: ['McpAppsField'],
  },
  {
    id: 'list-not-array',
    comment: 'a CSP list written as one string',
    manifest: json({ name: 'w', version: '1', _meta: { ui: { csp: { connectDomains: 'api.example.com' } } } }),
    errors: invalid('/_meta/ui/csp/connectDomains'),
    flags: ['Shape'],
  },
  {
    id: 'misspelt-platform-member',
    comment: 'unknown members of _meta.platform are refused',
    manifest: json({ name: 'w', version: '1', _meta: { platform: { icon: 'i.png' } } }),
    errors: invalid('/_meta/platform/icon'),
    flags: ['Shape'],
  },
  {
    id: 'unsafe-paths',
    comment: 'paths stay inside the folder: no URL, no leading /, no ..',
    manifest: json({
      name: 'w',
      version: '1',
      _meta: { ui: { resourceUri: 'ui://w/index.html' }, platform: { iconRef: '/icon.png', themeRef: '../theme.css' } },
      tools: [{ name: 'a', _meta: { platform: { file: 'tools/../../a.js' } } }],
    }),
    errors: invalid('/_meta/ui/resourceUri', '/_meta/platform/iconRef', '/_meta/platform/themeRef', '/tools/0/_meta/platform/file'),
    flags: ['Shape'],
  },
  {
    id: 'tool-problems',
    comment: 'visibility, expose, runtime, billing and the inputSchema type, each at its pointer',
    manifest: json({
      name: 'w',
      version: '1',
      tools: [
        {
          name: 'a',
          inputSchema: { type: 'array' },
          _meta: { ui: { visibility: ['agent'] }, platform: { expose: ['mcp'], runtime: 'Node 20', billing: { currency: 'USD', amountNanocents: 1.5 } } },
        },
      ],
    }),
    errors: invalid(
      '/tools/0/inputSchema/type',
      '/tools/0/_meta/ui/visibility/0',
      '/tools/0/_meta/platform/runtime',
      '/tools/0/_meta/platform/expose/0',
      '/tools/0/_meta/platform/billing/amountNanocents',
    ),
    flags: ['Shape'],
  },
  {
    id: 'tool-name',
    comment: 'a tool needs a name that can name its source file',
    manifest: json({ name: 'w', version: '1', tools: [{ description: 'no name' }, { name: '../escape' }] }),
    errors: invalid('/tools/0/name', '/tools/1/name'),
    flags: ['Shape'],
  },
  {
    id: 'duplicate-tool',
    comment: 'tool names are unique',
    manifest: json({ name: 'w', version: '1', tools: [{ name: 'a' }, { name: 'a' }] }),
    errors: invalid('/tools/1/name'),
    flags: ['Shape'],
  },
  {
    id: 'duplicate-visibility',
    comment: 'visibility is a set',
    manifest: json({ name: 'w', version: '1', tools: [{ name: 'a', _meta: { ui: { visibility: ['app', 'app'] } } }] }),
    errors: invalid('/tools/0/_meta/ui/visibility'),
    flags: ['Shape'],
  },
];
