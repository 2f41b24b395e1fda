// Every way a suite file can be wrong is reported as `file:line:col  path  message`, all at once, sorted by line.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_KINDS } from '../src/suite/schema.js';
import { formatSuiteError, loadSuiteFile, parseSuite, type SuiteError } from '../src/suite/load-suite.js';
import { TINY_SUITE } from './support/tiny-suite.js';

const pitfalls = JSON.parse(readFileSync(new URL('./fixtures/shared/harness-pitfalls.json', import.meta.url), 'utf8')) as {
  id: string;
  input: Record<string, unknown>;
}[];

function pitfallYaml(idPrefix: string): string {
  const entry = pitfalls.find((pitfall) => pitfall.id.startsWith(idPrefix));
  const text = entry?.input['suite.yaml'];
  if (typeof text !== 'string') throw new Error(`no suite.yaml input for ${idPrefix}`);
  return text;
}

// Line numbers of VALID are used below: 7 `- id`, 8 group, 9 prompt, 11 fixture, 13 checks, 14 `- check`, 18 `- tool`, 19 args.
const VALID = TINY_SUITE;

function errorsOf(text: string): SuiteError[] {
  const result = parseSuite(text, 'tiny.yaml');
  if (result.ok) throw new Error('expected the suite to be rejected');
  return result.errors;
}

function replaced(search: string, replacement: string, text = VALID): string {
  if (!text.includes(search)) throw new Error(`"${search}" is not in the suite text`);
  return text.replace(search, replacement);
}

describe('the valid base suite', () => {
  it('loads', () => {
    expect(parseSuite(VALID, 'tiny.yaml').ok).toBe(true);
  });
});

describe('YAML syntax errors', () => {
  it('points an unclosed quote at the opening quote', () => {
    const errors = errorsOf(replaced('prompt: Say hello', "prompt: 'Say hello"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: 'tiny.yaml', line: 9, col: 13, path: 'tasks[0].prompt' });
    expect(errors[0]?.message).toMatch(/^Missing closing 'quote: the string opened here is still open at 21:1$/);
  });

  it('reports bad indentation at the first token of the misindented line', () => {
    const dedented = errorsOf(replaced('    group: baseline', '   group: baseline'));
    expect(dedented[0]).toEqual({ file: 'tiny.yaml', line: 8, col: 4, path: '(yaml)', message: 'Sequence item without - indicator' });
    const indented = errorsOf(replaced('    expect: finish', '     expect: finish'));
    expect(indented.map(formatSuiteError)).toEqual(['tiny.yaml:12:6  (yaml)  All mapping items must start at the same column']);
  });

  it('stops at YAML errors: no schema errors from a half-parsed document', () => {
    const errors = errorsOf(replaced('prompt: Say hello', "prompt: 'Say hello", replaced('check: answer_contains', 'check: nope')));
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining('Missing closing')]);
  });

  it('HB18: rejects a duplicate key, naming it and the line of its second occurrence', () => {
    const errors = errorsOf(pitfallYaml('HB18'));
    const duplicate = errors.find((error) => error.message.includes('duplicate key'));
    expect(duplicate).toEqual({
      file: 'tiny.yaml',
      line: 6,
      col: 5,
      path: 'tasks[0].checks',
      message: 'duplicate key `checks` (first at line 4): map keys must be unique; one value would silently replace the other',
    });
  });

  it('HB18: rejects a duplicate key in an otherwise valid suite (uniqueKeys must stay on)', () => {
    const errors = errorsOf(replaced('    expect: finish\n', '    expect: finish\n    expect: stop\n'));
    expect(errors.map(formatSuiteError)).toEqual([
      'tiny.yaml:13:5  tasks[0].expect  duplicate key `expect` (first at line 12): map keys must be unique; one value would silently replace the other',
    ]);
  });
});

describe('schema errors', () => {
  it('reports an unknown check kind at the `check:` line, naming the allowed kinds', () => {
    const errors = errorsOf(replaced('check: answer_contains', 'check: answer_includes'));
    expect(errors).toEqual([
      {
        file: 'tiny.yaml',
        line: 14,
        col: 9,
        path: 'tasks[0].checks[0].check',
        message: `unknown check kind "answer_includes"; expected one of: ${CHECK_KINDS.join(', ')}`,
      },
    ]);
  });

  it('reports an unknown tool in a trajectory', () => {
    const errors = errorsOf(replaced('tool: read', 'tool: open'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 18, col: 11, path: 'tasks[0].reference.steps[0].tool' });
    expect(errors[0]?.message).toMatch(/^unknown tool "open"; expected one of: read, list, search, edit/);
  });

  it('rejects a task without checks, and one with an empty list', () => {
    const withoutChecks = errorsOf(replaced('    checks:\n      - check: answer_contains\n        text: hello\n', ''));
    expect(withoutChecks).toEqual([
      { file: 'tiny.yaml', line: 7, col: 5, path: 'tasks[0].checks', message: 'a task needs at least one check: zero checks never scores as a pass' },
    ]);
    const emptyChecks = errorsOf(replaced('    checks:\n      - check: answer_contains\n        text: hello\n', '    checks: []\n'));
    expect(emptyChecks).toEqual([
      { file: 'tiny.yaml', line: 13, col: 5, path: 'tasks[0].checks', message: 'a task needs at least one check: zero checks never scores as a pass' },
    ]);
  });

  it('HB20: a mis-indented checks list is reported as missing checks plus a misplaced `vars.checks`', () => {
    const errors = errorsOf(pitfallYaml('HB20'));
    expect(errors).toContainEqual({
      file: 'tiny.yaml',
      line: 2,
      col: 5,
      path: 'tasks[0].checks',
      message: 'a task needs at least one check: zero checks never scores as a pass; found `vars.checks` at line 6: is it mis-indented?',
    });
    expect(errors).toContainEqual({
      file: 'tiny.yaml',
      line: 6,
      col: 7,
      path: 'tasks[0].vars.checks',
      message: '`vars.checks` looks like a misplaced `checks` (did you mean to put it at the task level?)',
    });
    expect(errors).toContainEqual({ file: 'tiny.yaml', line: 4, col: 5, path: 'tasks[0].vars', message: 'unknown key `vars`' });
  });

  it('points an unknown key at the key itself', () => {
    const errors = errorsOf(replaced('      fixture: base\n', '      fixture: base\n      fixtures: base\n'));
    expect(errors).toEqual([{ file: 'tiny.yaml', line: 12, col: 7, path: 'tasks[0].repo.fixtures', message: 'unknown key `fixtures`' }]);
  });

  it('reports a missing required key at its parent', () => {
    const errors = errorsOf(replaced('    prompt: Say hello\n', ''));
    expect(errors).toEqual([{ file: 'tiny.yaml', line: 7, col: 5, path: 'tasks[0].prompt', message: 'missing required key `prompt` (expected string)' }]);
  });

  it('rejects duplicate task ids', () => {
    const second = VALID.slice(VALID.indexOf('  - id: one'));
    const errors = errorsOf(VALID + second);
    expect(errors).toEqual([{ file: 'tiny.yaml', line: 21, col: 5, path: 'tasks[1].id', message: 'duplicate task id "one" (first at tasks[0])' }]);
  });

  it('rejects an unknown fixture name, listing the defined ones', () => {
    const errors = errorsOf(replaced('fixture: base', 'fixture: bsae'));
    expect(errors).toEqual([{ file: 'tiny.yaml', line: 11, col: 7, path: 'tasks[0].repo.fixture', message: 'unknown fixture "bsae"; defined: base' }]);
  });

  it('rejects a group missing from `groups`, alongside other errors', () => {
    const text = replaced('name: tiny\n', 'name: tiny\ngroups: [smoke]\n', replaced('check: answer_contains', 'check: nope'));
    expect(errorsOf(text).map(formatSuiteError)).toEqual([
      'tiny.yaml:9:5  tasks[0].group  group "baseline" is not in groups: smoke',
      `tiny.yaml:15:9  tasks[0].checks[0].check  unknown check kind "nope"; expected one of: ${CHECK_KINDS.join(', ')}`,
    ]);
  });

  it('rejects a fixture name that is only an Object.prototype key', () => {
    const errors = errorsOf(replaced('fixture: base', 'fixture: toString'));
    expect(errors.map((error) => error.message)).toEqual(['unknown fixture "toString"; defined: base']);
  });

  it('rejects an empty file and a file that is not a mapping', () => {
    expect(errorsOf('')).toEqual([
      { file: 'tiny.yaml', line: 1, col: 1, path: '(root)', message: 'the suite file is empty; expected a mapping with `name`, `fixtures` and `tasks`' },
    ]);
    expect(errorsOf('- a\n- b\n')[0]?.message).toMatch(/^the suite file holds a list/);
  });
});

describe('semantic errors', () => {
  it('rejects args the tool schema refuses, naming the tool and the field', () => {
    const errors = errorsOf(replaced('args: { path: a.txt }', 'args: { path: 42 }'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 19, col: 19, path: 'tasks[0].reference.steps[0].args.path' });
    expect(errors[0]?.message).toMatch(/^tool `read`: args\.path: expected string, received number$/);
  });

  it('rejects a step missing a required argument, at its args', () => {
    const errors = errorsOf(replaced('args: { path: a.txt }', 'args: {}'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 19, col: 11, path: 'tasks[0].reference.steps[0].args.path' });
    expect(errors[0]?.message).toMatch(/^tool `read`: args\.path: missing required key `path` \(expected string\)$/);
  });

  it('rejects an argument the tool does not take, at that argument', () => {
    const errors = errorsOf(replaced('args: { path: a.txt }', 'args: { path: a.txt, file: a.txt }'));
    expect(errors.map(formatSuiteError)).toEqual([
      'tiny.yaml:19:32  tasks[0].reference.steps[0].args.file  tool `read` has no argument `file` (its arguments: path)',
    ]);
  });

  it('rejects `after` indices that do not point to earlier steps', () => {
    const steps = `        - tool: read
          args: { path: a.txt }
          after: [0]
        - tool: read
          args: { path: a.txt }
          after: [0, 3]
`;
    const errors = errorsOf(replaced('        - tool: read\n          args: { path: a.txt }\n', steps));
    expect(errors.map(formatSuiteError)).toEqual([
      'tiny.yaml:20:19  tasks[0].reference.steps[0].after[0]  `after` must name earlier steps: step 0 names itself (step 0 has no earlier steps)',
      'tiny.yaml:23:22  tasks[0].reference.steps[1].after[1]  `after` must name earlier steps: step 1 names step 3 (earlier steps are 0..0)',
    ]);
  });

  it('rejects counterexample names used twice in a task', () => {
    const counterexamples = `    counterexamples:
      - name: guess
        why: Answers without reading.
        finish: hello
      - name: guess
        why: Also answers without reading.
        finish: hi
`;
    const errors = errorsOf(VALID + counterexamples);
    expect(errors.map(formatSuiteError)).toEqual([
      'tiny.yaml:25:9  tasks[0].counterexamples[1].name  duplicate counterexample name "guess" (first at counterexamples[0])',
    ]);
  });
});

describe('word checks (answer_contains, message_mentions)', () => {
  const withWords = (lines: string): string => replaced('        text: hello\n', lines);

  it('load with text, any_of or pattern (with flags), each optionally exact_token', () => {
    for (const lines of [
      '        text: hello\n        exact_token: true\n',
      '        any_of: [hello, hi]\n',
      '        pattern: "^hel+o$"\n        flags: im\n',
    ]) {
      expect(parseSuite(withWords(lines), 'tiny.yaml').ok).toBe(true);
    }
  });

  it('need exactly one of text, any_of and pattern: none, or two, is an error at the check or the second key', () => {
    expect(errorsOf(withWords('        exact_token: true\n'))).toEqual([
      {
        file: 'tiny.yaml',
        line: 14,
        col: 9,
        path: 'tasks[0].checks[0]',
        message: 'answer_contains needs exactly one of `text`, `any_of` or `pattern`; none is given',
      },
    ]);
    expect(errorsOf(withWords('        text: hello\n        any_of: [hi]\n        pattern: hel+o\n')).map(formatSuiteError)).toEqual([
      'tiny.yaml:16:9  tasks[0].checks[0].any_of  answer_contains takes exactly one of `text`, `any_of` or `pattern`; `text` and `any_of` are both given',
      'tiny.yaml:17:9  tasks[0].checks[0].pattern  answer_contains takes exactly one of `text`, `any_of` or `pattern`; `text` and `pattern` are both given',
    ]);
  });

  it("rejects an invalid regular expression at its pattern, with the engine's reason", () => {
    expect(errorsOf(withWords('        pattern: "hel(lo"\n'))).toEqual([
      { file: 'tiny.yaml', line: 15, col: 9, path: 'tasks[0].checks[0].pattern', message: 'invalid regular expression: /hel(lo/i: Unterminated group' },
    ]);
    expect(errorsOf(withWords('        pattern: hello\n        flags: ii\n')).map(formatSuiteError)).toEqual([
      "tiny.yaml:15:9  tasks[0].checks[0].pattern  invalid regular expression: Invalid flags supplied to RegExp constructor 'ii'",
    ]);
  });

  it('rejects flags that do not apply: g and y, and flags without a pattern', () => {
    expect(errorsOf(withWords('        pattern: hello\n        flags: gi\n')).map(formatSuiteError)).toEqual([
      'tiny.yaml:16:9  tasks[0].checks[0].flags  flags are some of i, m, s, u (g and y do not apply: a check looks anywhere; v is not supported)',
    ]);
    expect(errorsOf(withWords('        text: hello\n        flags: m\n')).map(formatSuiteError)).toEqual([
      'tiny.yaml:16:9  tasks[0].checks[0].flags  `flags` applies only to `pattern`',
    ]);
  });

  it('rejects needles that normalisation empties, and an empty any_of', () => {
    expect(errorsOf(withWords('        text: "` ‘’ `"\n')).map(formatSuiteError)).toEqual([
      'tiny.yaml:15:9  tasks[0].checks[0].text  `text` holds only quotes and spaces, which matching ignores',
    ]);
    expect(errorsOf(withWords('        any_of: [hello, "“ ”"]\n')).map(formatSuiteError)).toEqual([
      'tiny.yaml:15:25  tasks[0].checks[0].any_of[1]  this alternative holds only quotes and spaces, which matching ignores',
    ]);
    expect(errorsOf(withWords('        any_of: []\n')).map(formatSuiteError)).toEqual([
      'tiny.yaml:15:9  tasks[0].checks[0].any_of  `any_of` needs at least one alternative',
    ]);
  });

  it('message_mentions takes the same options and names itself', () => {
    const text = replaced(
      'expect: finish',
      'expect: stop',
      replaced('finish: hello', 'stop: hello', replaced('check: answer_contains', 'check: message_mentions')),
    );
    expect(parseSuite(replaced('        text: hello\n', '        any_of: [hello]\n        exact_token: true\n', text), 'tiny.yaml').ok).toBe(true);
    expect(errorsOf(replaced('        text: hello\n', '        text: hello\n        pattern: x\n', text)).map(formatSuiteError)).toEqual([
      'tiny.yaml:16:9  tasks[0].checks[0].pattern  message_mentions takes exactly one of `text`, `any_of` or `pattern`; `text` and `pattern` are both given',
    ]);
  });
});

describe('paths checks name', () => {
  // VALID with a folder in the fixture (src/, line 6) and the task's checks (from line 15) replaced by `checks`.
  const withChecks = (checks: string, text = VALID): string =>
    replaced(
      '      - check: answer_contains\n        text: hello\n',
      checks,
      replaced('      a.txt: hello\n', '      a.txt: hello\n      src/a.js: x\n', text),
    );
  const nowhere = (path: string) => `check path "${path}" is neither in fixture "base" nor created by the reference (a \`write\` step)`;

  it('accept fixture files, folders for `under`, the generated package.json, and files the reference writes', () => {
    const checks = `      - { check: file_contains, path: a.txt, text: hello }
      - { check: file_unchanged, path: ./src/a.js }
      - { check: file_unchanged, path: package.json }
      - { check: text_absent, text: TODO, under: src }
      - { check: text_absent, text: TODO, under: src/a.js }
      - { check: text_absent, text: TODO, under: notes }
      - { check: file_contains, path: notes/today.md, text: hello }
`;
    const steps = '        - tool: read\n          args: { path: a.txt }\n        - tool: write\n          args: { path: notes/today.md, content: hello }\n';
    const text = replaced('        - tool: read\n          args: { path: a.txt }\n', steps, withChecks(checks));
    expect(parseSuite(text, 'tiny.yaml').ok).toBe(true);
  });

  it('reject a file_contains or file_unchanged path nothing provides, at its `path`', () => {
    const checks = `      - check: file_contains
        path: src/checkout.js
        text: total
      - check: file_unchanged
        path: tests/checkout.test.js
`;
    expect(errorsOf(withChecks(checks))).toEqual([
      { file: 'tiny.yaml', line: 16, col: 9, path: 'tasks[0].checks[0].path', message: nowhere('src/checkout.js') },
      { file: 'tiny.yaml', line: 19, col: 9, path: 'tasks[0].checks[1].path', message: nowhere('tests/checkout.test.js') },
    ]);
  });

  it('reject an `under` that is neither a file nor a folder: `src2` is not `src`', () => {
    expect(errorsOf(withChecks('      - { check: text_absent, text: TODO, under: src2 }\n')).map(formatSuiteError)).toEqual([
      'tiny.yaml:15:43  tasks[0].checks[0].under  check path "src2" (under) is neither a file nor a folder in fixture "base" nor created by the reference (a `write` step)',
    ]);
  });

  it('reject a folder where a file is needed, and paths outside the repository', () => {
    const checks = `      - { check: file_unchanged, path: src }
      - { check: file_contains, path: ../a.txt, text: hello }
      - { check: text_absent, text: TODO, under: ../elsewhere }
`;
    expect(errorsOf(withChecks(checks)).map(formatSuiteError)).toEqual([
      'tiny.yaml:15:34  tasks[0].checks[0].path  check path "src" is a folder in fixture "base"; file_unchanged needs a file',
      'tiny.yaml:16:33  tasks[0].checks[1].path  check path "../a.txt" is not a file inside the repository',
      'tiny.yaml:17:43  tasks[0].checks[2].under  check path "../elsewhere" (under) is outside the repository',
    ]);
  });

  it('count only `write` steps of the reference: an edit, or a write in a counterexample, creates nothing', () => {
    const steps = '        - tool: edit\n          args: { path: b.txt, old: x, new: y }\n';
    const counterexample =
      '    counterexamples:\n      - name: writes\n        why: creates it\n        steps: [{ tool: write, args: { path: b.txt, content: hello } }]\n        finish: hello\n';
    const text =
      replaced('        - tool: read\n          args: { path: a.txt }\n', steps, withChecks('      - { check: file_contains, path: b.txt, text: hello }\n')) +
      counterexample;
    expect(errorsOf(text).map(formatSuiteError)).toEqual([`tiny.yaml:15:33  tasks[0].checks[0].path  ${nowhere('b.txt')}`]);
  });

  it("use the task's resolved repository: a file its overrides delete is not there", () => {
    const text = replaced(
      '      fixture: base\n',
      '      fixture: base\n      files: { a.txt: null }\n',
      withChecks('      - { check: file_unchanged, path: a.txt }\n'),
    );
    expect(errorsOf(text).map(formatSuiteError)).toEqual([`tiny.yaml:16:34  tasks[0].checks[0].path  ${nowhere('a.txt')}`]);
  });

  it("are reported alongside another task's schema error", () => {
    const first = withChecks('      - { check: file_unchanged, path: nope.txt }\n');
    const second = first.slice(first.indexOf('  - id: one')).replace('id: one', 'id: two').replace('    prompt: Say hello\n', '');
    expect(errorsOf(first + second).map(formatSuiteError)).toEqual([
      `tiny.yaml:15:34  tasks[0].checks[0].path  ${nowhere('nope.txt')}`,
      'tiny.yaml:21:5  tasks[1].prompt  missing required key `prompt` (expected string)',
    ]);
  });
});

describe('reporting', () => {
  it('reports every error of a file, sorted by line, each as `file:line:col  path  message`', () => {
    let text = replaced('    prompt: Say hello\n', '');
    text = replaced('fixture: base', 'fixture: nope', text);
    text = replaced('check: answer_contains', 'check: nope', text);
    text = replaced('name: tiny\n', 'name: tiny\ncolour: blue\n', text);
    const lines = errorsOf(text).map(formatSuiteError);
    expect(lines).toEqual([
      'tiny.yaml:2:1  colour  unknown key `colour`',
      'tiny.yaml:8:5  tasks[0].prompt  missing required key `prompt` (expected string)',
      'tiny.yaml:11:7  tasks[0].repo.fixture  unknown fixture "nope"; defined: base',
      'tiny.yaml:14:9  tasks[0].checks[0].check  unknown check kind "nope"; expected one of: ' + CHECK_KINDS.join(', '),
    ]);
    for (const line of lines) expect(line).toMatch(/^tiny\.yaml:\d+:\d+ {2}\S+ {2}\S.*$/);
  });

  it('still reports semantic errors of valid tasks when another task breaks the schema', () => {
    const second = VALID.slice(VALID.indexOf('  - id: one')).replace('id: one', 'id: two').replace('tool: read', 'tool: nope');
    const text = replaced('args: { path: a.txt }', 'args: { path: 7 }') + second;
    expect(errorsOf(text).map((error) => error.path)).toEqual(['tasks[0].reference.steps[0].args.path', 'tasks[1].reference.steps[0].tool']);
  });

  it('an unreadable file is one error naming the file and the OS reason', async () => {
    const result = await loadSuiteFile('/nonexistent/suite.yaml');
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          file: '/nonexistent/suite.yaml',
          line: 1,
          col: 1,
          path: '(file)',
          message: expect.stringMatching(/^cannot read suite file \/nonexistent\/suite\.yaml: ENOENT/),
        },
      ],
    });
  });
});
