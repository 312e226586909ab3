export { runConformance, suiteFiles, type RunOptions, type RunOutcome, type RunExitCode } from './run.js';
export type { CheckResult, RunReport, Verdict } from './results.js';
export { junitXml, summaryMarkdown, writeReports } from './write-reports.js';
export { reportHtml } from './report-html.js';
export { runVerdict, RUN_VERDICT_LABELS, type RunVerdict } from './results.js';
export { requirementCoverage, type Coverage, type RequirementCoverage, type CoverageStatus } from './coverage.js';
export { validateReport, reportValidator } from './report-schema.js';
export type { Exchange, RecordedRequest, RecordedResponse } from './exchange.js';
