// First-approach-fails families: the procedural bugs of src/suite/mutants (one family per kept mutant), with the
// repository's misleading memory notes (notes.yaml, truthful: false) beside the mutant's own "it is flaky" note.
import { generateMutantTasks } from '../mutants/generate-mutant-tasks.js';
import { hashText } from '../templates/seeded-random.js';
import { codeFiles } from './fixture-facts.js';
import type { GeneratorFixture, GeneratorOutput } from './types.js';

/**
 * The mutant families of a fixture (one variant each) and the fixture they need (the spec plus hidden copies of its
 * tests, which every group of the fixture then shares). Returns an error message when the fixture's tests fail.
 */
export function firstApproachFailsFamilies(
  fixture: GeneratorFixture,
): { ok: true; output: GeneratorOutput; spec: GeneratorFixture['spec'] } | { ok: false; message: string } {
  const result = generateMutantTasks({ fixture: fixture.name, base: fixture.spec, files: codeFiles(fixture.spec).sources, variants: 1 });
  if (!result.ok) return result;
  const misleading = fixture.notes.notes.filter((note) => !note.truthful);
  const day = fixture.spec.date.slice(0, 10);
  const families = result.suite.tasks.map((task) => {
    const family = String(task.family);
    const note = misleading.length === 0 ? undefined : misleading[hashText(family) % misleading.length];
    const memory = [...(task.memory as unknown[]), ...(note === undefined ? [] : [{ date: day, text: note.text }])];
    return { family, group: 'first-approach-fails' as const, fixture: fixture.name, tasks: [{ ...task, memory }] };
  });
  const rejected = result.suite.rejected.map((entry) => ({
    family: entry.family,
    fixture: fixture.name,
    group: 'first-approach-fails',
    reason: entry.reason,
    detail: entry.description,
  }));
  return { ok: true, output: { families, rejected }, spec: result.suite.fixture };
}
