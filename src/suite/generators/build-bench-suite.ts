// Builds the benchmark suite from fixtures: every group's families generated, each variant proved by replay (an
// injected check, so this folder stays below the runner), the groups balanced, a dev/test split drawn per family.
import type { RepoSpec } from '../../sim-repo/index.js';
import type { LoadedTask } from '../load-suite.js';
import { resolveTaskRepo } from '../resolve-task-repo.js';
import { type GeneratorReject, type Suite, Task } from '../schema.js';
import { hashText } from '../templates/seeded-random.js';
import { firstApproachFailsFamilies } from './first-approach-fails.js';
import { withReportFaithful } from './answer-checks.js';
import { multiStepFamilies } from './multi-step.js';
import { mustStopFamilies } from './must-stop.js';
import { singleActionFamilies } from './single-action.js';
import { BENCH_GROUPS, type BenchGroup, type CandidateFamily, type GeneratorFixture } from './types.js';

/** Proves one variant: undefined when it scores as declared, else why not (e.g. "reference: tests_pass: …"). */
export type ReplayCheck = (task: LoadedTask) => string | undefined;

export interface BenchOptions {
  fixtures: readonly GeneratorFixture[];
  replay: ReplayCheck;
  /** Share of families in the dev split (default 0.3), drawn from a hash of the family id. */
  devShare?: number;
  /** At most this many families per group: the smallest group's count × `balance` (default 1.2). */
  balance?: number;
}

/** The built suite (the suite file's shape) and what was dropped: rejected families, and kept ones over the group cap. */
export interface BenchSuite {
  suite: Record<string, unknown> & { tasks: Record<string, unknown>[]; rejected: GeneratorReject[] };
  families: Record<BenchGroup, number>;
  overCap: Record<BenchGroup, number>;
}

/** dev or test for a family: the same family id always lands in the same split (FNV-1a of the id, per mille). */
export function splitOf(family: string, devShare = 0.3): 'dev' | 'test' {
  return hashText(`split|${family}`) % 1000 < devShare * 1000 ? 'dev' : 'test';
}

/** Why a candidate family fails: a variant that is not a valid task, or one whose replay does not score as declared. */
function familyProblem(candidate: CandidateFamily, spec: RepoSpec, replay: ReplayCheck): string | undefined {
  const suite = { fixtures: { [candidate.fixture]: spec } } as unknown as Suite;
  for (const task of candidate.tasks) task['checks'] = withReportFaithful((task['checks'] ?? []) as Record<string, unknown>[]);
  for (const raw of candidate.tasks) {
    const parsed = Task.safeParse(raw);
    if (!parsed.success) return `invalid-task: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`;
    const problem = replay({ ...parsed.data, repoSpec: resolveTaskRepo(suite, parsed.data) });
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Families of each group taken in turn from each fixture (so the cap keeps every fixture), in a hashed order within one. */
function interleaved(families: readonly CandidateFamily[]): CandidateFamily[] {
  const byFixture = new Map<string, CandidateFamily[]>();
  for (const family of families) byFixture.set(family.fixture, [...(byFixture.get(family.fixture) ?? []), family]);
  const queues = [...byFixture.keys()]
    .sort()
    .map((fixture) => (byFixture.get(fixture) ?? []).sort((a, b) => hashText(a.family) - hashText(b.family) || a.family.localeCompare(b.family)));
  const out: CandidateFamily[] = [];
  for (let round = 0; out.length < families.length; round += 1) for (const queue of queues) if (round < queue.length) out.push(queue[round] as CandidateFamily);
  return out;
}

/**
 * Generates, validates, balances and splits. Deterministic: the same fixtures give the same suite, byte for byte once
 * serialised. Returns an error message when a fixture's own tests fail (no mutant is meaningful then).
 */
export function buildBenchSuite(options: BenchOptions): { ok: true; bench: BenchSuite } | { ok: false; message: string } {
  const rejected: GeneratorReject[] = [];
  const fixtures: Record<string, RepoSpec> = {};
  const valid: Record<BenchGroup, CandidateFamily[]> = { 'single-action': [], 'multi-step': [], 'first-approach-fails': [], 'must-stop': [] };
  for (const fixture of options.fixtures) {
    const mutants = firstApproachFailsFamilies(fixture);
    if (!mutants.ok) return { ok: false, message: `fixture ${fixture.name}: ${mutants.message}` };
    fixtures[fixture.name] = mutants.spec;
    const withHidden = { ...fixture, spec: mutants.spec };
    const outputs = [singleActionFamilies(withHidden), multiStepFamilies(withHidden), mutants.output, mustStopFamilies(withHidden)];
    for (const output of outputs) {
      rejected.push(...output.rejected);
      for (const candidate of output.families) {
        const problem = familyProblem(candidate, mutants.spec, options.replay);
        if (problem === undefined) valid[candidate.group].push(candidate);
        else
          rejected.push({
            family: candidate.family,
            fixture: candidate.fixture,
            group: candidate.group,
            reason: problem.split(':')[0] as string,
            detail: problem,
          });
      }
    }
  }
  const smallest = Math.min(...BENCH_GROUPS.map((group) => valid[group].length));
  const cap = Math.max(1, Math.floor(smallest * (options.balance ?? 1.2)));
  const tasks: Record<string, unknown>[] = [];
  const families = {} as Record<BenchGroup, number>;
  const overCap = {} as Record<BenchGroup, number>;
  for (const group of BENCH_GROUPS) {
    const kept = interleaved(valid[group]).slice(0, cap);
    families[group] = kept.length;
    overCap[group] = valid[group].length - kept.length;
    for (const family of kept.sort((a, b) => a.fixture.localeCompare(b.fixture) || a.family.localeCompare(b.family))) {
      const split = splitOf(family.family, options.devShare);
      for (const { id, family: name, group: taskGroup, ...rest } of family.tasks) tasks.push({ id, family: name, split, group: taskGroup, ...rest });
    }
  }
  const suite = {
    version: 1,
    name: 'bench',
    description:
      `Generated by scripts/generate-suite.ts from ${options.fixtures.map((fixture) => fixture.name).join(', ')}: ` +
      `${BENCH_GROUPS.map((group) => `${families[group]} ${group}`).join(', ')} families (cap ${cap} per group; ` +
      `${BENCH_GROUPS.map((group) => overCap[group]).reduce((a, b) => a + b, 0)} valid families left out over the cap), ` +
      `${rejected.length} rejected (listed in rejected). Tune on split dev, report on split test.`,
    groups: [...BENCH_GROUPS],
    fixtures,
    rejected,
    tasks,
  };
  return { ok: true, bench: { suite, families, overCap } };
}
