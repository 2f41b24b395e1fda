// Public surface of report/: the run summary and its rendering, comparisons of two folders, explain.
export { SummaryBuilder } from './run-summary.js';
export { renderRunReport, renderRunReportMarkdown, summaryFromRecords, withStatistics, type RunHeader, type SummaryFile } from './run-report.js';
export { runCompare } from './compare.js';
export { explainEpisode, findEpisode } from './explain.js';
