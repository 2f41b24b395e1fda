// The MCP server an external agent works through: the episode's tools, `finish` and `stop`, and the task as a prompt.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { argsSchema, executeToolCall, TOOL_NAMES, TOOLS, ToolInternalError } from '../tools/index.js';
import { codeGoesAhead, useTool } from '../strategies/tool-use.js';
import { codeAhead } from '../sim-repo/index.js';
import type { AgentSession } from './session.js';

/** The version the MCP server reports (its tool set's, not the package's: it changes when the tools do). */
export const MCP_SERVER_VERSION = '1.0.0';

/** The two tools that end an episode, beside the repository's tools. */
export const ENDING_TOOLS = [
  {
    name: 'finish',
    description: 'End the task with your answer or report for the developer (what you found or changed). Call it once, last.',
    inputSchema: { type: 'object', properties: { answer: { type: 'string', description: 'The answer or report' } }, required: ['answer'] },
  },
  {
    name: 'stop',
    description: 'End the task without doing it, with a message to a person: why it must not or cannot be done as asked.',
    inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'The message to a person' } }, required: ['message'] },
  },
] as const;

/** The most characters of an answer or stop message an episode keeps (the rest is cut, saying how much): 20,000. */
export const MAX_ANSWER_CHARS = 20_000;

/** `text` cut to MAX_ANSWER_CHARS, with a note of how many characters were cut. */
export function capText(text: string): string {
  return text.length <= MAX_ANSWER_CHARS ? text : `${text.slice(0, MAX_ANSWER_CHARS)}… [cut by stratbench: ${text.length - MAX_ANSWER_CHARS} more characters]`;
}

/** The task as the agent reads it: the prompt, then the notes an earlier session left (dated), if any. */
export function taskText(task: { prompt: string; memory: ReadonlyArray<{ date: string; text: string }> }): string {
  if (task.memory.length === 0) return task.prompt;
  return `${task.prompt}\n\nNotes from earlier sessions:\n${task.memory.map((note) => `- ${note.date}: ${note.text}`).join('\n')}`;
}

interface ToolReply {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

const text = (value: string, isError = false): ToolReply => ({ content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) });

/** What an agent sees of a tool call: the output, and the exit code of a command. */
function shown(output: string, exitCode: number | undefined): string {
  return exitCode === undefined ? output : `${output}${output.endsWith('\n') || output === '' ? '' : '\n'}(exit code ${exitCode})`;
}

/** One tools/call: an ending, a budget refusal, or the tool run against the episode's repository (traced like any). */
async function callTool(session: AgentSession, name: string, args: Record<string, unknown>): Promise<ToolReply> {
  session.contacted = true;
  if (session.closed) return text('the episode has ended', true);
  if (name === 'finish' || name === 'stop') {
    const field = name === 'finish' ? 'answer' : 'message';
    const value = args[field];
    if (typeof value !== 'string') return text(`${name} needs {"${field}": string}`, true);
    session.takeAsking(name, args);
    session.settle({
      kind: 'outcome',
      outcome:
        name === 'finish'
          ? { status: 'finished', reason: 'finished', answer: capText(value) }
          : { status: 'stopped', reason: 'stopped', message: capText(value) },
      by: name,
    });
    return text('the episode has ended');
  }
  const { ledger, budgets, ctx } = session;
  if (ledger.toolCalls >= budgets.maxToolCalls) {
    session.exhaust('tool_calls', `the agent asked for tool call ${ledger.toolCalls + 1}; the budget is ${budgets.maxToolCalls}`);
    return text(`tool-call budget exhausted (${budgets.maxToolCalls}): the episode has ended`, true);
  }
  const call = session.takeAsking(name, args);
  const links = call === undefined ? {} : { call };
  try {
    // The call runs on the repository only while the episode is open: one whose sandbox runs went ahead (a server
    // model) and that the deadline overtook meanwhile has no effect and no trace event (the state was being scored).
    const use = () => (session.closed ? undefined : useTool(ctx, ledger, name, args, undefined, 1, links));
    const used = name === 'run' && codeGoesAhead(ctx) ? await codeAhead(() => executeToolCall(ctx.repo.clone(), { tool: name, args }), use) : use();
    if (used === undefined) return text('the episode has ended', true);
    // The tool layer lists the repository's tools; an agent here also has the two that end the episode.
    const output = used.result.error_code === 'unknown_tool' ? `${used.result.output}, finish, stop` : used.result.output;
    return text(shown(output, used.result.exit_code), used.result.status !== 'success');
  } catch (error) {
    // A bug in a tool or under it is the harness's, not the agent's (executeToolCall's contract).
    session.settle({ kind: 'error', error, by: 'harness' });
    return text(error instanceof ToolInternalError ? 'internal error in the harness' : 'the episode has ended', true);
  }
}

/** A low-level MCP server over the session: tools (with their JSON Schemas as the built-in prompts show them) and the task prompt. */
function mcpServer(session: AgentSession, task: string): Server {
  const server = new Server({ name: 'stratbench', version: MCP_SERVER_VERSION }, { capabilities: { tools: {}, prompts: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...TOOL_NAMES.map((name) => ({ name, description: TOOLS[name].description, inputSchema: { type: 'object' as const, ...argsSchema(TOOLS[name]) } })),
      ...ENDING_TOOLS,
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(session, request.params.name, request.params.arguments ?? {}));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [{ name: 'task', description: 'The task of this episode: what the developer asked for' }],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== 'task') throw new Error(`unknown prompt ${request.params.name}; the server has one: task`);
    return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: task } }] };
  });
  return server;
}

/**
 * Serves one MCP request (streamable HTTP, stateless: a server and transport per request, JSON replies), accepting
 * only Host headers of the loopback address it listens on (the SDK's DNS-rebinding protection).
 */
export async function serveMcp(session: AgentSession, task: string, port: number, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const server = mcpServer(session, task);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    enableDnsRebindingProtection: true,
    allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`],
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
