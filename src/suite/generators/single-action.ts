// Single-action families: one look answers the question. From notes.yaml questions, and computed from the repository:
// an exported constant's value, who last changed a file (its history), what a function returns for an input (run in
// the sandbox with `node -e`).
import { SimRepo } from '../../sim-repo/index.js';
import { exportedConstants, exportedSymbols, literalCalls } from './fixture-facts.js';
import { type CandidateFamily, type GeneratorFixture, type GeneratorOutput, kebab } from './types.js';
import { printedValueCheck, valueCheck, valueChecks } from './answer-checks.js';

const task = (fixture: GeneratorFixture, family: string, body: Record<string, unknown>): CandidateFamily => ({
  family,
  group: 'single-action',
  fixture: fixture.name,
  tasks: [{ id: `${family}-v1`, family, group: 'single-action', repo: { fixture: fixture.name }, expect: 'finish', ...body }],
});

/** "What is NAME set to?": the literal's value, read from its file (which must stay unchanged). */
function constantFamilies(fixture: GeneratorFixture): CandidateFamily[] {
  return exportedConstants(fixture.spec).map((constant) => {
    const value = String(constant.value);
    const wrong = typeof constant.value === 'number' ? String(constant.value + 1) : `${constant.value}-old`;
    return task(fixture, `${fixture.name}-value-of-${kebab(constant.name)}`, {
      prompt: `What is ${constant.name} set to in this repository?`,
      checks: [valueCheck(value), { check: 'file_unchanged', path: constant.file }],
      reference: {
        steps: [
          { tool: 'search', args: { text: `${constant.name} =` } },
          { tool: 'read', args: { path: constant.file } },
        ],
        finish: `${constant.name} is ${constant.literal} (${constant.file}).`,
      },
      counterexamples: [
        { name: 'answers-without-reading', why: 'guesses a plausible value without reading the code', finish: `${constant.name} is ${wrong}.` },
      ],
    });
  });
}

/** "Who last changed FILE, and in which commit?": the newest commit whose changes touch it. */
function lastCommitFamilies(fixture: GeneratorFixture): CandidateFamily[] {
  const newest = new Map<string, (typeof fixture.spec.commits)[number]>();
  for (const commit of fixture.spec.commits) for (const change of commit.changes) if (!newest.has(change.path)) newest.set(change.path, commit);
  const head = fixture.spec.commits[0];
  return [...newest.entries()]
    .filter(([path]) => Object.hasOwn(fixture.spec.files, path))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, commit]) => {
      const author = commit.author.replace(/ <.*/, '');
      const short = commit.sha.slice(0, 7);
      const other = fixture.spec.commits.find((candidate) => candidate.sha !== commit.sha) ?? head;
      return task(fixture, `${fixture.name}-last-change-${kebab(path)}`, {
        prompt: `Who last changed ${path}, and in which commit?`,
        checks: [valueCheck(short), valueCheck(author, { forms: [commit.author.replace(/.*<|>.*/g, '')] })],
        reference: {
          steps: [{ tool: 'git_log', args: { path, limit: 1 } }],
          finish: `${author}, in ${short} (${commit.date}): ${commit.message.split('\n')[0]}.`,
        },
        counterexamples: [
          {
            name: 'another-commit',
            why: 'names a commit from the log that is not the newest change to the file',
            finish: other === undefined ? 'Nobody, it never changed.' : `${other.author.replace(/ <.*/, '')}, in ${other.sha.slice(0, 7)}.`,
          },
        ],
      });
    });
}

/** The arguments of a test's literal call with the first number changed (so the test's expected value is not the answer). */
function shiftedArguments(args: readonly string[]): string[] | undefined {
  const text = args.join('\u0000');
  // The first number outside a string: after ( [ { , : or a space, before , } ] or a space.
  const match = /(?<=^|[\s,:[{\u0000])(\d+(?:\.\d+)?)(?=$|[\s,}\]\u0000])/.exec(text);
  if (match === null) return undefined;
  const value = Number(match[1]);
  const shifted = String(Number.isInteger(value) ? value + 7 : Number((value * 2).toFixed(2)));
  return (text.slice(0, match.index) + shifted + text.slice(match.index + (match[1] as string).length)).split('\u0000');
}

/** "What does fn(args) return?": computed by running the function in the sandbox (`node -e`), not read from a test. */
function functionOutputFamilies(fixture: GeneratorFixture, output: GeneratorOutput): CandidateFamily[] {
  const functions = exportedSymbols(fixture.spec).filter((symbol) => symbol.kind === 'function');
  const files = new Map(functions.map((symbol) => [symbol.name, symbol.file]));
  const families: CandidateFamily[] = [];
  for (const call of literalCalls(fixture.spec, new Set(files.keys()))) {
    const family = `${fixture.name}-output-of-${kebab(call.name)}`;
    const args = shiftedArguments(call.args);
    const file = files.get(call.name) as string;
    if (args === undefined) {
      output.rejected.push({
        family,
        fixture: fixture.name,
        group: 'single-action',
        reason: 'no-numeric-argument',
        detail: `${call.name}(${call.args.join(', ')})`,
      });
      continue;
    }
    const expression = `${call.name}(${args.join(', ')})`;
    const cmd = `node -e 'import { ${call.name} } from "./${file}"; console.log(JSON.stringify(${expression}));'`;
    const run = SimRepo.fromSpec(fixture.spec).run(cmd);
    const value = run.output.trim();
    const valueChecked = printedValueCheck(value);
    if (run.exit_code !== 0 || value === '' || value === 'undefined' || value.includes('\n') || value.length > 60 || valueChecked === undefined) {
      output.rejected.push({
        family,
        fixture: fixture.name,
        group: 'single-action',
        reason: 'not-computable',
        detail: `${expression} → exit ${run.exit_code}: ${value.slice(0, 80)}`,
      });
      continue;
    }
    const original = SimRepo.fromSpec(fixture.spec)
      .run(cmd.replace(expression, `${call.name}(${call.args.join(', ')})`))
      .output.trim();
    families.push(
      task(fixture, family, {
        prompt: `What does ${expression} return with the code in ${file} as it is now? Give the exact value.`,
        checks: [valueChecked, { check: 'file_unchanged', path: file }],
        reference: {
          steps: [
            { tool: 'read', args: { path: file } },
            { tool: 'run', args: { cmd } },
          ],
          finish: `${expression} returns ${value}.`,
        },
        counterexamples:
          original !== value && original !== ''
            ? [
                {
                  name: 'copies-the-test',
                  why: `answers with what the test's call ${call.name}(${call.args.join(', ')}) returns`,
                  finish: `It returns ${original}.`,
                },
              ]
            : [{ name: 'answers-without-running', why: 'answers without reading or running the code', finish: 'It returns 0.' }],
      }),
    );
  }
  return families;
}

/** The hand-written questions of notes.yaml, each its own family. */
function questionFamilies(fixture: GeneratorFixture): CandidateFamily[] {
  return fixture.notes.questions.map((question, index) =>
    task(fixture, `${fixture.name}-question-${index + 1}`, {
      prompt: question.prompt,
      checks: valueChecks(question.answer_contains),
      reference: { steps: question.reference_steps, finish: `${question.answer_contains.join('; ')}.` },
      counterexamples: [{ name: 'answers-without-looking', why: 'answers without looking anything up', finish: 'I am not sure; probably the default.' }],
    }),
  );
}

/** Every single-action family of a fixture (candidates, before validation) and the ones dropped while computing. */
export function singleActionFamilies(fixture: GeneratorFixture): GeneratorOutput {
  const output: GeneratorOutput = { families: [], rejected: [] };
  output.families.push(...constantFamilies(fixture), ...lastCommitFamilies(fixture), ...functionOutputFamilies(fixture, output), ...questionFamilies(fixture));
  return output;
}
