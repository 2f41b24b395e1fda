// Tool output caps (issue 10 §4): per line and in total, with a "… N more lines (narrow the search)" marker the model sees.
import { describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';
import { capOutput, executeToolCall, OUTPUT_LIMITS } from '../src/tools/index.js';
import { runEpisode } from '../src/runner/episode.js';
import { allRoles, environment, FunctionModel, miniTask } from './support/episode-fixtures.js';

const limits = { lineChars: 10, totalChars: 80 };
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n');

describe('capOutput', () => {
  it('returns an output within the limits unchanged, trailing newline included', () => {
    const text = 'one\ntwo\n';
    expect(capOutput(text, limits)).toBe(text);
    expect(capOutput(numbered(8), limits)).toBe(numbered(8));
  });

  it('cuts a long line and says how many characters it cut', () => {
    expect(capOutput('short\n0123456789abcdef\nend', limits)).toBe('short\n0123456789… (6 more characters on this line)\nend');
  });

  it('keeps whole lines within the total and ends with the marker counting the rest', () => {
    const capped = capOutput(numbered(40), limits);
    expect(capped.length).toBeLessThanOrEqual(limits.totalChars);
    const lines = capped.split('\n');
    const shown = lines.length - 1;
    expect(lines.slice(0, shown)).toEqual(numbered(shown).split('\n'));
    expect(lines.at(-1)).toBe(`… ${40 - shown} more lines (narrow the search)`);
  });

  it('counts lines the caller left out, even when what is left fits', () => {
    expect(capOutput('a\nb', limits, 7)).toBe('a\nb\n… 7 more lines (narrow the search)');
    expect(capOutput('a', limits, 1)).toBe('a\n… 1 more line (narrow the search)');
  });

  it('keeps the marker when the very first line alone passes the total', () => {
    const capped = capOutput(`${'x'.repeat(500)}\n${'y'.repeat(500)}`, { lineChars: 400, totalChars: 300 });
    expect(capped).toBe('… 2 more lines (narrow the search)');
  });
});

const repoWith = (files: Record<string, string>) => SimRepo.fromSpec(RepoSpec.parse({ files }));

describe('tool outputs are capped with the marker visible', () => {
  it('search: a 300 KB matching line and hundreds of matches still end with how many lines are not shown', () => {
    const generated = `export const blob = "${'token '.repeat(50_000)}";\n`;
    const many = Array.from({ length: 400 }, (_, i) => `token ${i}`).join('\n');
    const repo = repoWith({ 'dist/bundle.js': generated, 'src/tokens.txt': many });
    const result = executeToolCall(repo, { tool: 'search', args: { text: 'token' } });
    expect(result.status).toBe('success');
    expect(result.output.length).toBeLessThanOrEqual(OUTPUT_LIMITS.totalChars);
    const lines = result.output.split('\n');
    expect(lines[0]).toMatch(/^dist\/bundle\.js:1: export const blob = "token token .*… \(\d+ more characters on this line\)$/);
    expect(lines[0]!.length).toBeLessThan(400);
    expect(lines.at(-1)).toBe(`… ${401 - (lines.length - 1)} more lines (narrow the search)`);
  });

  it('read: a long file is cut at the total with the marker', () => {
    const repo = repoWith({ 'big.txt': numbered(1_000) });
    const result = executeToolCall(repo, { tool: 'read', args: { path: 'big.txt' } });
    expect(result.output.length).toBeLessThanOrEqual(OUTPUT_LIMITS.totalChars);
    expect(result.output).toMatch(/\nline \d+\n… \d+ more lines \(narrow the search\)$/);
  });

  it('run: a command printing a huge output is capped the same way', () => {
    const repo = repoWith({ 'big.txt': numbered(1_000) });
    const result = executeToolCall(repo, { tool: 'run', args: { cmd: 'cat big.txt' } });
    expect(result.exit_code).toBe(0);
    expect(result.output).toMatch(/… \d+ more lines \(narrow the search\)$/);
  });

  it('the model sees the marker in its history (ReAct)', async () => {
    const task = miniTask({
      id: 'find-token',
      repo: { files: { 'dist/bundle.js': `var x = "${'token '.repeat(50_000)}";\n`, 'src/tokens.txt': numbered(300).replaceAll('line', 'token') } },
      checks: [{ check: 'answer_contains', text: 'token' }],
      reference: { steps: [{ tool: 'search', args: { text: 'token' } }], finish: 'token' },
    });
    const model = new FunctionModel((_request, n) =>
      n === 0 ? { action: 'tool', tool: 'search', args: { text: 'token' } } : { action: 'finish', answer: 'token' },
    );
    await runEpisode({ task, strategy: 'react', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    const seen = (model.requests[1]!.view as { history: Array<{ output: string }> }).history[0]!.output;
    expect(seen).toMatch(/\n… \d+ more lines \(narrow the search\)$/);
  });
});
