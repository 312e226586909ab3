import { PLATFORM_ERROR_CODES } from '../reference/routes.js';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { WIDGET_ROUTES } from '../spec/publish.js';
import { REQUIREMENTS as R } from '../spec/requirements.js';
import { MCP_APP_MIME_TYPE, WIDGET_SDK } from '../spec/widgets.js';
import { WELL_KNOWN } from '../spec/wire.js';
import { jsonAnswer, jsonOf, pathOf, rewrite, setJson, setText, textOf, type OpenAnswer } from './answer.js';
import type { FaultRequest, Mutant } from './types.js';
import { MemoryPublishStore, type CatalogRecord } from '../widgets/publish/index.js';

/** A publish store that keeps the manifest snapshot with the schema version of its platform extension (9) as a string. */
class VersionStringStore extends MemoryPublishStore {
  override putCatalogRecord(record: CatalogRecord): void {
    const manifest = record.snapshot.manifest;
    const platform = { ...manifest._meta.platform, v: String(manifest._meta.platform.v) };
    const kept = { ...manifest, _meta: { ...manifest._meta, platform } } as unknown as typeof manifest;
    super.putCatalogRecord({ ...record, snapshot: { ...record.snapshot, manifest: kept } });
  }
}

/** Sections 2.4 (the platform's key directory), 2.5, 4.4 and 4.5: faults of the platform's documents and widget routes. */

const templateTest = (template: string) => new RegExp(`^${template.replace(/\{[A-Za-z]+\}/, '[^/]+').replace(/[.]/g, '\\.')}$`);
const PUBLISH = templateTest(WIDGET_ROUTES.publish);
const MCP = templateTest(WIDGET_ROUTES.mcp);
const publish = (r: FaultRequest) => PUBLISH.test(pathOf(r));
const mcp = (r: FaultRequest) => MCP.test(pathOf(r));
const catalog = (r: FaultRequest) => pathOf(r) === WELL_KNOWN.mcpWidgets;
const directory = (r: FaultRequest) => pathOf(r) === WELL_KNOWN.keyDirectory;
const ok = (a: OpenAnswer) => a.status >= 200 && a.status < 300;
const decoder = new TextDecoder();
const calls = (r: FaultRequest, method: string) => r.body !== null && decoder.decode(r.body).includes(`"method":"${method}"`);

function widgetsOf(a: OpenAnswer): unknown[] {
  const widgets = jsonOf(a)?.widgets;
  return Array.isArray(widgets) ? widgets : [];
}

let republished = 0;

export const WIDGET_MUTANTS: readonly Mutant[] = [
  {
    id: 'key-directory-plain-json',
    description: "the platform's key directory is labelled application/json",
    requirements: [R.keyDirectoryMediaType.id],
    platform: {
      answer: rewrite(
        (_a, r) => directory(r),
        (a) => a.headers.set(HEADERS.contentType, MEDIA_TYPES.json),
      ),
    },
  },
  {
    id: 'key-directory-duplicate-entry',
    description: "the platform's key directory lists a key twice",
    requirements: [R.keyDirectoryEntries.id],
    platform: {
      answer: rewrite(
        (a, r) => directory(r) && ok(a),
        (a) => setJson(a, { keys: [...((jsonOf(a)?.keys as unknown[]) ?? []), ...((jsonOf(a)?.keys as unknown[]) ?? []).slice(0, 1)] }),
      ),
    },
  },
  {
    id: 'key-directory-private-key',
    description: "the platform's key directory publishes a private key member",
    requirements: [R.keyDirectoryEntries.id],
    platform: {
      answer: rewrite(
        (a, r) => directory(r) && ok(a),
        (a) => setJson(a, { keys: ((jsonOf(a)?.keys as object[]) ?? []).map((k) => ({ ...k, d: 'AAAA' })) }),
      ),
    },
  },
  {
    id: 'widget-publish-fails',
    description: 'publishing a folder the caller owns answers 500',
    requirements: [R.widgetPublishAccepted.id],
    platform: {
      answer: rewrite(
        (a, r) => publish(r) && ok(a),
        (a) => {
          a.status = 500;
          setJson(a, { error: { code: PLATFORM_ERROR_CODES.internal, message: 'fault' } });
        },
      ),
    },
  },
  {
    id: 'widget-publish-ignores-ownership',
    description: 'a caller who does not own the folder publishes it',
    requirements: [R.widgetPublishOwnership.id],
    platform: {
      answer: rewrite(
        (a, r) => publish(r) && a.status >= 400 && a.status < 500,
        (a) => {
          a.status = 201;
          setJson(a, { postId: 'post_stolen' });
        },
      ),
    },
  },
  {
    id: 'widget-republish-new-post',
    description: 'every publish creates a new post instead of refreshing the listing in place',
    requirements: [R.widgetRepublishInPlace.id],
    platform: {
      answer: rewrite(
        (a, r) => publish(r) && ok(a),
        (a) => setJson(a, { ...jsonOf(a), postId: `${String(jsonOf(a)?.postId)}-${republished++}` }),
      ),
    },
  },
  {
    id: 'widget-catalog-duplicates-listing',
    description: 'the catalog lists every published widget twice',
    requirements: [R.widgetRepublishInPlace.id, R.widgetCatalogListing.id],
    platform: {
      answer: rewrite(
        (a, r) => catalog(r) && ok(a),
        (a) => setJson(a, { ...jsonOf(a), widgets: [...widgetsOf(a), ...widgetsOf(a)] }),
      ),
    },
  },
  {
    id: 'widget-catalog-empty',
    description: 'the catalog lists no widget',
    requirements: [R.widgetCatalogListing.id],
    platform: {
      answer: rewrite(
        (a, r) => catalog(r) && ok(a),
        (a) => setJson(a, { ...jsonOf(a), widgets: [] }),
      ),
    },
  },
  {
    id: 'widget-resource-plain-html',
    description: 'the ui:// resource is typed text/html instead of the MCP Apps type',
    requirements: [R.widgetMcpAppResource.id],
    platform: {
      answer: rewrite(
        (_a, r) => mcp(r),
        (a) => setText(a, textOf(a).split(MCP_APP_MIME_TYPE).join(MEDIA_TYPES.html)),
      ),
    },
  },
  {
    id: 'widget-sdk-not-injected',
    description: 'the served HTML entry loads an old widget SDK instead of /widgets/sdk.v2.js',
    requirements: [R.widgetSdkInjected.id],
    platform: {
      answer: rewrite(
        (_a, r) => mcp(r),
        (a) => setText(a, textOf(a).split(WIDGET_SDK.path).join('/widgets/sdk.v1.js')),
      ),
    },
  },
  {
    id: 'widget-sdk-served-as-text',
    description: 'the widget SDK is served as application/json instead of JavaScript',
    requirements: [R.widgetSdkServed.id],
    platform: {
      answer: rewrite(
        (a, r) => pathOf(r) === WIDGET_SDK.path && ok(a),
        (a) => a.headers.set(HEADERS.contentType, MEDIA_TYPES.json),
      ),
    },
  },
  {
    id: 'widget-sdk-missing',
    description: 'the widget SDK path answers 404',
    requirements: [R.widgetSdkServed.id],
    platform: {
      answer: rewrite(
        (_a, r) => pathOf(r) === WIDGET_SDK.path,
        (a) => jsonAnswer(a, 404, { error: { code: PLATFORM_ERROR_CODES.notFound, message: 'No route.' } }),
      ),
    },
  },
  {
    id: 'widget-visibility-default-only',
    description: 'every tool is listed with the default visibility [app]',
    requirements: [R.widgetMcpToolVisibility.id],
    platform: {
      answer: rewrite(
        (_a, r) => mcp(r) && calls(r, 'tools/list'),
        (a) => setText(a, textOf(a).replace(/"visibility":\[[^\]]*\]/g, '"visibility":["app"]')),
      ),
    },
  },
  {
    id: 'widget-tool-call-errors',
    description: 'every tools/call answers a tool error',
    requirements: [R.widgetMcpToolCall.id],
    platform: {
      answer: rewrite(
        (_a, r) => mcp(r) && calls(r, 'tools/call'),
        (a) => setText(a, textOf(a).replace(/"content":\[/g, '"isError":true,"content":[')),
      ),
    },
  },
  {
    id: 'widget-schema-version-stringified',
    description: 'the publish store keeps the manifest with _meta.platform.v as the string "1", so the MCP App carries no integer schema version',
    requirements: [R.widgetMcpAppSchemaVersion.id],
    platform: { widgets: (o) => ({ ...o, store: new VersionStringStore() }) },
  },
];
