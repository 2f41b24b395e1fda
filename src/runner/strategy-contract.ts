// The contract every built-in strategy meets, run on a module's strategies by `stratbench check-strategy` (issue 28 §2).
import { InfrastructureError, ROLES, type ChatModel, type ChatRequest, type ChatResponse, type Role } from '../models/types.js';
import { ScriptedModel } from '../models/scripted.js';
import type { EpisodeRecord } from '../records/index.js';
import { strategyByName } from '../strategies/index.js';
import { toolDescriptionsForPrompt } from '../tools/index.js';
import type { LoadedTask } from '../suite/load-suite.js';
import { runEpisode, type RunEnvironment } from './episode.js';
import type { PromptSet } from '../strategies/index.js';

/** One contract clause on one strategy: whether it held, and what was seen when it did not. */
export interface ContractResult {
  strategy: string;
  clause: string;
  ok: boolean;
  detail: string;
}

/** A model answering every role from a function (the contract's doubles: a reply that never parses, a server that is down). */
const modelOf = (name: string, respond: (request: ChatRequest) => string): ChatModel => ({
  name,
  deterministic: true,
  chat: async (request): Promise<ChatResponse> => ({
    text: respond(request),
    tokens_in: 0,
    tokens_out: 0,
    duration_ms: 0,
    load_ms: 0,
    model: name,
    done_reason: 'stop',
  }),
});

const everyRole = (model: ChatModel) => Object.fromEntries(ROLES.map((role) => [role, model])) as Record<Role, ChatModel>;

/** A trace as two runs must agree on it: every event without its clock. */
const traceShape = (record: EpisodeRecord): string => JSON.stringify(record.trace.map(({ t_ms: _t, ...event }) => event));

/**
 * Runs the contract on a strategy: on `question` (a task one read answers) and on every task of `suite`, with the
 * scripted model, a model whose replies never parse and a model server that is down. No model is called. Clauses:
 * - solves a one-read question with the scripted model, with a complete trace (ids 0…n−1, one end event);
 * - a reply that never parses ends the episode as invalid_output after one repair, never as an error;
 * - an unreachable model server ends it as an infrastructure error, not as the strategy's failure;
 * - it calls only the roles it declares; it stays within its maxModelCalls (first attempts);
 * - no task of the suite ends in a harness error; the same episode twice gives the same trace.
 * Throws only for an unknown strategy name (a caller's bug).
 */
export async function checkStrategyContract(name: string, question: LoadedTask, suite: readonly LoadedTask[], prompts: PromptSet): Promise<ContractResult[]> {
  const strategy = strategyByName(name);
  if (strategy === undefined) throw new Error(`unknown strategy ${name}`);
  const env = (models: Record<Role, ChatModel>): RunEnvironment => ({
    models,
    prompts,
    toolDescriptions: toolDescriptionsForPrompt(),
    chatOptions: () => ({ temperature: 0 }),
    options: { lookupMissAsResult: false },
    configHash: 'check-strategy',
  });
  const scripted = everyRole(new ScriptedModel(suite.map((task) => ({ id: task.id, reference: task.reference!, naive: task.naive }))));
  const run = (task: LoadedTask, models: Record<Role, ChatModel>) => runEpisode({ task, strategy: name, epoch: 0, seed: 1 }, env(models));
  const results: ContractResult[] = [];
  const clause = (text: string, ok: boolean, detail: string) => results.push({ strategy: name, clause: text, ok, detail: ok ? 'holds' : detail });

  const solved = await run(question, scripted);
  const ids = solved.trace.map((event) => event.id);
  const ends = solved.trace.filter((event) => event.type === 'end').length;
  clause(
    `solves a one-read question (${question.id}) with the scripted model, with a complete trace`,
    solved.success && ids.every((id, k) => id === k) && ends === 1,
    `ended ${solved.outcome.status} (${solved.outcome.reason}), success ${solved.success}, ${ends} end event(s)`,
  );
  const garbled = await run(question, everyRole(modelOf('garbled', () => 'I think the answer is EUR, no JSON here')));
  const attempts = garbled.trace.filter((event) => event.type === 'model_call').length;
  clause(
    'a reply that never parses ends the episode as invalid_output after one repair',
    garbled.outcome.status === 'invalid_output' && attempts === 2,
    `ended ${garbled.outcome.status} (${garbled.outcome.reason}) after ${attempts} model call(s)`,
  );
  const down = await run(
    question,
    everyRole(
      modelOf('down', () => {
        throw new InfrastructureError('connect ECONNREFUSED 127.0.0.1:11434', 'unreachable');
      }),
    ),
  );
  clause(
    'an unreachable model server ends the episode as an infrastructure error',
    down.outcome.status === 'error' && down.outcome.reason === 'infrastructure:unreachable',
    `ended ${down.outcome.status} (${down.outcome.reason})`,
  );
  const records = [];
  for (const task of suite) records.push(await run(task, scripted));
  // The roles its model calls name: built-in ones it lists, and the roles it declared (by their own names).
  const declared = new Set<string>([...strategy.roles, ...(strategy.declaredRoles ?? []).map((role) => role.name)]);
  const undeclared = records.flatMap((record) =>
    record.trace.flatMap((event) => (event.type === 'model_call' && !declared.has(event.role) ? [`${record.task}: ${event.role}`] : [])),
  );
  clause('calls only the roles it declares', undeclared.length === 0, `called ${[...new Set(undeclared)].slice(0, 5).join(', ')}`);
  if (strategy.maxModelCalls !== undefined) {
    const over = records
      .map((record) => ({ task: record.task, calls: record.trace.filter((event) => event.type === 'model_call' && event.attempt === 1).length }))
      .filter((entry) => entry.calls > strategy.maxModelCalls!);
    clause(
      `stays within its maxModelCalls (${strategy.maxModelCalls})`,
      over.length === 0,
      over
        .map((entry) => `${entry.task}: ${entry.calls}`)
        .slice(0, 5)
        .join(', '),
    );
  }
  const errors = records.filter((record) => record.outcome.status === 'error');
  clause(
    `runs every task of the suite (${suite.length}) without a harness error`,
    errors.length === 0,
    errors
      .map((record) => `${record.task}: ${record.outcome.message ?? record.outcome.reason}`)
      .slice(0, 5)
      .join('; '),
  );
  const again = await run(suite[suite.length - 1]!, scripted);
  clause('the same episode twice gives the same trace', traceShape(again) === traceShape(records[records.length - 1]!), `${again.task}: the traces differ`);
  return results;
}

/** The task the first clauses use: the core suite's one-read question. */
export const CONTRACT_QUESTION = 'default-currency';
