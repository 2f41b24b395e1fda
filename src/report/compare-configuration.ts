// What differs between two runs' run.json: suite hash, models (specs, digests), prompts per role, run options.
import type { RunFile } from '../records/index.js';
import type { CompareFolder as ResultsFolder } from './compare-input.js';

export type Sameness = 'same' | 'different' | 'unknown';

/** The four aspects of a run's configuration that `compare` reports one line each for. */
export type ConfigurationAspect = 'suite' | 'models' | 'prompts' | 'options';

/** One field of run.json that differs (or is known on one side only); values are shown as stored (JSON for non-strings). */
export interface ConfigurationDifference {
  aspect: ConfigurationAspect;
  field: string;
  base: string | null;
  head: string | null;
}

export interface ConfigurationComparison {
  suite: Sameness;
  models: Sameness;
  prompts: Sameness;
  options: Sameness;
  differences: ConfigurationDifference[];
  /** Roles whose prompt differs. */
  promptRolesChanged: string[];
  /**
   * Of promptRolesChanged, the roles a run used whose model reads its prompt (any model but the scripted stand-in,
   * which replays recorded trajectories). Empty with changed prompts: the comparison says nothing about them.
   */
  promptRolesRead: string[];
}

/** run.json fields that say when or how a run went, not what it measured: never reported. */
const IGNORED = new Set([
  'schemaVersion',
  'status',
  'started_at',
  'finished_at',
  'timing',
  'episodes',
  'resumed_from',
  'config_hash',
  'shard',
  'merged_from',
  'missing_shards',
  'shard_count',
  'shard_unit',
  'merge_overlap',
  'completeness',
  'prompt_contamination',
  // The templates' texts: `prompts` holds their sha256s, which is what differs.
  'prompt_texts',
  'model_notes',
  'model_hosts',
  // Whether the references were replayed or served from the validation cache, and how long that took.
  'validation',
]);
/** config.* fields reported elsewhere (the suite, the coverage check) or that are paths on one machine. */
const IGNORED_CONFIG = new Set(['suite', 'tasks', 'strategies', 'groups', 'prompts_dir', 'ollama_flags']);

/** Which aspect a flattened run.json field belongs to. */
function aspectOf(field: string): ConfigurationAspect {
  if (field.startsWith('suite.')) return 'suite';
  if (field.startsWith('prompts.')) return 'prompts';
  if (
    field.startsWith('models.') ||
    field.startsWith('config.model_specs.') ||
    field.startsWith('ollama.models.') ||
    field === 'ollama.server_version' ||
    field === 'ollama.host'
  ) {
    return 'models';
  }
  return 'options';
}

/** Leaves of a JSON value as dotted paths; arrays and scalars are leaves (JSON text for non-strings). */
function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix === '' ? key : `${prefix}.${key}`, out);
    return;
  }
  if (value !== undefined) out.set(prefix, typeof value === 'string' ? value : JSON.stringify(value));
}

/** The fields of run.json that define what a run measured, flattened. */
function comparable(run: RunFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(run)) {
    if (IGNORED.has(key)) continue;
    if (key === 'config') {
      for (const [configKey, configValue] of Object.entries(run.config)) {
        // seed and epochs are recorded twice (config and top level); the top level is reported.
        if (!IGNORED_CONFIG.has(configKey) && configKey !== 'seed' && configKey !== 'epochs') flatten(configValue, `config.${configKey}`, out);
      }
      continue;
    }
    if (key === 'strategies') continue;
    flatten(value, key, out);
  }
  return out;
}

/** A spec that never reads its prompt: the scripted stand-in (with or without faults). */
const readsPrompts = (spec: string | undefined): boolean => spec !== undefined && !spec.startsWith('scripted');

/** The spec serving `role` in a run: config.model_specs, else the model name. */
const specOf = (run: RunFile, role: string): string | undefined => run.config.model_specs[role] ?? run.models[role];

/**
 * Compares every run.json field that defines what a run measured: the suite (hash, name, path), the models (each
 * role's spec as given — `scripted:faults=…` included — and name, Ollama server version and model digests), the
 * prompt sha256 per role, and the run options (seed, epochs, strategy options, Ollama tool-calling mode, options and
 * per-role options, cache, tool version). Models fall back to the episodes' own when run.json is absent. Pure.
 */
export function compareConfiguration(base: ResultsFolder, head: ResultsFolder): ConfigurationComparison {
  const baseRun = base.run;
  const headRun = head.run;
  const differences: ConfigurationDifference[] = [];
  const sameness: Record<ConfigurationAspect, Sameness> = { suite: 'unknown', models: 'unknown', prompts: 'unknown', options: 'unknown' };
  if (baseRun && headRun) {
    const [baseFields, headFields] = [comparable(baseRun), comparable(headRun)];
    for (const field of [...new Set([...baseFields.keys(), ...headFields.keys()])].sort()) {
      const [before, after] = [baseFields.get(field) ?? null, headFields.get(field) ?? null];
      if (before !== after) differences.push({ aspect: aspectOf(field), field, base: before, head: after });
    }
    for (const aspect of Object.keys(sameness) as ConfigurationAspect[]) {
      sameness[aspect] = differences.some((difference) => difference.aspect === aspect) ? 'different' : 'same';
    }
  } else {
    const baseModels = baseRun?.models ?? base.models;
    const headModels = headRun?.models ?? head.models;
    if (baseModels && headModels) {
      for (const role of [...new Set([...Object.keys(baseModels), ...Object.keys(headModels)])].sort()) {
        if (baseModels[role] !== headModels[role])
          differences.push({ aspect: 'models', field: `models.${role}`, base: baseModels[role] ?? null, head: headModels[role] ?? null });
      }
      sameness.models = differences.length > 0 ? 'different' : 'same';
    }
  }
  const promptRolesChanged = differences.filter((difference) => difference.aspect === 'prompts').map((difference) => difference.field.slice('prompts.'.length));
  const promptRolesRead = promptRolesChanged.filter((role) =>
    [baseRun, headRun].some((run) => run !== null && role in run.models && readsPrompts(specOf(run, role))),
  );
  return { ...sameness, differences, promptRolesChanged, promptRolesRead };
}
