export { publishWidget, type PublishRequest, type PublishOutcome, type PublishSuccess, type PublishRefusal, type PublishStepReport } from './pipeline.js';
export { agentSlug, bundleSlug, userId6 } from './slug.js';
export { manifestView, type ManifestView, type ToolView, type ManifestCspLists } from './manifest-view.js';
export { MemoryPublishStore, MemoryFolderSource, counterIds } from './memory-store.js';
export type { Awaitable, Clock, IdSource, RecordKind, FolderSource, PublishStore, WidgetReader, PublishPorts } from './ports.js';
export {
  EMPTY_CONFIGURATION,
  type WidgetFolder,
  type AgentRecord,
  type FunctionSourceRecord,
  type RefusedFunction,
  type AgentConfiguration,
  type WidgetSnapshot,
  type CatalogRecord,
  type PostRecord,
} from './records.js';
