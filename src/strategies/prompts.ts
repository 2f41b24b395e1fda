// Renders a role's prompt template and the structured view into chat messages.
import { z } from 'zod';
import type { ChatMessage, JudgeView, Role, RoleView } from '../models/types.js';

/** One role's prompt template (a file in prompts/) and its sha256, recorded on every model call. */
export interface PromptTemplate {
  template: string;
  sha256: string;
}
export type PromptSet = Record<Role, PromptTemplate>;

const schemaText = new WeakMap<z.ZodType, string>();

/** The JSON Schema of a reply schema, as compact text for prompts (memoised per schema). */
export function describeSchema(schema: z.ZodType): string {
  let text = schemaText.get(schema);
  if (text === undefined) {
    text = JSON.stringify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
    schemaText.set(schema, text);
  }
  return text;
}

const systemMessages = new WeakMap<PromptTemplate, Map<z.ZodType, { tools: string; text: string }>>();

/** The role's template with `{{tools}}` and `{{schema}}` filled in, rendered once per template, schema and tool text. */
function systemMessage(template: PromptTemplate, schema: z.ZodType, tools: string): string {
  let bySchema = systemMessages.get(template);
  if (!bySchema) systemMessages.set(template, (bySchema = new Map()));
  const cached = bySchema.get(schema);
  if (cached && cached.tools === tools) return cached.text;
  const text = template.template.replaceAll('{{tools}}', tools).replaceAll('{{schema}}', describeSchema(schema));
  bySchema.set(schema, { tools, text });
  return text;
}

/** Marks the start of the JSON state block in the user message (the scripted-over-HTTP server reads it). */
export const STATE_FENCE = '```json state';

/**
 * Messages for one model call: the role's template as the system message (with `{{tools}}` and
 * `{{schema}}` filled in), the view as a fenced JSON block, and on a repair attempt the rejected
 * reply and the validation error.
 */
export function renderMessages(
  template: PromptTemplate,
  view: RoleView | JudgeView,
  schema: z.ZodType,
  tools: string,
  repair?: { text: string; error: string },
): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: systemMessage(template, schema, tools) },
    // Compact JSON: every indent is a prompt token a real model pays for, on every call.
    { role: 'user', content: `${STATE_FENCE}\n${JSON.stringify(view)}\n\`\`\`` },
  ];
  if (repair) {
    messages.push({ role: 'assistant', content: repair.text });
    messages.push({
      role: 'user',
      content: `Your reply was rejected: ${repair.error}\nReply again with only a JSON value matching the schema.`,
    });
  }
  return messages;
}

/** Reads the view back out of rendered messages (for serving the scripted model over HTTP). */
export function extractView(messages: ReadonlyArray<{ role: string; content: string }>): RoleView | undefined {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const start = message.content.indexOf(STATE_FENCE);
    if (start < 0) continue;
    const body = message.content.slice(start + STATE_FENCE.length);
    const end = body.lastIndexOf('```');
    try {
      return JSON.parse(body.slice(0, end)) as RoleView;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
