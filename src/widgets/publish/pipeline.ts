import type { WidgetManifest, WidgetProblem } from '../manifest/index.js';
import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import { AGENT_STAMP, CATALOG_RECORD_TYPES, PUBLISH_ERROR_CODES } from '../../spec/publish.js';
import { WIDGET_MANIFEST, WIDGET_PROBLEMS } from '../../spec/widgets.js';
import { manifestView, type ManifestView } from './manifest-view.js';
import type { PublishPorts } from './ports.js';
import {
  EMPTY_CONFIGURATION,
  type AgentConfiguration,
  type AgentRecord,
  type CatalogRecord,
  type FunctionSourceRecord,
  type PostRecord,
  type RefusedFunction,
  type WidgetFolder,
} from './records.js';
import { PUBLISH_RULES, type PublishRules } from './rules.js';

export interface PublishRequest {
  /** The caller's user id (how a credential maps to a user is the platform's). */
  readonly callerId: string;
  readonly folderId: string;
}

/** What each step of 4.5 did, in order. */
export type PublishStepReport =
  | { readonly step: 'validate'; readonly folderId: string; readonly name: string; readonly version: string }
  | { readonly step: 'agent'; readonly action: 'minted' | 'reused'; readonly agentId: string; readonly slug: string; readonly remixNumber: number | null }
  | {
      readonly step: 'functions';
      readonly materialised: readonly { readonly tool: string; readonly sourceId: string; readonly bytes: number }[];
      readonly refused: readonly RefusedFunction[];
    }
  | { readonly step: 'configure'; readonly configuration: AgentConfiguration }
  | { readonly step: 'catalog'; readonly action: 'inserted' | 'updated'; readonly catalogId: string }
  | { readonly step: 'post'; readonly action: 'inserted' | 'updated'; readonly postId: string };

export interface PublishRefusal {
  readonly ok: false;
  /** The step that refused. */
  readonly step: PublishStepReport['step'];
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** Every problem found, each naming a JSON pointer or a file path. */
  readonly problems: readonly WidgetProblem[];
  /** The steps that completed before the refusal (step 1 writes nothing; an agent minted in step 2 stays, to be reused). */
  readonly steps: readonly PublishStepReport[];
}

export interface PublishSuccess {
  readonly ok: true;
  /** True when this publish inserted the catalog record (a first publish); false when it refreshed one. */
  readonly created: boolean;
  readonly steps: readonly PublishStepReport[];
  readonly agent: AgentRecord;
  readonly catalog: CatalogRecord;
  readonly post: PostRecord;
}

export type PublishOutcome = PublishSuccess | PublishRefusal;

const decoder = new TextDecoder();
const entryOf = (bytes: Uint8Array | undefined): string | null => (bytes === undefined ? null : decoder.decode(bytes));

const STATUS = Object.freeze({ notFound: 404, forbidden: 403, conflict: 409, unprocessable: 422 });

class Refused extends Error {
  constructor(
    readonly step: PublishStepReport['step'],
    readonly status: number,
    readonly code: string,
    message: string,
    readonly problems: readonly WidgetProblem[] = [],
  ) {
    super(message);
  }
}

/** What step 1 read: the folder, its files as published (a single HTML file wrapped, 2.5) and its manifest. */
interface Validated {
  readonly folder: WidgetFolder;
  readonly files: ReadonlyMap<string, Uint8Array>;
  readonly manifestText: string;
  readonly manifest: WidgetManifest;
}

/** Step 1: the caller owns the folder and its widget.json parses (a single HTML file is wrapped first, 2.5). */
async function validate(request: PublishRequest, ports: PublishPorts, rules: PublishRules): Promise<Validated> {
  const folder = await ports.folders.getFolder(request.folderId);
  if (!folder) throw new Refused('validate', STATUS.notFound, PUBLISH_ERROR_CODES.folderNotFound, `No folder ${JSON.stringify(request.folderId)} exists.`);
  if (folder.ownerId !== request.callerId) {
    throw new Refused(
      'validate',
      STATUS.forbidden,
      PUBLISH_ERROR_CODES.notFolderOwner,
      `The caller does not own folder ${JSON.stringify(folder.id)}; only its owner may publish it.`,
    );
  }
  const wrapped = rules.wrapSingleFile(folder.files);
  const files = wrapped?.files ?? folder.files;
  const bytes = wrapped ? new TextEncoder().encode(wrapped.manifestText) : folder.files.get(WIDGET_MANIFEST.fileName);
  if (!bytes) {
    const message = `The folder has no ${WIDGET_MANIFEST.fileName} at its root.`;
    throw new Refused('validate', STATUS.unprocessable, WIDGET_PROBLEMS.manifestMissing.code, message, [
      { code: WIDGET_PROBLEMS.manifestMissing.code, path: WIDGET_MANIFEST.fileName, message },
    ]);
  }
  const manifestText = decoder.decode(bytes);
  const parsed = rules.parseManifest(manifestText);
  if (!parsed.ok) {
    const first = parsed.errors[0];
    throw new Refused(
      'validate',
      STATUS.unprocessable,
      first?.code ?? WIDGET_PROBLEMS.manifestInvalid.code,
      `${WIDGET_MANIFEST.fileName} does not parse: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      parsed.errors,
    );
  }
  return { folder, files, manifestText, manifest: parsed.manifest };
}

/** Step 2: the agent already minted for this author's folder, or a new one with a free slug. */
async function mintOrReuseAgent(
  folder: WidgetFolder,
  remixOf: string | undefined,
  view: ManifestView,
  callerId: string,
  ports: PublishPorts,
  rules: PublishRules,
) {
  const existing = await ports.store.findAgentByFolder(callerId, folder.id);
  if (existing) return { agent: existing, action: 'reused' as const };
  const agentSlug = rules.agentSlug;
  let slug = agentSlug(callerId, view.name);
  let remixNumber: number | null = null;
  if (remixOf !== undefined) {
    remixNumber = 1;
    while (await ports.store.isSlugTaken(agentSlug(callerId, view.name, remixNumber))) remixNumber++;
    slug = agentSlug(callerId, view.name, remixNumber);
  } else if (await ports.store.isSlugTaken(slug)) {
    throw new Refused(
      'agent',
      STATUS.conflict,
      PUBLISH_ERROR_CODES.agentSlugTaken,
      `Another bundle of this author already publishes as agent ${slug}; give this widget another name in ${WIDGET_MANIFEST.fileName} (/name).`,
    );
  }
  const now = ports.clock.now();
  const agent: AgentRecord = {
    id: ports.ids.next('agent'),
    slug,
    authorId: callerId,
    folderId: folder.id,
    remixNumber,
    configuration: EMPTY_CONFIGURATION,
    createdAt: now,
    updatedAt: now,
  };
  await ports.store.putAgent(agent);
  return { agent, action: 'minted' as const };
}

/** Step 3: one function source per tool; a source over the 64 KB limit is not materialised (CODE_TOO_LARGE). */
function materialise(files: ReadonlyMap<string, Uint8Array>, view: ManifestView, agentId: string, ports: PublishPorts, rules: PublishRules) {
  const limit = rules.maxSourceBytes;
  const missing = view.tools.filter((tool) => rules.toolSource(files, tool) === undefined);
  if (missing.length) {
    const problems = missing.map((tool) => ({
      code: WIDGET_PROBLEMS.toolSourceMissing.code,
      path: tool.file,
      message: `Tool ${JSON.stringify(tool.name)} has no source file ${tool.file} in the folder.`,
    }));
    throw new Refused('functions', STATUS.unprocessable, WIDGET_PROBLEMS.toolSourceMissing.code, problems.map((p) => p.message).join(' '), problems);
  }
  const sources: FunctionSourceRecord[] = [];
  const refused: RefusedFunction[] = [];
  for (const tool of view.tools) {
    const bytes = rules.toolSource(files, tool)!;
    if (bytes.byteLength > limit) {
      refused.push({
        tool: tool.name,
        file: tool.file,
        code: BRIDGE_ERRORS.CODE_TOO_LARGE.code,
        message: `${tool.file} is ${bytes.byteLength} bytes; a function source may be at most ${limit} bytes (section 8), so ${tool.name} was not published.`,
      });
      continue;
    }
    sources.push({
      id: ports.ids.next('function'),
      agentId,
      tool: tool.name,
      file: tool.file,
      runtime: tool.runtime,
      source: decoder.decode(bytes),
      bytes: bytes.byteLength,
    });
  }
  if (refused.length && rules.oversizedSource === 'publish') {
    const problems = refused.map((r) => ({ code: r.code, path: r.file, message: r.message }));
    throw new Refused('functions', STATUS.unprocessable, BRIDGE_ERRORS.CODE_TOO_LARGE.code, refused.map((r) => r.message).join(' '), problems);
  }
  return { sources, refused };
}

/** Step 4: functions, custom HTTP endpoints (expose http), custom tools (expose tool), billing. */
function configuration(view: ManifestView, sources: readonly FunctionSourceRecord[]): AgentConfiguration {
  const published = new Map(sources.map((s) => [s.tool, s]));
  const tools = view.tools.filter((tool) => published.has(tool.name));
  return {
    functions: tools.map((tool) => ({ name: tool.name, sourceId: published.get(tool.name)!.id, runtime: tool.runtime })),
    httpEndpoints: tools
      .filter((tool) => tool.expose.includes('http'))
      .map((tool) => ({
        path: `${AGENT_STAMP.httpEndpointPrefix}${tool.name}`,
        method: AGENT_STAMP.httpEndpointMethod,
        function: tool.name,
        description: tool.description,
      })),
    customTools: tools
      .filter((tool) => tool.expose.includes('tool'))
      .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, function: tool.name })),
    billing: tools.flatMap((tool) =>
      tool.billing ? [{ tool: tool.name, currency: tool.billing.currency, amountNanocents: tool.billing.amountNanocents }] : [],
    ),
  };
}

/**
 * The publish pipeline of 4.5, in its order: validate, mint or reuse the agent, materialise function sources,
 * stamp the agent configuration, upsert the catalog record, upsert the post. Each step is reported in the
 * outcome. Re-publishing a folder refreshes its agent, catalog record and post in place (keyed as 4.5 says),
 * so a folder is listed once however often it is published.
 */
export async function publishWidget(request: PublishRequest, ports: PublishPorts): Promise<PublishOutcome> {
  const steps: PublishStepReport[] = [];
  const rules = ports.rules ?? PUBLISH_RULES;
  try {
    const { folder, files, manifestText, manifest } = await validate(request, ports, rules);
    const view = manifestView(manifest);
    steps.push({ step: 'validate', folderId: folder.id, name: view.name, version: view.version });

    const remixOf = rules.remixOf(folder, manifest);
    const minted = await mintOrReuseAgent(folder, remixOf, view, request.callerId, ports, rules);
    steps.push({ step: 'agent', action: minted.action, agentId: minted.agent.id, slug: minted.agent.slug, remixNumber: minted.agent.remixNumber });

    const { sources, refused } = materialise(files, view, minted.agent.id, ports, rules);
    await ports.store.replaceFunctionSources(minted.agent.id, sources);
    steps.push({ step: 'functions', materialised: sources.map((s) => ({ tool: s.tool, sourceId: s.id, bytes: s.bytes })), refused });

    const stamped = configuration(view, sources);
    const agent: AgentRecord = { ...minted.agent, configuration: stamped, updatedAt: ports.clock.now() };
    await ports.store.putAgent(agent);
    steps.push({ step: 'configure', configuration: stamped });

    const now = ports.clock.now();
    const previous = await ports.store.findCatalogRecord(request.callerId, folder.id);
    const catalog: CatalogRecord = {
      id: previous?.id ?? ports.ids.next('catalog'),
      type: CATALOG_RECORD_TYPES.widget,
      authorId: request.callerId,
      folderId: folder.id,
      agentId: agent.id,
      agentSlug: agent.slug,
      name: view.name,
      version: view.version,
      description: view.description,
      iconRef: view.iconRef,
      remixOf: previous?.remixOf ?? remixOf ?? null,
      remixNumber: agent.remixNumber,
      snapshot: {
        manifest,
        manifestText,
        entryPath: view.resourceUri,
        entryHtml: entryOf(rules.entryHtml(files, view.resourceUri)),
        assets: rules.staticAssets(files, view.tools),
        refusedFunctions: refused,
      },
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    await ports.store.putCatalogRecord(catalog);
    steps.push({ step: 'catalog', action: previous ? 'updated' : 'inserted', catalogId: catalog.id });

    const previousPost = await ports.store.findPost(request.callerId, folder.id);
    const post: PostRecord = {
      id: previousPost?.id ?? ports.ids.next('post'),
      authorId: request.callerId,
      title: view.name,
      metadata: { bundleFolderId: folder.id, catalogId: catalog.id, agentSlug: agent.slug },
      createdAt: previousPost?.createdAt ?? now,
      updatedAt: now,
    };
    await ports.store.putPost(post);
    steps.push({ step: 'post', action: previousPost ? 'updated' : 'inserted', postId: post.id });

    return { ok: true, created: !previous, steps, agent, catalog, post };
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return { ok: false, step: error.step, status: error.status, code: error.code, message: error.message, problems: error.problems, steps };
  }
}
