// The strategies a finished run defined beyond the built-in ones, registered again from its run.json (explain replays).
import type { RunFile } from '../records/index.js';
import { strategyByName } from '../strategies/index.js';
import { registerExternalAgent } from './agent-option.js';
import { loadStrategyModules } from './strategy-modules.js';

/**
 * Registers `strategy` from run.json when it is not known yet: the run's strategy modules (by the paths it recorded)
 * or its external agent (command and budgets). Throws an Error saying why when it cannot (a module gone or no longer
 * loading; a name run.json does not define).
 */
export async function registerRunStrategy(run: RunFile, strategy: string): Promise<void> {
  if (strategyByName(strategy) !== undefined) return;
  const agent = run.config.external_agent;
  if (agent !== undefined && agent.name === strategy) {
    await registerExternalAgent(
      {
        agentCmd: agent.command,
        agentName: agent.name,
        agentMaxToolCalls: agent.max_tool_calls,
        agentMaxModelCalls: agent.max_model_calls,
        agentDeadlineMs: agent.deadline_ms,
        ...(agent.cwd !== undefined ? { agentCwd: agent.cwd } : {}),
      },
      () => undefined,
    );
    return;
  }
  const modules = run.config.strategy_modules?.filter((module) => module.strategies.includes(strategy)) ?? [];
  if (modules.length === 0) throw new Error(`unknown strategy ${strategy}: run.json defines no module or agent of that name`);
  await loadStrategyModules(modules.map((module) => module.path));
}
