// `stratbench explain DIR TASK STRATEGY`: one episode in order, with the attributed events marked.
import { explainEpisode, findEpisode } from '../../report/index.js';
import { readMessages, readResultsFolder, referencesMissingText } from '../../results-folder/index.js';
import { counterfactualLines } from '../explain-counterfactual.js';
import { UsageError } from '../usage-error.js';

/** The flags of `stratbench explain` (cli.ts). */
export interface ExplainOptions {
  /** `--epoch N`: which epoch (default: the first the folder holds). */
  epoch?: number;
  /** `--messages`: every message each model call was sent, and its thinking, in full (default: one line each). */
  messages?: boolean;
}

/**
 * `stratbench explain DIR TASK STRATEGY [--epoch N] [--messages]`: prints one episode in order (see explainEpisode),
 * with the messages each model call was sent and the thinking it returned (in full with `messages`), and for a failed
 * episode its counterfactual replay (explain-counterfactual.ts). Returns 0. Throws UsageError (exit 2) for an unusable
 * folder (naming the file and the problem) or an episode it lacks.
 */
export async function explainCommand(dir: string, task: string, strategy: string, options: ExplainOptions = {}): Promise<number> {
  const folder = await readResultsFolder(dir);
  if (!folder.ok) throw new UsageError(`cannot read results folder ${dir}: ${folder.error}`);
  for (const warning of folder.warnings) process.stderr.write(`warning: ${warning}\n`);
  const found = findEpisode(folder.records, task, strategy, options.epoch);
  if (!found.ok) throw new UsageError(found.error);
  const messages = await readMessages(dir);
  if (!messages.ok) throw new UsageError(`cannot read results folder ${dir}: ${messages.error}`);
  for (const warning of messages.warnings) process.stderr.write(`warning: ${warning}\n`);
  if (referencesMissingText(found.record, messages.texts)) {
    process.stderr.write(
      `warning: this episode references messages or thinking that ${dir}/messages.jsonl lacks (shown as their hashes); ` +
        'its verdict stands (scored when the episode ended)\n',
    );
  }
  const counterfactual = await counterfactualLines(folder.run, found.record);
  process.stdout.write(`${explainEpisode(found.record, { texts: messages.texts, full: options.messages === true, counterfactual })}\n`);
  return 0;
}
