// canonicalJson: the direct serialiser of plain data gives exactly what JSON.stringify with the key-sorting replacer gives.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/records/index.js';

/** The definition canonicalJson follows: JSON.stringify, each object copied with its keys sorted. */
function reference(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
      return sorted;
    }) ?? 'null'
  );
}

describe('canonicalJson', () => {
  it('sorts keys at every level and writes no whitespace', () => {
    expect(canonicalJson({ tool: 'read', args: { path: 'a.js', b: [{ z: 1, a: 2 }] } })).toBe('{"args":{"b":[{"a":2,"z":1}],"path":"a.js"},"tool":"read"}');
  });

  it('gives equal text for equal values built in any key order', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
  });

  const values: Array<[string, unknown]> = [
    ['strings needing escapes', { s: 'quote " backslash \\ newline \n tab \t nul \u0000 line sep \u2028 emoji 😀 lone \ud800' }],
    ['numbers', [0, -0, 1.5, -2e-7, 1e21, Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]],
    ['booleans and null', { t: true, f: false, n: null }],
    ['undefined, functions and symbols', { u: undefined, f: () => 1, s: Symbol('x'), a: [undefined, () => 1, Symbol('y')], kept: 1 }],
    ['top-level undefined', undefined],
    ['a top-level function', () => 1],
    ['a top-level string', 'text'],
    ['empty containers', { a: {}, b: [], c: [[]] }],
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    ['a sparse array', [1, , 3]],
    ['array-index keys (listed first, in numeric order)', { b: 1, 10: 'ten', 9: 'nine', a: 2, '1x': 3 }],
    ['an own __proto__ key from JSON.parse', JSON.parse('{"a":{"__proto__":{"x":1},"b":2}}')],
    ['a null-prototype object', Object.assign(Object.create(null), { z: 1, a: 2 })],
    ['toJSON (Date)', { when: new Date(0), nested: [{ at: new Date(86_400_000) }] }],
    ['toJSON of a plain object', { v: { toJSON: (key: string) => `key ${key}` } }],
    ['class instances and boxed primitives', { map: new Map([[1, 2]]), set: new Set([1]), number: Object(5), text: Object('ab'), flag: Object(true) }],
    ['keys sorted by code unit', { é: 1, e: 2, E: 3, _: 4, 'a b': 5, '': 6 }],
    ['a getter', Object.defineProperty({ b: 1 }, 'a', { get: () => 'got', enumerable: true })],
    ['deep nesting', JSON.parse(`${'{"a":'.repeat(80)}1${'}'.repeat(80)}`)],
  ];
  for (const [name, value] of values) {
    it(`matches JSON.stringify with sorted keys: ${name}`, () => {
      expect(canonicalJson(value)).toBe(reference(value));
    });
  }

  it('throws on BigInt, as JSON.stringify does', () => {
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it('throws on a cycle', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow();
    const array: unknown[] = [1];
    array.push(array);
    expect(() => canonicalJson(array)).toThrow(TypeError);
  });

  it('keeps the text of a frozen object of primitives, and of nothing that could change', () => {
    // A frozen reply value, as every episode getting the same reply shares it: read once, then served.
    let reads = 0;
    const target = Object.freeze({ path: 'src/a.js', line: 3 });
    const counted = new Proxy(target, {
      get: (object, key, receiver) => {
        if (typeof key === 'string' && key in object) reads++;
        return Reflect.get(object, key, receiver);
      },
    });
    expect(canonicalJson(counted)).toBe('{"line":3,"path":"src/a.js"}');
    expect(canonicalJson(counted)).toBe('{"line":3,"path":"src/a.js"}');
    expect(reads).toBe(2);

    // A getter may answer differently, an object inside may change, an unfrozen object may change: each read anew.
    let count = 0;
    const getter = Object.freeze(Object.defineProperty({}, 'n', { get: () => ++count, enumerable: true }));
    expect([canonicalJson(getter), canonicalJson(getter)]).toEqual(['{"n":1}', '{"n":2}']);
    let shown: string | undefined = 'x';
    const hiding = Object.freeze(Object.defineProperty({}, 'v', { get: () => shown, enumerable: true }));
    expect(canonicalJson(hiding)).toBe('{"v":"x"}');
    shown = undefined;
    expect(canonicalJson(hiding)).toBe('{}');
    const inner = { b: 1 };
    const outer = Object.freeze({ a: inner });
    expect(canonicalJson(outer)).toBe('{"a":{"b":1}}');
    inner.b = 2;
    expect(canonicalJson(outer)).toBe('{"a":{"b":2}}');
    const open: Record<string, number> = { a: 1 };
    expect(canonicalJson(open)).toBe('{"a":1}');
    open['a'] = 2;
    expect(canonicalJson(open)).toBe('{"a":2}');
  });
});
