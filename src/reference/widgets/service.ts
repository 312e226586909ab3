import { widgetSdkRoute, type SdkSourceTransform } from './sdk-route.js';
import { REFERENCE_HOST_LIMITS, type BridgeHostLimits } from '../../widgets/host/host-core.js';
import { widgetHostRoutes, type HostRouteOptions } from './host-routes.js';
import { randomUUID } from 'node:crypto';
import { MemoryFolderSource, MemoryPublishStore, type Clock, type IdSource, type PublishStore, type WidgetReader } from '../../widgets/publish/index.js';
import type { Route } from '../routes.js';
import { catalogRoute } from './catalog-route.js';
import { mcpRoute } from './mcp-route.js';
import { publishRoute } from './publish-route.js';
import { createVmToolRunner, type ToolRunner } from './tool-runner.js';
import { uploadRoute } from './upload-route.js';
import { hashedUserDirectory, type UserDirectory } from './users.js';

export interface WidgetServiceOptions {
  /** Where folders come from; seed it with `put` (tests, the in-process target). In-memory by default. */
  readonly folders?: MemoryFolderSource;
  /** The pipeline's records; in-memory by default. */
  readonly store?: PublishStore & WidgetReader;
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
  readonly host?: (Omit<HostRouteOptions, 'reader' | 'runner' | 'clock' | 'limits'> & { readonly limits?: Partial<BridgeHostLimits> }) | false;
  /** Changes the widget SDK text served (faults of the self-test catalogue only). */
  readonly sdkSource?: SdkSourceTransform;
}

export interface WidgetService {
  /** The widget routes of 4.4 (and the reference-only upload), for the platform's route table. */
  readonly routes: readonly Route[];
  readonly folders: MemoryFolderSource;
  readonly store: PublishStore & WidgetReader;
}

const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };
const randomIds: IdSource = { next: (kind) => `${kind}_${randomUUID().replace(/-/g, '')}` };

/**
 * The reference platform's widgets (4.4, 4.5): publish, the catalog and each post's MCP endpoint, over one store.
 * Mount with `createReferencePlatform({ ..., routes: createWidgetService().routes })`.
 */
export function createWidgetService(options: WidgetServiceOptions = {}): WidgetService {
  const folders = options.folders ?? new MemoryFolderSource();
  const store = options.store ?? new MemoryPublishStore();
  const ids = options.ids ?? randomIds;
  const users = options.users ?? hashedUserDirectory;
  const runner = options.runner ?? createVmToolRunner();
  const ports = { folders, store, clock: options.clock ?? systemClock, ids };
  const routes: Route[] = [publishRoute(ports, users), catalogRoute(store), mcpRoute(store, runner), widgetSdkRoute(options.sdkSource)];
  if (options.referenceUpload !== false) routes.push(uploadRoute(folders, ids, users));
  if (options.host !== false) {
    const limits = { ...REFERENCE_HOST_LIMITS, ...options.host?.limits };
    routes.push(...widgetHostRoutes({ ...options.host, reader: store, runner, clock: ports.clock, limits }));
  }
  return { routes, folders, store };
}
