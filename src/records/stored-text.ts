// messages.jsonl: each distinct message a model was sent, and each distinct thinking text, stored once per results
// folder and referenced from model_call events by content hash.
import { z } from 'zod';
import { contentHash } from './canonical-json.js';

/** Who a stored text is from: a chat message's role, or `thinking` for the reasoning a model returned. */
export const StoredTextRole = z.enum(['system', 'user', 'assistant', 'tool', 'thinking']);
export type StoredTextRole = z.infer<typeof StoredTextRole>;

/** One line of messages.jsonl. `hash` = storedTextHash(role, content). */
export const StoredText = z.object({
  hash: z.string().describe('Content address: 16 hex digits of sha256 over role, newline, content'),
  role: StoredTextRole,
  content: z.string(),
});
export type StoredText = z.infer<typeof StoredText>;

/** The content address of a message or thinking text (the role is part of it: the same words as system and user differ). */
export function storedTextHash(role: StoredTextRole, content: string): string {
  return contentHash(`${role}\n${content}`);
}

/** Where a trace puts the texts it references (a results folder's messages.jsonl, or a map in tests). */
export interface TextSink {
  /** Called once per text an episode references; the sink may see a hash again (from another episode) and keep it once. */
  put(text: StoredText): void;
}
