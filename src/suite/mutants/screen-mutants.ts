// Which mutants make tasks (SWE-smith's rule): the unmutated repository passes every test, the mutant fails at least
// one visible test, and the hidden tests fail on it too. Runs the tests through SimRepo's sandbox test runner.
import { posix } from 'node:path';
import { SimRepo, type RepoSpec, type TestResult } from '../../sim-repo/index.js';
import { applyMutation, findMutations, MUTATION_OPERATORS, type Mutation, type MutationOperator } from './mutation-operators.js';

/** Why a mutant was not kept. */
export type RejectionReason = 'no-visible-test-fails' | 'hidden-tests-pass';

/** A screened mutant: kept with the tests it fails, or rejected with the reason. */
export type MutantVerdict =
  | { kept: true; mutation: Mutation; source: string; visibleFailures: TestResult[]; hiddenFailures: string[] }
  | { kept: false; mutation: Mutation; reason: RejectionReason };

/** The outcome of screening: the baseline's failing tests stop everything (no mutant is meaningful then). */
export type ScreenResult = { ok: true; verdicts: MutantVerdict[]; hiddenTests: string[] } | { ok: false; message: string };

const isHidden = (spec: RepoSpec, test: TestResult): boolean => Object.hasOwn(spec.hidden_files, test.file);

/** Executed tests that did not pass (environment-dependent, declared tests are not the code's verdict and are left out). */
function failing(run: { tests: TestResult[] }): TestResult[] {
  return run.tests.filter((test) => test.declared !== true && test.state === 'failed');
}

/**
 * Screens every mutation of `files` in `base` (each file's content must parse as an ES module). Returns an error when
 * the unmutated repository fails a test or a test file, visible or hidden. A mutant is kept when at least one visible
 * test and at least one hidden test fail on it; `operators` narrows the operators tried. Deterministic.
 */
export function screenMutants(base: RepoSpec, files: readonly string[], operators: readonly MutationOperator[] = MUTATION_OPERATORS): ScreenResult {
  const baseline = SimRepo.fromSpec(base).testResults({ hidden: true });
  const broken = [...failing(baseline).map((test) => test.id), ...baseline.fileErrors.map((error) => `${error.file}: ${error.message}`)];
  if (broken.length > 0) return { ok: false, message: `the unmutated repository fails: ${broken.join('; ')}` };
  const hiddenTests = baseline.tests.filter((test) => isHidden(base, test)).map((test) => test.id);
  const verdicts: MutantVerdict[] = [];
  for (const file of files) {
    const original = base.files[file];
    if (original === undefined) return { ok: false, message: `${file} is not a file of the repository` };
    for (const mutation of findMutations(file, original).filter((found) => operators.includes(found.operator))) {
      const source = applyMutation(original, mutation);
      const run = SimRepo.fromSpec({ ...base, files: { ...base.files, [file]: source } }).testResults({ hidden: true });
      // A file that fails as a whole (a throw at import, a run that never ends) fails each of its tests: they are named
      // as the unmutated run reports them, so a task's tests_pass can name real tests, never a "(file)" pseudo-test.
      const failed = [
        ...failing(run),
        ...run.fileErrors.flatMap((error) =>
          baseline.tests.filter((test) => test.file === error.file).map((test): TestResult => ({ ...test, state: 'failed' })),
        ),
      ];
      const visibleFailures = failed.filter((test) => !isHidden(base, test));
      const hiddenFailures = failed.filter((test) => isHidden(base, test)).map((test) => test.id);
      if (visibleFailures.length === 0) verdicts.push({ kept: false, mutation, reason: 'no-visible-test-fails' });
      else if (hiddenFailures.length === 0) verdicts.push({ kept: false, mutation, reason: 'hidden-tests-pass' });
      else verdicts.push({ kept: true, mutation, source, visibleFailures, hiddenFailures });
    }
  }
  return { ok: true, verdicts, hiddenTests };
}

/** Rewrites the relative import specifiers of a file moved from `from` to `to` so they name the same files. */
function movedImports(source: string, from: string, to: string): string {
  return source.replace(/(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}\/[^"']+)\2/g, (_text, lead: string, quote: string, specifier: string) => {
    const target = posix.join(posix.dirname(from), specifier);
    let relative = posix.relative(posix.dirname(to), target);
    if (!relative.startsWith('.')) relative = `./${relative}`;
    return `${lead}${quote}${relative}${quote}`;
  });
}

/**
 * Hidden copies of the test files `pnpm test` would run (`tests` = the visible test files), under `folder`
 * (default `tests/hidden/`), imports rewritten to reach the same modules. As SWE-bench resets the test files before
 * scoring, a copy the agent cannot touch catches a fix that edits the visible test instead of the code.
 */
export function hiddenCopiesOf(files: Readonly<Record<string, string>>, tests: readonly string[], folder = 'tests/hidden/'): Record<string, string> {
  return Object.fromEntries(
    tests.map((file) => {
      const to = posix.join(folder, posix.basename(file));
      return [to, movedImports(files[file] ?? '', file, to)];
    }),
  );
}
