// Valid results-file values for tests that write folders by hand: a run.json and episode records.
import { SCHEMA_VERSION, type EpisodeRecord, type RunFile } from '../../src/records/index.js';

/** A complete run.json of a small scripted run; `overrides` replace top-level fields. */
export function runFile(overrides: Partial<RunFile> = {}): RunFile {
  return {
    schemaVersion: SCHEMA_VERSION,
    status: 'complete',
    tool: { name: 'stratbench', version: '0.1.0', node: 'v20.0.0' },
    started_at: '2026-12-01T00:00:00.000Z',
    config: {
      suite: 'tasks/core.yaml',
      groups: ['single-action'],
      strategies: ['direct'],
      tasks: ['a'],
      epochs: 1,
      concurrency: 1,
      seed: 1,
      model_specs: { direct: 'scripted' },
      prompts_dir: 'prompts',
      options: { lookupMissAsResult: false },
    },
    config_hash: 'h',
    suite: { path: 'tasks/core.yaml', name: 'core', hash: 'f'.repeat(64) },
    models: { direct: 'scripted' },
    prompts: { direct: 'a'.repeat(64) },
    strategies: ['direct'],
    epochs: 1,
    seed: 1,
    ...overrides,
  };
}

/** A finished, successful episode record with an empty trace; `overrides` replace top-level fields. */
export function episodeRecord(task: string, overrides: Partial<EpisodeRecord> = {}): EpisodeRecord {
  const strategy = overrides.strategy ?? 'direct';
  const epoch = overrides.epoch ?? 0;
  return {
    schemaVersion: SCHEMA_VERSION,
    key: `${task}|${strategy}|${epoch}|h`,
    task,
    group: 'single-action',
    strategy,
    epoch,
    seed: 0,
    models: { direct: 'scripted' },
    outcome: { status: 'finished', reason: 'answered' },
    success: true,
    expect: 'finish',
    checks: [],
    metrics: { model_calls: { direct: 2 }, tool_calls: 1, replans: 0, tokens_in: 1, tokens_out: 1, model_ms: 1, load_ms: 0, tool_ms: 1 },
    attribution: null,
    wall_ms: 1,
    trace: [],
    ...overrides,
  };
}
