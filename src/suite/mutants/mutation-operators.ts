// Mutation operators on a JavaScript source (parsed with acorn): each finds its sites and the text that replaces them.
import { parse, type Node } from 'acorn';

/** The six kinds of procedural bug (issue 12 §2; SWE-smith's procedural modifications, Yang et al. 2025). */
export const MUTATION_OPERATORS = [
  'comparison-flipped',
  'off-by-one',
  'rounding-swapped',
  'condition-removed',
  'arguments-swapped',
  'constant-changed',
] as const;
export type MutationOperator = (typeof MUTATION_OPERATORS)[number];

/** One mutation of one file: the character range [start, end) of `original` is replaced by `replacement`. */
export interface Mutation {
  file: string;
  operator: MutationOperator;
  start: number;
  end: number;
  original: string;
  replacement: string;
  /** 1-based line of `start`. */
  line: number;
  /** The innermost named function around the site (`(module)` at top level). */
  functionName: string;
  /** What changed, in a commit message's words, e.g. "Math.round → Math.floor". */
  description: string;
}

type AnyNode = Node & Record<string, unknown>;

const FLIPPED: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '===': '!==', '!==': '===', '==': '!=', '!=': '==' };
const OFF_BY_ONE: Record<string, string> = { '<': '<=', '<=': '<', '>': '>=', '>=': '>' };
const ROUNDING: Record<string, string> = { round: 'floor', floor: 'ceil', ceil: 'round', trunc: 'round' };

const isNode = (value: unknown): value is AnyNode => value !== null && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string';

/** Every node under `root` with the name of its innermost enclosing named function. */
function* walk(node: AnyNode, functionName: string): Generator<{ node: AnyNode; functionName: string }> {
  let inside = functionName;
  if ((node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression') && isNode(node.id)) inside = String(node.id.name);
  if (node.type === 'VariableDeclarator' && isNode(node.id) && isNode(node.init) && /Function/.test(node.init.type)) inside = String(node.id.name);
  if ((node.type === 'Property' || node.type === 'MethodDefinition') && isNode(node.key) && isNode(node.value) && /Function/.test(node.value.type))
    inside = String(node.key.name ?? node.key.value);
  yield { node, functionName: inside };
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'loc') continue;
    if (Array.isArray(value)) for (const item of value) if (isNode(item)) yield* walk(item, inside);
    if (isNode(value)) yield* walk(value, inside);
  }
}

/** The operator token's offset in a binary expression's source (between its operands). */
function operatorOffset(source: string, node: AnyNode, operator: string): number {
  const left = node.left as AnyNode;
  return source.indexOf(operator, left.end);
}

/** A changed number literal: integers move by one, fractions by a twentieth (0.2 → 0.25). */
function changedNumber(value: number): number {
  if (Number.isInteger(value)) return value + 1;
  return Number((value + 0.05).toFixed(6));
}

/**
 * Every mutation the operators find in `source` (an ES module), in source order then operator order. Sites:
 * comparison-flipped — a relational or equality operator negated (`<` → `>=`); off-by-one — a bound made inclusive or
 * exclusive (`<` ↔ `<=`, `>` ↔ `>=`); rounding-swapped — Math.round/floor/ceil/trunc replaced; condition-removed —
 * an `if` or `?:` test replaced by `true`; arguments-swapped — the first two arguments of a call exchanged (when they
 * differ); constant-changed — a number literal outside import/export declarations changed. Throws acorn's SyntaxError
 * when the source does not parse.
 */
export function findMutations(file: string, source: string): Mutation[] {
  const program = parse(source, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as AnyNode;
  const found: Mutation[] = [];
  const lineOf = (offset: number): number => source.slice(0, offset).split('\n').length;
  const add = (operator: MutationOperator, start: number, end: number, replacement: string, functionName: string, description: string): void => {
    found.push({ file, operator, start, end, original: source.slice(start, end), replacement, line: lineOf(start), functionName, description });
  };
  for (const { node, functionName } of walk(program, '(module)')) {
    switch (node.type) {
      case 'BinaryExpression': {
        const operator = String(node.operator);
        const at = operatorOffset(source, node, operator);
        if (at < 0) break;
        const flipped = FLIPPED[operator];
        if (flipped) add('comparison-flipped', at, at + operator.length, flipped, functionName, `\`${operator}\` → \`${flipped}\``);
        const bound = OFF_BY_ONE[operator];
        if (bound) add('off-by-one', at, at + operator.length, bound, functionName, `\`${operator}\` → \`${bound}\``);
        break;
      }
      case 'CallExpression': {
        const callee = node.callee as AnyNode;
        const property = callee.type === 'MemberExpression' ? (callee.property as AnyNode) : undefined;
        if (property && (callee.object as AnyNode).type === 'Identifier' && (callee.object as AnyNode).name === 'Math') {
          const swapped = ROUNDING[String(property.name)];
          if (swapped) add('rounding-swapped', property.start, property.end, swapped, functionName, `Math.${String(property.name)} → Math.${swapped}`);
        }
        const args = node.arguments as AnyNode[];
        if (args.length >= 2) {
          const [first, second] = args as [AnyNode, AnyNode];
          const firstText = source.slice(first.start, first.end);
          const secondText = source.slice(second.start, second.end);
          if (firstText !== secondText && first.type !== 'SpreadElement' && second.type !== 'SpreadElement') {
            const between = source.slice(first.end, second.start);
            add(
              'arguments-swapped',
              first.start,
              second.end,
              `${secondText}${between}${firstText}`,
              functionName,
              `arguments of ${source.slice(callee.start, callee.end)}(…) swapped`,
            );
          }
        }
        break;
      }
      case 'IfStatement':
      case 'ConditionalExpression': {
        const test = node.test as AnyNode;
        if (test.type === 'Literal') break;
        add('condition-removed', test.start, test.end, 'true', functionName, `condition \`${source.slice(test.start, test.end)}\` removed`);
        break;
      }
      case 'Literal': {
        if (typeof node.value !== 'number') break;
        const changed = changedNumber(node.value);
        add('constant-changed', node.start, node.end, String(changed), functionName, `${source.slice(node.start, node.end)} → ${changed}`);
        break;
      }
      default:
        break;
    }
  }
  return found.sort((a, b) => a.start - b.start || MUTATION_OPERATORS.indexOf(a.operator) - MUTATION_OPERATORS.indexOf(b.operator));
}

/** `source` with the mutation applied. */
export function applyMutation(source: string, mutation: Pick<Mutation, 'start' | 'end' | 'replacement'>): string {
  return source.slice(0, mutation.start) + mutation.replacement + source.slice(mutation.end);
}
