// Copy-on-write repositories: list, search, git status/diff and text checks over a base's index plus an episode's overlay
// give what a naive scan of every file gives, over random trees and random edits and writes (property-style).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';
import { TRIGRAM_AFTER_SCANS, TRIGRAM_MIN_FILES, TreeIndex, lowerBound } from '../src/sim-repo/tree-index.js';

/** The model: every working-tree file, updated after each successful operation. */
type Files = Map<string, string>;

const isWithin = (path: string, scope: string) => scope === '' || path === scope || path.startsWith(`${scope}/`);
const sorted = (files: Files) => [...files.keys()].sort();
const isDirectoryIn = (files: Files, path: string) => path === '' || sorted(files).some((file) => file.startsWith(`${path}/`));

/** The pre-index listDirectory: every path scanned. */
function naiveList(files: Files, path: string) {
  if (!isDirectoryIn(files, path)) {
    return files.has(path) ? { ok: false, code: 'not_a_directory' } : { ok: false, code: 'not_found' };
  }
  const prefix = path === '' ? '' : `${path}/`;
  const entries = new Set<string>();
  for (const file of sorted(files)) {
    if (!file.startsWith(prefix)) continue;
    const slash = file.indexOf('/', prefix.length);
    entries.add(slash === -1 ? file : file.slice(0, slash + 1));
  }
  return { ok: true, path, entries: [...entries].sort() };
}

/** The pre-index searchFiles: every file under the scope read. */
function naiveSearch(files: Files, text: string, scope: string) {
  if (!files.has(scope) && !isDirectoryIn(files, scope)) return { ok: false, code: 'not_found' };
  const matches: Array<{ path: string; line: number; text: string }> = [];
  for (const path of sorted(files)) {
    if (!isWithin(path, scope)) continue;
    files
      .get(path)!
      .split('\n')
      .forEach((line, index) => {
        if (line.includes(text)) matches.push({ path, line: index + 1, text: line.endsWith('\r') ? line.slice(0, -1) : line });
      });
  }
  return { ok: true, matches };
}

const SEGMENTS = ['a', 'b', 'ab', 'a-b', 'a0', 'src', 'src-x', '.hidden', 'é'];
const WORDS = ['TAX_RATE', 'tax', 'rate', 'needle', 'née', 'x', '', 'ab', '\r', 'export const', '😀'];

const segment = fc.constantFrom(...SEGMENTS);
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
const content = fc
  .array(
    fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((words) => words.join(' ')),
    { maxLength: 5 },
  )
  .map((lines) => lines.join('\n'));

/** Drops paths that are another path's directory (a file and a folder cannot share a name). */
function consistent(entries: Array<[string, string]>): Record<string, string> {
  const files: Record<string, string> = {};
  const paths = new Set(entries.map(([name]) => name));
  for (const [name, text] of entries) {
    if ([...paths].some((other) => other.startsWith(`${name}/`))) continue;
    files[name] = text;
  }
  return files;
}

/** Random trees: small ones, and ones past TRIGRAM_MIN_FILES so search uses the trigram postings. */
const tree = fc.oneof(
  fc.array(fc.tuple(path, content), { minLength: 1, maxLength: 40 }).map(consistent),
  fc.array(fc.tuple(path, content), { minLength: 10, maxLength: 30 }).map((entries) => {
    // Grow past the threshold with numbered files in nested folders (same words, so postings are shared).
    const grown: Array<[string, string]> = [...entries];
    for (let i = 0; i < TRIGRAM_MIN_FILES + 50; i++) grown.push([`pkg/p${i % 7}/m${i}.js`, entries[i % entries.length]![1]]);
    return consistent(grown);
  }),
);

const operation = fc.oneof(
  fc.record({
    kind: fc.constant('write' as const),
    path: fc.oneof(
      path,
      path.map((p) => `new/${p}`),
    ),
    content,
  }),
  fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), old: fc.constantFrom(...WORDS.filter(Boolean)), replacement: fc.constantFrom(...WORDS) }),
);
const query = fc.record({
  text: fc.oneof(fc.constantFrom(...WORDS.filter(Boolean)), fc.constantFrom('TAX', 'AX_R', 'expo', 'nst t', 'zzz', 'a', 'é', '\n', 't\nr')),
  scope: fc.oneof(
    fc.constant(''),
    segment,
    path,
    path.map((p) => `new/${p}`),
    fc.constant('pkg/p3'),
    fc.constant('nowhere'),
  ),
});

describe('a repository on an indexed base with an overlay', () => {
  it('lists, searches, reports status and finds text exactly as a scan of every file does, before and after random edits and writes', () => {
    fc.assert(
      fc.property(tree, fc.array(operation, { maxLength: 8 }), fc.array(query, { minLength: 1, maxLength: 8 }), (files, operations, queries) => {
        const repo = SimRepo.fromSpec(RepoSpec.parse({ files }));
        // The spec's files plus the package.json generated when the spec has none.
        const model: Files = new Map([...Object.entries(files), ['package.json', repo.fileAt('package.json')!]]);
        const head = new Map(model);
        const check = () => {
          for (const { text, scope } of queries) {
            const listed = repo.list(scope === '' ? '.' : scope);
            expect(listed.ok ? listed : { ok: false, code: listed.code }).toEqual(naiveList(model, scope));
            const found = repo.search(text, scope === '' ? undefined : scope);
            expect(found.ok ? found : { ok: false, code: found.code }).toEqual(naiveSearch(model, text, scope));
            const inScope = sorted(model).filter((file) => isWithin(file, scope));
            expect(repo.filesContaining(text, scope)).toEqual({
              paths: inScope.filter((file) => model.get(file)!.includes(text)),
              filesInScope: inScope.length,
            });
          }
          const status = repo.gitStatus();
          expect({ modified: status.modified, untracked: status.untracked }).toEqual({
            modified: sorted(model).filter((file) => head.has(file) && head.get(file) !== model.get(file)),
            untracked: sorted(model).filter((file) => !head.has(file)),
          });
          expect(repo.allFiles()).toEqual(sorted(model).map((file) => [file, model.get(file)]));
        };
        check();
        for (const op of operations) {
          if (op.kind === 'write') {
            const written = repo.write(op.path, op.content);
            expect(written.ok).toBe(!isDirectoryIn(model, op.path) && !sorted(model).some((file) => op.path.startsWith(`${file}/`)));
            if (written.ok) model.set(op.path, op.content);
          } else {
            const target = sorted(model)[op.pick % model.size]!;
            const edited = repo.edit(target, op.old, op.replacement, true);
            if (edited.ok) model.set(target, repo.fileAt(target)!);
            else expect(model.get(target)).toBe(repo.fileAt(target));
          }
        }
        check();
      }),
      { numRuns: 60, seed: 15 },
    );
  });

  it('names every file holding a text in a base past the index threshold, including texts split across lines and non-ASCII ones', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`src/m${String(i).padStart(3, '0')}.js`] = `export const v${i} = ${i};\n// ${i % 97 === 0 ? 'prix net€' : 'plain'}\n`;
    const repo = SimRepo.fromSpec(RepoSpec.parse({ files }));
    expect(repo.filesContaining('prix net€').paths).toEqual([
      'src/m000.js',
      'src/m097.js',
      'src/m194.js',
      'src/m291.js',
      'src/m388.js',
      'src/m485.js',
      'src/m582.js',
    ]);
    expect(repo.filesContaining('= 599;\n//').paths).toEqual(['src/m599.js']);
    expect(repo.filesContaining('not in any file').paths).toEqual([]);
    expect(repo.search('v42 ', 'src').ok && repo.search('v42 ', 'src')).toEqual({
      ok: true,
      matches: [{ path: 'src/m042.js', line: 1, text: 'export const v42 = 42;' }],
    });
  });
});

describe('TreeIndex', () => {
  it('gives the range of a scope in the sorted paths, with a file of the same name as the scope apart, and directories by binary search', () => {
    const index = new TreeIndex(new Map(['src', 'src-x/a', 'src/a', 'src/b/c', 'src0', 't'].map((name) => [name, ''])));
    expect(index.paths).toEqual(['src', 'src-x/a', 'src/a', 'src/b/c', 'src0', 't']);
    expect(index.range('src')).toEqual({ exact: 0, start: 2, end: 4 });
    expect(index.range('src/b')).toEqual({ exact: -1, start: 3, end: 4 });
    expect(index.range('')).toEqual({ exact: -1, start: 0, end: 6 });
    expect([index.isDirectory('src'), index.isDirectory('src/b'), index.isDirectory('src/a'), index.isDirectory('sr'), index.isDirectory('')]).toEqual([
      true,
      true,
      false,
      false,
      true,
    ]);
    expect(index.entries('')).toEqual(['src', 'src-x/', 'src/', 'src0', 't']);
    expect(index.entries('src')).toEqual(['src/a', 'src/b/']);
    expect(index.entries('src/a')).toBeUndefined();
    expect(lowerBound(index.paths, 'src/')).toBe(2);
  });

  it('scans (no postings) below the file threshold or for texts shorter than a trigram', () => {
    const small = new TreeIndex(new Map([['a', 'needle']]));
    expect(small.candidates('needle')).toBeUndefined();
    const big = new TreeIndex(new Map(Array.from({ length: TRIGRAM_MIN_FILES }, (_, i) => [`f${i}`, i === 7 ? 'needle' : 'hay'] as [string, string])));
    expect(big.candidates('ne')).toBeUndefined();
    // A big base scans its first TRIGRAM_AFTER_SCANS searches, then builds the postings.
    for (let scan = 0; scan < TRIGRAM_AFTER_SCANS; scan++) expect(big.candidates('needle')).toBeUndefined();
    expect([...big.candidates('needle')!].map((i) => big.paths[i])).toContain('f7');
    expect([...big.candidates('hay')!].length).toBe(TRIGRAM_MIN_FILES - 1);
  });
});
