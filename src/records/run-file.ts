// run.json: the one schema that `run` writes and that resume, merge, report, compare and explain read.
import { z } from 'zod';

const ByRole = z.record(z.string(), z.string());

/** What defines a run's episodes; `--resume` takes every option it was not given from here. */
export const RunConfig = z.looseObject({
  suite: z.string().describe('Suite file as given on the command line'),
  groups: z.array(z.string()),
  strategies: z.array(z.string()),
  tasks: z.array(z.string()).describe('Task ids of the matrix, suite order'),
  epochs: z.number().int().positive(),
  concurrency: z.number().int().positive(),
  seed: z.number().int(),
  model_specs: ByRole.describe('Model spec per role as given, e.g. scripted or ollama:qwen3:8b'),
  prompts_dir: z.string(),
  options: z.looseObject({ lookupMissAsResult: z.boolean() }),
  ollama_flags: z.record(z.string(), z.unknown()).optional().describe('The Ollama flags given, for --resume'),
  judge: z.string().optional().describe('The judge model spec (`--judge`), for --resume; absent: no judge'),
  strategy_modules: z
    .array(z.object({ path: z.string(), sha256: z.string(), strategies: z.array(z.string()) }))
    .optional()
    .describe('The --strategy-module files the run loaded (absolute path, content hash, strategies), for --resume'),
  external_agent: z
    .object({
      name: z.string(),
      command: z.string(),
      cwd: z.string().optional().describe('The directory it runs in'),
      files: z
        .array(z.object({ path: z.string(), sha256: z.string() }))
        .optional()
        .describe('The files its command names, with their content hashes (--resume refuses an edited one)'),
      max_tool_calls: z.number().int().positive(),
      max_model_calls: z.number().int().positive(),
      deadline_ms: z.number().int().positive(),
    })
    .optional()
    .describe('The --agent-cmd process the run ran as a strategy (its name and budgets), for --resume'),
});
export type RunConfig = z.infer<typeof RunConfig>;

export const RunStatus = z.enum(['running', 'interrupted', 'complete', 'partial']);
export type RunStatus = z.infer<typeof RunStatus>;

/**
 * `--shard index/count`. `unit: 'row'` (runs since issue 32): the shard holds every count-th row of the matrix — one
 * task × epoch with all its strategies — so each row's episodes, which share most of their text, sit side by side in
 * its episodes file and compress as one run's do. Absent (folders written before): every count-th episode.
 */
export const Shard = z.object({
  index: z.number().int().positive().describe('1-based'),
  count: z.number().int().positive(),
  unit: z.literal('row').optional().describe('row: every count-th task × epoch with all its strategies; absent: every count-th episode'),
});
export type Shard = z.infer<typeof Shard>;

/**
 * How much of its episode matrix a folder holds (results-folder/completeness.ts computes it): `complete` every
 * episode; `partial` a slice by design (one shard, a merge of some shards); `interrupted` a run stopped before its
 * slice was done. `label` is what report, compare and the run's own table print, null for a whole, complete run.
 */
export const RunCompleteness = z.object({
  status: z.enum(['complete', 'partial', 'interrupted']),
  episodes: z.number().int().nonnegative().describe('Episodes of the matrix the folder holds'),
  expected_episodes: z.number().int().nonnegative().describe('Episodes of the whole matrix (strategies × tasks × epochs, every shard)'),
  label: z.string().nullable().describe('e.g. "interrupted: 1200 of 4200 episodes, 17 of 60 epochs complete"; "2 of 14 tasks (--tasks)"'),
});
export type RunCompleteness = z.infer<typeof RunCompleteness>;

/** How `merge` chose between folders holding the same episode: refused unless told (`--prefer`). */
export const MergeOverlap = z.object({
  prefer: z.enum(['first', 'last']).nullable().describe('Which folder (in argument order) won an episode found in several; null: none overlapped'),
  episodes: z.number().int().nonnegative().describe('Episodes found in more than one folder'),
});
export type MergeOverlap = z.infer<typeof MergeOverlap>;

/** What one host of a model served by several hosts did in a run (written when the run ends). */
export const HostStats = z.object({
  url: z.string(),
  calls: z.number().int().nonnegative().describe('Calls this host answered'),
  failures: z.number().int().nonnegative().describe('Calls that failed here with an infrastructure error, each retried on another host'),
  mean_latency_ms: z.number().nullable().describe('Mean wall time of the answered calls, ms; null when none'),
  median_latency_ms: z.number().nullable().describe('Median wall time of the answered calls, ms; null when none'),
  marked_down: z.number().int().nonnegative().describe('Times the host went from up to down'),
});
export type HostStats = z.infer<typeof HostStats>;

/** What `stratbench judge-check` measured for one suite × judge × judge prompt (src/report/judge-agreement.ts). */
export const JudgeCalibration = z.object({
  suite_hash: z.string().describe('sha256 hex of the suite text'),
  judge: z.string().describe('Judge model spec'),
  prompt_sha256: z.string().nullable().describe('sha256 hex of the judge prompt; null for the scripted judge'),
  answers: z.string().describe('The labelled answer set, as given'),
  answers_sha256: z.string(),
  measured_at: z.string().describe('ISO 8601'),
  n: z.number().int().positive(),
  agreement: z.number().describe('Share of answers where the verdict is the label, 0–1'),
  kappa: z.number().nullable().describe("Cohen's κ; null when undefined"),
  kappa_se: z.number().nullable(),
  kappa_ci95: z.tuple([z.number(), z.number()]).nullable(),
  false_passes: z.number().int().nonnegative(),
  false_fails: z.number().int().nonnegative(),
});
export type JudgeCalibration = z.infer<typeof JudgeCalibration>;

/** The judge of a run (`run --judge`): model, prompt hash, and its calibration on the suite or "uncalibrated". */
export const RunJudge = z.object({
  spec: z.string(),
  model: z.string().describe('Name of the model serving the judge'),
  prompt_sha256: z.string().nullable().describe('sha256 hex of prompts/judge.md as used; null for the scripted judge'),
  calibration: z.union([JudgeCalibration, z.literal('uncalibrated')]).describe('judge-check on this suite with this judge and prompt, if one was run'),
});
export type RunJudge = z.infer<typeof RunJudge>;

/**
 * How `run` checked the tasks' references before its first episode (run-checks.ts): each task's reference and its
 * untouched repository replayed, or the task served from the validation cache (it passed before, with the same content
 * and the same harness), or nothing checked (`--no-validate`).
 */
export const RunValidation = z.object({
  mode: z
    .enum(['replayed', 'cached', 'partly cached', 'skipped'])
    .describe("'replayed': every task replayed; 'cached': every task served from the cache; 'partly cached': some of each; 'skipped': --no-validate"),
  replayed: z.number().int().nonnegative().describe('Tasks whose reference and untouched repository were replayed'),
  cached: z.number().int().nonnegative().describe('Tasks served from the validation cache'),
  ms: z.number().nonnegative().describe('Wall time of the check, ms: hashing, cache reads and writes and the replays'),
  cache_dir: z.string().nullable().describe('The validation cache folder; null when skipped'),
  harness: z.string().nullable().describe('16 hex digits of the harness digest the cache is keyed on; null when skipped'),
});
export type RunValidation = z.infer<typeof RunValidation>;

/**
 * run.json of a results folder. Written when the run starts (`status: running`) and rewritten when it ends;
 * `merge` writes one for the merged folder. Unknown fields are kept (a newer minor writer may add some).
 */
export const RunFile = z.looseObject({
  schemaVersion: z.number().int(),
  status: RunStatus,
  episodes_format: z
    .literal('gzip')
    .optional()
    .describe('Set by run --compress: the episodes go to episodes.jsonl.gz (a resume killed before the first episode keeps it)'),
  tool: z.looseObject({ name: z.string(), version: z.string(), node: z.string() }),
  started_at: z.string().describe('ISO 8601'),
  finished_at: z.string().optional().describe('ISO 8601'),
  config: RunConfig,
  config_hash: z.string().describe('16 hex digits of sha256 over suite hash, seed, model specs, prompt hashes, options (and Ollama identity)'),
  suite: z.looseObject({
    path: z.string(),
    name: z.string(),
    hash: z.string().describe('sha256 hex of the suite text'),
    tasks: z.number().int().nonnegative().optional().describe('Tasks in the suite (config.tasks may be a --tasks subset)'),
  }),
  models: ByRole.describe('Model serving each role the run used'),
  model_notes: z.record(z.string(), z.string()).optional(),
  judge: RunJudge.optional().describe('The judge that graded judged checks (run --judge); absent without one'),
  ollama: z.record(z.string(), z.unknown()).optional().describe('Server, version, model digests, mode and options of the Ollama models'),
  prompts: ByRole.describe('sha256 hex of each role prompt template'),
  prompt_texts: ByRole.optional().describe(
    'Each role prompt template as used (the text `prompts` hashes), so `compare --html` can show a changed prompt as a diff; absent in run.json written before it was recorded',
  ),
  strategies: z.array(z.string()),
  epochs: z.number().int().positive(),
  seed: z.number().int(),
  episodes: z.number().int().nonnegative().optional().describe('Episodes in episodes.jsonl when the run ended'),
  resumed_from: z.number().int().nonnegative().optional().describe('Episodes kept from an earlier, interrupted run'),
  shard: Shard.optional(),
  timing: z.record(z.string(), z.unknown()).optional().describe('Wall time, start-up and peak RSS of the run'),
  merged_from: z.array(z.string()).optional(),
  missing_shards: z.array(z.number().int().positive()).optional(),
  shard_count: z.number().int().positive().optional().describe('A merge of shards: n of the --shard i/n split'),
  shard_unit: z.literal('row').optional().describe("A merge of shards: their Shard.unit ('row'), absent for shards of every n-th episode"),
  merge_overlap: MergeOverlap.optional(),
  validation: RunValidation.optional().describe('How the references were checked before the first episode; absent in run.json written before it was recorded'),
  completeness: RunCompleteness.optional().describe('Written by merge; a run puts it in summary.json'),
  model_hosts: z
    .record(z.string(), z.array(HostStats))
    .optional()
    .describe('Models served by several hosts (keyed by model spec): what each host did; absent for one host and in older run.json'),
});
export type RunFile = z.infer<typeof RunFile>;

/** The claim `run` writes into a fresh folder before anything else, so two runs cannot share a folder. */
export const RunClaim = z.object({ schemaVersion: z.number().int(), status: z.literal('starting') });
export type RunClaim = z.infer<typeof RunClaim>;

/** run.json without its status: what `run` knows before it starts (the status is added at each write). */
export const RunDescription = RunFile.omit({ status: true });
export type RunDescription = z.infer<typeof RunDescription>;
