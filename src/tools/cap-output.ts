// Owns the cap on every tool output a model sees: a length per line and in total, with a marker that is never cut.

/** Limits of one tool output, in characters (UTF-16 code units). */
export interface OutputLimits {
  /** A longer line is cut to this many characters and ends with "… (N more characters on this line)". */
  lineChars: number;
  /** The whole output, marker included, is at most this long; whole lines past it are replaced by the marker. */
  totalChars: number;
}

/**
 * Defaults: 300 characters a line, 2,000 in total — the 2,000 characters the harness has always shown a model of one
 * output (about 500 tokens, so twelve ReAct observations fit Ollama's default 8,192-token context).
 */
export const OUTPUT_LIMITS: OutputLimits = { lineChars: 300, totalChars: 2_000 };

/** The last line of a capped output: `… 42 more lines (narrow the search)`. */
export function moreLinesMarker(lines: number): string {
  return `… ${lines} more line${lines === 1 ? '' : 's'} (narrow the search)`;
}

/** Room kept for the marker so it always fits inside `totalChars` (a 12-digit count still fits). */
const MARKER_ROOM = moreLinesMarker(999_999_999_999).length + 1;

/**
 * `output` cut to `limits`: each line to `lineChars` (with how many characters were cut), then whole lines while
 * the total stays within `totalChars`; what is left, plus `hiddenLines` the caller already left out (e.g. search
 * matches past its cap), is counted in a final {@link moreLinesMarker} line. A trailing newline is not a line.
 * Returns `output` itself when nothing is cut. Pure; O(length of output).
 */
export function capOutput(output: string, limits: OutputLimits = OUTPUT_LIMITS, hiddenLines = 0): string {
  if (hiddenLines === 0 && output.length <= limits.totalChars && linesWithin(output, limits.lineChars)) return output;
  if (limits !== OUTPUT_LIMITS || hiddenLines !== 0 || output.length < LONG_OUTPUT) return cut(output, limits, hiddenLines);
  // A long output is usually one a cache handed out again (the same grep over the same base): its cut is too.
  let capped = longOutputs.get(output);
  if (capped === undefined) {
    capped = cut(output, limits, hiddenLines);
    if (longOutputs.size >= LONG_OUTPUTS_KEPT) longOutputs.delete(longOutputs.keys().next().value!);
    longOutputs.set(output, capped);
  }
  return capped;
}

/** Outputs at least this long (characters) have their cut with the default limits kept, the last LONG_OUTPUTS_KEPT of them. */
const LONG_OUTPUT = 32_768;
const LONG_OUTPUTS_KEPT = 16;
const longOutputs = new Map<string, string>();

function cut(output: string, limits: OutputLimits, hiddenLines: number): string {
  const end = output.endsWith('\n') ? output.length - 1 : output.length;
  // Lines are kept within `budget` (room left for a marker); the walk goes on while the whole could still fit.
  const budget = Math.max(0, limits.totalChars - MARKER_ROOM);
  const kept: string[] = [];
  let used = 0;
  let cutLine = false;
  let fitting = -1; // how many lines fit the budget, once a line has passed it
  let fittingStart = 0; // where the first line past the budget starts
  for (let start = 0; start <= end; ) {
    const newline = output.indexOf('\n', start);
    const stop = newline === -1 || newline > end ? end : newline;
    let line = output.slice(start, stop);
    if (line.length > limits.lineChars) {
      line = `${line.slice(0, limits.lineChars)}… (${line.length - limits.lineChars} more characters on this line)`;
      cutLine = true;
    }
    const cost = line.length + (kept.length === 0 ? 0 : 1);
    if (fitting === -1 && used + cost > budget) {
      fitting = kept.length;
      fittingStart = start;
    }
    if (fitting !== -1 && (hiddenLines > 0 || used + cost > limits.totalChars)) {
      return joinWithMarker(kept.slice(0, fitting), countLines(output, fittingStart, end) + hiddenLines);
    }
    kept.push(line);
    used += cost;
    start = stop + 1;
  }
  if (hiddenLines > 0) return joinWithMarker(kept, hiddenLines);
  return cutLine ? kept.join('\n') : output;
}

function joinWithMarker(kept: readonly string[], hidden: number): string {
  const marker = moreLinesMarker(hidden);
  return kept.length === 0 ? marker : `${kept.join('\n')}\n${marker}`;
}

/** Whether no line of `text` is longer than `chars` (no allocation: this runs on every tool call). */
function linesWithin(text: string, chars: number): boolean {
  if (text.length <= chars) return true;
  let start = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at - start > chars) return false;
    start = at + 1;
  }
  return text.length - start <= chars;
}

/** Lines in `text` from `start` up to `end` (exclusive, past any trailing newline). */
function countLines(text: string, start: number, end: number): number {
  let lines = 1;
  for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}
