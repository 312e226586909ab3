import { WIDGET_MANIFEST, WIDGET_PROBLEMS } from '../spec/widgets.js';
import { BRIDGE_ERRORS } from '../spec/bridge-errors.js';
import { WIDGET_AGENT_SLUG, WIDGET_ROUTES } from '../spec/publish.js';
import { LIMITS } from '../spec/limits.js';
import { FUNCTION_SOURCE_WITHIN_BYTES } from '../spec/readings/widgets.js';
import { BUNDLE_REQUIREMENTS as B, PUBLISH_REQUIREMENTS as P } from '../spec/publish-requirements.js';
import { REQUIREMENTS as R } from '../spec/requirements.js';
import { isBareDomain } from '../widgets/csp/bare-domain.js';
import {
  agentSlug,
  bundleSlug,
  MemoryPublishStore,
  PUBLISH_RULES,
  wrapSingleFile,
  type AgentRecord,
  type CatalogRecord,
  type FunctionSourceRecord,
  type PublishRules,
} from '../widgets/publish/index.js';
import { pathOf, rewrite, setText, textOf } from './answer.js';
import type { Mutant, PlatformFault } from './types.js';

/** Sections 2.5 and 4.5: faults of the publish pipeline where it decides, and of the records it writes. */

/** The widget service with one of the pipeline's decisions changed. */
const rules = (changed: Partial<PublishRules>): PlatformFault => ({ widgets: (o) => ({ ...o, rules: { ...PUBLISH_RULES, ...changed } }) });
/** The widget service over a store that writes its records wrongly. */
const store = (make: () => MemoryPublishStore): PlatformFault => ({ widgets: (o) => ({ ...o, store: make() }) });

/** A manifest the platform makes up for a folder it should have refused. */
const MADE_UP_MANIFEST = JSON.stringify({
  name: 'Untitled widget',
  version: '1.0.0',
  _meta: { ui: { resourceUri: WIDGET_MANIFEST.defaultEntry }, platform: { v: WIDGET_MANIFEST.schemaVersion } },
  tools: [],
});
const encoder = new TextEncoder();
const HTML = /\.html?$/i;

class FirstSourceOnlyStore extends MemoryPublishStore {
  override replaceFunctionSources(agentId: string, records: readonly FunctionSourceRecord[]): void {
    super.replaceFunctionSources(agentId, records.slice(0, 1));
  }
}

class ConfigurationLosingStore extends MemoryPublishStore {
  constructor(private readonly lose: 'httpEndpoints' | 'customTools') {
    super();
  }

  override putAgent(record: AgentRecord): void {
    super.putAgent({ ...record, configuration: { ...record.configuration, [this.lose]: [] } });
  }
}

/** Drops the rejected CSP entries one by one instead of falling back to the default policy for the whole bundle. */
class CspFilteringStore extends MemoryPublishStore {
  override putCatalogRecord(record: CatalogRecord): void {
    const manifest = record.snapshot.manifest;
    const ui = manifest._meta.ui;
    const csp = Object.fromEntries(
      Object.entries(ui.csp).map(([list, domains]) => [list, (domains as readonly string[]).filter((d) => isBareDomain(d))]),
    ) as unknown as typeof ui.csp;
    const kept = { ...manifest, _meta: { ...manifest._meta, ui: { ...ui, csp } } };
    super.putCatalogRecord({ ...record, snapshot: { ...record.snapshot, manifest: kept } });
  }
}

/** Writes the catalog record without a field 2.5 says the catalog shows. */
class CatalogFieldLosingStore extends MemoryPublishStore {
  constructor(private readonly lose: 'iconRef' | 'description') {
    super();
  }

  override putCatalogRecord(record: CatalogRecord): void {
    super.putCatalogRecord({ ...record, ...(this.lose === 'iconRef' ? { iconRef: null } : { description: '' }) });
  }
}

type RawManifest = {
  _meta?: { ui?: Record<string, unknown>; platform?: Record<string, unknown> };
  tools?: Array<{ _meta?: { ui?: Record<string, unknown>; platform?: Record<string, unknown> } }>;
};

/** A manifest parse that does not check one field: `repair` makes it valid before the real parse runs. */
const lenient = (repair: (raw: RawManifest) => void): PlatformFault =>
  rules({
    parseManifest: (text) => {
      let raw: RawManifest;
      try {
        raw = JSON.parse(text) as RawManifest;
      } catch {
        return PUBLISH_RULES.parseManifest(text);
      }
      if (raw !== null && typeof raw === 'object') repair(raw);
      return PUBLISH_RULES.parseManifest(JSON.stringify(raw));
    },
  });
const eachTool = (raw: RawManifest, fix: (tool: NonNullable<RawManifest['tools']>[number]) => void) => {
  if (Array.isArray(raw.tools)) for (const tool of raw.tools) if (tool && typeof tool === 'object') fix(tool);
};

/** Rewrites each CSP entry to its host (no scheme, port or path) before keeping the manifest, instead of rejecting it. */
class CspNormalisingStore extends MemoryPublishStore {
  override putCatalogRecord(record: CatalogRecord): void {
    const manifest = record.snapshot.manifest;
    const ui = manifest._meta.ui;
    const host = (entry: string) => entry.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[/:].*$/, '');
    const csp = Object.fromEntries(
      Object.entries(ui.csp).map(([list, domains]) => [list, (domains as readonly string[]).map(host)]),
    ) as unknown as typeof ui.csp;
    const kept = { ...manifest, _meta: { ...manifest._meta, ui: { ...ui, csp } } };
    super.putCatalogRecord({ ...record, snapshot: { ...record.snapshot, manifest: kept } });
  }
}

/** Keeps the manifest snapshot with its tools' names only: no description, no inputSchema. */
class ToolSchemaLosingStore extends MemoryPublishStore {
  override putCatalogRecord(record: CatalogRecord): void {
    const manifest = record.snapshot.manifest;
    const tools = manifest.tools.map(({ description: _d, inputSchema: _s, ...tool }) => tool);
    super.putCatalogRecord({ ...record, snapshot: { ...record.snapshot, manifest: { ...manifest, tools } } });
  }
}

const MCP = new RegExp(`^${WIDGET_ROUTES.mcp.replace(/\{[A-Za-z]+\}/, '[^/]+')}$`);

export const PUBLISH_MUTANTS: readonly Mutant[] = [
  {
    id: 'publish-slug-without-user',
    description: "the agent slug is built without the user's part, <prefix>-<bundleSlug>",
    requirements: [P.agentSlug.id],
    platform: {
      ...rules({
        agentSlug: (_user, name, remix) =>
          `${WIDGET_AGENT_SLUG.prefix}${WIDGET_AGENT_SLUG.separator}${bundleSlug(name)}${remix === undefined ? '' : `${WIDGET_AGENT_SLUG.remixSuffix}${remix}`}`,
      }),
    },
  },
  {
    id: 'publish-remix-suffix-without-r',
    description: "a remix's slug appends -<N> instead of -r<N>",
    requirements: [P.agentSlug.id],
    platform: rules({ agentSlug: (user, name, remix) => (remix === undefined ? agentSlug(user, name) : `${agentSlug(user, name)}-${remix}`) }),
  },
  {
    id: 'publish-remix-of-from-manifest',
    description: "a manifest's _meta.platform.remixOf makes the publish a remix (-r<N>), as if it were the catalog's lineage",
    requirements: [B.remixOfInformational.id],
    platform: rules({ remixOf: (folder, manifest) => folder.remixOf ?? manifest._meta.platform.remixOf }),
  },
  {
    id: 'publish-visibility-mcp-apps-default',
    description: "a tool that declares no visibility gets MCP Apps' default [model, app] instead of 2.5's [app], so the model is offered it",
    requirements: [B.toolVisibility.id, R.widgetMcpToolVisibility.id],
    platform: rules({
      parseManifest: (text) => {
        const parsed = PUBLISH_RULES.parseManifest(text);
        if (!parsed.ok) return parsed;
        const raw = JSON.parse(text) as { tools?: Array<{ _meta?: { ui?: { visibility?: unknown } } }> };
        const tools = parsed.manifest.tools.map((tool, i) =>
          raw.tools?.[i]?._meta?.ui?.visibility === undefined
            ? { ...tool, _meta: { ...tool._meta, ui: { ...tool._meta.ui, visibility: ['model', 'app'] as const } } }
            : tool,
        );
        return { ...parsed, manifest: { ...parsed.manifest, tools } };
      },
    }),
  },
  {
    id: 'publish-first-function-only',
    description: 'publishing materialises a function source for the first tool only',
    requirements: [P.functionSources.id],
    platform: store(() => new FirstSourceOnlyStore()),
  },
  {
    id: 'publish-http-endpoints-unstamped',
    description: "the agent's configuration is written without its custom HTTP endpoints",
    requirements: [P.agentHttpEndpoints.id],
    platform: store(() => new ConfigurationLosingStore('httpEndpoints')),
  },
  {
    id: 'publish-custom-tools-unstamped',
    description: "the agent's configuration is written without its custom tools",
    requirements: [P.agentCustomTools.id],
    platform: store(() => new ConfigurationLosingStore('customTools')),
  },
  {
    id: 'publish-billable-attribution-only',
    description: 'a billable tool is written as attribution only, never charged',
    requirements: [P.toolBilling.id],
    platform: rules({ usageOf: () => 'attribution' }),
  },
  {
    id: 'publish-single-file-not-wrapped',
    description: 'a single HTML file is published as it is, without wrapping (so it has no manifest)',
    requirements: [P.singleFileWrapped.id],
    platform: rules({ wrapSingleFile: () => null }),
  },
  {
    id: 'publish-manifest-made-up',
    description: 'a folder without widget.json is published with a manifest the platform makes up',
    requirements: [WIDGET_PROBLEMS.manifestMissing.id],
    platform: rules({
      wrapSingleFile: (files) => (files.has(WIDGET_MANIFEST.fileName) ? null : (wrapSingleFile(files) ?? { files, manifestText: MADE_UP_MANIFEST })),
    }),
  },
  {
    id: 'publish-manifest-parse-lenient',
    description: 'a widget.json that does not parse, or contradicts 2.5, is replaced by a made-up manifest',
    requirements: [WIDGET_PROBLEMS.manifestNotJson.id, WIDGET_PROBLEMS.manifestInvalid.id],
    platform: rules({
      parseManifest: (text) => {
        const parsed = PUBLISH_RULES.parseManifest(text);
        return parsed.ok ? parsed : PUBLISH_RULES.parseManifest(MADE_UP_MANIFEST);
      },
    }),
  },
  {
    id: 'publish-csp-entries-filtered',
    description: 'a rejected CSP entry is dropped alone instead of the whole bundle falling back to the default policy',
    requirements: [WIDGET_PROBLEMS.cspDomainRejected.id],
    platform: store(() => new CspFilteringStore()),
  },
  {
    id: 'catalog-icon-dropped',
    description: "the catalog record is written without the manifest's iconRef, so the catalog shows no icon",
    requirements: [B.catalogIcon.id],
    platform: store(() => new CatalogFieldLosingStore('iconRef')),
  },
  {
    id: 'catalog-description-dropped',
    description: "the catalog record is written without the manifest's description",
    requirements: [B.catalogDescription.id],
    platform: store(() => new CatalogFieldLosingStore('description')),
  },
  {
    id: 'publish-manifest-mime-type-unchecked',
    description: 'the manifest parse takes any _meta.ui.mimeType as text/html',
    requirements: [WIDGET_PROBLEMS.manifestInvalid.id],
    platform: lenient((raw) => {
      if (raw._meta?.ui) raw._meta.ui.mimeType = WIDGET_MANIFEST.mimeType;
    }),
  },
  {
    id: 'publish-manifest-version-unchecked',
    description: 'the manifest parse takes any _meta.platform.v, of any type, as the current schema version 1',
    requirements: [WIDGET_PROBLEMS.manifestInvalid.id],
    platform: lenient((raw) => {
      if (raw._meta?.platform && 'v' in raw._meta.platform) raw._meta.platform.v = WIDGET_MANIFEST.schemaVersion;
    }),
  },
  {
    id: 'publish-manifest-any-integer-version',
    description: 'the manifest parse takes any integer _meta.platform.v (0, 2) as a known schema version',
    requirements: [B.schemaVersionOne.id],
    platform: lenient((raw) => {
      if (raw._meta?.platform && Number.isInteger(raw._meta.platform.v)) raw._meta.platform.v = WIDGET_MANIFEST.schemaVersion;
    }),
  },
  {
    id: 'publish-manifest-visibility-unchecked',
    description: 'the manifest parse drops visibility values outside app, model and user instead of refusing them',
    requirements: [WIDGET_PROBLEMS.manifestInvalid.id],
    platform: lenient((raw) =>
      eachTool(raw, (tool) => {
        const ui = tool._meta?.ui;
        if (ui && Array.isArray(ui.visibility)) ui.visibility = ui.visibility.filter((v) => (WIDGET_MANIFEST.visibilities as readonly unknown[]).includes(v));
      }),
    ),
  },
  {
    id: 'publish-manifest-expose-unchecked',
    description: 'the manifest parse drops expose values outside http and tool instead of refusing them',
    requirements: [WIDGET_PROBLEMS.manifestInvalid.id],
    platform: lenient((raw) =>
      eachTool(raw, (tool) => {
        const platform = tool._meta?.platform;
        if (platform && Array.isArray(platform.expose))
          platform.expose = platform.expose.filter((v) => (WIDGET_MANIFEST.exposes as readonly unknown[]).includes(v));
      }),
    ),
  },
  {
    id: 'publish-manifest-billing-unchecked',
    description: 'the manifest parse drops a billing object of the wrong shape (the tool becomes free) instead of refusing it',
    requirements: [WIDGET_PROBLEMS.manifestInvalid.id],
    platform: lenient((raw) =>
      eachTool(raw, (tool) => {
        const billing = tool._meta?.platform?.billing as { currency?: unknown; amountNanocents?: unknown } | undefined;
        if (billing && !(typeof billing.currency === 'string' && Number.isInteger(billing.amountNanocents))) delete tool._meta!.platform!.billing;
      }),
    ),
  },
  {
    id: 'publish-csp-origins-normalised',
    description: 'a CSP entry with a scheme, port or path is cut down to its host and kept, instead of the bundle falling back',
    requirements: [WIDGET_PROBLEMS.cspDomainRejected.id],
    platform: store(() => new CspNormalisingStore()),
  },
  {
    id: 'publish-entry-any-html',
    description: 'a bundle whose HTML entry is missing is served with another HTML file of the folder as its entry',
    requirements: [WIDGET_PROBLEMS.entryMissing.id],
    platform: rules({ entryHtml: (files, uri) => files.get(uri) ?? [...files].find(([path]) => HTML.test(path))?.[1] }),
  },
  {
    id: 'publish-entry-default-path',
    description: 'the HTML entry is always read from index.html, whatever _meta.ui.resourceUri names',
    requirements: [B.resourceUri.id],
    platform: rules({ entryHtml: (files) => files.get(WIDGET_MANIFEST.defaultEntry) }),
  },
  {
    id: 'publish-tool-source-default-path',
    description: "a tool's source is always read from tools/<name>.js, whatever _meta.platform.file names",
    requirements: [B.toolFile.id],
    platform: rules({ toolSource: (files, tool) => files.get(WIDGET_MANIFEST.defaultToolFile(tool.name)) }),
  },
  {
    id: 'publish-tool-schema-dropped',
    description: 'the published manifest keeps its tools without their description and inputSchema, so tools/list offers neither',
    requirements: [B.mcpToolSchema.id],
    platform: store(() => new ToolSchemaLosingStore()),
  },
  {
    id: 'widget-render-serves-entry-only',
    description: "the published snapshot keeps the HTML entry only, so the host serves none of the folder's static assets",
    requirements: [R.widgetFolderAssets.id],
    platform: rules({ staticAssets: () => new Map() }),
  },
  {
    id: 'publish-missing-source-empty',
    description: 'a tool whose source file is missing is materialised from an empty source',
    requirements: [WIDGET_PROBLEMS.toolSourceMissing.id],
    platform: rules({ toolSource: (files, tool) => files.get(tool.file) ?? encoder.encode('') }),
  },
  {
    id: 'publish-source-limit-off',
    description: 'function sources over 64 KB are materialised',
    requirements: [LIMITS.functionSourceSize.id],
    platform: rules({ maxSourceBytes: Number.POSITIVE_INFINITY }),
  },
  {
    id: 'publish-source-limit-refuses-64000',
    description: 'a function source of exactly 64,000 bytes is refused: the limit taken as 64,000 and compared with >=',
    requirements: [LIMITS.functionSourceSize.id],
    platform: {
      widgets: (o) => ({
        ...o,
        rules: { ...PUBLISH_RULES, maxSourceBytes: FUNCTION_SOURCE_WITHIN_BYTES - 1 },
        host: { ...(o.host || {}), limits: { ...(o.host ? o.host.limits : {}), functionSourceBytes: FUNCTION_SOURCE_WITHIN_BYTES - 1 } },
      }),
    },
  },
  {
    id: 'publish-fn-not-found-as-not-found',
    description: 'a tool whose function was not published answers not_found instead of FN_NOT_FOUND',
    requirements: [BRIDGE_ERRORS.FN_NOT_FOUND.id],
    platform: {
      answer: rewrite(
        (_a, r) => MCP.test(pathOf(r)),
        (a) => setText(a, textOf(a).split(`"code":"${BRIDGE_ERRORS.FN_NOT_FOUND.code}"`).join(`"code":"${BRIDGE_ERRORS.not_found.code}"`)),
      ),
    },
  },
];
