// Public surface of report/ for a run: the run summary and its rendering, and explain. Comparing two folders has
// its own entry point, report/compare.ts, so that `run` does not load it at start-up.
export { SummaryBuilder } from './run-summary.js';
export { renderRunReport, renderRunReportMarkdown, summaryFromRecords, withStatistics, type RunHeader, type SummaryFile } from './run-report.js';
export { explainEpisode, findEpisode } from './explain.js';
export { listNames } from './name-list.js';
