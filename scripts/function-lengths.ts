// Lists the functions, methods and arrow functions of a folder longer than a threshold (lines, signature to closing
// brace); exits 1 when any is, so it can be a check: `tsx scripts/function-lengths.ts [folder] [--max N]`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

/** Longest function the check lets pass, in lines (issue 31 §2: "no function over ~80 lines in src/runner"). */
export const DEFAULT_MAX_LINES = 80;

/** One function found: where it is, what it is called and how many lines it spans. */
export interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** The `.ts` files under `dir`, recursively, sorted (declaration files left out). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** A readable name for a function node: its own, its variable's or property's, else `(anonymous)`. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined) {
    return parent.name.getText(source);
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/** Every function-like node with a body in `text` and its length in lines (nested functions counted on their own too). */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const declaration = node as ts.FunctionLikeDeclaration;
      const start = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(declaration.getEnd()).line;
      found.push({ file, name: nameOf(declaration, source), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(): number {
  const { values, positionals } = parseArgs({ options: { max: { type: 'string' } }, allowPositionals: true });
  const max = values.max === undefined ? DEFAULT_MAX_LINES : Number(values.max);
  if (!Number.isInteger(max) || max < 1) {
    process.stderr.write(`--max must be a whole number of lines, got "${values.max}"\n`);
    return 2;
  }
  const folders = positionals.length > 0 ? positionals : ['src/runner'];
  const all = folders.flatMap((folder) => sourceFiles(folder).flatMap((file) => functionLengths(relative('.', file), readFileSync(file, 'utf8'))));
  const over = all.filter((entry) => entry.lines > max).sort((a, b) => b.lines - a.lines);
  for (const entry of over) process.stdout.write(`${String(entry.lines).padStart(5)}  ${entry.file}:${entry.line}  ${entry.name}\n`);
  const longest = all.reduce<FunctionLength | undefined>((best, entry) => (best === undefined || entry.lines > best.lines ? entry : best), undefined);
  const longestText = longest === undefined ? 'no function' : `longest ${longest.name} (${longest.file}:${longest.line}) at ${longest.lines} lines`;
  process.stdout.write(`${over.length} function(s) over ${max} lines in ${folders.join(', ')} (${all.length} functions; ${longestText})\n`);
  return over.length > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
