// The contamination check: a role's prompt template must not share a long word sequence with any task's content.
import { canonicalJson } from '../records/index.js';
import type { Task } from './schema.js';

/** Shared runs of at least this many normalised words count as contamination (issue 11 §4). */
export const CONTAMINATION_MIN_WORDS = 12;
/** A template example holding at least this many of one trajectory's tool calls (same tool, same args) is a copied plan. */
export const CONTAMINATION_MIN_CALLS = 2;

/**
 * One template that shares content with one field of one task: `words`, a run of normalised words (prose copied);
 * `tool_calls`, tool calls of one trajectory written as JSON in the template (a plan copied, whose words the
 * plan format interleaves with ids and fields).
 */
export interface SharedSequence {
  kind: 'words' | 'tool_calls';
  /** The prompt template's role, e.g. `planner`. */
  template: string;
  task: string;
  /** Where in the task, e.g. `prompt`, `memory[0]`, `reference`, `checks[3]`. */
  field: string;
  /** The longest shared run as normalised words joined by spaces, or the shared calls as `tool {args}; …`. */
  sequence: string;
  /** Words in the run, or calls shared. */
  length: number;
}

/** What `validate` prints and `run.json` records: the threshold and every finding. */
export interface ContaminationReport {
  min_words: number;
  findings: SharedSequence[];
}

/**
 * A text as normalised words: JSON object keys (`"does":`) dropped, since they are the plan format and not
 * content; NFKC; lower case; words are runs of letters and digits (`pnpm fixtures:reset` → pnpm, fixtures, reset).
 */
export function normalisedWords(text: string): string[] {
  const withoutKeys = text.replace(/"[A-Za-z_][A-Za-z0-9_]*"\s*:/g, ' ');
  return (
    withoutKeys
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The values of a trajectory step's arguments that are text (commands, paths, edit text). */
function argumentTexts(args: Record<string, unknown>): string[] {
  return Object.values(args).filter((value): value is string => typeof value === 'string');
}

type Trajectory = Task['reference'];

/** A trajectory in plan order: its assumption, done_when, each step's `does`, tool, argument text and `expect`, its ending. */
function trajectoryText(trajectory: Trajectory): string {
  const parts: string[] = [trajectory.assumption ?? ''];
  for (const check of trajectory.done_when ?? [])
    parts.push(
      Object.values(check)
        .filter((v) => typeof v === 'string')
        .join(' '),
    );
  for (const step of trajectory.steps) parts.push(step.does ?? '', step.tool, ...argumentTexts(step.args), step.expect ?? '');
  parts.push(trajectory.finish ?? trajectory.stop ?? '');
  return parts.join('\n');
}

/** The task's texts a prompt template must not contain: the request, memory notes, trajectories and the answers its checks ask for. */
export function taskTexts(task: Task): { field: string; text: string }[] {
  const texts = [{ field: 'prompt', text: task.prompt }];
  task.memory.forEach((note, index) => texts.push({ field: `memory[${index}]`, text: note.text }));
  texts.push({ field: 'reference', text: trajectoryText(task.reference) });
  if (task.naive) texts.push({ field: 'naive', text: trajectoryText(task.naive) });
  task.counterexamples.forEach((counterexample, index) =>
    texts.push({ field: `counterexamples[${index}] "${counterexample.name}"`, text: trajectoryText(counterexample) }),
  );
  task.checks.forEach((check, index) => {
    if (check.check === 'answer_value') {
      const values = [...(Array.isArray(check.expect) ? check.expect : [check.expect]), ...(check.forms ?? [])].map(String);
      texts.push({ field: `checks[${index}] ${check.check}`, text: values.join('\n') });
      return;
    }
    if (check.check !== 'answer_contains' && check.check !== 'message_mentions') return;
    const words = [check.text ?? '', ...(check.any_of ?? [])].filter(Boolean);
    if (words.length > 0) texts.push({ field: `checks[${index}] ${check.check}`, text: words.join('\n') });
  });
  return texts;
}

/** One task text as normalised words. */
interface SourceText {
  task: string;
  field: string;
  words: string[];
}

/**
 * Every run of `minWords` words of every source → where it starts (source index, word index): built once, so each
 * template costs one lookup per word position, whatever the number of tasks.
 */
function runIndex(sources: readonly SourceText[], minWords: number): Map<string, Array<[number, number]>> {
  const index = new Map<string, Array<[number, number]>>();
  sources.forEach((source, sourceIndex) => {
    for (let i = 0; i + minWords <= source.words.length; i += 1) {
      const key = source.words.slice(i, i + minWords).join(' ');
      const list = index.get(key);
      if (list) list.push([sourceIndex, i]);
      else index.set(key, [[sourceIndex, i]]);
    }
  });
  return index;
}

/** Per source, the longest run of words of `template` it also holds (at least `minWords` words). */
function longestSharedRuns(
  template: readonly string[],
  sources: readonly SourceText[],
  index: ReadonlyMap<string, Array<[number, number]>>,
  minWords: number,
): Map<number, string[]> {
  const best = new Map<number, string[]>();
  for (let i = 0; i + minWords <= template.length; i += 1) {
    const matches = index.get(template.slice(i, i + minWords).join(' '));
    if (!matches) continue;
    for (const [sourceIndex, j] of matches) {
      const source = sources[sourceIndex]!.words;
      let length = minWords;
      while (i + length < template.length && j + length < source.length && template[i + length] === source[j + length]) length += 1;
      const current = best.get(sourceIndex);
      if (!current || length > current.length) best.set(sourceIndex, template.slice(i, i + length));
    }
  }
  return best;
}

/**
 * Every (template, task, field) whose texts share a run of at least `minWords` normalised words (with the
 * longest such run), and every trajectory at least `minCalls` of whose tool calls (all, for a shorter one) a
 * template writes as JSON. `templates` maps a role to its template text; tasks are a suite's tasks. Pure.
 */
export function findPromptContamination(
  templates: Readonly<Record<string, string>>,
  tasks: readonly Task[],
  minWords = CONTAMINATION_MIN_WORDS,
  minCalls = CONTAMINATION_MIN_CALLS,
): SharedSequence[] {
  const findings: SharedSequence[] = [];
  const sources: SourceText[] = tasks.flatMap((task) => taskTexts(task).map((t) => ({ task: task.id, field: t.field, words: normalisedWords(t.text) })));
  const index = runIndex(sources, minWords);
  for (const [role, text] of Object.entries(templates)) {
    const sharedRuns = longestSharedRuns(normalisedWords(text), sources, index, minWords);
    // In task and field order, as the sources are listed.
    for (const [sourceIndex, run] of [...sharedRuns].sort(([a], [b]) => a - b)) {
      const source = sources[sourceIndex]!;
      findings.push({ kind: 'words', template: role, task: source.task, field: source.field, sequence: run.join(' '), length: run.length });
    }
    const calls = new Set(embeddedToolCalls(text));
    if (calls.size === 0) continue;
    for (const task of tasks) {
      for (const { field, trajectory } of trajectories(task)) {
        const shared = [...new Set(trajectory.steps.map((step) => callKey(step.tool, step.args)))].filter((key) => calls.has(key));
        if (shared.length >= Math.min(minCalls, trajectory.steps.length) && shared.length > 0) {
          findings.push({ kind: 'tool_calls', template: role, task: task.id, field, sequence: shared.join('; '), length: shared.length });
        }
      }
    }
  }
  return findings;
}

const callKey = (tool: string, args: unknown): string => `${tool} ${canonicalJson(args)}`;

const trajectories = (task: Task): { field: string; trajectory: Trajectory }[] => [
  { field: 'reference', trajectory: task.reference },
  ...(task.naive ? [{ field: 'naive', trajectory: task.naive }] : []),
  ...task.counterexamples.map((counterexample, index) => ({ field: `counterexamples[${index}] "${counterexample.name}"`, trajectory: counterexample })),
];

/** Every `{…"tool": T, "args": {…}…}` object written as JSON in a template, as `tool {args}` keys. */
export function embeddedToolCalls(text: string): string[] {
  const keys: string[] = [];
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i += 1) {
      const char = text[i];
      if (inString) {
        if (char === '\\') i += 1;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === '{') depth += 1;
      else if (char === '}' && --depth === 0) {
        try {
          const value = JSON.parse(text.slice(start, i + 1)) as unknown;
          if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
            const { tool, args } = value as { tool?: unknown; args?: unknown };
            if (typeof tool === 'string' && args !== null && typeof args === 'object') keys.push(callKey(tool, args));
          }
        } catch {
          // Not JSON (a placeholder such as {{tools}}, or prose in braces).
        }
        break;
      }
    }
  }
  return keys;
}

/** One warning line per finding: `prompt contamination: planner.md shares 14 words with task t's prompt: "…"`. */
export function formatContamination(finding: SharedSequence): string {
  const what = finding.kind === 'words' ? `${finding.length} words` : `${finding.length} tool call(s)`;
  return `prompt contamination: ${finding.template}.md shares ${what} with task ${finding.task}'s ${finding.field}: "${finding.sequence}"`;
}
