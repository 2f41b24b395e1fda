// Issue 28 §3–4: any agent process as a strategy, through the bridge's MCP server and recording model proxy. Real
// agent processes (the two examples, and one that misbehaves on purpose) run episodes of the core suite; every way an
// episode can end — finish, stop, a final message, a crash, a signal, a hang, each budget, a failing backend, an
// interrupted run — is checked on what the record says.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_BUDGETS, externalAgentStrategy, tellingLine, type AgentBudgets } from '../src/agent-bridge/external-agent.js';
import { addModuleStrategy, clearRegisteredStrategies } from '../src/strategies/index.js';
import { runEpisode, type EpisodeTask } from '../src/runner/episode.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { createOpenAIModel } from '../src/models/openai.js';
import { CallInterrupted, type ChatModel, type Role } from '../src/models/types.js';
import type { EpisodeRecord, TraceEvent } from '../src/records/index.js';
import { allRoles, CORE_SUITE, environment } from './support/episode-fixtures.js';
import { episodes, ROOT, scratch, stratbench } from './support/cli.js';
import { DEFAULT_AGENT_BUDGETS } from '../src/runner/agent-option.js';

const BEHAVIOUR = join(ROOT, 'tests/fixtures/agents/behaviour.mjs');
const MINIMAL = join(ROOT, 'examples/agents/mcp-openai.mjs');
const LANGGRAPH = join(ROOT, 'examples/agents/langgraph-react.mjs');

let tasks: EpisodeTask[] = [];
let scripted: Record<Role, ChatModel>;
/** The scripted model playing the core suite, with these faults injected. */
let scriptedWith: (faults: string[]) => Record<Role, ChatModel>;
beforeAll(async () => {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  tasks = loaded.tasks;
  scriptedWith = (faults) =>
    allRoles(
      new ScriptedModel(
        loaded.tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })),
        faults,
      ),
    );
  scripted = scriptedWith([]);
});
afterEach(() => clearRegisteredStrategies());

const task = (id: string): EpisodeTask => tasks.find((t) => t.id === id) ?? (undefined as never);

/** One episode of `command` as the strategy "ext" on task `id`. */
async function agentEpisode(
  command: string,
  id: string,
  options: { budgets?: Partial<AgentBudgets>; models?: Record<Role, ChatModel>; signal?: AbortSignal } = {},
): Promise<EpisodeRecord> {
  clearRegisteredStrategies();
  addModuleStrategy(externalAgentStrategy({ name: 'ext', command, budgets: { ...AGENT_BUDGETS, ...options.budgets } }, () => options.signal));
  return runEpisode({ task: task(id), strategy: 'ext', epoch: 0, seed: 1 }, await environment(options.models ?? scripted));
}

const of = <T extends TraceEvent['type']>(record: EpisodeRecord, type: T) =>
  record.trace.filter((event): event is Extract<TraceEvent, { type: T }> => event.type === type);
const processOf = (record: EpisodeRecord) => of(record, 'agent_process')[0]!;
const toolCalls = (record: EpisodeRecord) => of(record, 'tool_call').map((event) => `${event.tool} ${JSON.stringify(event.args)}`);

/** True while a process with this pid exists (signal 0 probes without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Runs `command` and the built-in react on task `id`; expects the same verdict, ending and tool calls. The agent's record. */
async function againstReact(command: string, id: string): Promise<EpisodeRecord> {
  const external = await agentEpisode(command, id);
  const react = await runEpisode({ task: task(id), strategy: 'react', epoch: 0, seed: 1 }, await environment(scripted));
  const seen = (record: EpisodeRecord) => ({ id, success: record.success, status: record.outcome.status, calls: toolCalls(record) });
  expect(seen(external)).toEqual(seen(react));
  return external;
}

describe('real agent clients against the built-in react strategy', () => {
  it('the minimal MCP + openai agent makes the same tool calls and gets the same verdict as react on every core task', async () => {
    for (const { id } of tasks) expect((await againstReact(`node ${MINIMAL}`, id)).models).toEqual({ agent: 'scripted' });
  });

  it("LangGraph's prebuilt ReAct agent (tools through @langchain/mcp-adapters, ChatOpenAI at the proxy) matches react too", async () => {
    for (const id of ['default-currency', 'rename-tax-rate', 'moved-readme', 'fix-checkout-test', 'payments-sandbox-key']) {
      await againstReact(`node ${LANGGRAPH}`, id);
    }
  });

  it('traces every proxied call as an agent model_call that its tool calls link to, and keeps the process', async () => {
    const record = await agentEpisode(`node ${MINIMAL}`, 'rename-tax-rate');
    expect(record.success).toBe(true);
    const calls = of(record, 'model_call');
    expect(calls.map((call) => [call.role, call.schema, call.outcome])).toEqual(calls.map(() => ['agent', 'action', 'ok']));
    // The agent's own messages are what the trace keeps as sent (system + task, then the conversation).
    expect(calls[0]!.sent?.messages).toHaveLength(2);
    for (const tool of of(record, 'tool_call')) expect(calls.map((call) => call.id)).toContain(tool.call);
    expect(record.metrics.model_calls).toEqual({ agent: calls.length });
    expect(processOf(record)).toMatchObject({ command: `node ${MINIMAL}`, killed: 'finish' });
    // The process event comes before the end event; the final checks follow it.
    const types = record.trace.map((event) => event.type);
    expect(types.indexOf('agent_process')).toBe(types.indexOf('end') - 1);
  });

  it('attributes the failures of a faulted agent model to the agent, as for the built-in single agent', async () => {
    const record = await agentEpisode(`node ${MINIMAL}`, 'fix-checkout-test', { models: scriptedWith(['agent.premature_finish']) });
    expect(record.success).toBe(false);
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'premature_finish' });
  });
});

describe('how an agent process ends its episode', () => {
  it('a crash after a tool call is the agent failure invalid_output/agent_exit, with its stderr kept', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} crash-after-tool`, 'default-currency');
    expect(record.outcome).toEqual({
      status: 'invalid_output',
      reason: 'agent_exit',
      message: 'the agent process exited with code 1 without calling finish or stop; stderr: RuntimeError: boom',
    });
    expect(processOf(record)).toMatchObject({ exit_code: 1, signal: null, stderr: 'Traceback: the agent fell over\nRuntimeError: boom\n' });
    expect(processOf(record).killed).toBeUndefined();
    expect(toolCalls(record)).toEqual(['read {"path":"src/config.js"}']);
    expect(record.success).toBe(false);
    expect(record.attribution?.component).toBe('agent');
  });

  it('a process ended by a signal is the agent failure too, naming the signal', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} self-kill`, 'default-currency');
    expect(record.outcome).toMatchObject({
      status: 'invalid_output',
      reason: 'agent_exit',
      message: 'the agent process was ended by SIGKILL (the shell exited 137) without calling finish or stop; stderr: Killed',
    });
    expect(processOf(record)).toMatchObject({ exit_code: 137, signal: 'SIGKILL' });
    expect(processOf(record).killed).toBeUndefined();
  });

  it('an exit 0 without finish, stop or an answer is agent_exit; an exit 0 after a plain reply is that reply as the answer', async () => {
    const quiet = await agentEpisode(`node ${BEHAVIOUR} exit-quietly`, 'default-currency');
    expect(quiet.outcome.reason).toBe('agent_exit');
    const backend = await fakeOpenAI(() => ({ status: 200, body: completion({ content: 'EUR, from src/config.js' }) }));
    try {
      const record = await agentEpisode(`node ${BEHAVIOUR} final-message`, 'default-currency', { models: backend.models() });
      expect(record.outcome).toEqual({ status: 'finished', reason: 'final_message', answer: 'EUR, from src/config.js' });
      // Forwarded as the agent sent it, with the run's model named.
      expect(backend.requests[0]).toMatchObject({ model: 'served-model', messages: [{ role: 'user', content: task('default-currency').prompt }] });
      expect(of(record, 'model_call')[0]).toMatchObject({ role: 'agent', model: 'openai:served-model', schema: 'chat', text: 'EUR, from src/config.js' });
    } finally {
      await backend.close();
    }
  });

  it('a hung agent is killed at the deadline — its whole process group — as budget_exhausted/deadline', async () => {
    const pidFile = join(scratch(), 'grandchild.pid');
    const record = await agentEpisode(`node ${BEHAVIOUR} hang ${pidFile}`, 'default-currency', { budgets: { deadlineMs: 3_000 } });
    expect(record.outcome).toEqual({ status: 'budget_exhausted', reason: 'deadline' });
    expect(of(record, 'budget')).toMatchObject([{ limit: 'deadline', detail: 'the agent ran past its deadline of 3000 ms' }]);
    expect(processOf(record)).toMatchObject({ exit_code: null, signal: 'SIGKILL', killed: 'budget' });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await until(() => !alive(grandchild), 'the grandchild to die');
  });

  it('the tool-call budget is enforced at the MCP server: the next call ends the episode', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} tool-spam`, 'default-currency', { budgets: { maxToolCalls: 3 } });
    expect(record.outcome).toEqual({ status: 'budget_exhausted', reason: 'tool_calls' });
    expect(of(record, 'tool_call')).toHaveLength(3);
    expect(of(record, 'budget')[0]?.detail).toBe('the agent asked for tool call 4; the budget is 3');
    expect(processOf(record).killed).toBe('budget');
  });

  it('the model-call budget is enforced at the proxy: the next call ends the episode', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} model-spam`, 'default-currency', { budgets: { maxModelCalls: 2 } });
    expect(record.outcome).toEqual({ status: 'budget_exhausted', reason: 'model_calls' });
    expect(of(record, 'model_call')).toHaveLength(2);
    expect(processOf(record).killed).toBe('budget');
  });

  it('an agent that exits 127 (or any code) is the agent failing — the harness cannot tell it from a command that is not there', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} unknown-behaviour; exit 127`, 'default-currency');
    expect(record.outcome).toMatchObject({ status: 'invalid_output', reason: 'agent_exit' });
    expect(record.outcome.message).toBe('the agent process exited with code 127 without calling finish or stop; stderr: unknown behaviour unknown-behaviour');
  });

  it('a process that cannot be spawned at all (its directory is gone) is infrastructure, not the agent failing', async () => {
    clearRegisteredStrategies();
    addModuleStrategy(externalAgentStrategy({ name: 'ext', command: `node ${MINIMAL}`, budgets: AGENT_BUDGETS, cwd: join(scratch(), 'gone') }));
    const record = await runEpisode({ task: task('default-currency'), strategy: 'ext', epoch: 0, seed: 1 }, await environment(scripted));
    expect(record.outcome.status).toBe('error');
    expect(record.outcome.reason).toBe('infrastructure:other');
    expect(record.outcome.message).toMatch(/^could not start the agent process \(\/bin\/sh -c node .*\): spawn \/bin\/sh ENOENT$/);
  });

  it('runs the command in its recorded directory: a relative path names the same file from anywhere', async () => {
    clearRegisteredStrategies();
    const dir = join(ROOT, 'tests/fixtures/agents');
    addModuleStrategy(externalAgentStrategy({ name: 'ext', command: 'node ./behaviour.mjs huge-answer 1', budgets: AGENT_BUDGETS, cwd: dir }));
    const record = await runEpisode({ task: task('default-currency'), strategy: 'ext', epoch: 0, seed: 1 }, await environment(scripted));
    expect(record.outcome).toEqual({ status: 'finished', reason: 'finished', answer: 'EUR ' });
  });

  it('kills what left the process group too (setsid, a detached daemon holding stdout), and the episode does not wait on it', async () => {
    const pidFile = join(scratch(), 'escaped.pids');
    const record = await agentEpisode(`node ${BEHAVIOUR} escape ${pidFile}`, 'default-currency');
    expect(record.outcome).toMatchObject({ status: 'finished', answer: 'EUR' });
    const pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
    expect(pids).toHaveLength(2);
    await until(() => pids.every((pid) => !alive(pid)), 'the escaped processes to die');
  });

  it('cuts an answer past 20,000 characters, saying how much was cut', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} huge-answer 10000`, 'default-currency');
    expect(record.outcome.answer).toBe(`${'EUR '.repeat(5_000)}… [cut by stratbench: 20000 more characters]`);
  });

  it('refuses malformed chat requests with 400, neither traced nor charged to the model-call budget', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} malformed`, 'default-currency', { budgets: { maxModelCalls: 2 } });
    expect(processOf(record).stdout).toBe('400 400 400 400 400 200\n');
    expect(record.outcome).toMatchObject({ status: 'finished', answer: 'done' });
    expect(of(record, 'model_call')).toHaveLength(1);
  });

  it('refuses content nested past the stack with 400, not charged to the budget', async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} deep`, 'default-currency', { budgets: { maxModelCalls: 1 } });
    expect(processOf(record).stdout).toBe('400 200\n');
    expect(record.outcome).toMatchObject({ status: 'finished', answer: 'done' });
  });

  it("answers only its episode's secret URL on the loopback Host: another process that finds the port is refused", async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} knock`, 'default-currency');
    expect(processOf(record).stdout).toBe('403 403\n');
    expect(of(record, 'model_call')).toEqual([]);
  });

  it("a request the model server refuses as malformed (HTTP 400) is the agent's, not infrastructure: traced, answered, the episode goes on", async () => {
    const backend = await fakeOpenAI(() => ({ status: 400, body: { error: { message: "unknown role 'banana'", type: 'invalid_request_error' } } }));
    try {
      const record = await agentEpisode(`node ${MINIMAL}`, 'default-currency', { models: backend.models() });
      // The openai client throws on the 400, so the minimal agent crashes: its failure, with the server's words.
      expect(record.outcome).toMatchObject({ status: 'invalid_output', reason: 'agent_exit' });
      expect(record.outcome.message).toContain("unknown role 'banana'");
      expect(of(record, 'model_call')).toMatchObject([
        { role: 'agent', outcome: 'invalid', error: "the model server refused the request (HTTP 400): unknown role 'banana'" },
      ]);
      expect(record.attribution?.component).toBe('agent');
    } finally {
      await backend.close();
    }
  });

  it("names the line of a crash's stderr that says what went wrong, not Node's version banner", () => {
    const node = [
      'node:internal/modules/esm/resolve:873',
      '  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);',
      '        ^',
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@modelcontextprotocol/sdk' imported from /p/agent.mjs",
      '    at packageResolve (node:internal/modules/esm/resolve:873:9)',
      '',
      'Node.js v20.20.2',
    ].join('\n');
    expect(tellingLine(node)).toBe("Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@modelcontextprotocol/sdk' imported from /p/agent.mjs");
    expect(tellingLine('Traceback (most recent call last):\n  File "a.py", line 1\nValueError: bad\n')).toBe('ValueError: bad');
    expect(tellingLine('just a note\n')).toBe('just a note');
    expect(tellingLine('')).toBeUndefined();
  });

  it('a backend that fails ends the episode as infrastructure (the agent is killed), never as the agent failing', async () => {
    const backend = await fakeOpenAI(() => ({ status: 500, body: { error: { message: 'CUDA out of memory' } } }));
    try {
      const record = await agentEpisode(`node ${MINIMAL}`, 'default-currency', { models: backend.models() });
      expect(record.outcome.status).toBe('error');
      expect(record.outcome.reason).toBe('infrastructure:server_error');
      expect(processOf(record).killed).toBe('infrastructure');
    } finally {
      await backend.close();
    }
  });

  it('a reply that arrives after the deadline ended the episode is not recorded (the trace is closed)', async () => {
    // The backend holds the request until the episode has ended; the deadline doubles until the agent's request
    // arrives before it (a loaded machine starts node slowly), so the case is reached at any load.
    let release: () => void = () => {};
    const backend = await fakeOpenAI(
      () => ({ status: 200, body: completion({ content: 'too late' }) }),
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    try {
      for (let deadlineMs = 1_000; ; deadlineMs *= 2) {
        const record = await agentEpisode(`node ${BEHAVIOUR} final-message`, 'default-currency', { models: backend.models(), budgets: { deadlineMs } });
        expect(record.outcome).toEqual({ status: 'budget_exhausted', reason: 'deadline' });
        if (backend.requests.length === 0) continue;
        const length = record.trace.length;
        release();
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(record.trace).toHaveLength(length);
        expect(of(record, 'model_call')).toEqual([]);
        break;
      }
    } finally {
      release();
      await backend.close();
    }
  });

  it("a prompt past the backend's context window is the agent's context_exceeded, not infrastructure", async () => {
    const overflow = "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens (9000 in the messages, 0 in the completion).";
    const backend = await fakeOpenAI(() => ({
      status: 400,
      body: { object: 'error', message: overflow, type: 'BadRequestError', code: 400, error: { message: overflow } },
    }));
    try {
      const record = await agentEpisode(`node ${MINIMAL}`, 'default-currency', { models: backend.models() });
      expect(record.outcome).toEqual({ status: 'budget_exhausted', reason: 'context_exceeded' });
      expect(of(record, 'model_call')[0]).toMatchObject({ outcome: 'invalid', output_fault: { kind: 'context_exceeded' } });
    } finally {
      await backend.close();
    }
  });

  it('an interrupted run kills the agent and leaves the episode unwritten (CallInterrupted)', async () => {
    const pidFile = join(scratch(), 'grandchild.pid');
    const controller = new AbortController();
    const running = agentEpisode(`node ${BEHAVIOUR} hang ${pidFile}`, 'default-currency', { signal: controller.signal });
    await until(() => {
      try {
        return Number(readFileSync(pidFile, 'utf8')) > 0;
      } catch {
        return false;
      }
    }, 'the agent to start');
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(CallInterrupted);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await until(() => !alive(grandchild), 'the grandchild to die');
  });
});

describe('the proxy speaks both protocols', () => {
  it("OpenAI's server-sent events when the agent streams", async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} stream`, 'default-currency');
    const stdout = processOf(record).stdout;
    expect(stdout).toContain('"object":"chat.completion.chunk"');
    expect(stdout).toContain('"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read"');
    expect(stdout.trim().endsWith('data: [DONE]')).toBe(true);
    expect(record.outcome).toMatchObject({ status: 'finished', answer: 'streamed' });
  });

  it("Ollama's /api/chat through the ollama client (streamed and not): the task is solved as through OpenAI's", async () => {
    const record = await agentEpisode(`node ${BEHAVIOUR} ollama`, 'default-currency');
    expect(record.success).toBe(true);
    expect(toolCalls(record)).toEqual(['read {"path":"src/config.js"}']);
    expect(of(record, 'model_call')).toHaveLength(2);
  });
});

// ── a fake OpenAI-compatible backend on 127.0.0.1 ──────────────────────────────────────────────────────────────────

function completion(message: { content: string | null }) {
  return {
    id: 'c1',
    object: 'chat.completion',
    created: 0,
    model: 'served-model',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 },
  };
}

async function fakeOpenAI(answer: (body: Record<string, unknown>) => { status: number; body: unknown }, delay: () => Promise<unknown> = async () => {}) {
  const requests: Array<Record<string, unknown>> = [];
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  };
  const server: Server = createServer((req, res) => {
    void read(req).then(async (body) => {
      requests.push(body);
      await delay();
      if (res.destroyed) return;
      const { status, body: reply } = answer(body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    requests,
    models: () => allRoles(createOpenAIModel({ model: 'served-model', baseURL, retry: { attempts: 1, baseMs: 1, maxMs: 1, totalMs: 1_000 } })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

afterAll(() => clearRegisteredStrategies());

describe('run --agent-cmd', () => {
  it('runs the agent beside react, records it in run.json, keeps a crashing agent to its episodes, and resumes', () => {
    const out = join(scratch(), 'run');
    const args = ['run', '--agent-cmd', `node ${BEHAVIOUR} crash-after-tool`, '--agent-name', 'crashy', '--agent-max-tool-calls', '5'];
    const result = stratbench([...args, '--strategies', 'crashy,react', '--tasks', 'default-currency,rename-tax-rate', '--out', out]);
    expect(result.stderr).toContain('matrix: 2 tasks × 2 strategies × 1 epoch = 4 episodes');
    expect(result.status).toBe(0);
    const rows = episodes(out);
    expect(rows.map((r) => `${r['task']}|${r['strategy']}|${(r['outcome'] as { reason: string }).reason}`).sort()).toEqual([
      'default-currency|crashy|agent_exit',
      'default-currency|react|finished',
      'rename-tax-rate|crashy|agent_exit',
      'rename-tax-rate|react|finished',
    ]);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { config: Record<string, unknown> };
    expect(run.config['external_agent']).toEqual({
      name: 'crashy',
      command: `node ${BEHAVIOUR} crash-after-tool`,
      cwd: resolve(ROOT),
      files: [{ path: BEHAVIOUR, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
      max_tool_calls: 5,
      max_model_calls: 24,
      deadline_ms: 120_000,
    });
    expect(result.stdout).toMatch(/│ crashy\s+│ all\s+│ 2\s+│ 2\s+│ 0\s+│ 0\.0%/);
    // --resume takes the agent from run.json: nothing is left to run.
    const resumed = stratbench(['run', '--resume', out]);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toContain('4 finished episode(s) kept');
    expect(episodes(out)).toHaveLength(4);
  });

  it("--resume runs the agent in the run's directory from anywhere, and refuses an agent file edited since", () => {
    const project = scratch();
    writeFileSync(
      join(project, 'agent.mjs'),
      readFileSync(BEHAVIOUR, 'utf8').replaceAll("from '@modelcontextprotocol", `from '${ROOT}node_modules/@modelcontextprotocol`),
    );
    const out = join(scratch(), 'run');
    const args = ['run', '--agent-cmd', 'node agent.mjs crash-after-tool', '--tasks', 'default-currency', '--out', out];
    expect(stratbench(args, project).status).toBe(0);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { config: { external_agent: { cwd: string; files: unknown[] } } };
    expect(run.config.external_agent.cwd).toBe(project);
    expect(run.config.external_agent.files).toEqual([{ path: 'agent.mjs', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(stratbench(['run', '--resume', out], ROOT).status).toBe(0);
    const other = stratbench(['run', '--resume', out, '--agent-cmd', 'node other.mjs'], project);
    expect({ status: other.status, stderr: other.stderr.trim() }).toEqual({
      status: 2,
      stderr: `stratbench: cannot resume ${out} with a different matrix: --agent-cmd node other.mjs (the run has node agent.mjs crash-after-tool); leave these flags out to continue it as it was`,
    });
    writeFileSync(join(project, 'agent.mjs'), '// edited\n', { flag: 'a' });
    const edited = stratbench(['run', '--resume', out], ROOT);
    expect({ status: edited.status, stderr: edited.stderr.trim() }).toEqual({
      status: 2,
      stderr: `stratbench: --resume: the agent's file agent.mjs (in ${project}) changed since the run started; its episodes would mix two agents: start a new run`,
    });
  });

  it("replays a faulted agent's episode with the oracle behind the proxy: --counterfactual, and explain from run.json", () => {
    const args = ['run', '--agent-cmd', `node ${MINIMAL}`, '--agent-model', 'scripted:faults=agent.premature_finish', '--tasks', 'fix-checkout-test'];
    const replayed = stratbench([...args, '--counterfactual', '--out', join(scratch(), 'run')]);
    expect(replayed.status).toBe(0);
    expect(replayed.stdout).toContain('fixed by a single-role swap: 1/1 (agent 1)');
    expect(replayed.stdout).toContain('agreement with the rules: 1/1 (100.0%)');
    const out = join(scratch(), 'run');
    expect(stratbench([...args, '--out', out]).status).toBe(0);
    const explained = stratbench(['explain', out, 'fix-checkout-test', 'external']);
    expect(explained.stdout).toContain('attribution: agent.premature_finish');
    expect(explained.stdout).toContain('counterfactual: agent (agrees with the rules)');
    expect(explained.stdout).toMatch(/agent_process killed by SIGKILL \(the harness killed it: finish\) after \d+ ms: node /);
  });

  it("states the bridge's default budgets where the CLI reads them without loading the bridge", () => {
    expect(DEFAULT_AGENT_BUDGETS).toEqual(AGENT_BUDGETS);
  });

  it('refuses what it cannot run before any episode (exit 2)', () => {
    const cases: Array<[string[], string]> = [
      [['--agent-name', 'x'], '--agent-name needs --agent-cmd (the agent process to run)'],
      [['--agent-cmd', 'node a.mjs', '--agent-max-tool-calls', '0'], '--agent-max-tool-calls 0: give a positive whole number'],
      [['--agent-cmd', 'node a.mjs', '--agent-name', 'React'], '--agent-name "React": use lower-case letters, digits and dashes (1–40 characters)'],
      [['--agent-cmd', 'node a.mjs', '--agent-name', 'react'], '--agent-name react: strategy react: the name of a built-in strategy'],
      [['--agent-cmd', 'node a.mjs', '--strategies', 'react'], '--agent-cmd runs as the strategy "external"; add it to --strategies (react,external)'],
      [['--agent-cmd', 'nodee a.mjs'], `--agent-cmd "nodee a.mjs": nodee: command not found (in ${resolve(ROOT)})`],
    ];
    for (const [args, message] of cases) {
      const result = stratbench(['run', ...args, '--out', join(scratch(), 'run')]);
      expect({ status: result.status, stderr: result.stderr.trim() }).toEqual({ status: 2, stderr: `stratbench: ${message}` });
    }
  });
});
