// What `stratbench validate` prints about a suite's make-up: tasks and families per group × split, per fixture, and
// the families its generator rejected with the reason.
import type { LoadedTask } from '../suite/load-suite.js';
import type { GeneratorReject } from '../suite/schema.js';

/** Counts of one cell: tasks and the distinct families they belong to (a task without a family is its own). */
export interface CompositionCell {
  tasks: number;
  families: number;
}

/** A suite's make-up: by group then split (`all`, `dev`, `test`, `none` for tasks without a split), and by fixture. */
export interface SuiteComposition {
  byGroup: Record<string, Record<string, CompositionCell>>;
  byFixture: Record<string, CompositionCell>;
  total: CompositionCell;
}

type Counted = Pick<LoadedTask, 'id' | 'family' | 'group' | 'split' | 'repo'>;

function cell(tasks: readonly Counted[]): CompositionCell {
  return { tasks: tasks.length, families: new Set(tasks.map((task) => task.family ?? `task:${task.id}`)).size };
}

/** Counts tasks and families per group × split and per fixture, groups in the given order (then any others, sorted). */
export function suiteComposition(tasks: readonly Counted[], groups: readonly string[] = []): SuiteComposition {
  const groupNames = [...groups, ...[...new Set(tasks.map((task) => task.group))].filter((group) => !groups.includes(group)).sort()];
  const byGroup: SuiteComposition['byGroup'] = {};
  for (const group of groupNames) {
    const inGroup = tasks.filter((task) => task.group === group);
    byGroup[group] = {
      all: cell(inGroup),
      dev: cell(inGroup.filter((task) => task.split === 'dev')),
      test: cell(inGroup.filter((task) => task.split === 'test')),
      none: cell(inGroup.filter((task) => task.split === undefined)),
    };
  }
  const fixtures = [...new Set(tasks.map((task) => task.repo.fixture))].sort();
  const byFixture = Object.fromEntries(fixtures.map((fixture) => [fixture, cell(tasks.filter((task) => task.repo.fixture === fixture))]));
  return { byGroup, byFixture, total: cell(tasks) };
}

const show = (value: CompositionCell): string => `${value.tasks} (${value.families} fam.)`;

/** The composition as text lines: a group × split table, one line per fixture, then the generator's rejects. */
export function compositionLines(composition: SuiteComposition, rejected: readonly GeneratorReject[]): string[] {
  const anySplit = Object.values(composition.byGroup).some((row) => (row['none']?.tasks ?? 0) < (row['all']?.tasks ?? 0));
  const columns = anySplit ? ['all', 'dev', 'test'] : ['all'];
  const width = Math.max(5, ...Object.keys(composition.byGroup).map((group) => group.length));
  const lines = [`${'group'.padEnd(width)}  ${columns.map((column) => `${column} tasks (families)`.padEnd(22)).join('')}`.trimEnd()];
  for (const [group, row] of Object.entries(composition.byGroup)) {
    lines.push(`${group.padEnd(width)}  ${columns.map((column) => show(row[column] ?? { tasks: 0, families: 0 }).padEnd(22)).join('')}`.trimEnd());
  }
  lines.push(`${'total'.padEnd(width)}  ${show(composition.total)}`);
  lines.push(
    `fixtures: ${Object.entries(composition.byFixture)
      .map(([fixture, value]) => `${fixture} ${show(value)}`)
      .join(', ')}`,
  );
  if (rejected.length > 0) {
    lines.push(`the generator rejected ${rejected.length} famil${rejected.length === 1 ? 'y' : 'ies'}:`);
    for (const reject of rejected) {
      lines.push(`  ${reject.family} (${reject.fixture}, ${reject.group}): ${reject.reason}${reject.detail === undefined ? '' : ` — ${reject.detail}`}`);
    }
  }
  return lines;
}
