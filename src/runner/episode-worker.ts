// A worker thread that runs batches of scripted-model episodes and hands back their JSON lines as transferred bytes.
import { parentPort, workerData } from 'node:worker_threads';
import { buildModels } from '../models/registry.js';
import type { Role } from '../models/types.js';
import type { ScriptedTask } from '../models/scripted.js';
import { toolDescriptionsForPrompt } from '../tools/index.js';
import type { PromptSet, StrategyName, StrategyOptions } from '../strategies/index.js';
import { runEpisode, type EpisodeTask, type RunEnvironment } from './episode.js';
import type { EpisodeRecord } from './record.js';

/** What every worker receives once (structured clone of plain data). */
export interface WorkerSetup {
  tasks: Array<EpisodeTask & ScriptedTask>;
  prompts: PromptSet;
  modelSpecs: Record<Role, string>;
  options: StrategyOptions;
  configHash: string;
}

export interface WorkerCell {
  task: number;
  strategy: StrategyName;
  epoch: number;
  seed: number;
}

export interface WorkerRequest {
  batch: number;
  cells: WorkerCell[];
}

/**
 * A finished batch: `lines` holds the UTF-8 JSONL of its episodes (transferred, not copied) and `records`
 * the same records without their traces, for the summary.
 */
export type WorkerReply =
  | { batch: number; lines: Uint8Array; records: EpisodeRecord[] }
  | { batch: number; error: string };

const setup = workerData as WorkerSetup;
const env: RunEnvironment = {
  models: buildModels(setup.modelSpecs, { tasks: setup.tasks }),
  prompts: setup.prompts,
  toolDescriptions: toolDescriptionsForPrompt(),
  chatOptions: () => ({ temperature: 0 }),
  options: setup.options,
  configHash: setup.configHash,
};

const encoder = new TextEncoder();

parentPort?.on('message', (request: WorkerRequest) => {
  void (async () => {
    try {
      const lines: string[] = [];
      const records: EpisodeRecord[] = [];
      for (const cell of request.cells) {
        const record = await runEpisode({ task: setup.tasks[cell.task]!, strategy: cell.strategy, epoch: cell.epoch, seed: cell.seed }, env);
        lines.push(JSON.stringify(record));
        record.trace = [];
        records.push(record);
      }
      // TextEncoder gives an ArrayBuffer of its own (never a pooled slice), safe to transfer.
      const bytes = encoder.encode(`${lines.join('\n')}\n`);
      parentPort?.postMessage({ batch: request.batch, lines: bytes, records } satisfies WorkerReply, [bytes.buffer]);
    } catch (error) {
      parentPort?.postMessage({ batch: request.batch, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerReply);
    }
  })();
});
