// The content digest of a loaded task: what the validation cache keys a task on (every field validation reads).
import { createHash } from 'node:crypto';
import type { LoadedTask } from './load-suite.js';

/** Strings at least this long are hashed once per call and stood for by their digest (fixture files shared by tasks). */
const LONG_STRING = 256;

/**
 * The sha256 (hex) of each task's canonical content, in order: every field of the loaded task (its prompt, checks,
 * trajectories, the suite's synonyms merged into its checks) and its resolved repository (`repoSpec`: the fixture's
 * files, history, scripts, tests, faults and memory with the task's overrides applied), keys sorted, `undefined`
 * fields left out as JSON does. Two tasks get the same digest only when validation reads the same data from both.
 *
 * Long strings are hashed once per call (the fixture's files are shared by the tasks that start from it), so the
 * 690 tasks of tasks/bench.json (91 MB as canonical JSON, 305,000 values) hash in a fraction of a second.
 */
export function taskDigests(tasks: readonly LoadedTask[]): string[] {
  const longDigests = new Map<string, string>();
  return tasks.map((task) => {
    const parts: string[] = [];
    appendCanonical(task, parts, longDigests);
    return createHash('sha256').update(parts.join('')).digest('hex');
  });
}

/**
 * Appends an unambiguous encoding of `value` to `parts`: a string as `s<length>:<text>` or, when long, `h<sha256>`; a
 * number, boolean or null as `n<JSON>`; an array as `[` items `]`; an object as `{` sorted `key value` pairs `}`.
 * Length prefixes keep any text from passing for structure.
 */
function appendCanonical(value: unknown, parts: string[], longDigests: Map<string, string>): void {
  if (typeof value === 'string') {
    if (value.length < LONG_STRING) {
      parts.push(`s${value.length}:`, value);
      return;
    }
    let digest = longDigests.get(value);
    if (digest === undefined) {
      digest = createHash('sha256').update(value).digest('base64');
      longDigests.set(value, digest);
    }
    parts.push('h', digest);
    return;
  }
  if (value === null || typeof value !== 'object') {
    parts.push('n', JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    for (const item of value) appendCanonical(item ?? null, parts, longDigests);
    parts.push(']');
    return;
  }
  parts.push('{');
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined || typeof item === 'function') continue;
    parts.push(`s${key.length}:`, key);
    appendCanonical(item, parts, longDigests);
  }
  parts.push('}');
}
