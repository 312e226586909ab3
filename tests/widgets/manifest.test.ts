import mcpAppsSchema from '@modelcontextprotocol/ext-apps/schema.json' with { type: 'json' };
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { WIDGET_MANIFEST, WIDGET_PROBLEMS } from '../../src/spec/widgets.js';
import { parseManifest, toMcpAppsResourceMeta, toMcpAppsToolMeta, WIDGET_MANIFEST_SCHEMA } from '../../src/widgets/manifest/index.js';
import type { WidgetManifest } from '../../src/widgets/manifest/index.js';

const parseOk = (value: unknown): WidgetManifest => {
  const r = parseManifest(JSON.stringify(value));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.manifest;
};
const problems = (value: unknown) => {
  const r = parseManifest(typeof value === 'string' ? value : JSON.stringify(value));
  return r.ok ? [] : r.errors;
};

describe('parseManifest', () => {
  test('applies the defaults of 2.5 from the catalogue', () => {
    const m = parseOk({ name: 'w', version: '1', tools: [{ name: 'add' }] });
    expect(m._meta.ui.resourceUri).toBe(WIDGET_MANIFEST.defaultEntry);
    expect(m._meta.platform.v).toBe(WIDGET_MANIFEST.schemaVersion);
    expect(m.tools[0]!._meta.ui.visibility).toEqual(WIDGET_MANIFEST.defaultVisibility);
    expect(m.tools[0]!._meta.platform.file).toBe(WIDGET_MANIFEST.defaultToolFile('add'));
    expect(m.tools[0]!._meta.platform.runtime).toBe(WIDGET_MANIFEST.defaultRuntime);
  });

  test('a syntax error names line and column', () => {
    expect(problems('{\n  "name": "w",\n  "version": 1,\n}')).toEqual([
      {
        code: WIDGET_PROBLEMS.manifestNotJson.code,
        path: WIDGET_MANIFEST.fileName,
        message: expect.stringMatching(/^is not valid JSON at line 4, column 1: /),
      },
    ]);
  });

  test('messages say what to do, naming the MCP Apps forms an author may bring', () => {
    const errors = problems({
      name: 'w',
      version: '1',
      _meta: { ui: { csp: { baseUriDomains: [], connectDomain: [] }, permissions: { camera: {} } } },
      tools: [{ name: 'a', _meta: { ui: { visibility: ['agent'] } } }],
    });
    const at = (path: string) => errors.find((e) => e.path === path)?.message;
    expect(at('/_meta/ui/csp/baseUriDomains')).toMatch(/MCP Apps member .* remove it/);
    expect(at('/_meta/ui/csp/connectDomain')).toBe('is not a member here (did you mean "connectDomains"?)');
    expect(at('/_meta/ui/permissions')).toMatch(/list of permission names such as \["clipboard-write"\]/);
    expect(at('/tools/0/_meta/ui/visibility/0')).toBe('"agent" is not a visibility: use "app", "model", "user"');
    expect(errors.every((e) => e.code === WIDGET_PROBLEMS.manifestInvalid.code)).toBe(true);
  });

  test('an inputSchema that is not valid JSON Schema is reported at its pointer', () => {
    expect(problems({ name: 'w', version: '1', tools: [{ name: 'a', inputSchema: { type: 'object', properties: 5 } }] })).toEqual([
      { code: WIDGET_PROBLEMS.manifestInvalid.code, path: '/tools/0/inputSchema/properties', message: expect.stringMatching(/^is not valid JSON Schema: /) },
    ]);
  });

  test('never throws, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const r = parseManifest(text);
          if (!r.ok) for (const e of r.errors) expect(e.path === WIDGET_MANIFEST.fileName || e.path.startsWith('/')).toBe(true);
        },
      ),
    );
  });

  test("the schema refers into MCP Apps' published schema for the CSP lists and tool visibility", () => {
    const text = JSON.stringify(WIDGET_MANIFEST_SCHEMA);
    expect(text).toContain(`${mcpAppsSchema.$id}#/$defs/McpUiResourceCsp/properties/connectDomains`);
    expect(text).toContain(`${mcpAppsSchema.$id}#/$defs/McpUiToolVisibility`);
  });
});

describe('MCP Apps metadata for a published widget', () => {
  const manifest = parseOk({
    name: 'w',
    version: '1',
    _meta: {
      ui: {
        csp: { connectDomains: ['api.example.com'], resourceDomains: ['cdn.example.com'], redirectDomains: ['docs.example.com'] },
        permissions: ['clipboard-write', 'fullscreen'],
      },
    },
    tools: [{ name: 'a', _meta: { ui: { visibility: ['user', 'model'] } } }],
  });

  test('bare domains become origins, redirectDomains and unknown permissions stay out', () => {
    expect(toMcpAppsResourceMeta(manifest)).toEqual({
      csp: { connectDomains: ['https://api.example.com', 'wss://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { clipboardWrite: {} },
    });
  });

  test('a bundle that falls back declares no lists', () => {
    const m = parseOk({ name: 'w', version: '1', _meta: { ui: { csp: { connectDomains: ['api.example.com', '*'] } } } });
    expect(toMcpAppsResourceMeta(m).csp).toEqual({});
  });

  test('tool visibility is written out, without user', () => {
    expect(toMcpAppsToolMeta(manifest.tools[0]!, 'ui://w/index.html')).toEqual({ resourceUri: 'ui://w/index.html', visibility: ['model'] });
    expect(() => toMcpAppsToolMeta(manifest.tools[0]!, 'index.html')).toThrow(/ui:\/\//);
  });
});
