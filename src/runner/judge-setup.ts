// Turns `--judge SPEC` into a Judge (scripted, Ollama or OpenAI-compatible, preflighted), and keeps judge-check's calibrations.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelSpecError, parseModelSpec } from '../models/registry.js';
import { preflightOllama } from '../models/preflight.js';
import { preflightOpenAI } from '../models/openai.js';
import type { ChatModel, ChatOptions } from '../models/types.js';
import { JudgeCalibration, type RunJudge } from '../records/index.js';
import { loadJudgePrompt, modelJudge, scriptedJudge, type Judge } from './judge.js';
import { ollamaModelFactory, type OllamaDependencies, type OllamaRunConfig } from './ollama-setup.js';
import { openaiModelFactory, type OpenAIDependencies, type OpenAIRunConfig } from './openai-setup.js';
import { UsageError } from './usage-error.js';
import { DEFAULT_CACHE_DIR } from '../models/response-cache.js';

/** The prompts folder shipped with stratbench (prompts/judge.md is read from it when `--prompts DIR` has none). */
export const SHIPPED_PROMPTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../prompts');

/** Where judge-check keeps its measurements and run looks them up: `--calibration-dir`, default `.stratbench-cache/judge-calibration`. */
export const DEFAULT_CALIBRATION_DIR = join(DEFAULT_CACHE_DIR, 'judge-calibration');

/** What building a judge reaches: the run's backend configurations, their transports (tests inject them). */
export interface JudgeBackends {
  ollama: OllamaRunConfig;
  openai: OpenAIRunConfig;
  ollamaDeps?: OllamaDependencies;
  openaiDeps?: OpenAIDependencies;
  pooling?: Parameters<typeof ollamaModelFactory>[2];
}

/**
 * Refuses a run whose tasks have judged checks but no `--judge` (UsageError, exit 2, naming the first such task and
 * the option). `judgedTasks` are the ids of the run's tasks that have one (suite order).
 */
export function requireJudge(judgedTasks: readonly string[], spec: string | undefined): void {
  if (spec !== undefined || judgedTasks.length === 0) return;
  const others = judgedTasks.length > 1 ? ` (and ${judgedTasks.length - 1} more task(s))` : '';
  throw new UsageError(
    `task "${judgedTasks[0]}"${others} has a judged check, which a judge model grades: give --judge MODEL (ollama:<model>, openai:<model>, or scripted for the deterministic stand-in), or leave the task out with --tasks`,
  );
}

/**
 * The judge `spec` names, its model preflighted (the server answers and lists it: ConfigurationError, exit 2, before
 * any episode) and its prompt loaded (`<promptsDir>/judge.md`, else the shipped one). Returns the judge and, for a
 * model judge, the ChatModel and `bind`, the same judge on another model (the run wraps the model in its call limit
 * and interruption like every role's, then binds the judge to the wrapped one). Throws
 * UsageError for an unknown spec or a scripted spec with faults.
 */
export async function buildJudge(
  spec: string,
  promptsDir: string,
  backends: JudgeBackends,
): Promise<{ judge: Judge; model?: ChatModel; bind?: (model: ChatModel) => Judge }> {
  let parsed: ReturnType<typeof parseModelSpec>;
  try {
    parsed = parseModelSpec(spec);
  } catch (error) {
    if (error instanceof ModelSpecError) throw new UsageError(`--judge: ${error.message}`);
    throw error;
  }
  if (parsed.backend === 'scripted') {
    if (parsed.faults.length > 0) throw new UsageError(`--judge ${spec}: the scripted judge takes no faults; use --judge scripted`);
    return { judge: scriptedJudge() };
  }
  let prompt: Awaited<ReturnType<typeof loadJudgePrompt>>;
  try {
    prompt = await loadJudgePrompt(promptsDir, SHIPPED_PROMPTS);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let model: ChatModel;
  let options: ChatOptions;
  if (parsed.backend === 'ollama') {
    await preflightOllama(backends.ollama.host, [parsed.model], backends.ollamaDeps?.fetch);
    model = ollamaModelFactory(backends.ollama, backends.ollamaDeps, backends.pooling)(parsed.model);
    options = backends.ollama.options;
  } else {
    await preflightOpenAI(backends.openai.baseURL, [parsed.model], {
      ...(backends.openaiDeps?.fetch ? { fetch: backends.openaiDeps.fetch } : {}),
      ...(backends.openai.apiKey ? { apiKey: backends.openai.apiKey } : {}),
    });
    model = openaiModelFactory(backends.openai, backends.openaiDeps, backends.pooling)(parsed.model);
    options = backends.openai.options;
  }
  return { judge: modelJudge(spec, model, prompt, options), model, bind: (wrapped) => modelJudge(spec, wrapped, prompt, options) };
}

/** The file a calibration of (suite, judge spec, judge prompt) is kept in: 16 hex digits of their sha256. */
export function calibrationFile(dir: string, suiteHash: string, spec: string, promptSha256: string | null): string {
  const key = createHash('sha256')
    .update(JSON.stringify({ suite: suiteHash, judge: spec, prompt: promptSha256 }))
    .digest('hex')
    .slice(0, 16);
  return join(dir, `${key}.json`);
}

/** Writes judge-check's measurement (whole file, then renamed into place). Throws for an unwritable folder. */
export async function storeCalibration(dir: string, calibration: JudgeCalibration): Promise<string> {
  const file = calibrationFile(dir, calibration.suite_hash, calibration.judge, calibration.prompt_sha256);
  await mkdir(dir, { recursive: true });
  await writeFile(`${file}.tmp`, `${JSON.stringify(calibration, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
  return file;
}

/** The run.json `judge` record: the calibration judge-check stored for this suite, judge and prompt, else "uncalibrated". */
export async function runJudgeRecord(judge: Judge, suiteHash: string, dir: string): Promise<RunJudge> {
  const file = calibrationFile(dir, suiteHash, judge.spec, judge.promptSha256);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const parsed = text === undefined ? undefined : JudgeCalibration.safeParse(safeJson(text));
  return { spec: judge.spec, model: judge.name, prompt_sha256: judge.promptSha256, calibration: parsed?.success ? parsed.data : 'uncalibrated' };
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The one line the run table and the report show: "judge: SPEC (prompt 1a2b3c4d): κ 0.74 …" or "… uncalibrated". */
export function judgeLine(record: RunJudge, format: (calibration: JudgeCalibration) => string): string {
  const prompt = record.prompt_sha256 === null ? '' : ` (prompt ${record.prompt_sha256.slice(0, 8)})`;
  if (record.calibration === 'uncalibrated') {
    return `judge: ${record.spec}${prompt}: uncalibrated (measure it with stratbench judge-check --suite … --judge ${record.spec})`;
  }
  return `judge: ${record.spec}${prompt}: ${format(record.calibration)} on ${record.calibration.n} labelled answers (${record.calibration.answers})`;
}
