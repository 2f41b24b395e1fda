// From a green repository to "fix the failing test" tasks: hidden copies of its tests, every mutation screened,
// each kept mutant a family of variants; the rejected ones listed with their reason.
import { SimRepo, type RepoSpec } from '../../sim-repo/index.js';
import { MUTATION_OPERATORS, type MutationOperator } from './mutation-operators.js';
import { mutantFamily, mutantTask } from './mutant-task.js';
import { hiddenCopiesOf, screenMutants, type RejectionReason } from './screen-mutants.js';

export interface MutantSuiteOptions {
  /** The fixture's name in the suite that will hold the tasks. */
  fixture: string;
  /** The green repository (every executed test passes). */
  base: RepoSpec;
  /** Source files to mutate. */
  files: readonly string[];
  /** Variants per kept mutant (wording, memory note, author, sha); default 1. */
  variants?: number;
  operators?: readonly MutationOperator[];
}

/** What generation produced: the fixture (the base plus hidden copies of its tests), the tasks, and what was rejected. */
export interface MutantSuite {
  fixture: RepoSpec;
  tasks: Record<string, unknown>[];
  kept: string[];
  rejected: { family: string; reason: RejectionReason; description: string }[];
}

/**
 * Generates the tasks of every kept mutant of `files` (see screenMutants for the rule; the hidden tests are copies of
 * the visible test files, so a fix that edits a visible test fails them). Deterministic. Returns an error message when
 * the base repository does not pass its tests.
 */
export function generateMutantTasks(options: MutantSuiteOptions): { ok: true; suite: MutantSuite } | { ok: false; message: string } {
  const visible = SimRepo.fromSpec({ ...options.base, hidden_files: {} }).testResults();
  const testFiles = [...new Set(visible.tests.filter((test) => test.declared !== true).map((test) => test.file))].sort();
  const fixture: RepoSpec = { ...options.base, hidden_files: { ...options.base.hidden_files, ...hiddenCopiesOf(options.base.files, testFiles) } };
  const screened = screenMutants(fixture, options.files, options.operators ?? MUTATION_OPERATORS);
  if (!screened.ok) return screened;
  const day = fixture.date.slice(0, 10);
  const ranks = new Map<string, number>();
  const tasks: Record<string, unknown>[] = [];
  const kept: string[] = [];
  const rejected: MutantSuite['rejected'] = [];
  for (const verdict of screened.verdicts) {
    const site = `${verdict.mutation.file}:${verdict.mutation.line}:${verdict.mutation.operator}`;
    const rank = (ranks.get(site) ?? 0) + 1;
    ranks.set(site, rank);
    const family = mutantFamily(verdict.mutation, rank);
    if (!verdict.kept) {
      rejected.push({ family, reason: verdict.reason, description: `${verdict.mutation.file}:${verdict.mutation.line} ${verdict.mutation.description}` });
      continue;
    }
    kept.push(family);
    const context = {
      fixture: options.fixture,
      day,
      original: fixture.files[verdict.mutation.file] as string,
      hiddenTests: screened.hiddenTests,
      testFiles: Object.fromEntries(testFiles.map((file) => [file, fixture.files[file] ?? ''])),
    };
    for (let variant = 0; variant < (options.variants ?? 1); variant += 1) tasks.push(mutantTask(verdict, family, variant, context));
  }
  return { ok: true, suite: { fixture, tasks, kept, rejected } };
}
