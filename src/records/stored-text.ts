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

/**
 * Characters of text whose hashes `storedTextHash` remembers (about 4 MB of one-byte strings). A model call sends the
 * whole conversation again, so without the memo every earlier message is hashed once per later call (sha256 was 5% of
 * the main thread at 64 calls in flight).
 */
const HASH_MEMO_CHARS = 2_000_000;
const hashMemo = new Map<StoredTextRole, Map<string, string>>();
let hashMemoChars = 0;

/** The content address of a message or thinking text (the role is part of it: the same words as system and user differ). */
export function storedTextHash(role: StoredTextRole, content: string): string {
  let byContent = hashMemo.get(role);
  const known = byContent?.get(content);
  if (known !== undefined) return known;
  const hash = contentHash(`${role}\n${content}`);
  if (hashMemoChars + content.length > HASH_MEMO_CHARS) {
    hashMemo.clear();
    hashMemoChars = 0;
    byContent = undefined;
  }
  if (content.length <= HASH_MEMO_CHARS) {
    if (byContent === undefined) hashMemo.set(role, (byContent = new Map()));
    byContent.set(content, hash);
    hashMemoChars += content.length;
  }
  return hash;
}

/** Where a trace puts the texts it references (a results folder's messages.jsonl, or a map in tests). */
export interface TextSink {
  /** Called once per text an episode references; the sink may see a hash again (from another episode) and keep it once. */
  put(text: StoredText): void;
}
