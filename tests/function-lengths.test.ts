// scripts/function-lengths.ts: functions, methods and arrow functions measured in lines, each named as a reader would.
import { describe, expect, it } from 'vitest';
import { functionLengths } from '../scripts/function-lengths.js';

const SOURCE = `export function outer(a: number): number {
  const inner = (b: number) => {
    return b + 1;
  };
  return inner(a);
}

class Counter {
  count(): number {
    return 1;
  }
}

export const table = { build: function () { return 2; } };
`;

describe('functionLengths', () => {
  it('lists every function with a body, nested ones on their own, by name and line span', () => {
    expect(functionLengths('x.ts', SOURCE)).toEqual([
      { file: 'x.ts', name: 'outer', line: 1, lines: 6 },
      { file: 'x.ts', name: 'inner', line: 2, lines: 3 },
      { file: 'x.ts', name: 'count', line: 9, lines: 3 },
      { file: 'x.ts', name: 'build', line: 14, lines: 1 },
    ]);
  });

  it('leaves out declarations without a body (overloads, interface methods)', () => {
    expect(functionLengths('y.ts', 'export function f(a: string): void;\ninterface I { m(): void }\n')).toEqual([]);
  });
});
