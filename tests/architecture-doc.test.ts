// docs/architecture.md stands alone: every path it names exists in this repository, and it names none outside it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EPISODES_FILE, EPISODES_GZ_FILE, MESSAGES_FILE, RUN_FILE, SUMMARY_FILE } from '../src/results-folder/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

/** The backticked spans of a markdown text (fenced blocks left out). */
function codeSpans(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
}

/** A span that names a file or folder: a relative path with a slash, or a file name with one of the repository's extensions. */
const PATH = /^(\.{0,2}\/)?[\w.@-]+(\/[\w.@-]+)*\/?$/;
const looksLikePath = (span: string): boolean => PATH.test(span) && (span.includes('/') || /\.(ts|md|yaml|json|cjs|js)$/.test(span));

/** The files of a results folder, named by their own names (they are in a run's folder, not in the repository). */
const RESULTS_FILES = new Set([EPISODES_FILE, EPISODES_GZ_FILE, MESSAGES_FILE, RUN_FILE, SUMMARY_FILE]);

/** Paths that do not exist under the repository's root. */
const missing = (paths: readonly string[]): string[] => paths.filter((path) => !existsSync(join(root, path)));
/** Paths that leave the repository: absolute, or climbing out with `..`. */
const outside = (paths: readonly string[]): string[] => paths.filter((path) => isAbsolute(path) || normalize(path).startsWith('..'));

/** The source of every `.ts` file under src/, joined: where a function the doc names must be defined. */
const source = (readdirSync(join(root, 'src'), { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts'))
  .map((file) => readFileSync(join(root, 'src', file), 'utf8'))
  .join('\n');

/** Whether src/ defines a function, method or class called `name` (declared, static, a method or a property). */
const defined = (name: string): boolean =>
  new RegExp(`(function\\s+${name}\\b|class\\s+${name}\\b|static\\s+${name}\\(|^\\s+(async\\s+)?${name}\\(|\\b${name}\\s*[:=]\\s*(async\\s*)?\\()`, 'm').test(
    source,
  );

/** The names called in the doc's diagrams (`score(`, `SimRepo.fromSpec(`, `new Trace(`). */
const calledNames = (text: string): string[] => [
  ...new Set([...text.matchAll(/^```\n([\s\S]*?)^```/gm)].flatMap((block) => [...block[1]!.matchAll(/([A-Za-z_]\w*)\(/g)].map((match) => match[1]!))),
];

describe('docs/architecture.md', () => {
  const paths = codeSpans(doc)
    .filter(looksLikePath)
    .filter((span) => !RESULTS_FILES.has(span));

  it('names paths (the check is not vacuous)', () => {
    expect(paths.length).toBeGreaterThan(40);
    expect(paths).toContain('src/runner/commands/run.ts');
  });

  it('names every path from the repository root, and each exists', () => {
    expect(missing(paths)).toEqual([]);
  });

  it('names no path outside the repository (no ../, no absolute path, no shared folder)', () => {
    expect(outside(paths)).toEqual([]);
    expect(doc).not.toMatch(/\.\.\/|\bshared\/(DESIGN|STYLE)/);
  });

  it('names in its diagrams only functions that src/ defines (signatures drift; names at least must not)', () => {
    const names = calledNames(doc);
    expect(names).toEqual(expect.arrayContaining(['score', 'attribute', 'fromSpec']));
    expect(names.filter((name) => !defined(name))).toEqual([]);
    expect(calledNames('```\nSimRepo.fromTask(task)\n```\n').filter((name) => !defined(name))).toEqual(['fromTask']);
  });

  it('finds a missing path and an outside one when there is one (the checks can fail)', () => {
    const spans = codeSpans('see `src/no-such-folder/file.ts` and `../shared/DESIGN.md`, run `npm test`').filter(looksLikePath);
    expect(spans).toEqual(['src/no-such-folder/file.ts', '../shared/DESIGN.md']);
    // Whether `../shared/DESIGN.md` exists depends on where the checkout sits, so the missing-path check takes the others.
    expect(missing([spans[0]!, 'src/runner/commands/run.ts'])).toEqual(['src/no-such-folder/file.ts']);
    expect(outside(spans)).toEqual(['../shared/DESIGN.md']);
  });
});
