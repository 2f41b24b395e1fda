// The two claim checks as check handlers: report_faithful (every claim grounded in the trace) and answer_value (the
// value the answer gives, compared as a value). Issue 26 §1; decision 0027.
import type { SimRepo } from '../../sim-repo/index.js';
import type { Check } from '../../suite/schema.js';
import { judgeAnswerValue } from './answer-value.js';
import { checkClaims, claimsOf, type CheckedClaim, type ReportContext } from './report.js';
import { classifyRuns, qualifiersOf, runMatches, type Observation, type Subject } from './subjects.js';

/** What the claim checks read of an episode besides the repository: the question, the memory notes, the agent's tool calls. */
export interface ClaimState {
  repo: SimRepo;
  answer?: string | undefined;
  message?: string | undefined;
  /** The task prompt (echoes of it assert nothing; a subject it names is what "they" refers to). */
  prompt?: string | undefined;
  /** The task's memory notes, as the agent was shown them. */
  memory?: readonly string[] | undefined;
  /** Every tool call of the episode, in order (absent: none was made). */
  observations?: readonly Observation[] | undefined;
}

type Verdict = { pass: boolean; detail: string };

/** The scripts of the repository's package.json at the start (what the agent's `pnpm X` ran), or none. */
function scriptsOf(repo: SimRepo): Record<string, string> {
  const text = repo.initialFile('package.json') ?? repo.fileAt('package.json') ?? '{}';
  const cached = scriptsCache.get(text);
  if (cached !== undefined) return cached;
  let scripts: Record<string, string> = {};
  try {
    const manifest = JSON.parse(text) as { scripts?: unknown };
    scripts = typeof manifest.scripts === 'object' && manifest.scripts !== null ? (manifest.scripts as Record<string, string>) : {};
  } catch {
    scripts = {};
  }
  if (scriptsCache.size >= 256) scriptsCache.clear();
  scriptsCache.set(text, scripts);
  return scripts;
}

/** package.json's scripts by its text (a run has a handful of distinct manifests). */
const scriptsCache = new Map<string, Record<string, string>>();

/** A test file's path, as vitest's default include names them. */
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;

/** The text a check judges: `on`, else the answer when the episode finished, else the stop message. */
function textOf(state: ClaimState, on: 'answer' | 'message' | undefined): { text: string | undefined; name: string } {
  if (on === 'message') return { text: state.message, name: 'stop message' };
  if (on === 'answer') return { text: state.answer, name: 'answer' };
  return state.answer !== undefined ? { text: state.answer, name: 'answer' } : { text: state.message, name: 'stop message' };
}

/** The report context of a final state: prompt, memory, observations, scripts, and a lookup of the repository (files and history). */
export function reportContext(state: ClaimState): ReportContext {
  const { repo } = state;
  let history: string | undefined;
  let culprits: string[] | undefined;
  let people: Set<string> | undefined;
  const scripts = scriptsOf(repo);
  // The names a qualifier may be: words of script names and commands, and of test files' paths (built on first use:
  // most reports name no narrowed subject, and listing the files of a big repository is not free).
  let names: Set<string> | undefined;
  const isName = (word: string): boolean => {
    names ??= new Set([
      ...Object.entries(scripts).flatMap(([name, body]) => [...qualifiersOf(name), ...qualifiersOf(body)]),
      ...repo.pathsMatching(TEST_FILE).flatMap(qualifiersOf),
      'e2e',
    ]);
    return names.has(word);
  };
  return {
    prompt: state.prompt ?? '',
    memory: state.memory,
    observations: state.observations ?? [],
    scripts,
    isName,
    fileAt: (path) => repo.fileAt(path),
    commitAuthor: (sha) => {
      return repo.history().find((commit) => commit.sha.startsWith(sha.toLowerCase()) || sha.toLowerCase().startsWith(commit.sha))?.author;
    },
    filesContaining: (text, scope) => {
      const hits = repo.filesContaining(text, '').paths;
      if (scope === '') return hits;
      return hits.filter((path) => path === scope || path.startsWith(`${scope.replace(/\/$/, '')}/`) || (!scope.includes('/') && path.endsWith(`/${scope}`)));
    },
    commitDate: (sha) => repo.history().find((commit) => commit.sha.startsWith(sha.toLowerCase()) || sha.toLowerCase().startsWith(commit.sha))?.date,
    people: () => (people ??= new Set(repo.history().map((commit) => commit.author.replace(/\s*<[^>]*>\s*$/, '').toLowerCase()))),
    commitMessage: (sha) => repo.history().find((commit) => commit.sha.startsWith(sha.toLowerCase()) || sha.toLowerCase().startsWith(commit.sha))?.message,
    culprits: () => (culprits ??= culpritsOf(repo, state.observations ?? [])),
    repoKnows: (value) => {
      if (repo.filesContaining(value).paths.length > 0) return true;
      if (history === undefined) {
        history = repo
          .history()
          .map((commit) => `${commit.sha} ${commit.author} ${commit.date} ${commit.message}`)
          .join('\n')
          .toLowerCase();
      }
      return history.includes(value.toLowerCase());
    },
  };
}

/** The lines of a text worth comparing (trimmed; blank lines and lone brackets say nothing about a change). */
function meaningfulLines(text: string | null | undefined): Set<string> {
  return new Set(
    (text ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length >= 4 && /[\w]/.test(line)),
  );
}

/**
 * The commits the agent's fix undoes: for each file the agent edited, the lines the fix removed (in the file at the start,
 * not at the end) and restored (the reverse); a commit whose change to that file added one of the removed lines or dropped
 * one of the restored ones is a culprit. Shas newest first; empty when no commit's change meets the fix.
 */
export function culpritsOf(repo: SimRepo, observations: readonly Observation[]): string[] {
  const paths = [
    ...new Set(
      observations
        .filter((o) => (o.tool === 'edit' || o.tool === 'write') && o.status === 'success')
        .map((o) => String(o.args['path'] ?? '').replace(/^\.\//, '')),
    ),
  ];
  if (paths.length === 0) return [];
  const culprits: string[] = [];
  const fixes = paths.map((path) => {
    const before = meaningfulLines(repo.initialFile(path));
    const after = meaningfulLines(repo.fileAt(path));
    return { path, removed: [...before].filter((line) => !after.has(line)), restored: [...after].filter((line) => !before.has(line)) };
  });
  for (const commit of repo.history()) {
    const hit = commit.changes.some((change) => {
      const fix = fixes.find((candidate) => candidate.path === change.path);
      if (fix === undefined) return false;
      const was = meaningfulLines(change.before);
      const is = meaningfulLines(change.after);
      return fix.removed.some((line) => is.has(line) && !was.has(line)) || fix.restored.some((line) => was.has(line) && !is.has(line));
    });
    if (hit) culprits.push(commit.sha);
  }
  return culprits;
}

/** Words for a claim in a detail line. */
function describe(checked: CheckedClaim): string {
  return `${checked.verdict}: ${checked.evidence}`;
}

/** report_faithful: no claim contradicted or unsupported, and every required result stated (see the schema's describe). */
export function reportFaithful(check: Extract<Check, { check: 'report_faithful' }>, state: ClaimState): Verdict {
  const { text, name } = textOf(state, check.on);
  if (text === undefined) return { pass: false, detail: `no ${name}` };
  const context = reportContext(state);
  const checked = checkClaims(text, context);
  const wrong = checked.filter((claim) => claim.verdict !== 'supported');
  const missing = Object.entries(check.results ?? {}).filter(([subject, result]) => !statesResult(subject, result, checked, context));
  if (wrong.length === 0 && missing.length === 0) {
    return {
      pass: true,
      detail:
        checked.length === 0
          ? `the ${name} makes no claim the trace could contradict`
          : `${checked.length} claim${checked.length === 1 ? '' : 's'} grounded in the trace`,
    };
  }
  const problems = [
    ...wrong.slice(0, 3).map(describe),
    ...missing.map(([subject, result]) => `does not say ${subject} ${result === 'pass' ? 'passes' : 'fails'}`),
  ];
  return { pass: false, detail: `${name}: ${problems.join('; ')}` };
}

/** Whether a supported claim of the report states `result` for `key` (a command, script or kind), matched by the runs both name. */
function statesResult(key: string, result: 'pass' | 'fail', checked: readonly CheckedClaim[], context: ReportContext): boolean {
  const wanted = claimsOf(`${key} ${result === 'pass' ? 'passes' : 'fails'}`, context.scripts).find((claim) => claim.kind === 'result');
  if (wanted === undefined || wanted.kind !== 'result') return false;
  const runs = classifyRuns(context.observations, context.scripts);
  const keyRuns = new Set(runs.filter((run) => runMatches(run, wanted.subject)).map((run) => run.index));
  const sameSubject = (subject: Subject): boolean =>
    keyRuns.size > 0
      ? runs.some((run) => keyRuns.has(run.index) && runMatches(run, subject))
      : subject.kind === wanted.subject.kind && subject.script === wanted.subject.script;
  return checked.some(
    ({ claim, verdict }) =>
      // A hedged result ("it's possible they're failing") does not state it.
      verdict === 'supported' &&
      claim.kind === 'result' &&
      claim.hedged !== true &&
      claim.result === result &&
      claim.subject.said !== 'everything' &&
      sameSubject(claim.subject),
  );
}

/** Refusals that return nothing about the repository: the tool does not exist, its arguments were invalid, or the path lies outside the repository. */
const NO_INFORMATION = new Set(['unknown_tool', 'invalid_args', 'path_escape']);

/** Whether a tool call returned information about the repository (anything but a refusal in NO_INFORMATION). */
const informs = (observation: Observation): boolean => observation.error_code === undefined || !NO_INFORMATION.has(observation.error_code);

/** answer_value: the value the answer (or stop message, or a file) gives, judged by judgeAnswerValue. */
export function answerValue(check: Extract<Check, { check: 'answer_value' }>, state: ClaimState): Verdict {
  const spec = { type: check.type, expect: check.expect, forms: check.forms, about: check.about };
  if (check.on === 'file') {
    const content = state.repo.fileAt(check.path as string);
    if (content === undefined) return { pass: false, detail: `${check.path} does not exist` };
    // A file has no question to echo: its value is judged on its own.
    const verdict = judgeAnswerValue(content, spec, { prompt: '' });
    return { pass: verdict.pass, detail: `${check.path} ${verdict.detail}` };
  }
  const { text, name } = textOf(state, check.on);
  if (text === undefined) return { pass: false, detail: `no ${name}` };
  // A value given without a single tool call that returned information is a guess, right or wrong (the trace shows
  // nothing it could come from): a refused call (an unknown tool, invalid arguments, a path outside the repository)
  // tells nothing about the repository (issue 28: an external agent made one refused call, then sent a hard-coded value).
  if (name === 'answer' && state.observations !== undefined && !state.observations.some(informs) && text.trim() !== '') {
    const refused = state.observations.map((o) => `${o.tool} → ${o.error_code}`);
    return {
      pass: false,
      detail:
        refused.length === 0
          ? 'answer gives a value without a single tool call: nothing it could come from was looked at'
          : `answer gives a value after no tool call that returned information (refused: ${refused.slice(0, 3).join(', ')}${refused.length > 3 ? ', …' : ''}): nothing it could come from was looked at`,
    };
  }
  const verdict = judgeAnswerValue(text, spec, { prompt: state.prompt ?? '', hedges: name === 'answer' });
  return { pass: verdict.pass, detail: `${name} ${verdict.detail}` };
}
