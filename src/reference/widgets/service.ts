import { widgetSdkRoute, type SdkSourceTransform } from './sdk-route.js';
import { REFERENCE_HOST_LIMITS, type BridgeHostLimits } from '../../widgets/host/host-core.js';
import { widgetHostRoutes, type HostRouteOptions } from './host-routes.js';
import { randomUUID } from 'node:crypto';
import {
  MemoryFolderSource,
  MemoryPublishStore,
  MemoryToolUsage,
  PUBLISH_RULES,
  type Clock,
  type IdSource,
  type PublishRules,
  type PublishStore,
  type ToolUsageLedger,
  type WidgetReader,
} from '../../widgets/publish/index.js';
import type { FolderSource } from '../../widgets/publish/ports.js';
import type { WidgetFolder } from '../../widgets/publish/records.js';
import type { Route } from '../routes.js';
import { widgetAgentRoute } from './agent-route.js';
import { catalogRoute, type CatalogShape } from './catalog-route.js';
import { mcpRoute } from './mcp-route.js';
import { publishRoute } from './publish-route.js';
import { toolCallRecorder } from './tool-calls.js';
import { createVmToolRunner, type ToolRunner } from './tool-runner.js';
import { uploadRoute } from './upload-route.js';
import { hashedUserDirectory, type UserDirectory } from './users.js';

/** Folders the pipeline reads and the reference-only upload writes (`put`): in memory, or on a database (src/stores/). */
export interface WritableFolders extends FolderSource {
  put(folder: WidgetFolder): unknown;
}

export interface WidgetServiceOptions {
  /** Where folders come from; seed it with `put` (tests, the in-process target). In-memory by default. */
  readonly folders?: WritableFolders;
  /** The pipeline's records; in-memory by default. */
  readonly store?: PublishStore & WidgetReader;
  /** Where tool calls are written (charges through settlement, attribution rows); in-memory by default. */
  readonly usage?: ToolUsageLedger;
  /** The pipeline's decisions; PUBLISH_RULES by default (a mutant changes one, src/mutants/). */
  readonly rules?: PublishRules;
  /** Seconds; the system clock by default. */
  readonly clock?: Clock;
  /** Record and folder ids; random by default. */
  readonly ids?: IdSource;
  /** Runs function sources on tools/call; node:vm with a 2 s budget by default. */
  readonly runner?: ToolRunner;
  /** Maps a verified credential to a user; one user per principal by default. */
  readonly users?: UserDirectory;
  /** Serve the reference-only folder upload (REFERENCE_ONLY_ROUTES); on by default. */
  readonly referenceUpload?: boolean;
  /** The reference host (4.6, REFERENCE_ONLY_ROUTES): its limits over REFERENCE_HOST_LIMITS, and its parts; false: not served. */
  readonly host?: (Omit<HostRouteOptions, 'reader' | 'runner' | 'clock' | 'limits' | 'calls'> & { readonly limits?: Partial<BridgeHostLimits> }) | false;
  /** Whether a widget's ui:// resource repeats the manifest's _meta.platform (on by default; READING-MCP-APP-PLATFORM-META). */
  readonly appPlatformMeta?: boolean;
  /** The catalog document's shape over its entries (`{ widgets: [...] }` by default; a variant chooses another). */
  readonly catalogShape?: CatalogShape;
  /** Changes the widget SDK text served (faults of the self-test catalogue only). */
  readonly sdkSource?: SdkSourceTransform;
}

export interface WidgetService {
  /** The widget routes of 4.4 (and the reference-only upload), for the platform's route table. */
  readonly routes: readonly Route[];
  /** The widget agents' custom HTTP endpoints at /agents/<slug>/...: mounted after every other route. */
  readonly agentRoute: Route;
  readonly folders: WritableFolders;
  readonly store: PublishStore & WidgetReader;
  readonly usage: ToolUsageLedger;
}

const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };
const randomIds: IdSource = { next: (kind) => `${kind}_${randomUUID().replace(/-/g, '')}` };

/**
 * The reference platform's widgets (4.4, 4.5): publish, the catalog, each post's MCP endpoint and each widget
 * agent's HTTP endpoints, over one store. Mount with `createReferencePlatform({ widgets: options })`.
 */
export function createWidgetService(options: WidgetServiceOptions = {}): WidgetService {
  const folders = options.folders ?? new MemoryFolderSource();
  const store = options.store ?? new MemoryPublishStore();
  const usage = options.usage ?? new MemoryToolUsage();
  const ids = options.ids ?? randomIds;
  const users = options.users ?? hashedUserDirectory;
  const runner = options.runner ?? createVmToolRunner();
  const rules = options.rules ?? PUBLISH_RULES;
  const clock = options.clock ?? systemClock;
  const calls = toolCallRecorder({ ledger: usage, clock, ids, rules });
  const ports = { folders, store, clock, ids, rules };
  const routes: Route[] = [
    publishRoute(ports, users),
    catalogRoute(store, options.catalogShape),
    mcpRoute(store, runner, { users, calls, platformMeta: options.appPlatformMeta ?? true }),
    widgetSdkRoute(options.sdkSource),
  ];
  if (options.referenceUpload !== false) routes.push(uploadRoute(folders, ids, users));
  if (options.host !== false) {
    const limits = { ...REFERENCE_HOST_LIMITS, ...options.host?.limits };
    routes.push(...widgetHostRoutes({ ...options.host, reader: store, runner, clock, limits, calls }));
  }
  return { routes, agentRoute: widgetAgentRoute(store, runner, users, calls), folders, store, usage };
}
