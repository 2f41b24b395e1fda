// A minimal external agent (issue 28 §4): the official MCP client for the tools, the openai client for the model.
// Run it: stratbench run --agent-cmd "node examples/agents/mcp-openai.mjs" --agent-name mcp-openai --strategies mcp-openai,react
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';

const mcp = new Client({ name: 'mcp-openai-agent', version: '1.0.0' });
await mcp.connect(new StreamableHTTPClientTransport(new URL(process.env.STRATBENCH_MCP_URL)));
const { tools } = await mcp.listTools();
const { messages: [task] } = await mcp.getPrompt({ name: 'task' });

// OPENAI_BASE_URL and OPENAI_API_KEY come from the environment (the harness's recording proxy).
const openai = new OpenAI();
const messages = [
  { role: 'system', content: 'You work in a code repository through the tools. End with finish (your answer) or stop (why you will not do it).' },
  { role: 'user', content: task.content.text },
];
const functions = tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));

for (let turn = 0; turn < 40; turn += 1) {
  const completion = await openai.chat.completions.create({ model: process.env.STRATBENCH_MODEL, messages, tools: functions, temperature: 0 });
  const reply = completion.choices[0].message;
  messages.push(reply);
  if (!reply.tool_calls?.length) break; // a plain answer: the harness takes it as the final message
  for (const call of reply.tool_calls) {
    const result = await mcp.callTool({ name: call.function.name, arguments: JSON.parse(call.function.arguments || '{}') });
    if (call.function.name === 'finish' || call.function.name === 'stop') process.exit(0);
    messages.push({ role: 'tool', tool_call_id: call.id, content: result.content.map((part) => part.text ?? '').join('') });
  }
}
await mcp.close();
