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
  // Plain data (what the attribution rules compare, call after call): serialised directly. Anything else — toJSON, a
  // class instance or boxed primitive, a digit-led key (numeric keys reorder), BigInt, nesting past 64 levels (or a
  // cycle) — by JSON.stringify with the sorting replacer, which defines the result.
  const text = plainJson(value, 0);
  return text === NOT_PLAIN ? (JSON.stringify(value, sortedKeys) ?? 'null') : text;
}

/** plainJson's answer for a value it leaves to JSON.stringify. */
const NOT_PLAIN = '\u0000not plain';

/**
 * canonicalJson of plain data — strings, numbers, booleans, null, arrays and objects whose prototype is Object's or
 * null, without toJSON — else NOT_PLAIN. Undefined, a function or a symbol: 'null' at the top and in arrays, left out
 * of objects (JSON.stringify's rules).
 */
function plainJson(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return 'null';
    case 'bigint':
      return NOT_PLAIN;
  }
  if (value === null) return 'null';
  if (depth > 64) return NOT_PLAIN;
  if (Array.isArray(value)) {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
    let out = '[';
    for (let index = 0; index < value.length; index++) {
      const item = plainJson(value[index], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out += index === 0 ? item : `,${item}`;
    }
    return `${out}]`;
  }
  const prototype = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  // A frozen object of primitives cannot change: its text is kept (model replies' values are frozen and shared by
  // every episode that gets the same reply, and the attribution rules compare their args call after call).
  const frozen = Object.isFrozen(value);
  if (frozen) {
    const kept = frozenTexts.get(value as object);
    if (kept !== undefined) return kept;
  }
  let flat = frozen;
  const keys = Object.keys(value as object);
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (const key of keys) {
    // An array-index key (an object lists those first, in numeric order, whatever the sort said), or an own
    // __proto__ (JSON.parse makes one; the replacer's copy sets the prototype instead): JSON.stringify's way.
    const first = key.charCodeAt(0);
    if ((first >= 48 && first <= 57) || key === '__proto__') return NOT_PLAIN;
    const item = (value as Record<string, unknown>)[key];
    // A getter could answer differently next time: only data properties holding primitives are kept.
    if (flat && !holdsPrimitive(Object.getOwnPropertyDescriptor(value, key))) flat = false;
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    const text = plainJson(item, depth + 1);
    if (text === NOT_PLAIN) return NOT_PLAIN;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${text}`;
  }
  out += '}';
  if (flat) frozenTexts.set(value as object, out);
  return out;
}

/** canonicalJson of frozen objects whose properties are all data properties holding primitives (nothing in them can change), by object. */
const frozenTexts = new WeakMap<object, string>();

/**
 * Whether `value` is a frozen plain object (prototype Object's or none) whose own properties are all data properties
 * holding primitives: nothing in it, or read through it, can change, so an answer computed from it can be kept with
 * it (decision 0050). O(properties).
 */
export function isFrozenFlat(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return (
    Object.isFrozen(value) &&
    (prototype === Object.prototype || prototype === null) &&
    Object.values(Object.getOwnPropertyDescriptors(value)).every(holdsPrimitive)
  );
}

/** Whether a property is a data property (not a getter) holding a primitive: what isFrozenFlat and plainJson's cache ask of every field. */
function holdsPrimitive(field: PropertyDescriptor | undefined): boolean {
  return field !== undefined && 'value' in field && (field.value === null || typeof field.value !== 'object');
}

/** JSON.stringify's replacer that gives each object its keys sorted (the definition plainJson follows). */
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
