import { WIDGET_MANIFEST } from '../../spec/widgets.js';

/** The $id of MCP Apps' published JSON Schema (@modelcontextprotocol/ext-apps/schema.json), which ours refers into. */
export const MCP_APPS_SCHEMA_ID = 'https://modelcontextprotocol.io/ext-apps/schema.json';
export const WIDGET_MANIFEST_SCHEMA_ID = 'urn:agent-platform-interface:widget-manifest:v1';

const mcpApps = (pointer: string) => ({ $ref: `${MCP_APPS_SCHEMA_ID}#${pointer}` });

/** Folder-relative, '/'-separated, an optional leading './', no '..' or '.' segments, no scheme, query or backslash. */
export const RELATIVE_PATH_PATTERN = String.raw`^(?:\./)?(?!/)(?!(?:.*/)?\.\.?(?:/|$))(?!.*//)[^\\:?#\u0000-\u001f]+$`;
const TOOL_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$';
const PERMISSION_PATTERN = '^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$';

const relativePath = (example: string, extra: Record<string, unknown> = {}) => ({
  type: 'string',
  minLength: 1,
  pattern: RELATIVE_PATH_PATTERN,
  'x-hint': `must be a path relative to the bundle folder with '/' separators, such as ${example} (no URL, no leading '/', no '..')`,
  ...extra,
});

/**
 * JSON Schema 2020-12 for widget.json, exactly the fields of spec 2.5. The parts that are MCP Apps' own
 * are taken from @modelcontextprotocol/ext-apps's schema by $ref (the CSP lists and the tool visibility
 * values); where the platform extends or departs from MCP Apps the schema says so:
 * - `_meta.ui.visibility` also takes `user`, and defaults to [app] (MCP Apps: model and app only, default both);
 * - the CSP lists hold bare domains, not origins, and `redirectDomains` (the openLink allowlist) is ours;
 *   MCP Apps' `baseUriDomains` is not part of widget.json (base-uri stays 'self');
 * - `_meta.ui.permissions` is a list of permission names, where MCP Apps has an object of empty objects;
 * - `_meta.ui.resourceUri` is a folder-relative path and `_meta.ui.mimeType` text/html; MCP Apps puts a
 *   ui:// URI on each tool and the mimeType text/html;profile=mcp-app on the resource;
 * - `_meta.platform` is ours entirely (schema version, icon, theme, remix note, and per tool its source
 *   file, runtime, exposure and billing).
 * Members 2.5 does not name are refused inside `_meta.ui`, `_meta.platform` and their tool counterparts (a
 * misspelt platform member would otherwise change behaviour silently) and allowed elsewhere, as in MCP.
 * `x-hint` is an annotation: the plain-words message for a value that fails its pattern or constant.
 */
export const WIDGET_MANIFEST_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: WIDGET_MANIFEST_SCHEMA_ID,
  title: 'widget.json',
  description: 'Widget manifest of the Agent Platform Interface, section 2.5: an MCP Apps (SEP-1865) manifest with a platform extension under _meta.',
  type: 'object',
  required: ['name', 'version'],
  properties: {
    name: { type: 'string', minLength: 1 },
    version: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    _meta: {
      type: 'object',
      properties: {
        ui: { $ref: '#/$defs/ui' },
        platform: { $ref: '#/$defs/platform' },
      },
    },
    tools: { type: 'array', items: { $ref: '#/$defs/tool' }, default: [] },
  },
  $defs: {
    ui: {
      type: 'object',
      additionalProperties: false,
      properties: {
        resourceUri: relativePath(WIDGET_MANIFEST.defaultEntry, { default: WIDGET_MANIFEST.defaultEntry }),
        mimeType: {
          const: WIDGET_MANIFEST.mimeType,
          default: WIDGET_MANIFEST.mimeType,
          'x-hint': `must be "${WIDGET_MANIFEST.mimeType}" (the platform itself serves the entry as text/html;profile=mcp-app to MCP clients)`,
        },
        csp: {
          type: 'object',
          additionalProperties: false,
          properties: {
            connectDomains: mcpApps('/$defs/McpUiResourceCsp/properties/connectDomains'),
            resourceDomains: mcpApps('/$defs/McpUiResourceCsp/properties/resourceDomains'),
            frameDomains: mcpApps('/$defs/McpUiResourceCsp/properties/frameDomains'),
            redirectDomains: {
              description:
                'Platform extension (ChatGPT redirect_domains, MCP Apps proposal linkTrustedDomains): domains bridge.openLink opens without its gate.',
              type: 'array',
              items: { type: 'string' },
            },
          },
        },
        permissions: {
          type: 'array',
          uniqueItems: true,
          items: {
            type: 'string',
            pattern: PERMISSION_PATTERN,
            'x-hint': 'must be a browser permission name in Permissions Policy form, such as clipboard-write, camera or geolocation',
          },
          default: [],
        },
      },
    },
    platform: {
      type: 'object',
      additionalProperties: false,
      properties: {
        v: {
          const: WIDGET_MANIFEST.schemaVersion,
          default: WIDGET_MANIFEST.schemaVersion,
          'x-hint': `must be ${WIDGET_MANIFEST.schemaVersion}, the manifest schema version this checker knows (spec section 9)`,
        },
        iconRef: relativePath('icon.png'),
        themeRef: relativePath('theme.css'),
        remixOf: { type: 'string' },
      },
    },
    tool: {
      type: 'object',
      required: ['name'],
      properties: {
        name: {
          type: 'string',
          pattern: TOOL_NAME_PATTERN,
          'x-hint': "must be 1 to 128 letters, digits, '_', '.' or '-', starting with a letter or digit (it also names tools/<name>.js)",
        },
        description: { type: 'string' },
        inputSchema: {
          type: 'object',
          properties: { type: { const: 'object', 'x-hint': 'must be "object": a tool takes its arguments as one object' } },
        },
        _meta: {
          type: 'object',
          properties: {
            ui: {
              type: 'object',
              additionalProperties: false,
              properties: {
                visibility: {
                  type: 'array',
                  uniqueItems: true,
                  items: { anyOf: [mcpApps('/$defs/McpUiToolVisibility'), { const: 'user', description: 'Platform extension: human tool palettes.' }] },
                  default: WIDGET_MANIFEST.defaultVisibility,
                },
              },
            },
            platform: {
              type: 'object',
              additionalProperties: false,
              properties: {
                file: relativePath('tools/<name>.js'),
                runtime: {
                  type: 'string',
                  pattern: '^[a-z][a-z0-9._-]*$',
                  default: WIDGET_MANIFEST.defaultRuntime,
                  'x-hint': `must be a runtime name such as ${WIDGET_MANIFEST.defaultRuntime}`,
                },
                expose: { type: 'array', uniqueItems: true, items: { enum: WIDGET_MANIFEST.exposes }, default: [] },
                billing: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['currency', 'amountNanocents'],
                  properties: {
                    currency: { type: 'string', minLength: 1 },
                    amountNanocents: { type: 'integer', minimum: 0 },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;
