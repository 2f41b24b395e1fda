// Search over a base's cached lines (TreeIndex.linesHolding) and grep's cached text: what an episode wrote shows at
// once, repositories sharing a base never see each other's writes, and a repeated or capped search prints what a scan does.
import { describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';
import { CACHED_MATCH_LINES, TRIGRAM_MIN_FILES, TreeIndex } from '../src/sim-repo/tree-index.js';
import { baseFor } from '../src/sim-repo/state.js';
import { capOutput, executeToolCall, OUTPUT_LIMITS } from '../src/tools/index.js';

/** A base past the trigram threshold: `pkg/m000.js` … with `export function f<i>` twice each, and a small src/. */
function bigSpec(count = TRIGRAM_MIN_FILES + 44): RepoSpec {
  const files: Record<string, string> = {
    'src/a.js': 'export function a() {\n  return round(1);\n}\n',
    'src/b.js': 'const b = 2;\r\nexport function b2() {}\r\n',
  };
  for (let i = 0; i < count; i++) {
    files[`pkg/m${String(i).padStart(3, '0')}.js`] = `// m${i}\nexport function f${i}() {}\nexport function g${i}() { return round(${i}); }\n`;
  }
  return RepoSpec.parse({ files });
}

/** What grep -rn prints, from every working-tree file read in path order (no index, no cache). */
function scanGrep(repo: SimRepo, text: string, scope = ''): string {
  const lines: string[] = [];
  for (const [path, content] of repo.allFiles()) {
    if (scope !== '' && path !== scope && !path.startsWith(`${scope}/`)) continue;
    content.split('\n').forEach((line, index) => {
      if (line.includes(text)) lines.push(`${path}:${index + 1}:${line.endsWith('\r') ? line.slice(0, -1) : line}`);
    });
  }
  return lines.join('\n');
}

const searched = (repo: SimRepo, text: string, path?: string) => {
  const found = repo.search(text, path);
  return found.ok ? found.matches.map((match) => `${match.path}:${match.line}:${match.text}`).join('\n') : found.code;
};

describe('search and grep over a cached base', () => {
  it('show a file the episode created, edited or emptied at once, after the same search was cached', () => {
    const spec = bigSpec();
    const repo = SimRepo.fromSpec(spec);
    // Cache the base's answers first (search and grep, whole tree and scoped).
    expect(repo.run('grep -rn round .').output).toBe(scanGrep(repo, 'round'));
    expect(searched(repo, 'round', 'src')).toBe('src/a.js:2:  return round(1);');

    // Created: a new file in src/ and one sorting between base files.
    repo.write('src/c.js', 'round(3);\n');
    repo.write('pkg/m100a.js', 'x\nround(100.5);\n');
    expect(repo.list('src')).toEqual({ ok: true, path: 'src', entries: ['src/a.js', 'src/b.js', 'src/c.js'] });
    expect(repo.list('pkg').ok && (repo.list('pkg') as { entries: string[] }).entries.slice(100, 103)).toEqual(['pkg/m100.js', 'pkg/m100a.js', 'pkg/m101.js']);
    expect(searched(repo, 'round', 'src')).toBe('src/a.js:2:  return round(1);\nsrc/c.js:1:round(3);');
    const grep = repo.run('grep -rn round .');
    expect(grep.output).toBe(scanGrep(repo, 'round'));
    expect(grep.output).toContain('pkg/m100.js:3:export function g100() { return round(100); }\npkg/m100a.js:2:round(100.5);\npkg/m101.js:3:');

    // Edited: the base's line of the file is gone and the new one is found.
    repo.edit('pkg/m007.js', 'round(7)', 'Math.trunc(7)');
    expect(searched(repo, 'round(7)')).toBe('');
    expect(repo.run("grep -rn 'round(7)' pkg")).toMatchObject({ exit_code: 1, output: '' });
    expect(searched(repo, 'trunc')).toBe('pkg/m007.js:3:export function g7() { return Math.trunc(7); }');
    expect(repo.run('grep -rn round .').output).toBe(scanGrep(repo, 'round'));

    // Emptied (the simulation has no delete: a file written empty holds nothing): none of its lines is found.
    repo.write('src/a.js', '');
    expect(searched(repo, 'round', 'src')).toBe('src/c.js:1:round(3);');
    expect(repo.run('grep -rn round src').output).toBe('src/c.js:1:round(3);');
    expect(repo.run('grep -rn round .').output).toBe(scanGrep(repo, 'round'));
  });

  it('serves a second repository on the same base the base as it is, not the first one`s writes', () => {
    const spec = bigSpec();
    const first = SimRepo.fromSpec(spec);
    const before = first.run('grep -rn "export function" .').output;
    first.edit('src/a.js', 'export function a', 'function a');
    first.write('src/z.js', 'export function z() {}\n');
    expect(first.run('grep -rn "export function" .').output).toBe(scanGrep(first, 'export function'));
    const second = SimRepo.fromSpec(spec);
    expect(second.run('grep -rn "export function" .').output).toBe(before);
    expect(before).toBe(scanGrep(second, 'export function'));
    expect(searched(second, 'export function', 'src')).toBe('src/a.js:1:export function a() {\nsrc/b.js:2:export function b2() {}');
  });

  it('prints a single file, a folder and the whole tree in scan order, CRLF endings dropped, past the cache`s line budget too', () => {
    const repo = SimRepo.fromSpec(bigSpec());
    for (const [text, scope] of [
      ['export', ''],
      ['export', 'src/b.js'],
      ['b', 'src'],
      ['}', 'pkg'],
      ['\r', ''],
      ['m1', 'pkg'],
      ['not anywhere', ''],
    ] as const) {
      const expected = scanGrep(repo, text, scope);
      expect(searched(repo, text, scope === '' ? undefined : scope)).toBe(expected);
      if (text !== '\r') expect(repo.run(`grep -rn '${text}' ${scope === '' ? '.' : scope}`).output).toBe(expected);
    }
    // Enough distinct texts to push the first ones out of the cache: they are searched again and still right.
    const index = new TreeIndex(new Map(Array.from({ length: 20 }, (_, i) => [`f${i}`, 'line\n'.repeat(CACHED_MATCH_LINES / 20)] as [string, string])));
    const first = index.linesHolding('line');
    expect(first.matches).toHaveLength(CACHED_MATCH_LINES);
    expect(index.linesHolding('line')).toBe(first);
    expect(index.linesHolding('lin')).not.toBe(first);
    const again = index.linesHolding('line');
    expect(again).not.toBe(first);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
  });

  it('caps a long grep output the model sees as the uncached cut does, each time it is handed out', () => {
    const repo = SimRepo.fromSpec(bigSpec(2_000));
    const call = { tool: 'run', args: { cmd: 'grep -rn "export function" .' } };
    const full = repo.run('grep -rn "export function" .').output;
    expect(full.length).toBeGreaterThan(32_768);
    const seen = executeToolCall(repo, call).output;
    // A copy of the text (another string object) and limits equal to the defaults but not them go through no cache.
    const uncached = capOutput(`${full} `.slice(0, -1), { ...OUTPUT_LIMITS });
    expect(seen).toBe(uncached);
    expect(executeToolCall(repo, call).output).toBe(uncached);
    expect(seen.split('\n').at(-1)).toBe(`… ${full.split('\n').length - (seen.split('\n').length - 1)} more lines (narrow the search)`);
  });
});

describe('the search tool over a cached base', () => {
  /** The search tool's output from a scan: the first 100 matches as `path:line: text`, capped, the rest counted. */
  function scanSearchTool(repo: SimRepo, text: string, scope = ''): string {
    const lines = scanGrep(repo, text, scope)
      .split('\n')
      .map((line) => line.replace(/^([^:]+:\d+):/, '$1: '));
    return capOutput(lines.slice(0, 100).join('\n'), OUTPUT_LIMITS, Math.max(0, lines.length - 100));
  }
  const searchTool = (repo: SimRepo, text: string, path?: string) =>
    executeToolCall(repo, { tool: 'search', args: path === undefined ? { text } : { text, path } }).output;

  it('prints what a scan shows, on a second repository of the base and after the episode wrote in the scope', () => {
    const spec = bigSpec(400);
    const first = SimRepo.fromSpec(spec);
    const before = searchTool(first, 'export function');
    expect(before).toBe(scanSearchTool(first, 'export function'));
    expect(before.split('\n').at(-1)).toMatch(/^… \d+ more lines \(narrow the search\)$/);
    first.write('pkg/m000a.js', 'export function new000() {}\n');
    const after = searchTool(first, 'export function');
    expect(after).toBe(scanSearchTool(first, 'export function'));
    expect(after).toContain('pkg/m000a.js:1: export function new000() {}');
    // The other repository on the same base is not shown the first one's file; a scope without the write is the base's.
    const second = SimRepo.fromSpec(spec);
    expect(searchTool(second, 'export function')).toBe(before);
    expect(searchTool(first, 'export function', 'src')).toBe(scanSearchTool(first, 'export function', 'src'));
    expect(searchTool(second, 'no such text')).toBe('No matches for "no such text"');
  });

  it('prints a scope of the base once, for every repository on it, and again only where a written file is in it', () => {
    const spec = bigSpec();
    let printed = 0;
    const print = (matches: readonly { path: string }[]) => {
      printed++;
      return matches.map((match) => match.path).join(',');
    };
    const first = SimRepo.fromSpec(spec);
    const second = SimRepo.fromSpec(spec);
    const once = first.searchPrinted('round', 'src', 'test-print', print);
    expect(once).toEqual({ ok: true, output: 'src/a.js', count: 1 });
    expect(second.searchPrinted('round', 'src', 'test-print', print)).toEqual(once);
    expect(printed).toBe(1);
    second.write('src/c.js', 'round(3);\n');
    expect(second.searchPrinted('round', 'src', 'test-print', print)).toEqual({ ok: true, output: 'src/a.js,src/c.js', count: 2 });
    expect(printed).toBe(2);
    expect(first.searchPrinted('round', 'src', 'test-print', print)).toEqual(once);
    expect(printed).toBe(2);
    expect(first.searchPrinted('round', '../x', 'test-print', print)).toMatchObject({ ok: false, code: 'path_escape' });
  });
});

describe('bases of one fixture', () => {
  it('share one tree and its search results when their files are equal, and only then', () => {
    const fixture = bigSpec();
    // Two tasks on the fixture without file overrides: separate specs (as the suite loader makes them), equal files.
    const one = RepoSpec.parse({ ...fixture, files: { ...fixture.files }, env: { CI: 'true' } });
    const two = RepoSpec.parse({ ...fixture, files: { ...fixture.files } });
    // A third overrides one file.
    const three = RepoSpec.parse({ ...fixture, files: { ...fixture.files, 'pkg/m007.js': 'export const seven = round(7);\n' } });
    const [a, b, c] = [one, two, three].map((spec) => baseFor(spec));
    expect(a!.id).not.toBe(b!.id);
    expect(b!.index).toBe(a!.index);
    expect(b!.initial).toBe(a!.initial);
    expect(c!.index).not.toBe(a!.index);
    // Each searches its own files: the shared tree answers as a scan of each repository does.
    for (const spec of [one, two, three]) {
      const repo = SimRepo.fromSpec(spec);
      for (const text of ['round(7)', 'export function g1', 'seven']) expect(searched(repo, text)).toBe(scanGrep(repo, text));
    }
    expect(searched(SimRepo.fromSpec(three), 'seven')).toBe('pkg/m007.js:1:export const seven = round(7);');
    expect(searched(SimRepo.fromSpec(two), 'seven')).toBe('');
    // What one repository writes stays its own, on the shared tree too.
    const writer = SimRepo.fromSpec(one);
    writer.write('pkg/m001.js', 'export const seven = 7;\n');
    expect(searched(writer, 'seven')).toBe('pkg/m001.js:1:export const seven = 7;');
    expect(searched(SimRepo.fromSpec(two), 'seven')).toBe('');
  });
});

describe('pathsMatching', () => {
  it('lists the working-tree paths a pattern matches, as a filter of every file does, created files included', () => {
    const spec = bigSpec();
    const repo = SimRepo.fromSpec(spec);
    const pattern = /m00\d\.js$/;
    const scan = (of: SimRepo) =>
      of
        .allFiles()
        .map(([path]) => path)
        .filter((path) => pattern.test(path));
    expect(repo.pathsMatching(pattern)).toEqual(scan(repo));
    expect(repo.pathsMatching(pattern).length).toBe(10);
    repo.write('pkg/m00x.js', 'no\n');
    repo.write('lib/m007.js', 'created\n');
    repo.write('pkg/m003.js', 'edited\n');
    expect(repo.pathsMatching(pattern)).toEqual(scan(repo));
    expect(repo.pathsMatching(pattern)).toContain('lib/m007.js');
    // Another repository on the same tree sees none of those writes.
    expect(SimRepo.fromSpec(spec).pathsMatching(pattern)).toEqual(scan(SimRepo.fromSpec(spec)));
  });
});

describe('filesContaining over a big base', () => {
  it('answers as a scan of the working tree does, for repeated texts, scopes and after writes', () => {
    const spec = bigSpec();
    const repo = SimRepo.fromSpec(spec);
    const scan = (of: SimRepo, text: string, scope: string) =>
      of
        .allFiles()
        .filter(([path, content]) => (scope === '' || path === scope || path.startsWith(`${scope}/`)) && content.includes(text))
        .map(([path]) => path);
    const texts = ['round(1', 'export function f1', 'g2', 'nothing here', 'round('];
    for (let pass = 0; pass < 3; pass++) {
      for (const text of texts)
        for (const scope of ['', 'pkg', 'src', 'pkg/m010.js']) expect(repo.filesContaining(text, scope).paths).toEqual(scan(repo, text, scope));
      repo.write(`pkg/m00${pass}.js`, `export const g2 = round(1${pass});\n`);
      repo.write(`pkg/new${pass}.js`, 'nothing here\n');
    }
    expect(repo.filesContaining('nothing here').paths).toEqual(['pkg/new0.js', 'pkg/new1.js', 'pkg/new2.js']);
  });
});
