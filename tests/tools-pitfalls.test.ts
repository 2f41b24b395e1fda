// Harness pitfalls HB04 (ambiguous edits), HB05 (CRLF edits), HB07 (path escapes), replayed through executeToolCall.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';
import { executeToolCall, type ToolResult } from '../src/tools/index.js';

interface Pitfall {
  id: string;
  input: { repo: Record<string, string>; model_actions: Array<{ tool: string; args: Record<string, unknown> }> };
}

const pitfalls = JSON.parse(readFileSync(new URL('./fixtures/shared/harness-pitfalls.json', import.meta.url), 'utf8')) as Pitfall[];

/** The fixture's tool names are from another harness; ours are `read` and `write`. */
const TOOL_NAMES: Record<string, string> = { read_file: 'read', write_file: 'write' };

function replay(id: string): { repo: SimRepo; files: Record<string, string>; results: ToolResult[] } {
  const pitfall = pitfalls.find((candidate) => candidate.id.startsWith(id));
  if (pitfall === undefined) throw new Error(`fixture ${id} not found`);
  const repo = SimRepo.fromSpec(RepoSpec.parse({ files: pitfall.input.repo }));
  const results = pitfall.input.model_actions.map((action) => executeToolCall(repo, { tool: TOOL_NAMES[action.tool] ?? action.tool, args: action.args }));
  return { repo, files: pitfall.input.repo, results };
}

/** The removed and added lines of a unified diff (headers excluded). */
function changedLines(diff: string): string[] {
  return diff.split('\n').filter((line) => (line.startsWith('-') && !line.startsWith('---')) || (line.startsWith('+') && !line.startsWith('+++')));
}

describe('HB04: an edit whose old text matches more than once', () => {
  const { repo, files, results } = replay('HB04');
  const original = files['src/util.ts']!;
  const [ambiguous, empty, replaceAll] = results;

  it('rejects the ambiguous edit, naming the count, both lines and the ways out', () => {
    expect(ambiguous).toEqual({
      status: 'failure',
      output:
        'old text matches 2 times in src/util.ts (at lines 3 and 9); the file was not changed. ' +
        'Include more surrounding lines in old so it matches exactly once, or set replace_all to true to replace every occurrence.',
      side_effect: 'none',
      error_code: 'ambiguous_match',
      duration_ms: 100,
    });
  });

  it('rejects an empty old text', () => {
    expect(empty).toMatchObject({ status: 'failure', error_code: 'empty_old', side_effect: 'none' });
  });

  it('leaves the file byte-for-byte unchanged after the two rejections', () => {
    const fresh = SimRepo.fromSpec(RepoSpec.parse({ files }));
    executeToolCall(fresh, { tool: 'edit', args: { path: 'src/util.ts', old: '    return null;', new: '    return undefined;' } });
    executeToolCall(fresh, { tool: 'edit', args: { path: 'src/util.ts', old: '', new: 'X' } });
    expect(fresh.fileAt('src/util.ts')).toBe(original);
    expect(fresh.changes).toEqual([]);
  });

  it('replaces both occurrences with replace_all and nothing else', () => {
    expect(replaceAll).toEqual({ status: 'success', output: 'Edited src/util.ts (2 replacements)', side_effect: 'reversible', duration_ms: 100 });
    expect(repo.fileAt('src/util.ts')).toBe(original.replaceAll('    return null;', '    return undefined;'));
    expect(repo.changes).toEqual([{ kind: 'edit', path: 'src/util.ts', side_effect: 'reversible', t_ms: 300 }]);
  });

  it('shows exactly the two changed lines in git diff', () => {
    const diff = executeToolCall(repo, { tool: 'git_diff', args: {} });
    expect(diff.status).toBe('success');
    expect(changedLines(diff.output)).toEqual(['-    return null;', '+    return undefined;', '-    return null;', '+    return undefined;']);
  });
});

describe('HB05: an LF edit of a CRLF file', () => {
  const { repo, results } = replay('HB05');

  it('applies the edit and keeps every line CRLF', () => {
    expect(results[0]).toEqual({
      status: 'success',
      output: 'Edited notes/a.txt (1 replacement, CRLF line endings kept)',
      side_effect: 'reversible',
      duration_ms: 100,
    });
    expect(repo.fileAt('notes/a.txt')).toBe('line ONE\r\nline TWO\r\nline three\r\n');
  });

  it('leaves an LF file LF', () => {
    expect(results[1]).toMatchObject({ status: 'success', output: 'Edited notes/b.txt (1 replacement)' });
    expect(repo.fileAt('notes/b.txt')).toBe('ALPHA\nbeta\n');
  });

  it('shows only the edited lines in git diff', () => {
    const diff = executeToolCall(repo, { tool: 'git_diff', args: { path: 'notes/a.txt' } });
    expect(changedLines(diff.output)).toEqual(['-line one\r', '-line two\r', '+line ONE\r', '+line TWO\r']);
    expect(diff.output).toContain('\n line three\r');
  });

  it('checks uniqueness after adapting the line endings', () => {
    const twice = SimRepo.fromSpec(RepoSpec.parse({ files: { 'w.txt': 'x\r\ny\r\nx\r\ny\r\n' } }));
    expect(executeToolCall(twice, { tool: 'edit', args: { path: 'w.txt', old: 'x\ny', new: 'z' } })).toMatchObject({
      status: 'failure',
      error_code: 'ambiguous_match',
    });
    expect(twice.fileAt('w.txt')).toBe('x\r\ny\r\nx\r\ny\r\n');
  });
});

describe('HB07: paths that escape /repo', () => {
  const { repo, files, results } = replay('HB07');
  const refused = results.slice(0, 5);

  it.each([0, 1, 2, 3, 4])('refuses call %i as a permission_denied tool result', (index) => {
    expect(refused[index]).toMatchObject({ status: 'permission_denied', error_code: 'path_escape', side_effect: 'none' });
  });

  it("names the normalised target in the refusal, e.g. '/repo-secrets' is not inside '/repo'", () => {
    expect(refused[2]!.output).toBe(
      '/repo-secrets/token.txt: resolves to /repo-secrets/token.txt, which is outside the repository root /repo; only paths inside /repo can be used',
    );
    expect(refused[3]!.output).toContain('resolves to /etc/hosts');
  });

  it('reads the normalised path inside the repository (call 6)', () => {
    expect(results[5]).toEqual({ status: 'success', output: 'export {};\n', side_effect: 'none', duration_ms: 200 });
  });

  it('never shows SECRET and writes nothing', () => {
    const more = [
      executeToolCall(repo, { tool: 'run', args: { cmd: 'cat /repo-secrets/token.txt' } }),
      executeToolCall(repo, { tool: 'run', args: { cmd: 'cat /repo/../repo-secrets/token.txt && echo done' } }),
      executeToolCall(repo, { tool: 'list', args: { path: '/repo-secrets' } }),
      executeToolCall(repo, { tool: 'search', args: { text: 'SECRET', path: '/repo-secrets' } }),
      executeToolCall(repo, { tool: 'edit', args: { path: '/repo-secrets/token.txt', old: 'SECRET', new: 'x' } }),
      executeToolCall(repo, { tool: 'git_log', args: { path: '../repo-secrets' } }),
    ];
    for (const result of more) expect(result).toMatchObject({ status: 'permission_denied', error_code: 'path_escape' });
    for (const result of [...results, ...more]) expect(result.output).not.toContain('SECRET');
    expect(repo.changes).toEqual([]);
    expect(repo.allFiles().map(([path]) => path)).toEqual(['package.json', ...Object.keys(files)]);
  });
});
