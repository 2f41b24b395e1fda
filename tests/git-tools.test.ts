// git_show by path and --stat, large commits listing their files first, git_log pages (issue 10 §4), as git prints them.
import { describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo, type RepoSpecInput } from '../src/sim-repo/index.js';
import { executeToolCall, OUTPUT_LIMITS } from '../src/tools/index.js';

const numbered = (count: number, prefix = 'l') => Array.from({ length: count }, (_, i) => `${prefix}${i}\n`).join('');
const GENERATED = 'src/generated-very-long-name-of-a-bundle-file.min.js';
const LONG_PATH = 'very/long/directory/structure/that/goes/on/and/on/forever/and/ever/file-name.js';

const header = (sha: string, message: string) => `commit ${sha}\nAuthor: A B <a@b.c>\nDate:   2026-12-01\n\n    ${message}`;

function repo(commits: RepoSpecInput['commits']): SimRepo {
  return SimRepo.fromSpec(RepoSpec.parse({ files: { 'src/a.js': 'a\nB\nc\nd\n', 'README.md': 'x\n' }, commits }));
}

const bundleCommit = {
  sha: '6cb569c4404ef5b61c766e8d19befad8693c53d0',
  author: 'A B <a@b.c>',
  date: '2026-12-01',
  message: 'second commit',
  changes: [
    { path: 'src/a.js', before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' },
    { path: GENERATED, before: null, after: numbered(3000) },
    { path: 'README.md', before: null, after: 'x\n' },
  ],
};
const moveCommit = {
  sha: '78afd1487d633dc85876f7b1e43c06f6ad140970',
  author: 'A B <a@b.c>',
  date: '2026-12-01',
  message: 'move',
  changes: [
    { path: LONG_PATH, before: numbered(30), after: numbered(50, 'm') },
    { path: 'b.txt', before: numbered(5), after: null },
  ],
};

// `git show --stat --format= HEAD` of the same commits, as git 2.39 prints them (80 columns, names and graphs scaled).
const BUNDLE_STAT = [
  ' README.md                                          |    1 +',
  ' src/a.js                                           |    3 +-',
  ' ...enerated-very-long-name-of-a-bundle-file.min.js | 3000 ++++++++++++++++++++',
  ' 3 files changed, 3003 insertions(+), 1 deletion(-)',
].join('\n');
const MOVE_STAT = [
  ' b.txt                                              |  5 --',
  ' .../goes/on/and/on/forever/and/ever/file-name.js   | 80 ++++++++++++++--------',
  ' 2 files changed, 50 insertions(+), 35 deletions(-)',
].join('\n');

const call = (target: SimRepo, tool: string, args: Record<string, unknown>) => executeToolCall(target, { tool, args });

describe('git_show', () => {
  it('stat: true prints the file list with counts as git show --stat does', () => {
    const target = repo([bundleCommit, moveCommit]);
    expect(call(target, 'git_show', { sha: '6cb5', stat: true })).toMatchObject({
      status: 'success',
      output: `${header(bundleCommit.sha, 'second commit')}\n\n${BUNDLE_STAT}`,
    });
    expect(call(target, 'git_show', { sha: 'HEAD~1', stat: true }).output).toBe(`${header(moveCommit.sha, 'move')}\n\n${MOVE_STAT}`);
  });

  it('path: only that file’s diff; a file the commit did not change is a lookup miss', () => {
    const target = repo([bundleCommit]);
    const shown = call(target, 'git_show', { sha: 'HEAD', path: 'src/a.js' });
    expect(shown.output).toBe(
      `${header(bundleCommit.sha, 'second commit')}\n\ndiff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d`,
    );
    expect(call(target, 'git_show', { sha: 'HEAD', path: 'src/', stat: true }).output).toBe(
      `${header(bundleCommit.sha, 'second commit')}\n\n src/a.js                                           |    3 +-\n ...enerated-very-long-name-of-a-bundle-file.min.js | 3000 ++++++++++++++++++++\n 2 files changed, 3002 insertions(+), 1 deletion(-)`,
    );
    expect(call(target, 'git_show', { sha: 'HEAD', path: 'docs/x.md' })).toMatchObject({
      status: 'lookup_miss',
      output: 'Commit 6cb569c did not change docs/x.md',
    });
  });

  it('a commit with a large generated file lists every changed file before any diff, within the output cap', () => {
    const output = call(repo([bundleCommit]), 'git_show', { sha: 'HEAD' }).output;
    expect(output.length).toBeLessThanOrEqual(OUTPUT_LIMITS.totalChars);
    // git show --stat --patch: header, ---, the file list, a blank line, then the diffs in path order.
    expect(output.startsWith(`${header(bundleCommit.sha, 'second commit')}\n---\n${BUNDLE_STAT}\n\ndiff --git a/README.md b/README.md\n`)).toBe(true);
    expect(output).toMatch(/\n… \d+ more lines \(narrow the search\)$/);
  });

  it('a small commit shows its diff as before, without the file list', () => {
    const output = call(repo([moveCommit]), 'git_show', { sha: 'HEAD', path: 'b.txt' }).output;
    expect(output).not.toContain('files changed');
    expect(output).toContain('diff --git a/b.txt b/b.txt\ndeleted file mode 100644');
  });
});

describe('git show in the shell', () => {
  it('honours -- path, a path after the revision, --stat and --stat -p', () => {
    const target = repo([bundleCommit]);
    expect(target.run('git show HEAD -- README.md').output).toBe(
      `${header(bundleCommit.sha, 'second commit')}\n\ndiff --git a/README.md b/README.md\nnew file mode 100644\n--- /dev/null\n+++ b/README.md\n@@ -0,0 +1,1 @@\n+x`,
    );
    expect(target.run('git show 6cb569c README.md').output).toBe(target.run('git show HEAD -- README.md').output);
    expect(target.run('git show --stat 6cb569c')).toMatchObject({ exit_code: 0, output: `${header(bundleCommit.sha, 'second commit')}\n\n${BUNDLE_STAT}` });
    expect(target.run('git show --stat -p HEAD -- src/a.js').output).toBe(
      `${header(bundleCommit.sha, 'second commit')}\n---\n src/a.js | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n\ndiff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d`,
    );
  });

  it('prints nothing, exit 0, for a path the commit did not change (as git does)', () => {
    expect(repo([bundleCommit]).run('git show HEAD -- docs/x.md')).toMatchObject({ exit_code: 0, output: '' });
  });
});

const history = Array.from({ length: 25 }, (_, i) => ({
  sha: `${String(25 - i).padStart(4, '0')}abc${'0'.repeat(9)}`,
  author: 'A B <a@b.c>',
  date: '2026-12-01',
  message: `change ${25 - i}`,
  changes: [{ path: i % 2 === 0 ? 'src/a.js' : 'README.md', before: 'x\n', after: `x${i}\n` }],
}));
const messages = (output: string) => [...output.matchAll(/^ {4}(change \d+)$/gm)].map((m) => m[1]);

describe('git_log', () => {
  it('shows one page of 10 commits by default and says how to get the next', () => {
    const output = call(repo(history), 'git_log', {}).output;
    expect(messages(output)).toEqual(Array.from({ length: 10 }, (_, i) => `change ${25 - i}`));
    expect(output.split('\n').at(-1)).toBe('… 15 more commits (git_log with skip: 10 for the next page, or a path to narrow)');
  });

  it('pages with skip and limit (-n), and by path', () => {
    const target = repo(history);
    const last = call(target, 'git_log', { skip: 20 }).output;
    expect(messages(last)).toEqual(['change 5', 'change 4', 'change 3', 'change 2', 'change 1']);
    expect(last).not.toContain('more commits');
    const byPath = call(target, 'git_log', { path: 'src/a.js', limit: 3, skip: 3 }).output;
    expect(messages(byPath)).toEqual(['change 19', 'change 17', 'change 15']);
    expect(byPath.split('\n').at(-1)).toBe('… 7 more commits (git_log with skip: 6 for the next page)');
    expect(call(target, 'git_log', { skip: 25 })).toMatchObject({ status: 'lookup_miss', output: 'No commits past 25: skip 25 leaves none' });
  });

  it('git log in the shell takes -n, --skip and -- path', () => {
    const target = repo(history);
    expect(target.run('git log -n 2 --oneline').output).toBe('0025abc change 25\n0024abc change 24');
    expect(target.run('git log --skip 1 -n 1 --oneline').output).toBe('0024abc change 24');
    expect(target.run('git log --skip=2 -1 --oneline -- README.md').output).toBe('0020abc change 20');
  });
});
