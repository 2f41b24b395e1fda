// The counterfactual lines `explain` prints for a failed episode: its replay with each role swapped for the reference oracle.
import { resolve } from 'node:path';
import { ROLES, type ChatModel, type Role } from '../models/types.js';
import type { EpisodeCounterfactual, EpisodeRecord, RunFile } from '../records/index.js';
import { loadSuiteFile } from '../suite/load-suite.js';
import { toolDescriptionsForPrompt } from '../tools/index.js';
import { replayCounterfactuals } from './counterfactual-replay.js';
import { loadPromptSet } from './prompt-files.js';
import { registerRunStrategy } from './run-strategies.js';

/**
 * For a failed, non-error episode: one line per swapped role (fixes or fails, and the calls of other roles the trace
 * could not answer), the counterfactual component and whether it agrees with the rules. A record of a run with
 * `--counterfactual` carries its replay; otherwise it is replayed here from the suite and the prompts the run used
 * (run.json, relative to the folder's working directory; a module strategy is loaded and an external agent's process
 * run again as run.json recorded them). An empty list for an episode that succeeded or errored,
 * one line saying why when the replay cannot run. Never throws.
 */
export async function counterfactualLines(run: RunFile | null, record: EpisodeRecord): Promise<string[]> {
  if (record.success || record.outcome.status === 'error') return [];
  if (record.counterfactual) return renderLines(record.counterfactual);
  try {
    if (run === null) return ['counterfactual: not available (no run.json: the suite and prompts are unknown)'];
    const loaded = await loadSuiteFile(resolve(run.config.suite));
    const task = loaded.ok ? loaded.tasks.find((t) => t.id === record.task) : undefined;
    if (!task) return [`counterfactual: not available (task ${record.task} is not in ${run.config.suite})`];
    // A module's strategy or an external agent: registered again from what run.json recorded (an agent is rerun).
    await registerRunStrategy(run, record.strategy);
    const noModel: ChatModel = { name: 'none', deterministic: true, chat: () => Promise.reject(new Error('a counterfactual replay called a model')) };
    const verdict = await replayCounterfactuals(record, task, {
      models: Object.fromEntries(ROLES.map((role) => [role, noModel])) as Record<Role, ChatModel>,
      prompts: await loadPromptSet(resolve(run.config.prompts_dir)),
      toolDescriptions: toolDescriptionsForPrompt(),
      chatOptions: () => ({}),
      options: { lookupMissAsResult: run.config.options.lookupMissAsResult || record.strategy === 'plan-replan-lookup' },
      configHash: 'explain',
    });
    return renderLines(verdict);
  } catch (error) {
    return [`counterfactual: not available (${error instanceof Error ? error.message : String(error)})`];
  }
}

function renderLines(verdict: EpisodeCounterfactual): string[] {
  const agreement = verdict.agrees_with_rules === null ? '' : verdict.agrees_with_rules ? ' (agrees with the rules)' : ` (the rules say ${verdict.rules})`;
  return [
    `counterfactual: ${verdict.component ?? 'no single-role swap fixes it'}${agreement} — each role swapped for the reference oracle, the others replayed from the trace:`,
    ...Object.entries(verdict.swaps).map(
      ([role, swap]) =>
        `  ${role.padEnd(9)} ${swap.success ? 'fixes it' : 'still fails'}${swap.unreplayed > 0 ? ` (${swap.unreplayed} call(s) of other roles not in the trace, answered by the oracle)` : ''}`,
    ),
    ...(verdict.decisive
      ? [`  decisive decision: the ${verdict.decisive.role}'s reply at event ${verdict.decisive.event} — ${decisiveShare(verdict)}`]
      : verdict.decisions !== undefined && verdict.fixed_by.length > 0
        ? ['  no single decision of the blamed role fixes it alone (only the whole role swapped does)']
        : []),
    ...(verdict.decisions ?? [])
      .filter((d) => d.role !== verdict.decisive?.role || d.event !== verdict.decisive?.event)
      .map(
        (d) =>
          `  also fixes it alone: the ${d.role}'s reply at event ${d.event}${d.unreplayed > 0 ? ` (${d.unreplayed} call(s) of other roles answered by the oracle)` : ''}`,
      ),
    `  extra calls: ${verdict.extra_calls}, all answered by the oracle (no model was called)`,
  ];
}

/** How the decisive swap fixed it: alone with the rest replayed, or with how many later calls the oracle answered. */
function decisiveShare(verdict: EpisodeCounterfactual): string {
  const swap = verdict.decisions?.find((d) => d.role === verdict.decisive?.role && d.event === verdict.decisive?.event);
  const own = (swap?.oracle_calls ?? 1) - 1;
  const others = swap?.unreplayed ?? 0;
  if (own === 0 && others === 0) return 'swapped alone, the rest replayed, it fixes the episode';
  const parts = [
    ...(own > 0 ? [`${own} later call(s) of the ${verdict.decisive!.role} the trace had no reply for`] : []),
    ...(others > 0 ? [`${others} call(s) of other roles not in the trace`] : []),
  ];
  return `swapped alone, it fixes the episode; the oracle also answered ${parts.join(' and ')}`;
}
