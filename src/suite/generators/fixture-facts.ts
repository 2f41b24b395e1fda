// What the generators read off a fixture's code (parsed with acorn): exported constants and functions, who imports
// them, and calls of them in the tests whose arguments are all literals.
import { parse, type Node } from 'acorn';
import type { RepoSpec } from '../../sim-repo/index.js';

type AnyNode = Node & Record<string, unknown>;

/** `export const NAME = <number | string literal>` in a source file. */
export interface ExportedConstant {
  file: string;
  name: string;
  value: number | string;
  /** The literal as written, e.g. `0.2` or `"EUR"`. */
  literal: string;
}

/** An exported function or constant and the other files (sources and tests) that mention its name. */
export interface ExportedSymbol {
  file: string;
  name: string;
  kind: 'function' | 'constant';
  users: string[];
}

/** A call `name(literal, …)` found in a test file, as source text. */
export interface LiteralCall {
  file: string;
  test: string;
  name: string;
  args: string[];
}

const isSource = (path: string): boolean => /^src\/.*\.[cm]?js$/.test(path);
const isTest = (path: string): boolean => /^tests?\/.*\.test\.[cm]?js$/.test(path);

function program(source: string): AnyNode | undefined {
  try {
    return parse(source, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as AnyNode;
  } catch {
    return undefined;
  }
}

/** Source files (src/**.js) and test files (tests/**.test.js) of a repository, sorted. */
export function codeFiles(spec: RepoSpec): { sources: string[]; tests: string[] } {
  const paths = Object.keys(spec.files).sort();
  return { sources: paths.filter(isSource), tests: paths.filter(isTest) };
}

/** Every `export const NAME = literal` (number or string) in the source files, in file then source order. */
export function exportedConstants(spec: RepoSpec): ExportedConstant[] {
  const found: ExportedConstant[] = [];
  for (const file of codeFiles(spec).sources) {
    const source = spec.files[file] as string;
    for (const statement of ((program(source)?.body as AnyNode[] | undefined) ?? []) as AnyNode[]) {
      const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as AnyNode | null) : null;
      if (declaration?.type !== 'VariableDeclaration') continue;
      for (const declarator of declaration.declarations as AnyNode[]) {
        const init = declarator.init as AnyNode | null;
        const id = declarator.id as AnyNode;
        if (init?.type === 'Literal' && (typeof init.value === 'number' || typeof init.value === 'string') && id.type === 'Identifier') {
          found.push({ file, name: String(id.name), value: init.value, literal: source.slice(init.start, init.end) });
        }
      }
    }
  }
  return found;
}

const mentions = (text: string, name: string): boolean => new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(text);

/** Exported functions and constants with the other source and test files that mention their name. */
export function exportedSymbols(spec: RepoSpec): ExportedSymbol[] {
  const { sources, tests } = codeFiles(spec);
  const found: ExportedSymbol[] = [];
  for (const file of sources) {
    for (const statement of ((program(spec.files[file] as string)?.body as AnyNode[] | undefined) ?? []) as AnyNode[]) {
      const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as AnyNode | null) : null;
      const names: [string, ExportedSymbol['kind']][] = [];
      if (declaration?.type === 'FunctionDeclaration') names.push([String((declaration.id as AnyNode).name), 'function']);
      if (declaration?.type === 'VariableDeclaration') {
        for (const declarator of declaration.declarations as AnyNode[]) {
          if ((declarator.id as AnyNode).type === 'Identifier') names.push([String((declarator.id as AnyNode).name), 'constant']);
        }
      }
      for (const [name, kind] of names) {
        const users = [...sources, ...tests].filter((other) => other !== file && mentions(spec.files[other] as string, name));
        found.push({ file, name, kind, users });
      }
    }
  }
  return found;
}

const LITERAL_TYPES = new Set(['Literal', 'ObjectExpression', 'ArrayExpression', 'Property', 'UnaryExpression']);

/** Whether `node` is built only of literals (numbers, strings, null, arrays, objects with literal keys, -n). */
function literalOnly(node: AnyNode): boolean {
  if (!LITERAL_TYPES.has(node.type)) return false;
  if (node.type === 'ObjectExpression') return (node.properties as AnyNode[]).every((property) => literalOnly(property));
  if (node.type === 'Property') return !node.computed && literalOnly(node.value as AnyNode);
  if (node.type === 'ArrayExpression') return (node.elements as (AnyNode | null)[]).every((element) => element !== null && literalOnly(element));
  if (node.type === 'UnaryExpression') return node.operator === '-' && (node.argument as AnyNode).type === 'Literal';
  return true;
}

/** Calls of `names` in the test files whose arguments are all literals, first per function (file order). */
export function literalCalls(spec: RepoSpec, names: ReadonlySet<string>): LiteralCall[] {
  const found = new Map<string, LiteralCall>();
  for (const file of codeFiles(spec).tests) {
    const source = spec.files[file] as string;
    const root = program(source);
    if (root === undefined) continue;
    const visit = (node: AnyNode, test: string): void => {
      let inside = test;
      if (node.type === 'CallExpression') {
        const callee = node.callee as AnyNode;
        const args = node.arguments as AnyNode[];
        if (callee.type === 'Identifier' && ['it', 'test'].includes(String(callee.name)) && (args[0] as AnyNode | undefined)?.type === 'Literal') {
          inside = String((args[0] as AnyNode).value);
        }
        const name = String(callee.name);
        if (callee.type === 'Identifier' && names.has(name) && !found.has(name) && args.length > 0 && args.every(literalOnly)) {
          found.set(name, { file, test: inside, name, args: args.map((arg) => source.slice(arg.start, arg.end)) });
        }
      }
      for (const [key, value] of Object.entries(node)) {
        if (key === 'type') continue;
        if (Array.isArray(value)) for (const item of value) if (item && typeof item === 'object' && 'type' in item) visit(item as AnyNode, inside);
        if (value && typeof value === 'object' && 'type' in value) visit(value as AnyNode, inside);
      }
    };
    visit(root, '');
  }
  return [...found.values()];
}

/** Whole-word mentions of `name` in `text`. */
export function mentionsName(text: string, name: string): boolean {
  return mentions(text, name);
}
