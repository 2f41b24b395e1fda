// ATIF as Harbor reads it (issue 29 §5): Harbor's validator refuses what its pydantic models refuse; an episode becomes
// a trial folder whose roles are subagent trajectories; a run of every built-in strategy (with scripted faults, so
// failures appear) and a declared-role module, exported and read back file by file with Harbor's validator and layout.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EpisodeRecord, type StoredText, type TraceEvent } from '../src/records/index.js';
import { episodeTrial } from '../src/report/formats/atif.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { atifToolDefinitions, trialName } from '../src/runner/episode-exports.js';
import { argsSchema, TOOL_NAMES, TOOLS } from '../src/tools/index.js';
import { harborConversations, harborInstruction, readHarborTrial, validateTrajectoryFile } from './harbor-atif-models.js';
import { episodesText, scratch, stratbench } from './support/cli.js';
import { episodeRecord, runFile } from './support/results-files.js';

const tools = atifToolDefinitions();

describe("Harbor's trajectory validator (its pydantic models as TrajectoryValidator reports them)", () => {
  const valid = {
    schema_version: 'ATIF-v1.6',
    session_id: 's',
    agent: { name: 'a', version: '1', tool_definitions: [{ type: 'function', function: { name: 'read' } }] },
    steps: [
      { step_id: 1, source: 'user', message: 'q' },
      {
        step_id: 2,
        source: 'agent',
        message: '',
        tool_calls: [{ tool_call_id: 'c1', function_name: 'read', arguments: {} }],
        observation: { results: [{ source_call_id: 'c1', content: 'x' }] },
      },
      {
        step_id: 3,
        source: 'system',
        message: 'delegated',
        observation: { results: [{ subagent_trajectory_ref: [{ session_id: 's/p', trajectory_path: 't.json' }] }] },
      },
    ],
  };
  const validate = (value: unknown): string[] => {
    const file = join(scratch(), 'trajectory.json');
    writeFileSync(file, JSON.stringify(value));
    return validateTrajectoryFile(file).errors;
  };
  const [user, agent, system] = valid.steps;

  it('accepts a trajectory that follows the models, explicit nulls and earlier schema versions included', () => {
    expect(validate(valid)).toEqual([]);
    expect(validate({ ...valid, schema_version: 'ATIF-v1.4', notes: null, steps: [{ ...user, tool_calls: null }, agent, system] })).toEqual([]);
    const { schema_version: _default, ...withoutVersion } = valid;
    expect(validate(withoutVersion)).toEqual([]);
  });

  it.each([
    [
      'a step id out of sequence',
      { ...valid, steps: [{ ...user, step_id: 2 }] },
      ['trajectory.: Value error, steps[0].step_id: expected 1 (sequential from 1), got 2'],
    ],
    [
      'a result naming a tool call of another step',
      { ...valid, steps: [user, { ...agent, observation: { results: [{ source_call_id: 'c9' }] } }] },
      ["trajectory.: Value error, Observation result references source_call_id 'c9' which is not found in step 2's tool_calls"],
    ],
    [
      'tool calls on a user step',
      { ...valid, steps: [{ ...user, tool_calls: [] }] },
      ["trajectory.steps.0: Value error, Field 'tool_calls' is only applicable when source is 'agent', but source is 'user'"],
    ],
    [
      'metrics on a system step',
      { ...valid, steps: [user, agent, { ...system, metrics: {} }] },
      ["trajectory.steps.2: Value error, Field 'metrics' is only applicable when source is 'agent', but source is 'system'"],
    ],
    ['an unknown root field', { ...valid, metadata: {} }, ['trajectory.metadata: unexpected field (not part of ATIF schema)']],
    ['an unknown agent field', { ...valid, agent: { ...valid.agent, tools: [] } }, ['trajectory.agent.tools: unexpected field (not part of ATIF schema)']],
    ['a missing session_id', { ...valid, session_id: undefined }, ['trajectory.session_id: required field is missing']],
    ['no steps', { ...valid, steps: [] }, ['trajectory.steps: Too small: expected array to have >=1 items']],
    [
      'a timestamp that is not ISO 8601',
      { ...valid, steps: [{ ...user, timestamp: 'yesterday' }] },
      ['trajectory.steps.0.timestamp: Invalid ISO 8601 timestamp'],
    ],
    [
      'a subagent reference without its session_id',
      { ...valid, steps: [user, agent, { ...system, observation: { results: [{ subagent_trajectory_ref: [{ trajectory_path: 't.json' }] }] } }] },
      ['trajectory.steps.2.observation.results.0.subagent_trajectory_ref.0.session_id: required field is missing'],
    ],
    [
      'an image part without its source',
      { ...valid, steps: [{ ...user, message: [{ type: 'image' }] }] },
      ["trajectory.steps.0.message.0: Value error, 'source' field is required when type='image'"],
    ],
    [
      'an image file that is not there',
      { ...valid, steps: [{ ...user, message: [{ type: 'image', source: { media_type: 'image/png', path: 'shot.png' } }] }] },
      ['trajectory.steps[0].message[0].source.path: referenced image file does not exist: shot.png'],
    ],
    [
      'a token count that is not a whole number',
      { ...valid, steps: [user, { ...agent, metrics: { prompt_tokens: 1.5 } }] },
      ['trajectory.steps.1.metrics.prompt_tokens: expected int, got number'],
    ],
  ])('refuses %s', (_name, value, errors) => {
    expect(validate(value)).toEqual(errors);
  });

  it('refuses another schema version, naming it', () => {
    const errors = validate({ ...valid, schema_version: 'ATIF-v1.7' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^trajectory\.schema_version: Invalid option: expected one of .*"ATIF-v1\.6".*, got 'ATIF-v1\.7'$/);
  });
});

describe('trial folder names', () => {
  it('are <task>__<strategy>__epoch-<n>, with a hash of the episode when a part had to change or the name is long', () => {
    expect(trialName({ task: 'moved-readme', strategy: 'plan-replan', epoch: 2 })).toBe('moved-readme__plan-replan__epoch-2');
    const slash = trialName({ task: 'a/b', strategy: 'react', epoch: 0 });
    const underscore = trialName({ task: 'a_b', strategy: 'react', epoch: 0 });
    expect(underscore).toBe('a_b__react__epoch-0');
    expect(slash).toMatch(/^a_b__react__epoch-0__[0-9a-f]{8}$/);
    expect(trialName({ task: 'a__b', strategy: 'react', epoch: 0 })).toMatch(/^a_-b__react__epoch-0__[0-9a-f]{8}$/);
    const long = trialName({ task: 'x'.repeat(300), strategy: 'react', epoch: 0 });
    expect(long.length).toBe(200);
    expect(long).toMatch(/^x+__react__epoch-0__[0-9a-f]{8}$/);
    expect(trialName({ task: 'a/b', strategy: 'react', epoch: 0 })).toBe(slash); // stable
  });
});

describe('an episode as a Harbor trial', () => {
  const call = (id: number, role: string, text: string, extra: Partial<TraceEvent> = {}): TraceEvent =>
    ({
      id,
      t_ms: id * 10,
      type: 'model_call',
      role,
      model: 'ollama:qwen3:8b',
      schema: role === 'planner' ? 'plan' : 'action',
      attempt: 1,
      outcome: 'ok',
      text,
      format_warnings: [],
      tokens_in: 120.4,
      tokens_out: 30,
      duration_ms: 900,
      load_ms: 0,
      sent: { messages: ['sys', 'usr'], options: { temperature: 0 } },
      thinking: 'think',
      ...extra,
    }) as TraceEvent;
  const tool = (id: number, fields: Partial<Extract<TraceEvent, { type: 'tool_call' }>>): TraceEvent => ({
    id,
    t_ms: id * 10,
    type: 'tool_call',
    attempt: 1,
    tool: 'read',
    args: { path: 'a.txt' },
    status: 'success',
    output: 'A',
    duration_ms: 50,
    side_effect: 'none',
    ...fields,
  });
  const end: TraceEvent = { id: 9, t_ms: 90, type: 'end', status: 'finished', reason: 'answered', answer: 'done' };
  const texts = new Map<string, StoredText>([
    ['sys', { hash: 'sys', role: 'system', content: 'You are the executor.' }],
    ['usr', { hash: 'usr', role: 'user', content: 'Task: read a.txt' }],
    ['think', { hash: 'think', role: 'thinking', content: 'I should read it.' }],
  ]);
  const planned = episodeRecord('t', {
    strategy: 'plan-up-front',
    trace: [
      call(0, 'executor', '{"tool":"read","args":{"path":"a.txt"}}'),
      tool(1, { call: 0, step_id: 's1', plan: 0 }),
      tool(2, { step_id: 's2', tool: 'run', args: { cmd: 'pnpm test' }, output: 'pass', duration_ms: 20000 }),
      end,
    ],
    models: { executor: 'ollama:qwen3:8b' },
    metrics: { ...episodeRecord('t').metrics, tokens_in: 120.4, tokens_out: 30 },
  });
  const context = { run: runFile(), texts, prompt: null, version: '9.9.9', tools };

  it('makes the executor call a subagent trajectory (its messages, then its reply and tool call) referenced from a system step', () => {
    const { trajectory, subagents } = episodeTrial(planned, context);
    const session = `${planned.key}/executor-1`;
    expect(subagents).toEqual([
      {
        file: 'trajectory.sub-executor-1.json',
        trajectory: {
          schema_version: 'ATIF-v1.6',
          session_id: session,
          agent: {
            name: 'stratbench-executor',
            version: '0.1.0',
            model_name: 'ollama:qwen3:8b',
            tool_definitions: tools,
            extra: { strategy: 'plan-up-front', role: 'executor', parent_session_id: planned.key, event_id: 0 },
          },
          steps: [
            { step_id: 1, source: 'system', message: 'You are the executor.' },
            { step_id: 2, source: 'user', message: 'Task: read a.txt' },
            {
              step_id: 3,
              source: 'agent',
              model_name: 'ollama:qwen3:8b',
              message: '{"tool":"read","args":{"path":"a.txt"}}',
              reasoning_content: 'I should read it.',
              tool_calls: [{ tool_call_id: 'call_1', function_name: 'read', arguments: { path: 'a.txt' } }],
              observation: { results: [{ source_call_id: 'call_1', content: 'A' }] },
              metrics: { prompt_tokens: 120, completion_tokens: 30, extra: { duration_ms: 900, load_ms: 0 } },
              extra: {
                stratbench: {
                  event_ids: [0, 1],
                  id: 0,
                  t_ms: 0,
                  role: 'executor',
                  model: 'ollama:qwen3:8b',
                  schema: 'action',
                  attempt: 1,
                  outcome: 'ok',
                  format_warnings: [],
                  options: { temperature: 0 },
                  tool_results: [
                    {
                      tool_call_id: 'call_1',
                      id: 1,
                      t_ms: 10,
                      attempt: 1,
                      tool: 'read',
                      args: { path: 'a.txt' },
                      status: 'success',
                      duration_ms: 50,
                      side_effect: 'none',
                      call: 0,
                      step_id: 's1',
                      plan: 0,
                    },
                  ],
                },
              },
            },
          ],
          notes: 'The executor call (trace event 0) of stratbench episode t × plan-up-front, epoch 0: the messages it was sent, then its reply.',
          final_metrics: { total_prompt_tokens: 120, total_completion_tokens: 30, total_steps: 3 },
        },
      },
    ]);
    expect(trajectory.steps.map(({ extra: _extra, ...step }) => step)).toEqual([
      { step_id: 1, source: 'user', message: 'Task: read a.txt' },
      {
        step_id: 2,
        source: 'system',
        message: 'executor call 1: action reply (ok), ran read — trajectory.sub-executor-1.json',
        observation: {
          results: [
            {
              content: '{"tool":"read","args":{"path":"a.txt"}}',
              subagent_trajectory_ref: [
                { session_id: session, trajectory_path: 'trajectory.sub-executor-1.json', extra: { role: 'executor', event_id: 0, model: 'ollama:qwen3:8b' } },
              ],
            },
            { content: 'A' },
          ],
        },
      },
      {
        step_id: 3,
        source: 'system',
        message: `run plan step s2 with the plan's arguments: run {"cmd":"pnpm test"}`,
        observation: { results: [{ content: 'pass' }] },
      },
      { step_id: 4, source: 'system', message: 'episode ended: finished (answered) — answer: done' },
    ]);
    expect(trajectory.agent).toEqual({
      name: 'stratbench',
      version: '0.1.0',
      model_name: 'ollama:qwen3:8b',
      tool_definitions: tools,
      extra: { strategy: 'plan-up-front', models: { executor: 'ollama:qwen3:8b' }, single_agent_role: null },
    });
    expect(trajectory.final_metrics).toMatchObject({ total_prompt_tokens: 120, total_completion_tokens: 30, total_steps: 4 });
    // Harbor's trace export: no assistant turn in the episode's file; the executor's own conversation in its file.
    expect(harborConversations(trajectory)).toEqual([]);
    expect(harborConversations(subagents[0]!.trajectory)).toEqual([
      [
        { role: 'user', content: 'You are the executor.' },
        { role: 'user', content: 'Task: read a.txt' },
        {
          role: 'assistant',
          content:
            '<think>I should read it.</think>\n{"tool":"read","args":{"path":"a.txt"}}\n<tool_call>\n{"name":"read","arguments":{"path":"a.txt"}}\n</tool_call>',
        },
      ],
    ]);
  });

  it('keeps a single ReAct agent in trajectory.json, tool results as observations of its steps; its reporter is a subagent', () => {
    const react = episodeRecord('t', {
      strategy: 'react',
      trace: [
        call(0, 'agent', 'read it', { sent: undefined, thinking: undefined }),
        tool(1, { call: 0 }),
        call(2, 'agent', 'read again', { sent: undefined, thinking: undefined }),
        tool(3, { call: 2, output: 'B' }),
        { id: 4, t_ms: 40, type: 'budget', limit: 'tool_calls', detail: 'two' },
        call(5, 'reporter', 'I read a.txt', { schema: 'report', sent: undefined, thinking: undefined }),
        { ...end, id: 6 },
      ],
    });
    const { trajectory, subagents } = episodeTrial(react, { ...context, prompt: 'read a.txt' });
    expect(
      trajectory.steps.map((step) => [
        step.source,
        step.message,
        step.tool_calls?.map((c) => c.tool_call_id),
        step.observation?.results.map((r) => r.source_call_id ?? null),
      ]),
    ).toEqual([
      ['user', 'read a.txt', undefined, undefined],
      ['agent', 'read it', ['call_1'], ['call_1']],
      ['agent', 'read again', ['call_3'], ['call_3']],
      ['system', 'budget tool_calls reached: two', undefined, undefined],
      ['system', 'reporter call 1: report reply (ok) — trajectory.sub-reporter-1.json', undefined, [null]],
      ['system', 'episode ended: finished (answered) — answer: done', undefined, undefined],
    ]);
    expect(subagents.map((s) => [s.file, s.trajectory.steps.length, s.trajectory.agent.tool_definitions, s.trajectory.notes])).toEqual([
      [
        'trajectory.sub-reporter-1.json',
        1,
        undefined,
        'The reporter call (trace event 5) of stratbench episode t × react, epoch 0: its reply; no messages were rendered for it (the scripted model reads the role’s view).',
      ],
    ]);
    // Harbor's trace export: the agent's two turns, the first tool result between them as the user's turn.
    expect(harborConversations(trajectory).map((turns) => turns.map((turn) => `${turn.role}: ${turn.content.split('\n')[0]}`))).toEqual([
      ['user: read a.txt', 'assistant: read it'],
      ['user: read a.txt', 'assistant: read it', 'user: A', 'assistant: read again'],
    ]);
  });

  it('keeps the hashes of messages the folder lacks and says so, and says when the prompt is unavailable', () => {
    const { trajectory, subagents } = episodeTrial(planned, { ...context, run: null, texts: new Map() });
    expect(trajectory.agent.version).toBe('9.9.9');
    expect(trajectory.steps[0]).toEqual({ step_id: 1, source: 'user', message: '', extra: { stratbench: { prompt_from: 'unavailable', task: 't' } } });
    const executor = subagents[0]!.trajectory;
    expect(executor.steps).toHaveLength(1);
    expect(executor.steps[0]?.extra?.['stratbench']).toMatchObject({ sent_messages: [{ hash: 'sys' }, { hash: 'usr' }] });
    expect(executor.steps[0]?.reasoning_content).toBeUndefined();
    expect(executor.notes).toContain('the messages it was sent are missing from messages.jsonl');
  });
});

describe('every built-in strategy and a declared role, exported and read back with Harbor’s validator', () => {
  let out: string;
  let list: EpisodeRecord[];
  let prompts: Map<string, string>;

  beforeAll(async () => {
    const suite = await loadSuiteFile('tasks/core.yaml');
    if (!suite.ok) throw new Error('tasks/core.yaml does not load');
    prompts = new Map(suite.tasks.map((task) => [task.id, task.prompt]));
    const dir = join(scratch(), 'run');
    const run = stratbench([
      'run',
      '--suite',
      'tasks/core.yaml',
      '--strategy-module',
      'examples/strategies/critic-react.ts',
      '--strategies',
      'direct,react,plan-up-front,plan-replan,gated,critic-react',
      '--model',
      'scripted:faults=executor.bad_edit,agent.premature_finish,gate.misroute,replanner.vague_stop',
      '--out',
      dir,
      '--no-progress',
    ]);
    expect(run.status, run.stderr).toBe(0);
    list = episodesText(dir)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => EpisodeRecord.parse(JSON.parse(line)));
    out = join(scratch(), 'atif');
    const exported = stratbench(['export', dir, '--format', 'atif', '--out', out]);
    expect(exported.status, exported.stderr).toBe(0);
  });

  it('writes a valid trial per episode: no error from the validator, no dangling reference, every role call in its own file', () => {
    expect(list).toHaveLength(6 * 14);
    expect(list.filter((record) => !record.success).length).toBeGreaterThan(20);
    expect(readdirSync(out).sort()).toEqual(list.map(trialName).sort());
    let files = 0;
    for (const record of list) {
      const trial = readHarborTrial(join(out, trialName(record)));
      expect(trial.errors, record.key).toEqual([]);
      // Harbor takes the first of the sorted trajectory*.json as the main trajectory: it must be trajectory.json, whose instruction is the task's.
      expect(harborInstruction(join(out, trialName(record))), record.key).toEqual({ file: 'trajectory.json', instruction: prompts.get(record.task)?.trim() });
      files += 1 + trial.subagents.size;
      const [trajectory] = trial.main;
      const calls = record.trace.filter((event) => event.type === 'model_call');
      const single = ['agent', 'direct'].find((role) => calls.some((c) => c.role === role));
      // The single agent's calls are the episode's agent steps; every other role call is a file of its own.
      const agentSteps = trajectory!.steps.filter((step) => step.source === 'agent' && step.metrics);
      expect(
        agentSteps.map((step) => (step.extra!['stratbench'] as { id: number }).id),
        record.key,
      ).toEqual(calls.filter((c) => c.role === single).map((c) => c.id));
      const delegated = calls.filter((c) => c.role !== single);
      const seen = new Map<string, number>();
      expect([...trial.subagents.keys()]).toEqual(
        delegated.map((c) => `sub-${c.role}-${seen.set(c.role, (seen.get(c.role) ?? 0) + 1).get(c.role)}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      for (const [name, subagent] of trial.subagents) {
        const role = name.replace(/^sub-/, '').replace(/-\d+$/, '');
        expect(subagent.agent.extra).toMatchObject({ role, parent_session_id: record.key });
        expect(subagent.steps.filter((step) => step.source === 'agent')).toHaveLength(1);
        expect(harborConversations(subagent)).toHaveLength(1);
      }
      // Harness events are never user turns: the request is the only user step of the episode's file.
      expect(trajectory!.steps.filter((step) => step.source === 'user').map((step) => step.step_id)).toEqual([1]);
      // Every tool call once: answered on the step of the reply that chose it, or a plan step's system step.
      const answered = [trajectory!, ...trial.subagents.values()].flatMap((t) => t.steps.flatMap((step) => step.tool_calls ?? []).map((c) => c.tool_call_id));
      const fromPlan = trajectory!.steps.filter((step) => (step.extra?.['stratbench'] as { from_plan?: boolean } | undefined)?.from_plan);
      expect(answered.length + fromPlan.length).toBe(record.trace.filter((e) => e.type === 'tool_call').length);
      expect(trajectory!.agent.tool_definitions).toEqual(tools);
    }
    expect(files).toBeGreaterThan(list.length);
  });

  it('lists the repository tools from tools/ as OpenAI function definitions', () => {
    expect(tools.map((definition) => definition.function.name)).toEqual([...TOOL_NAMES]);
    expect(tools.find((definition) => definition.function.name === 'edit')).toEqual({
      type: 'function',
      function: { name: 'edit', description: TOOLS.edit.description, parameters: argsSchema(TOOLS.edit) },
    });
    expect(argsSchema(TOOLS.edit)).toMatchObject({ type: 'object', required: expect.arrayContaining(['path']) });
  });

  it('keeps plan-replan’s roles apart and the critic of a strategy module in its own files', () => {
    const replan = list.find((record) => record.strategy === 'plan-replan' && record.trace.some((e) => e.type === 'model_call' && e.role === 'replanner'))!;
    const trial = readHarborTrial(join(out, trialName(replan)));
    expect(new Set([...trial.subagents.keys()].map((name) => name.replace(/^sub-/, '').replace(/-\d+$/, '')))).toEqual(
      new Set(replan.trace.flatMap((e) => (e.type === 'model_call' ? [e.role] : []))),
    );
    expect(harborConversations(trial.main[0]!)).toEqual([]);
    const critic = list.find((record) => record.strategy === 'critic-react')!;
    const criticTrial = readHarborTrial(join(out, trialName(critic)));
    expect([...criticTrial.subagents.keys()]).toContain('sub-critic-1');
    expect(criticTrial.subagents.get('sub-critic-1')!.agent.name).toBe('stratbench-critic');
  });

  it("names subagent files so Harbor's pick is trajectory.json; files named trajectory.<role>-<n>.json would be picked instead", () => {
    const roles = (record: EpisodeRecord) => new Set(record.trace.flatMap((e) => (e.type === 'model_call' ? [e.role] : [])));
    const planned = list.find((r) => r.strategy === 'plan-up-front')!;
    const routed = list.find((r) => r.strategy === 'gated' && roles(r).has('gate') && !roles(r).has('executor'))!;
    for (const [record, firstFile] of [
      [planned, 'executor-1'],
      [routed, 'gate-1'],
    ] as const) {
      const original = join(out, trialName(record), 'agent');
      expect(readdirSync(original), record.key).toContain(`trajectory.sub-${firstFile}.json`);
      expect(harborInstruction(join(out, trialName(record))).file, record.key).toBe('trajectory.json');
      // The same trial with the former names: Harbor would take the subagent's first message as the task's instruction.
      const copy = join(scratch(), 'former-names', trialName(record));
      mkdirSync(join(copy, 'agent'), { recursive: true });
      for (const file of readdirSync(original))
        writeFileSync(join(copy, 'agent', file.replace(/^trajectory\.sub-/, 'trajectory.')), readFileSync(join(original, file)));
      const subagent = JSON.parse(readFileSync(join(original, `trajectory.sub-${firstFile}.json`), 'utf8')) as { steps: Array<{ message: unknown }> };
      const first = subagent.steps.map((step) => step.message).find((m): m is string => typeof m === 'string' && m.trim() !== '');
      expect(harborInstruction(copy), record.key).toEqual({ file: `trajectory.${firstFile}.json`, instruction: first?.trim() });
      expect(first?.trim(), record.key).not.toBe(prompts.get(record.task)?.trim());
    }
  });

  it('reports a broken file, a dangling reference and an orphan file (the validator can fail)', () => {
    const record = list.find((r) => r.strategy === 'plan-up-front')!;
    const copy = join(scratch(), 'broken', trialName(record));
    mkdirSync(join(copy, 'agent'), { recursive: true });
    const original = join(out, trialName(record), 'agent');
    for (const file of readdirSync(original)) writeFileSync(join(copy, 'agent', file), readFileSync(join(original, file)));
    const main = JSON.parse(readFileSync(join(copy, 'agent', 'trajectory.json'), 'utf8'));
    main.steps[1].step_id = 7;
    main.steps[0].tool_calls = [];
    writeFileSync(join(copy, 'agent', 'trajectory.json'), JSON.stringify(main));
    expect(readHarborTrial(copy).errors).toEqual([
      "trajectory.json: trajectory.steps.0: Value error, Field 'tool_calls' is only applicable when source is 'agent', but source is 'user'",
    ]);
    main.steps[0].tool_calls = undefined;
    writeFileSync(join(copy, 'agent', 'trajectory.json'), JSON.stringify(main));
    expect(readHarborTrial(copy).errors).toEqual(['trajectory.json: trajectory.: Value error, steps[1].step_id: expected 2 (sequential from 1), got 7']);
    main.steps[1].step_id = 2;
    writeFileSync(join(copy, 'agent', 'trajectory.json'), JSON.stringify(main));
    rmSync(join(copy, 'agent', 'trajectory.sub-planner-1.json'));
    writeFileSync(join(copy, 'agent', 'trajectory.stray.json'), readFileSync(join(original, 'trajectory.sub-executor-1.json')));
    expect(readHarborTrial(copy).errors).toEqual([
      'step 2: subagent_trajectory_ref trajectory.sub-planner-1.json names no valid file in agent/',
      'trajectory.stray.json is referenced by no step',
    ]);
  });
});
