// The version stamp every results file carries, and the check every reader applies before parsing.

/**
 * The results-file format this code writes (episodes.jsonl lines, run.json, summary.json).
 * 1: the first format. 2: model calls reference their messages, options and thinking by content hash
 * (messages.jsonl); trace events link tool calls, plan revisions and checks to what caused them.
 * 3: summary.json holds one line per strategy × task (`task_results`, epochs as a string) instead of one per episode,
 * lists at most 1,000 failed and errored episodes (with `failures_total` / `errors_total`), so it stays small for a
 * million episodes.
 * Version 1 and 2 files are still read (the new fields are absent there).
 */
export const SCHEMA_VERSION = 3;

/** The oldest version this code still reads. */
export const OLDEST_READABLE_SCHEMA_VERSION = 1;

/**
 * Checks a parsed results file's `schemaVersion` before its shape is checked. Returns null when this code reads
 * it, else the problem in words, naming the version found and what to do. Pure.
 */
export function schemaVersionProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const version = (value as { schemaVersion?: unknown }).schemaVersion;
  if (version === undefined) return 'no schemaVersion: not a stratbench results file (or one written before results were versioned); run it again';
  if (typeof version !== 'number' || !Number.isInteger(version)) return `schemaVersion ${JSON.stringify(version)} is not a whole number`;
  if (version > SCHEMA_VERSION) {
    return `schemaVersion ${version} is newer than this stratbench reads (${OLDEST_READABLE_SCHEMA_VERSION}–${SCHEMA_VERSION}): upgrade stratbench to read it`;
  }
  if (version < OLDEST_READABLE_SCHEMA_VERSION) {
    return `schemaVersion ${version} is older than this stratbench reads (${OLDEST_READABLE_SCHEMA_VERSION}–${SCHEMA_VERSION}): run it again with this version`;
  }
  return null;
}
