// The one canonical JSON of the project: equal values give equal text (cache keys, call keys, content hashes).
import { createHash } from 'node:crypto';

/**
 * JSON text with object keys sorted (by UTF-16 code unit) at every level and no whitespace. Otherwise exactly
 * `JSON.stringify`'s rules: object properties whose value is `undefined`, a function or a symbol are left out,
 * such array items become `null`, non-finite numbers become `null`, `toJSON` is honoured. `undefined` at the top
 * level gives `'null'` (not `undefined`), so the result is always a string. Throws on cycles and BigInt, as
 * `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortedKeys) ?? 'null';
}

function sortedKeys(_key: string, item: unknown): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
  const keys = Object.keys(item).sort();
  const sorted: Record<string, unknown> = {};
  for (const key of keys) sorted[key] = (item as Record<string, unknown>)[key];
  return sorted;
}

/** Length in hex digits of a content address: 64 bits of sha256, unique enough within one results folder. */
export const CONTENT_HASH_LENGTH = 16;

/** The content address of a text: the first CONTENT_HASH_LENGTH hex digits of its UTF-8 sha256. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, CONTENT_HASH_LENGTH);
}
