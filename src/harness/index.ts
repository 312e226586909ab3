export { runConformance, suiteFiles, type RunOptions, type RunOutcome, type RunExitCode } from './run.js';
export type { CheckResult, RunReport, Verdict } from './results.js';
export { junitXml, summaryMarkdown, writeReports } from './write-reports.js';
