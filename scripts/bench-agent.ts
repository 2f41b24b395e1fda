// External agents (issue 28 §3–4): the harness's CPU per proxied model call, external-agent episodes/s with the
// scripted model, and success per strategy on the core suite (the two example agents beside the built-in ones).
// Usage: npx tsx scripts/bench-agent.ts [--calls 2000] [--rounds 3] [--concurrency 4]
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { AGENT_BUDGETS, externalAgentStrategy } from '../src/agent-bridge/external-agent.js';
import { addModuleStrategy, clearRegisteredStrategies, type StrategyName } from '../src/strategies/index.js';
import { runEpisode, type RunEnvironment } from '../src/runner/episode.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { loadPromptSet } from '../src/runner/prompt-files.js';
import { toolDescriptionsForPrompt } from '../src/tools/index.js';
import { ROLES, type ChatModel, type Role } from '../src/models/types.js';
import { loadStrategyModules } from '../src/runner/strategy-modules.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const flag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const calls = flag('calls', 2_000);
const rounds = flag('rounds', 3);
const concurrency = flag('concurrency', 4);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const loaded = await loadSuiteFile(join(ROOT, 'tasks/core.yaml'));
if (!loaded.ok) throw new Error('core suite does not load');
const tasks = loaded.tasks;
const model = new ScriptedModel(tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })));
const env: RunEnvironment = {
  models: Object.fromEntries(ROLES.map((role) => [role, model as ChatModel])) as Record<Role, ChatModel>,
  prompts: await loadPromptSet(join(ROOT, 'prompts')),
  toolDescriptions: toolDescriptionsForPrompt(),
  chatOptions: () => ({ temperature: 0 }),
  options: { lookupMissAsResult: false },
  configHash: 'bench-agent',
};
const agents = {
  'mcp-openai': `node ${join(ROOT, 'examples/agents/mcp-openai.mjs')}`,
  langgraph: `node ${join(ROOT, 'examples/agents/langgraph-react.mjs')}`,
};
clearRegisteredStrategies();
for (const [name, command] of Object.entries(agents)) addModuleStrategy(externalAgentStrategy({ name, command, budgets: AGENT_BUDGETS }));

// 1. Harness CPU per proxied call: one episode whose agent makes `calls` chat calls (the agent's own CPU is its
// process's, not counted); the bridge, proxy, scripted model and trace are all this process's.
addModuleStrategy(
  externalAgentStrategy({
    name: 'spam',
    command: `node ${join(ROOT, 'tests/fixtures/agents/behaviour.mjs')} model-spam ${calls}`,
    budgets: { ...AGENT_BUDGETS, maxModelCalls: calls + 1 },
  }),
);
const perCall: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  const before = process.cpuUsage();
  const record = await runEpisode({ task: tasks[0]!, strategy: 'spam', epoch: round, seed: 1 }, env);
  const used = process.cpuUsage(before);
  const made = record.trace.filter((event) => event.type === 'model_call').length;
  perCall.push((used.user + used.system) / 1000 / made);
}
console.log(
  `harness CPU per proxied model call: median ${median(perCall).toFixed(3)} ms (${rounds} rounds of ${calls} calls: ${perCall.map((v) => v.toFixed(3)).join(', ')})`,
);

// 2. Episodes/s and success on the core suite, `concurrency` episodes at once.
await loadStrategyModules(['rewoo', 'reflexion', 'short-react', 'critic-react'].map((name) => join(ROOT, `examples/strategies/${name}.ts`)));
const strategies: StrategyName[] = ['mcp-openai', 'langgraph', 'react', 'plan-replan', 'rewoo', 'reflexion', 'short-react', 'critic-react'];
for (const strategy of strategies) {
  const limit = pLimit(strategy in agents ? concurrency : 1);
  const started = performance.now();
  const records = await Promise.all(tasks.map((task) => limit(() => runEpisode({ task, strategy, epoch: 0, seed: 1 }, env))));
  const seconds = (performance.now() - started) / 1000;
  const successes = records.filter((record) => record.success).length;
  const errors = records.filter((record) => record.outcome.status === 'error').length;
  console.log(
    `${strategy.padEnd(12)} success ${successes}/${records.length - errors} (errors ${errors})` +
      (strategy in agents ? `; ${(records.length / seconds).toFixed(2)} episodes/s at concurrency ${concurrency}` : ''),
  );
}
clearRegisteredStrategies();
