import type { CatalogEntry } from '../reference/widgets/catalog-route.js';
import type { WidgetServiceOptions } from '../reference/widgets/service.js';
import { BRIDGE_ERRORS } from '../spec/bridge-errors.js';
import { LIMITS } from '../spec/limits.js';
import { FUNCTION_SOURCE_WITHIN_BYTES } from '../spec/readings/widgets.js';
import { PUBLISH_RULES } from '../widgets/publish/index.js';
import { BUNDLE_REQUIREMENTS as B } from '../spec/publish-requirements.js';
import { REQUIREMENTS as R } from '../spec/requirements.js';
import { WIDGET_PROBLEMS } from '../spec/widgets.js';
import type { Variant } from './types.js';

const widgets =
  (change: (o: WidgetServiceOptions) => Partial<WidgetServiceOptions>) =>
  (o: WidgetServiceOptions): WidgetServiceOptions => ({ ...o, ...change(o) });

/** Every requirement whose checks send a function source near the 64 KB limit (READING-FUNCTION-SOURCE-KB). */
const SOURCE_LIMIT = [LIMITS.functionSourceSize.id, BRIDGE_ERRORS.FN_NOT_FOUND.id, BRIDGE_ERRORS.CODE_TOO_LARGE.id];

/** Every requirement whose checks read the catalog (READING-CATALOG-SHAPE). */
const CATALOG_READERS = [
  R.widgetCatalogListing.id,
  R.widgetRepublishInPlace.id,
  R.widgetPublishOwnership.id,
  WIDGET_PROBLEMS.manifestMissing.id,
  WIDGET_PROBLEMS.manifestNotJson.id,
  WIDGET_PROBLEMS.manifestInvalid.id,
  B.catalogIcon.id,
  B.catalogDescription.id,
];

/** An entry as another platform might write it: other member names, the MCP endpoint as a path, the post id nested. */
const otherEntry = (e: CatalogEntry) => ({
  title: e.name,
  summary: e.description,
  post: { id: e.postId },
  endpoint: new URL(e.mcp).pathname,
  icon: e.iconRef,
});

/** Sections 2.5, 4.4 to 4.6 and 7.1: the reference making another choice the spec allows. */
export const WIDGET_VARIANTS: readonly Variant[] = [
  {
    id: 'widget-sdk-shim-named-chatgpt',
    description: "names the widget SDK's ChatGPT-style shim global chatgpt (no openai, no bare callTool): 4.6 does not name it",
    readings: ['bridgeWire'],
    requirements: [R.widgetBridgeSurfaces.id],
    platform: {
      widgets: widgets(() => ({
        sdkSource: (source: string) => `${source}\n;window.chatgpt = { callTool: window.openai.callTool }; delete window.openai; delete window.callTool;\n`,
      })),
    },
  },
  {
    id: 'widget-source-limit-decimal-kb',
    description: 'reads "64 KB" as 64,000 bytes: a function source of 64,001 bytes or more is refused, at publish and by host.fn',
    readings: ['functionSourceKb'],
    requirements: SOURCE_LIMIT,
    platform: {
      widgets: widgets((o) => ({
        rules: { ...PUBLISH_RULES, maxSourceBytes: FUNCTION_SOURCE_WITHIN_BYTES },
        host: { ...(o.host || {}), limits: { ...(o.host ? o.host.limits : {}), functionSourceBytes: FUNCTION_SOURCE_WITHIN_BYTES } },
      })),
    },
  },
  {
    id: 'widget-oversized-source-refuses-publish',
    description: 'refuses the whole publish (422 CODE_TOO_LARGE) when a tool source is over 64 KB, instead of publishing the widget without that function',
    readings: ['functionSourceKb'],
    requirements: SOURCE_LIMIT,
    platform: { widgets: widgets(() => ({ rules: { ...PUBLISH_RULES, oversizedSource: 'publish' } })) },
  },
  {
    id: 'widget-app-without-platform-meta',
    description: "exposes a widget's MCP App without the manifest's _meta.platform (9 makes v a field of widget.json only)",
    readings: ['mcpAppPlatformMeta'],
    requirements: [R.widgetMcpAppSchemaVersion.id, R.widgetMcpAppResource.id],
    platform: { widgets: widgets(() => ({ appPlatformMeta: false })) },
  },
  {
    id: 'widget-catalog-bare-array',
    description: 'answers the catalog as a bare array of entries with other member names, each naming its MCP endpoint by path and its post id nested',
    readings: ['catalogShape'],
    requirements: CATALOG_READERS,
    platform: { widgets: widgets(() => ({ catalogShape: (entries) => entries.map(otherEntry) })) },
  },
  {
    id: 'widget-catalog-keyed-by-post',
    description:
      'answers the catalog as { data: { items: { <postId>: entry } } }, entries keyed by post id and naming neither the post nor the endpoint inside',
    readings: ['catalogShape'],
    requirements: CATALOG_READERS,
    platform: {
      widgets: widgets(() => ({
        catalogShape: (entries) => ({
          data: { items: Object.fromEntries(entries.map((e) => [e.postId, { title: e.name, summary: e.description, icon: e.iconRef }])) },
        }),
      })),
    },
  },
  {
    id: 'widget-host-refuses-link-as-invalid-args',
    description: 'refuses a bridge.openLink URL off the redirectDomains allowlist with invalid_args, judging the URL as an argument',
    readings: ['openLinkGate'],
    requirements: [R.widgetOpenLinkRedirectDomains.id],
    platform: {
      widgets: (o: WidgetServiceOptions): WidgetServiceOptions => ({ ...o, host: { ...(o.host || {}), openLinkRefusal: BRIDGE_ERRORS.invalid_args.code } }),
    },
  },
];
