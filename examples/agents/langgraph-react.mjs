// A LangGraph.js agent as stratbench's external agent (issue 28 §4): the prebuilt ReAct agent, the episode's tools
// through @langchain/mcp-adapters, and ChatOpenAI pointed at the harness's recording proxy (OPENAI_BASE_URL).
// Run it: stratbench run --agent-cmd "node examples/agents/langgraph-react.mjs" --agent-name langgraph --strategies langgraph,react
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { ChatOpenAI } from '@langchain/openai';

const mcp = new MultiServerMCPClient({
  mcpServers: { repo: { transport: 'http', url: process.env.STRATBENCH_MCP_URL } },
  prefixToolNameWithServerName: false,
  useStandardContentBlocks: true,
});
const tools = await mcp.getTools();
const llm = new ChatOpenAI({
  model: process.env.STRATBENCH_MODEL,
  temperature: 0,
  maxRetries: 0,
  configuration: { baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY },
});
const agent = createReactAgent({
  llm,
  tools,
  prompt: 'You work in a code repository through the tools. End with finish (your answer) or stop (why you will not do it).',
});
try {
  await agent.invoke({ messages: [{ role: 'user', content: process.env.STRATBENCH_TASK }] }, { recursionLimit: 60 });
} finally {
  await mcp.close();
}
