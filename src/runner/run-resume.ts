// `run --resume DIR`: the options the interrupted run was started with, taken from DIR/run.json where not given again.
import { ROLES } from '../models/types.js';
import { readRunFile } from '../results-folder/index.js';
import { OLLAMA_OPTION_KEYS } from './ollama-setup.js';
import { OPENAI_OPTION_KEYS } from './openai-setup.js';
import { UsageError } from './usage-error.js';

/** Options that fix the episode matrix: given again on a resume they must equal the run's (else exit 2). */
const MATRIX_OPTIONS = ['suite', 'strategies', 'tasks', 'epochs', 'seed', 'agentCmd', 'agentName'];

/** `--agent-cmd` → `agentCmd`, back: the flag a commander option name came from. */
const flagOf = (option: string): string => `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * With `--resume DIR`, options the user did not give on the command line (`explicit`: commander names) are taken from
 * DIR/run.json, so `stratbench run --resume DIR` continues exactly the configuration that was interrupted; without it,
 * `options` unchanged. Throws UsageError (exit 2) for a folder without a readable run.json and for a matrix option
 * or `--shard` given with another value than the run's.
 */
export async function resumeDefaults(options: Record<string, unknown>, explicit: ReadonlySet<string>): Promise<Record<string, unknown>> {
  const dir = options['resume'];
  if (typeof dir !== 'string') return options;
  const read = await readRunFile(dir, { required: true });
  if (!read.ok) throw new UsageError(`cannot resume ${dir}: ${read.error}`);
  if (read.run === null) throw new UsageError(`cannot resume ${dir}: no run.json`);
  const config = read.run.config;
  const merged: Record<string, unknown> = { ...options, out: dir };
  const conflicts: string[] = [];
  const take = (option: string, value: unknown): void => {
    if (value === undefined) return;
    if (!explicit.has(option)) merged[option] = value;
    else if (MATRIX_OPTIONS.includes(option) && String(options[option]) !== String(value)) {
      conflicts.push(`${flagOf(option)} ${String(options[option])} (the run has ${String(value)})`);
    }
  };
  take('suite', config.suite);
  take('strategies', config.strategies.join(','));
  take('tasks', config.tasks.join(','));
  take('epochs', config.epochs);
  take('seed', config.seed);
  take('concurrency', config.concurrency);
  take('prompts', config.prompts_dir);
  take('judge', config.judge);
  // The strategy modules the run loaded, by the absolute paths it recorded (their strategies are in --strategies).
  take(
    'strategyModule',
    config.strategy_modules?.map((module) => module.path),
  );
  // The external agent the run ran (issue 28 §3): its command, name and budgets.
  const agent = config.external_agent;
  take('agentCmd', agent?.command);
  take('agentName', agent?.name);
  take('agentMaxToolCalls', agent?.max_tool_calls);
  take('agentMaxModelCalls', agent?.max_model_calls);
  take('agentDeadlineMs', agent?.deadline_ms);
  take('agentCwd', agent?.cwd);
  take('agentFiles', agent?.files);
  // The episodes file's format (--compress), even when the run was killed before it wrote its first episode.
  take('compress', read.run.episodes_format === 'gzip' ? true : undefined);
  const specs = config.model_specs;
  // An explicit --model replaces the stored per-role models (the configuration check then refuses a change).
  if (!explicit.has('model')) {
    take('model', specs['direct']);
    for (const role of ROLES) take(`${role}Model`, specs[role]);
  }
  for (const key of OLLAMA_OPTION_KEYS) take(key, config.ollama_flags?.[key]);
  for (const key of OPENAI_OPTION_KEYS) take(key, (config['openai_flags'] as Record<string, unknown> | undefined)?.[key]);
  const shardConflict = resumeShard(options, merged, explicit, read.run.shard);
  if (shardConflict !== undefined) conflicts.push(shardConflict);
  if (conflicts.length > 0) {
    throw new UsageError(`cannot resume ${dir} with a different matrix: ${conflicts.join(', ')}; leave these flags out to continue it as it was`);
  }
  return merged;
}

/**
 * A shard resumes as that shard: its slice of the matrix, never the whole matrix. Sets `merged.shard` from the run's
 * (`i/n`, or none) unless `--shard` was given; returns the conflict when it was given with another value. A shard
 * written before shards were sliced by row keeps its slicing (`shardUnit: 'episode'`, read by prepareRunFolder).
 */
function resumeShard(
  options: Record<string, unknown>,
  merged: Record<string, unknown>,
  explicit: ReadonlySet<string>,
  recorded: { index: number; count: number; unit?: 'row' } | undefined,
): string | undefined {
  const shard = recorded ? `${recorded.index}/${recorded.count}` : undefined;
  if (recorded !== undefined && recorded.unit === undefined) merged['shardUnit'] = 'episode';
  if (!explicit.has('shard')) {
    if (shard === undefined) delete merged['shard'];
    else merged['shard'] = shard;
    return undefined;
  }
  if (String(options['shard']).trim() !== String(shard)) return `--shard ${String(options['shard'])} (the run has ${shard ?? 'no shard'})`;
  return undefined;
}
