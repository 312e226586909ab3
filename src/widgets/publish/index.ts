export { publishWidget, type PublishOutcome, type PublishSuccess, type PublishStepReport } from './pipeline.js';
export { agentSlug, bundleSlug, userId6 } from './slug.js';
export { manifestView, type ToolView } from './manifest-view.js';
export { MemoryPublishStore, MemoryFolderSource, counterIds } from './memory-store.js';
export { PUBLISH_RULES, wrapSingleFile, type PublishRules } from './rules.js';
export { MemoryToolUsage, recordToolCall, type ToolUsageLedger } from './usage.js';
export type { Clock, IdSource, PublishStore, WidgetReader, PublishPorts } from './ports.js';
export type { WidgetFolder, FunctionSourceRecord, RefusedFunction, CatalogRecord, PostRecord, AgentRecord } from './records.js';
