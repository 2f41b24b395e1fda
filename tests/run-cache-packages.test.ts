// The content-keyed run caches key on the declared packages too: they decide how an undeclared import fails, so two
// repositories that differ only in package.json's dependencies never share a test-file or `node` result.
import { afterAll, describe, expect, it } from 'vitest';
import { clearRunCaches, RepoSpec, SimRepo, stopCodeWorker } from '../src/sim-repo/index.js';

afterAll(() => stopCodeWorker());

const TEST = `import { describe, expect, it } from 'vitest';
describe('pg', () => {
  it('is declared', async () => {
    let message = '';
    try { await import('pg'); } catch (e) { message = String(e.message); }
    expect(message).toContain('declared in package.json');
  });
});
`;
const NODE = `node -e "import('pg').then(() => console.log('ok'), (e) => console.log(e.message.includes('declared') ? 'DECLARED' : 'UNDECLARED'))"`;
const spec = (dependencies: Record<string, string>) =>
  RepoSpec.parse({ files: { 'tests/pg.test.js': TEST }, dependencies, scripts: { test: { kind: 'test', cmd: 'vitest run' } } });
const states = (repoSpec: RepoSpec): string[] =>
  SimRepo.fromSpec(repoSpec)
    .testResults()
    .tests.map((test) => test.state);
const nodeOutput = (repoSpec: RepoSpec): string => SimRepo.fromSpec(repoSpec).run(NODE).output;

describe('run caches and declared packages', () => {
  it('keys a package whose name holds a comma apart from the two packages the comma would split it into', () => {
    const joined = spec({ 'a,b': '1.0.0' });
    const split = spec({ a: '1.0.0', b: '1.0.0' });
    const probe = (repoSpec: RepoSpec) =>
      SimRepo.fromSpec(repoSpec).run(`node -e "import('a').then(() => console.log('ok'), (e) => console.log(e.message))"`).output;
    clearRunCaches();
    const cold = { joined: probe(joined), split: '' };
    clearRunCaches();
    cold.split = probe(split);
    expect(cold.joined).not.toBe(cold.split);
    const states = (repoSpec: RepoSpec) =>
      SimRepo.fromSpec(RepoSpec.parse({ ...repoSpec, files: { 'tests/a.test.js': TEST.replace(/'pg'/g, "'a'") } }))
        .testResults()
        .tests.map((test) => test.state);
    clearRunCaches();
    const coldStates = { joined: states(joined), split: [] as string[] };
    clearRunCaches();
    coldStates.split = states(split);
    expect(coldStates.joined).not.toEqual(coldStates.split);
    for (const order of [
      [joined, split],
      [split, joined],
    ]) {
      clearRunCaches();
      for (const repoSpec of order) {
        expect(probe(repoSpec)).toBe(repoSpec === joined ? cold.joined : cold.split);
        expect(states(repoSpec)).toEqual(repoSpec === joined ? coldStates.joined : coldStates.split);
      }
    }
  });

  it('serves each repository the result a cold run gives it, in either order', () => {
    const declared = spec({ pg: '^8' });
    const undeclared = spec({});
    clearRunCaches();
    const cold = { declared: states(declared), undeclared: [] as string[], nodeDeclared: nodeOutput(declared), nodeUndeclared: '' };
    clearRunCaches();
    cold.undeclared = states(undeclared);
    cold.nodeUndeclared = nodeOutput(undeclared);
    expect(cold.declared).not.toEqual(cold.undeclared);
    expect([cold.nodeDeclared, cold.nodeUndeclared]).toEqual(['DECLARED', 'UNDECLARED']);
    for (const order of [
      [declared, undeclared],
      [undeclared, declared],
    ]) {
      clearRunCaches();
      for (const repoSpec of order) {
        const key = repoSpec === declared ? 'declared' : 'undeclared';
        expect(states(repoSpec)).toEqual(cold[key]);
        expect(nodeOutput(repoSpec)).toBe(key === 'declared' ? cold.nodeDeclared : cold.nodeUndeclared);
      }
    }
  });
});
