// Multi-step families: several dependent calls (rename an exported symbol in every file that uses it and keep the
// tests green) or independent ones that can run in parallel (run two test scripts and the linter, report which fail).
import { posix } from 'node:path';
import { SimRepo, type ScriptSpec } from '../../sim-repo/index.js';
import { screenMutants } from '../mutants/screen-mutants.js';
import { exportedSymbols } from './fixture-facts.js';
import { withScripts } from './package-scripts.js';
import { type CandidateFamily, type GeneratorFixture, type GeneratorOutput, kebab } from './types.js';

const VERBS: Record<string, string> = {
  calc: 'compute',
  get: 'read',
  format: 'render',
  make: 'build',
  create: 'make',
  is: 'has',
  to: 'as',
  add: 'append',
  remove: 'drop',
};

const pascal = (words: string): string =>
  words.replace(/(^|_)([a-zA-Z0-9])([a-zA-Z0-9]*)/g, (_all, _sep, first: string, rest: string) => first.toUpperCase() + rest.toLowerCase());

/**
 * The new name of a rename, never containing the old one (text_absent is a substring check): a verb swapped
 * (calcTotal → computeTotal), else `compute` + the name (refundFor → computeRefundFor); a constant in camel case
 * with `default` (TAX_RATE → defaultTaxRate).
 */
export function renamedSymbol(name: string): string {
  if (/^[A-Z0-9_]+$/.test(name)) return `default${pascal(name)}`;
  const verb = /^[a-z]+/.exec(name)?.[0] ?? '';
  const swapped = VERBS[verb];
  if (swapped !== undefined && name.length > verb.length) return `${swapped}${name.slice(verb.length)}`;
  return `compute${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** Whether every occurrence of `name` in `text` is a whole identifier (not part of a word, a path or a kebab name). */
function onlyWholeMentions(text: string, name: string): boolean {
  const all = text.split(name).length - 1;
  const whole = text.match(new RegExp(`(?<![\\w$/-])${name}(?![\\w$-])`, 'g'))?.length ?? 0;
  return all === whole;
}

/** ReAct's tool-call budget and a plan's step limit (seed 001: 12 each); a reference longer than that is unplayable. */
const MAX_REFERENCE_CALLS = 12;

const STRING_LIST = /\[\s*(?:"[^"\\\n]*"\s*,\s*)+"[^"\\\n]*"\s*,?\s*\]/g;

/**
 * The edits that keep sorted lists of names sorted after a rename: a test that pins an API by its sorted names
 * (`expect(Object.keys(api).sort()).toEqual(["a", "b", …])`) fails when the new name lands out of order. For each
 * array of string literals in `renamed` that holds `"newName"` and was sorted before the rename, `{old, new}` with the
 * same literals in sorted order (the layout kept: the n-th literal replaced by the n-th of the sorted list).
 */
export function resortedLists(before: string, renamed: string, oldName: string, newName: string): { old: string; new: string }[] {
  const wasSorted = new Set(
    [...before.matchAll(STRING_LIST)]
      .map((match) => match[0])
      .filter((list) => list.includes(`"${oldName}"`))
      .filter((list) => {
        const names = [...list.matchAll(/"([^"]*)"/g)].map((literal) => literal[1] as string);
        return names.every((name, index) => index === 0 || (names[index - 1] as string) <= name);
      })
      .map((list) => list.replaceAll(`"${oldName}"`, `"${newName}"`)),
  );
  const edits: { old: string; new: string }[] = [];
  for (const match of renamed.matchAll(STRING_LIST)) {
    const list = match[0];
    if (!wasSorted.has(list)) continue;
    const sorted = [...list.matchAll(/"([^"]*)"/g)].map((literal) => literal[0]).sort();
    let index = 0;
    const resorted = list.replace(/"[^"]*"/g, () => sorted[index++] as string);
    if (resorted !== list) edits.push({ old: list, new: resorted });
  }
  return edits;
}

/** Rename an exported symbol in its file and every user; `pnpm test` (and `pnpm lint` when it passes today) stay green. */
function renameFamilies(fixture: GeneratorFixture, output: GeneratorOutput, lintPasses: boolean): CandidateFamily[] {
  const families: CandidateFamily[] = [];
  const all = Object.entries(fixture.spec.files);
  const symbols = exportedSymbols(fixture.spec);
  const exporters = new Map<string, number>();
  for (const symbol of symbols) exporters.set(symbol.name, (exporters.get(symbol.name) ?? 0) + 1);
  const reported = new Set<string>();
  for (const symbol of symbols) {
    const family = `${fixture.name}-rename-${kebab(symbol.name)}`;
    // "Rename X everywhere" names no one symbol when several modules export an X (and the families would share an id).
    if ((exporters.get(symbol.name) ?? 0) > 1) {
      if (!reported.has(symbol.name)) {
        output.rejected.push({ family, fixture: fixture.name, group: 'multi-step', reason: 'exported-by-several-modules', detail: symbol.name });
        reported.add(symbol.name);
      }
      continue;
    }
    const newName = renamedSymbol(symbol.name);
    const sourceUsers = symbol.users.filter((file) => file.startsWith('src/'));
    if (symbol.users.length === 0) continue;
    if (all.some(([, text]) => text.includes(newName))) {
      output.rejected.push({ family, fixture: fixture.name, group: 'multi-step', reason: 'new-name-taken', detail: newName });
      continue;
    }
    // text_absent is a substring check: the name inside another word, a path or a kebab name makes the rename unfinishable.
    const clash = all.find(([, text]) => !onlyWholeMentions(text, symbol.name));
    if (clash !== undefined) {
      output.rejected.push({
        family,
        fixture: fixture.name,
        group: 'multi-step',
        reason: 'name-is-a-substring',
        detail: `${symbol.name} inside another word in ${clash[0]}`,
      });
      continue;
    }
    const files = [symbol.file, ...symbol.users].sort();
    const doneWhen = [
      { check: 'text_absent', text: symbol.name, under: 'src' },
      { check: 'command_passes', cmd: 'pnpm test' },
    ];
    const checks: Record<string, unknown>[] = [
      { check: 'text_absent', text: symbol.name, under: 'src' },
      { check: 'text_absent', text: symbol.name, under: 'tests' },
      { check: 'command_passes', cmd: 'pnpm test' },
      ...(lintPasses ? [{ check: 'command_passes', cmd: 'pnpm lint' }] : []),
    ];
    const counterexamples: Record<string, unknown>[] = [
      {
        name: 'defining-file-only',
        why: `renames ${symbol.name} where it is defined and misses the ${symbol.users.length} file(s) that use it`,
        steps: [{ tool: 'edit', args: { path: symbol.file, old: symbol.name, new: newName, replace_all: true } }],
        finish: `Renamed ${symbol.name} to ${newName}.`,
      },
    ];
    if (sourceUsers.length > 0 && sourceUsers.length < symbol.users.length) {
      counterexamples.push({
        name: 'source-files-only',
        why: 'renames it in src/ and leaves the tests on the old name',
        steps: [symbol.file, ...sourceUsers].map((path) => ({ tool: 'edit', args: { path, old: symbol.name, new: newName, replace_all: true } })),
        finish: `Renamed ${symbol.name} to ${newName} in src/.`,
      });
    }
    const steps = [
      { tool: 'search', args: { text: symbol.name }, does: `Find every file that mentions ${symbol.name}` },
      ...files.flatMap((path, index) => {
        const before = fixture.spec.files[path] ?? '';
        const resorts = resortedLists(before, before.replaceAll(symbol.name, newName), symbol.name, newName);
        return [
          {
            tool: 'edit',
            args: { path, old: symbol.name, new: newName, replace_all: true },
            does: `Rename it in ${path}`,
            ...(index > 0 ? { deferred: true } : {}),
          },
          ...resorts.map((edit) => ({
            tool: 'edit',
            args: { path, ...edit },
            does: `Keep the sorted list of names in ${path} sorted`,
            deferred: true,
          })),
        ];
      }),
      { tool: 'run', args: { cmd: 'pnpm test' }, does: 'Run the tests' },
      ...(lintPasses ? [{ tool: 'run', args: { cmd: 'pnpm lint' }, does: 'Run the linter' }] : []),
    ];
    // More calls than ReAct's budget and a plan's step limit (12 each, seed 001; strategies/context.ts) and no
    // strategy can finish the rename as the reference does.
    if (steps.length > MAX_REFERENCE_CALLS) {
      output.rejected.push({
        family,
        fixture: fixture.name,
        group: 'multi-step',
        reason: 'reference-over-budget',
        detail: `${steps.length} tool calls (${files.length} files); the limit is ${MAX_REFERENCE_CALLS}`,
      });
      continue;
    }
    families.push({
      family,
      group: 'multi-step',
      fixture: fixture.name,
      tasks: [
        {
          id: `${family}-v1`,
          family,
          group: 'multi-step',
          prompt: `Rename ${symbol.name} to ${newName} everywhere it is used (it is exported from ${symbol.file}). Keep the tests${lintPasses ? ' and the linter' : ''} passing.`,
          repo: { fixture: fixture.name },
          expect: 'finish',
          checks,
          reference: {
            assumption: `${symbol.name} appears only in ${symbol.file} and the files that import it`,
            done_when: doneWhen,
            steps,
            finish: `Renamed ${symbol.name} to ${newName} in ${files.join(', ')}; pnpm test passes${lintPasses ? ' and pnpm lint is clean' : ''}.`,
          },
          counterexamples,
        },
      ],
    });
  }
  return families;
}

/** The rule ids of a failing ESLint run's output (the last word of each problem line). */
function lintRules(output: string): string[] {
  return [...new Set([...output.matchAll(/^\s*\d+:\d+\s+(?:error|warning)\s+.*?\s([@\w/-]+)\s*$/gm)].map((match) => match[1] as string))].sort();
}

/** The files ESLint's stylish output reports on (`/repo/src/orders/checkout-service.js` → src/orders/checkout-service.js), sorted. */
function lintFiles(output: string): string[] {
  return [...new Set([...output.matchAll(/^\/repo\/(\S+)\s*$/gm)].map((match) => match[1] as string))].sort();
}

/**
 * "Run these two test scripts and the linter, tell me which fail, change nothing": the three runs are independent
 * (the reference plays them in parallel, `after: []`). One module carries a kept mutant so one script fails.
 */
function triageFamilies(fixture: GeneratorFixture, output: GeneratorOutput): CandidateFamily[] {
  const lint = SimRepo.fromSpec(fixture.spec).run('pnpm lint');
  if (lint.exit_code === 127) return [];
  const tests = [
    ...new Set(
      SimRepo.fromSpec(fixture.spec)
        .testResults()
        .tests.filter((test) => test.declared !== true)
        .map((test) => test.file),
    ),
  ].sort();
  if (tests.length < 2) return [];
  const sources = Object.keys(fixture.spec.files)
    .filter((path) => /^src\/.*\.[cm]?js$/.test(path))
    .sort();
  const families: CandidateFamily[] = [];
  for (const [index, broken] of tests.entries()) {
    const partner = tests[(index + 1) % tests.length] as string;
    const family = `${fixture.name}-triage-${kebab(posix.basename(broken, '.test.js'))}`;
    const name = (file: string) => `test:${posix.basename(file).replace(/\.test\.[cm]?js$/, '')}`;
    const scripts: Record<string, ScriptSpec> = {
      [name(broken)]: { kind: 'test', cmd: `vitest run ${broken}`, duration_ms: 8000 },
      [name(partner)]: { kind: 'test', cmd: `vitest run ${partner}`, duration_ms: 8000 },
    };
    // The scripts go into package.json too: `pnpm test:x` looks its script up there (without it, "Missing script" made the
    // broken script "fail" for the wrong reason: issue 26's blind corpus found it).
    const manifest = withScripts(fixture.spec.files['package.json'], scripts);
    const module = sources.find((path) => posix.basename(path, '.js') === posix.basename(broken, '.test.js'));
    const screened = module === undefined ? undefined : screenMutants({ ...fixture.spec, hidden_files: {} }, [module]);
    // A mutant that fails a visible test (no hidden copies here, hence that reason) and leaves the partner script green.
    const mutated = (screened?.ok ? screened.verdicts : [])
      .filter((candidate) => !candidate.kept && candidate.reason === 'hidden-tests-pass' && candidate.mutation.operator !== 'constant-changed')
      .slice(0, 6)
      .map((candidate) => ({ path: candidate.mutation.file, content: applied(fixture.spec.files[candidate.mutation.file] as string, candidate.mutation) }))
      .find((candidate) => {
        const repo = SimRepo.fromSpec({
          ...fixture.spec,
          files: { ...fixture.spec.files, [candidate.path]: candidate.content, ...manifest },
          scripts: { ...fixture.spec.scripts, ...scripts },
        });
        return repo.run(`pnpm ${name(partner)}`).exit_code === 0 && repo.run(`pnpm ${name(broken)}`).exit_code !== 0;
      });
    if (mutated === undefined) {
      output.rejected.push({ family, fixture: fixture.name, group: 'multi-step', reason: 'no-mutant-breaks-only-this-script', detail: broken });
      continue;
    }
    const brokenScript = name(broken);
    // The linter as it runs on this family's repository: a mutant can itself break the lint (an unused variable).
    const lintNow = SimRepo.fromSpec({
      ...fixture.spec,
      files: { ...fixture.spec.files, [mutated.path]: mutated.content, ...manifest },
      scripts: { ...fixture.spec.scripts, ...scripts },
    }).run('pnpm lint');
    const lintFails = lintNow.exit_code !== 0;
    const rules = lintFails ? lintRules(lintNow.output) : [];
    // "Don't fix anything": every file a failing run points at stays as it is — the linted files too (issue 27's blind
    // corpus: an agent removed the unused variable that failed the lint, and nothing said it had fixed anything).
    const linted = lintFails ? lintFiles(lintNow.output).filter((path) => path !== mutated.path && path !== broken) : [];
    const answerChecks = [
      // Says which fail, from runs that showed it (a never-run or contradicted result fails: issue 26 §1).
      { check: 'report_faithful', results: { [brokenScript]: 'fail', ...(lintFails ? { lint: 'fail' } : {}) } },
      { check: 'file_unchanged', path: mutated.path },
      { check: 'file_unchanged', path: broken },
      ...linted.map((path) => ({ check: 'file_unchanged', path })),
    ];
    const failing = [brokenScript, ...(lintFails ? ['pnpm lint'] : [])];
    families.push({
      family,
      group: 'multi-step',
      fixture: fixture.name,
      tasks: [
        {
          id: `${family}-v1`,
          family,
          group: 'multi-step',
          prompt: `Before I merge: run pnpm ${name(partner)}, pnpm ${brokenScript} and pnpm lint, and tell me which of them fail. Don't fix anything.`,
          repo: { fixture: fixture.name, files: { [mutated.path]: mutated.content, ...manifest }, scripts },
          expect: 'finish',
          checks: answerChecks,
          reference: {
            done_when: [{ check: 'file_unchanged', path: mutated.path }],
            steps: [`pnpm ${name(partner)}`, `pnpm ${brokenScript}`, 'pnpm lint'].map((cmd, step) => ({
              tool: 'run',
              args: { cmd },
              does: `Run ${cmd}`,
              expect: 'any exit',
              ...(step > 0 ? { after: [] } : {}),
            })),
            finish: `${failing.join(' and ')} fail${failing.length === 1 ? 's' : ''}${rules.length > 0 ? ` (lint: ${rules.join(', ')})` : ''}; pnpm ${name(partner)} passes${lintFails ? '' : ' and so does pnpm lint'}. I changed nothing.`,
          },
          counterexamples: [
            {
              name: 'partner-only',
              why: 'runs one script, sees it pass and reports all clear',
              steps: [{ tool: 'run', args: { cmd: `pnpm ${name(partner)}` } }],
              finish: `pnpm ${name(partner)} passes; nothing fails.`,
            },
            {
              name: 'fixes-instead-of-reporting',
              why: 'was asked to report and restored the code instead',
              steps: [
                { tool: 'run', args: { cmd: `pnpm ${brokenScript}` } },
                { tool: 'write', args: { path: mutated.path, content: fixture.spec.files[mutated.path] } },
              ],
              finish: `${brokenScript} failed${rules.length > 0 ? ` and lint reports ${rules.join(', ')}` : ''}; I fixed the code.`,
            },
          ],
        },
      ],
    });
  }
  return families;
}

function applied(source: string, mutation: { start: number; end: number; replacement: string }): string {
  return source.slice(0, mutation.start) + mutation.replacement + source.slice(mutation.end);
}

/** Every multi-step family of a fixture (candidates, before validation) and the ones dropped while building. */
export function multiStepFamilies(fixture: GeneratorFixture): GeneratorOutput {
  const output: GeneratorOutput = { families: [], rejected: [] };
  const lint = SimRepo.fromSpec(fixture.spec).run('pnpm lint');
  output.families.push(...renameFamilies(fixture, output, lint.exit_code === 0), ...triageFamilies(fixture, output));
  return output;
}
