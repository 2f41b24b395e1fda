// `stratbench check-strategy PATH`: runs the contract every built-in strategy meets on a module's strategies (issue 28 §2).
import type { PromptSet } from '../../strategies/index.js';
import { checkStrategyContract, CONTRACT_QUESTION, type ContractResult } from '../strategy-contract.js';

/** The flags of `stratbench check-strategy` (cli.ts). */
export interface CheckStrategyOptions {
  /** `--suite`: the suite the clauses run on (the CLI's default: the package's tasks/core.yaml). */
  suite: string;
  /** `--prompts`: the role prompt templates (the CLI's default: the package's prompts/). */
  prompts: string;
  /** `--json`: one JSON document `{ module, strategies, ok, results }` instead of lines. */
  json?: boolean;
}

/**
 * `stratbench check-strategy PATH [--suite FILE] [--prompts DIR] [--json]`: loads the module (as `run
 * --strategy-module` does), runs the contract on each strategy it defines and prints one line per clause (or one JSON
 * document). Returns 0 when every clause holds, 1 when one does not; throws a UsageError (exit 2) for a module that
 * does not load or defines no strategy, a suite that does not load or lacks the contract's question, a prompts folder
 * that lacks a template.
 */
export async function checkStrategyCommand(path: string, options: CheckStrategyOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const { loadStrategyModules } = await import('../strategy-modules.js');
  const { loadSuiteFile, formatSuiteError } = await import('../../suite/load-suite.js');
  const { loadPromptSet, PromptFilesError } = await import('../prompt-files.js');
  const { UsageError } = await import('../usage-error.js');
  const { names } = await loadStrategyModules([path]);
  const loaded = await loadSuiteFile(options.suite);
  if (!loaded.ok) throw new UsageError(loaded.errors.map(formatSuiteError).join('\n'));
  const tasks = loaded.tasks.filter((task) => task.reference !== undefined);
  const question = tasks.find((task) => task.id === CONTRACT_QUESTION) ?? tasks.find((task) => task.reference!.steps.length === 1 && task.expect === 'finish');
  if (question === undefined) throw new UsageError(`${options.suite}: no task with a one-call reference to check the contract on`);
  let prompts: PromptSet;
  try {
    prompts = await loadPromptSet(options.prompts);
  } catch (error) {
    if (error instanceof PromptFilesError) throw new UsageError(error.message);
    throw error;
  }
  const results: ContractResult[] = [];
  for (const name of names) results.push(...(await checkStrategyContract(name, question, tasks, prompts)));
  const failed = results.filter((result) => !result.ok);
  if (options.json === true) out.write(`${JSON.stringify({ module: path, strategies: names, ok: failed.length === 0, results }, null, 2)}\n`);
  else {
    for (const result of results) out.write(`${result.ok ? 'ok  ' : 'FAIL'}  ${result.strategy}  ${result.clause}${result.ok ? '' : ` — ${result.detail}`}\n`);
    out.write(`\n${results.length - failed.length}/${results.length} contract clauses hold for ${names.join(', ')}\n`);
  }
  return failed.length === 0 ? 0 : 1;
}
