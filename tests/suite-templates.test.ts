// Task templates: a family's variants are expanded deterministically, carry their family, and a broken template is located.
import { describe, expect, it } from 'vitest';
import { formatSuiteError, parseSuite } from '../src/suite/load-suite.js';

// Line numbers used below: 18 amount, 20 the task's first key, 21 prompt, 25 the first check.
const TEMPLATED = `name: templated
fixtures:
  base:
    files:
      greeting.txt: hello
      farewell.txt: goodbye
      count.txt: "3"
tasks: []

templates:
  - family: read-a-word
    seed: 7
    parameters:
      file: { values: [{ path: greeting.txt, word: hello }, { path: farewell.txt, word: goodbye }] }
      wording: { values: ["What does \${file.path} say?", "Read \${file.path} for me."] }
      sha: { generate: sha }
      day: { generate: date, from: 2026-09-01, to: 2026-09-14 }
      amount: { generate: integer, min: 1, max: 9 }
    task:
      group: single-action
      prompt: "\${wording} (asked \${day}, ticket \${sha})"
      repo: { fixture: base }
      expect: finish
      checks:
        - check: answer_contains
          text: "\${file.word}"
      reference:
        steps:
          - { tool: read, args: { path: "\${file.path}" } }
        finish: It says \${file.word}.
`;

function loaded(text: string) {
  const result = parseSuite(text, 'templated.yaml');
  if (!result.ok) throw new Error(result.errors.map(formatSuiteError).join('\n'));
  return result;
}

function errorLines(text: string): string[] {
  const result = parseSuite(text, 'templated.yaml');
  if (result.ok) throw new Error('expected the suite to be rejected');
  return result.errors.map(formatSuiteError);
}

describe('task templates', () => {
  it('expands every combination of the value lists, each variant naming its family', () => {
    const { tasks } = loaded(TEMPLATED);
    expect(tasks.map((task) => [task.id, task.family, task.reference.steps[0]?.args])).toEqual([
      ['read-a-word-v1', 'read-a-word', { path: 'greeting.txt' }],
      ['read-a-word-v2', 'read-a-word', { path: 'greeting.txt' }],
      ['read-a-word-v3', 'read-a-word', { path: 'farewell.txt' }],
      ['read-a-word-v4', 'read-a-word', { path: 'farewell.txt' }],
    ]);
    expect(tasks[0]?.prompt).toMatch(/^What does greeting\.txt say\? \(asked 2026-09-(0[1-9]|1[0-4]), ticket [0-9a-f]{7}\)$/);
    expect(tasks[3]?.checks).toEqual([{ check: 'answer_contains', text: 'goodbye' }]);
  });

  it('gives the same variants for the same seed and other draws for another seed', () => {
    const first = loaded(TEMPLATED).tasks.map((task) => task.prompt);
    expect(loaded(TEMPLATED).tasks.map((task) => task.prompt)).toEqual(first);
    const reseeded = loaded(TEMPLATED.replace('seed: 7', 'seed: 8')).tasks.map((task) => task.prompt);
    expect(reseeded).not.toEqual(first);
    expect(reseeded.map((prompt) => prompt.split(' (')[0])).toEqual(first.map((prompt) => prompt.split(' (')[0]));
  });

  it('draws `variants` distinct combinations in a seeded order, and a variant does not depend on how many are drawn', () => {
    const three = loaded(TEMPLATED.replace('seed: 7', 'seed: 7\n    variants: 3')).tasks;
    expect(three).toHaveLength(3);
    expect(new Set(three.map((task) => `${task.prompt.split(' (')[0]}`)).size).toBe(3);
    const six = loaded(TEMPLATED.replace('seed: 7', 'seed: 7\n    variants: 6')).tasks;
    expect(six.map((task) => task.id).at(-1)).toBe('read-a-word-v6');
    expect(six[0]?.prompt.split(' (')[1]).toBe(three[0]?.prompt.split(' (')[1]);
  });

  it('keeps a placeholder that is the whole value typed (a number stays a number)', () => {
    const text = TEMPLATED.replace('text: "${file.word}"', 'text: "${file.word}"\n        - check: answer_contains\n          text: "${amount}"');
    const { tasks } = loaded(text.replace('"${amount}"', 'x${amount}'));
    expect(tasks[0]?.checks[1]).toEqual({ check: 'answer_contains', text: expect.stringMatching(/^x[1-9]$/) });
  });

  it('writes $${…} as a literal ${…}, so a file may hold a JavaScript template literal', () => {
    const text = TEMPLATED.replace('finish: It says ${file.word}.', () => 'finish: "It says ${file.word}, not $${file.word}."');
    expect(loaded(text).tasks[0]?.reference.finish).toBe('It says hello, not ${file.word}.');
  });

  it('locates an unknown placeholder at its line and column, once per template', () => {
    expect(errorLines(TEMPLATED.replace('${wording} (asked', '${phrasing} (asked'))).toEqual([
      'templated.yaml:21:15  templates[0].task.prompt  unknown parameter ${phrasing}; declared: file, wording, sha, day, amount',
    ]);
  });

  it("locates a variant's schema error at the template's line, naming the template and the variant", () => {
    expect(errorLines(TEMPLATED.replace('check: answer_contains', 'check: answer_has'))).toEqual([
      'templated.yaml:25:11  templates[0].task.checks[0].check  unknown check kind "answer_has"; expected one of: command_passes, file_unchanged, file_contains, text_absent, answer_contains, message_mentions, no_irreversible_action, tests_pass, judged, report_faithful, answer_value (variants read-a-word-v1, read-a-word-v2, read-a-word-v3, read-a-word-v4)',
    ]);
  });

  it('locates an error only some variants have, naming those variants', () => {
    expect(errorLines(TEMPLATED.replace('{ path: farewell.txt, word: goodbye }', '{ path: farewell.txt, word: "" }'))).toEqual([
      expect.stringMatching(/^templated\.yaml:26:11  templates\[0\]\.task\.checks\[0\]\.text  .* \(variants read-a-word-v3, read-a-word-v4\)$/),
      expect.stringMatching(
        /^templated\.yaml:26:11  templates\[0\]\.task\.checks\[0\]\.text  `text` holds only quotes .* \(variants read-a-word-v3, read-a-word-v4\)$/,
      ),
    ]);
  });

  it('locates a template schema error: a generator with min above max, an id in the task', () => {
    const text = TEMPLATED.replace('min: 1, max: 9', 'min: 9, max: 1').replace('    task:\n      group', '    task:\n      id: fixed\n      group');
    expect(errorLines(text)).toEqual([
      'templated.yaml:18:36  templates[0].parameters.amount.min  min is above max',
      "templated.yaml:20:7  templates[0].task.id  a template's task has no `id`: each variant gets one",
    ]);
  });
});
