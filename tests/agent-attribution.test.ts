// Issue 28 (adversarial review): attribution and answer grounding for external agents, whose process — not its model
// — can call tools on its own, rewrite its model's answer, exit, hang or spend a budget. Real agent processes
// (tests/fixtures/agents/attribution.mjs, behaviour.mjs) run episodes of the core suite through the bridge; every
// case checks what the record says.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_BUDGETS, externalAgentStrategy, type AgentBudgets } from '../src/agent-bridge/external-agent.js';
import { addModuleStrategy, clearRegisteredStrategies } from '../src/strategies/index.js';
import { runEpisode, type EpisodeTask } from '../src/runner/episode.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { ScriptedModel } from '../src/models/scripted.js';
import type { ChatModel, Role } from '../src/models/types.js';
import type { EpisodeRecord, TraceEvent } from '../src/records/index.js';
import { allRoles, CORE_SUITE, environment } from './support/episode-fixtures.js';
import { ROOT } from './support/cli.js';

const AGENT = join(ROOT, 'tests/fixtures/agents/attribution.mjs');
const BEHAVIOUR = join(ROOT, 'tests/fixtures/agents/behaviour.mjs');
const MINIMAL = join(ROOT, 'examples/agents/mcp-openai.mjs');

let tasks: EpisodeTask[] = [];
let scripted: Record<Role, ChatModel>;
beforeAll(async () => {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  tasks = loaded.tasks;
  scripted = allRoles(new ScriptedModel(loaded.tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive }))));
});

/** One episode of `command` as the strategy "ext" on task `id` (as tests/agent-bridge.test.ts runs one). */
async function agentEpisode(command: string, id: string, budgets: Partial<AgentBudgets> = {}): Promise<EpisodeRecord> {
  clearRegisteredStrategies();
  addModuleStrategy(externalAgentStrategy({ name: 'ext', command, budgets: { ...AGENT_BUDGETS, ...budgets } }, () => undefined));
  try {
    const task = tasks.find((t) => t.id === id);
    if (!task) throw new Error(`no task ${id}`);
    return await runEpisode({ task, strategy: 'ext', epoch: 0, seed: 1 }, await environment(scripted));
  } finally {
    clearRegisteredStrategies();
  }
}

const of = <T extends TraceEvent['type']>(record: EpisodeRecord, type: T) =>
  record.trace.filter((event): event is Extract<TraceEvent, { type: T }> => event.type === type);
const idOf = (record: EpisodeRecord, type: TraceEvent['type']) => of(record, type)[0]!.id;
const answerCheck = (record: EpisodeRecord) => record.checks.find((check) => check.check['check'] === 'answer_value');

describe('a tool call no model call asked for', () => {
  it('is named by its own event in the verdict, never "event undefined", though the agent asked its model before', async () => {
    const record = await agentEpisode(`node ${AGENT} tamper-test`, 'fix-checkout-test');
    const [ask] = of(record, 'model_call');
    const [write] = of(record, 'tool_call');
    expect(ask).toBeDefined();
    expect(write).toMatchObject({ tool: 'write', status: 'success' });
    expect(write!.call).toBeUndefined();
    expect(record.success).toBe(false);
    expect(record.attribution).toEqual({
      component: 'agent',
      mode: 'tampered_test',
      evidence: [write!.id],
      explanation: `The agent's tool call at event ${write!.id}, which no model call asked for, overwrites tests/checkout.test.js, a test file, instead of changing the code.`,
    });
  });
});

describe("the answer the agent's process sent", () => {
  it('is the first erroneous event when it differs from what the model proposed', async () => {
    const record = await agentEpisode(`node ${AGENT} rewrite-answer USD`, 'default-currency');
    const proposal = of(record, 'model_call').find((call) => (call.value as { action?: string }).action === 'finish')!;
    expect(proposal.value).toMatchObject({ action: 'finish', answer: expect.stringContaining('EUR') });
    expect(record.outcome).toMatchObject({ status: 'finished', answer: 'USD' });
    const end = idOf(record, 'end');
    const check = of(record, 'check').find((event) => event.check['check'] === 'answer_value')!;
    expect(record.attribution).toEqual({
      component: 'agent',
      mode: 'wrong_answer',
      evidence: [end, check.id],
      explanation: `The agent's answer at event ${end} ("USD") fails the check: ${check.detail} (event ${check.id}); the agent process sent a different answer than its model proposed at event ${proposal.id}.`,
    });
  });

  it('is the first erroneous event when no model call proposed an answer at all', async () => {
    const record = await agentEpisode(`node ${AGENT} finish USD`, 'default-currency');
    expect(of(record, 'model_call')).toEqual([]);
    const end = idOf(record, 'end');
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'premature_finish', evidence: [end, expect.any(Number)] });
    expect(record.attribution?.explanation).toMatch(
      new RegExp(
        `^The agent finished at event ${end} after 0 tool call\\(s\\) where the task's reference takes 1; .*; no model call proposed this answer: the agent process sent it on its own\\.$`,
      ),
    );
  });

  it("leaves a model's own answer, passed on unchanged, at the model call that proposed it", async () => {
    const record = await agentEpisode(`node ${AGENT} rewrite-answer EUR`, 'default-currency');
    expect(record.success).toBe(true);
    expect(record.attribution).toBeNull();
  });
});

describe('how the agent process ended', () => {
  it('an exit without finish or stop is agent.process_exit, naming the exit code, the last call and stderr', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} crash-after-tool`, 'default-currency');
    expect(record.outcome).toMatchObject({ status: 'invalid_output', reason: 'agent_exit' });
    const exit = idOf(record, 'agent_process');
    const read = idOf(record, 'tool_call');
    expect(record.attribution).toEqual({
      component: 'agent',
      mode: 'process_exit',
      evidence: [exit, read, idOf(record, 'end')],
      explanation: `The agent process exited with code 1 without calling finish or stop (event ${exit}), after its last call, read src/config.js at event ${read} (success); stderr: RuntimeError: boom.`,
    });
  });

  it('a signal that ended it is named', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} self-kill`, 'default-currency');
    const exit = of(record, 'agent_process')[0]!;
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'process_exit', evidence: [exit.id, idOf(record, 'end')] });
    // /bin/sh reports the signal of the command it ran as 128 + N, or itself died of it.
    const how = exit.exit_code === null ? `was ended by ${exit.signal}` : `was ended by ${exit.signal} (the shell exited ${exit.exit_code})`;
    expect(record.attribution?.explanation).toContain(
      `The agent process ${how} without calling finish or stop (event ${exit.id}), before making any tool or model call; `,
    );
  });

  it('a process that never called anything before its deadline is agent.process_hang', async () => {
    const record = await agentEpisode(`node ${AGENT} silent`, 'default-currency', { deadlineMs: 1_500 });
    expect(record.outcome).toEqual({ status: 'budget_exhausted', reason: 'deadline' });
    expect(record.attribution).toEqual({
      component: 'agent',
      mode: 'process_hang',
      evidence: [idOf(record, 'agent_process'), idOf(record, 'budget'), idOf(record, 'end')],
      explanation: `The agent process made no tool call and no model call before the agent ran past its deadline of 1500 ms (event ${idOf(record, 'budget')}); the harness killed it (event ${idOf(record, 'agent_process')}).`,
    });
  });

  it('a process that was still calling when its deadline came is budget.exhausted', async () => {
    // The deadline doubles until the read arrives before it, so the case holds at any load.
    for (let deadlineMs = 2_000; ; deadlineMs *= 2) {
      const record = await agentEpisode(`node ${AGENT} read-then-hang`, 'default-currency', { deadlineMs });
      expect(record.outcome).toEqual({ status: 'budget_exhausted', reason: 'deadline' });
      if (of(record, 'tool_call').length === 0 && deadlineMs < 32_000) continue;
      expect(record.attribution).toMatchObject({ component: 'budget', mode: 'exhausted', evidence: [idOf(record, 'budget'), idOf(record, 'end')] });
      break;
    }
  });

  it('a spent model-call budget is budget.exhausted, not premature_finish', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} model-spam`, 'default-currency', { maxModelCalls: 2 });
    expect(record.outcome).toEqual({ status: 'budget_exhausted', reason: 'model_calls' });
    const budget = of(record, 'budget')[0]!;
    expect(record.attribution).toEqual({
      component: 'budget',
      mode: 'exhausted',
      evidence: [budget.id, idOf(record, 'end')],
      explanation: `The model_calls budget ended the run at event ${budget.id} (${budget.detail}) with nothing else found wrong.`,
    });
  });

  it('a tool-call budget spent by calls no model asked for names the first of them', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} tool-spam`, 'default-currency', { maxToolCalls: 3 });
    const first = idOf(record, 'tool_call');
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'no_stop', evidence: [first, idOf(record, 'budget')] });
    expect(record.attribution?.explanation).toContain(`(from event ${first}, which no model call asked for)`);
  });
});

describe('grounding of a hard-coded answer (answer_value)', () => {
  const refusals: Array<[string, string, string, string]> = [
    ['an unknown tool', 'peek', '{"path":"src/config.js"}', 'unknown_tool'],
    ['invalid arguments', 'read', '{"file":"src/config.js"}', 'invalid_args'],
    ['a path outside the repository', 'read', '{"path":"../secrets.env"}', 'path_escape'],
  ];
  for (const [what, tool, args, code] of refusals) {
    it(`a right value after one refused call (${what}) is a guess`, async () => {
      const record = await agentEpisode(`node ${AGENT} call-then-finish ${tool} '${args}' EUR`, 'default-currency');
      const [call] = of(record, 'tool_call');
      expect(call!.error_code).toBe(code);
      expect(record.success).toBe(false);
      expect(answerCheck(record)).toMatchObject({
        pass: false,
        detail: `answer gives a value after no tool call that returned information (refused: ${tool} → ${code}): nothing it could come from was looked at`,
      });
    });
  }

  it('the same value after a genuine read passes', async () => {
    const record = await agentEpisode(`node ${AGENT} call-then-finish read '{"path":"src/config.js"}' EUR`, 'default-currency');
    expect(answerCheck(record)?.pass).toBe(true);
    expect(record.success).toBe(true);
  });

  it('with no tool call at all the check fails as before', async () => {
    const record = await agentEpisode(`node ${AGENT} finish EUR`, 'default-currency');
    expect(answerCheck(record)).toMatchObject({
      pass: false,
      detail: 'answer gives a value without a single tool call: nothing it could come from was looked at',
    });
  });
});

describe('an agent whose model decides everything', () => {
  it('keeps the verdicts the built-in single agent gets (the minimal MCP + openai agent)', async () => {
    const record = await agentEpisode(`node ${MINIMAL}`, 'default-currency');
    expect(record.success).toBe(true);
    for (const tool of of(record, 'tool_call')) expect(tool.call).toBeDefined();
  });
});
