// The inputs `run` and `validate` share: a suite and a prompts folder loaded or refused (exit 2), the prompt contamination check.
import { formatSuiteError, loadSuiteFile, type LoadedTask, type SuiteError } from '../suite/load-suite.js';
import type { GeneratorReject } from '../suite/schema.js';
import { CONTAMINATION_MIN_WORDS, findPromptContamination, formatContamination, type ContaminationReport } from '../suite/prompt-contamination.js';
import { ROLES } from '../models/types.js';
import type { PromptSet } from '../strategies/prompts.js';
import { loadPromptSet, PromptFilesError } from './prompt-files.js';
import { UsageError } from './usage-error.js';

/** A suite as the commands read it: its tasks, content hash, name, groups (declared, else in task order), rejects and warnings. */
export interface CommandSuite {
  tasks: LoadedTask[];
  hash: string;
  name: string;
  groups: string[];
  /** The generator's rejected variants (validate lists them). */
  rejected: GeneratorReject[];
  /** Non-fatal findings, e.g. substring checks that judge a claim (issue 26 §2). */
  warnings: SuiteError[];
}

/** Loads the suite at `path`. Throws UsageError (exit 2) listing every error as `file:line:col  path  message`. */
export async function loadSuiteOrThrow(path: string): Promise<CommandSuite> {
  const loaded = await loadSuiteFile(path);
  if (!loaded.ok) throw new UsageError(`${path}: ${loaded.errors.length} error(s)\n${loaded.errors.map(formatSuiteError).join('\n')}`);
  const groups = loaded.suite.groups ?? [...new Set(loaded.tasks.map((t) => t.group))];
  return { tasks: loaded.tasks, hash: loaded.hash, name: loaded.suite.name, groups, rejected: loaded.suite.rejected ?? [], warnings: loaded.warnings };
}

/** Loads a prompts folder, a missing template being a usage error (exit 2). */
export async function loadPromptsOrThrow(dir: string): Promise<PromptSet> {
  try {
    return await loadPromptSet(dir);
  } catch (error) {
    if (error instanceof PromptFilesError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The contamination check of every role's template against the suite's tasks (issue 11 §4), each finding
 * written to stderr as a warning; the report is what run.json and validate --json record.
 */
export function checkPromptContamination(prompts: PromptSet, tasks: readonly LoadedTask[]): ContaminationReport {
  const templates = Object.fromEntries(ROLES.map((role) => [role, prompts[role].template]));
  const findings = findPromptContamination(templates, tasks);
  for (const finding of findings) process.stderr.write(`warning: ${formatContamination(finding)}\n`);
  return { min_words: CONTAMINATION_MIN_WORDS, findings };
}
