// The flat JSON Schema a model is given for a reply schema (Ollama `format`, prompts, cache keys).
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const flatSchemas = new WeakMap<z.ZodType, JsonSchema>();

/** How deep a recursive `$ref` is unrolled before it becomes `{}` (any value; the reply is validated anyway). */
const MAX_REF_DEPTH = 3;

/**
 * The JSON Schema of `schema` as a model should see it: zod's draft 2020-12 output (the shape after
 * defaults, so the grammar asks for every field and `additionalProperties: false` is kept) with every
 * `$ref` inlined and `$defs` / `$schema` removed. llama.cpp's grammar converter breaks on nested `$ref`
 * (LIBRARIES.md, zod 4). A recursive reference is unrolled `MAX_REF_DEPTH` times, then left open (`{}`).
 * Memoised per schema object. Falls back to the input shape when the output shape is unrepresentable.
 */
export function modelJsonSchema(schema: z.ZodType): JsonSchema {
  const known = flatSchemas.get(schema);
  if (known !== undefined) return known;
  let raw: JsonSchema;
  try {
    raw = z.toJSONSchema(schema, { unrepresentable: 'any' }) as JsonSchema;
  } catch {
    raw = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  }
  const flat = flattenJsonSchema(raw);
  flatSchemas.set(schema, flat);
  return flat;
}

/** Inlines every local `$ref` (`#`, `#/$defs/...`, `#/definitions/...`) of `root`; drops `$defs` and `$schema`. */
export function flattenJsonSchema(root: JsonSchema): JsonSchema {
  const resolve = (ref: string): unknown => {
    if (ref === '#') return root;
    if (!ref.startsWith('#/')) return undefined;
    let node: unknown = root;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
      if (node === null || typeof node !== 'object') return undefined;
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  };

  const visit = (node: unknown, stack: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, stack));
    if (node === null || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const ref = record.$ref;
    if (typeof ref === 'string') {
      const target = resolve(ref);
      const depth = stack.filter((seen) => seen === ref).length;
      if (target !== undefined && depth < MAX_REF_DEPTH) {
        Object.assign(out, visit(target, [...stack, ref]) as Record<string, unknown>);
      }
    }
    for (const [key, value] of Object.entries(record)) {
      if (key === '$ref') continue;
      if (record === root && (key === '$defs' || key === 'definitions' || key === '$schema')) continue;
      out[key] = visit(value, stack);
    }
    return out;
  };

  return visit(root, []) as JsonSchema;
}
