// Procedural bugs: mutation operators, SWE-smith's keep rule run through the sandbox, and the tasks validate proves.
import { describe, expect, it } from 'vitest';
import { RepoSpec } from '../src/sim-repo/spec.js';
import { stringify } from 'yaml';
import { findMutations } from '../src/suite/mutants/mutation-operators.js';
import { hiddenCopiesOf, screenMutants } from '../src/suite/mutants/screen-mutants.js';
import { generateMutantTasks } from '../src/suite/mutants/generate-mutant-tasks.js';
import { formatSuiteError, parseSuite } from '../src/suite/load-suite.js';
import { validateTrajectories } from '../src/runner/replay.js';

const SHIPPING = `// Shipping fees by order total.
export const FREE_FROM = 60;

export function shippingFee(total, express) {
  if (total >= FREE_FROM) return 0;
  const fee = express ? 9.5 : 4.9;
  return Math.round(fee * 100) / 100;
}

export function label(total) {
  return format("EUR", total);
}

function format(currency, amount) {
  return \`\${amount} \${currency}\`;
}
`;

const TEST = `import { describe, it, expect } from "vitest";
import { shippingFee, label } from "../src/shipping.js";

describe("shipping", () => {
  it("charges the standard fee below the threshold", () => {
    expect(shippingFee(59.99, false)).toBe(4.9);
  });
  it("ships free from 60", () => {
    expect(shippingFee(60, false)).toBe(0);
  });
  it("labels the total", () => {
    expect(label(12)).toBe("12 EUR");
  });
});
`;

const files = { 'src/shipping.js': SHIPPING, 'tests/shipping.test.js': TEST };
const base = (hidden: Record<string, string>, source = SHIPPING) =>
  RepoSpec.parse({
    files: { ...files, 'src/shipping.js': source },
    devDependencies: { vitest: '^4.1.12' },
    scripts: { test: { kind: 'test' } },
    hidden_files: hidden,
    date: '2026-09-15T09:00:00Z',
  });

describe('mutation operators', () => {
  it('find the six kinds of site in a source, in source order', () => {
    expect(
      findMutations('src/shipping.js', SHIPPING).map((mutation) => `${mutation.line} ${mutation.operator} ${mutation.functionName}: ${mutation.description}`),
    ).toEqual([
      '2 constant-changed (module): 60 → 61',
      '5 condition-removed shippingFee: condition `total >= FREE_FROM` removed',
      '5 comparison-flipped shippingFee: `>=` → `<`',
      '5 off-by-one shippingFee: `>=` → `>`',
      '5 constant-changed shippingFee: 0 → 1',
      '6 condition-removed shippingFee: condition `express` removed',
      '6 constant-changed shippingFee: 9.5 → 9.55',
      '6 constant-changed shippingFee: 4.9 → 4.95',
      '7 rounding-swapped shippingFee: Math.round → Math.floor',
      '7 constant-changed shippingFee: 100 → 101',
      '7 constant-changed shippingFee: 100 → 101',
      '11 arguments-swapped label: arguments of format(…) swapped',
    ]);
  });
});

describe('keeping a mutant (SWE-smith: only if it breaks a passing test)', () => {
  const copies = hiddenCopiesOf(files, ['tests/shipping.test.js']);

  it('copies the visible tests as hidden ones with their imports moved', () => {
    expect(copies['tests/hidden/shipping.test.js']).toContain('from "../../src/shipping.js"');
  });

  it('keeps a mutant that fails a visible and a hidden test, and says why the others were dropped', () => {
    const screened = screenMutants(base(copies), ['src/shipping.js']);
    if (!screened.ok) throw new Error(screened.message);
    const verdicts = screened.verdicts.map(
      (verdict) =>
        `${verdict.mutation.line} ${verdict.mutation.operator} ${verdict.mutation.description}: ${verdict.kept ? verdict.visibleFailures.map((test) => test.id).join(', ') : verdict.reason}`,
    );
    expect(verdicts).toContain('5 off-by-one `>=` → `>`: tests/shipping.test.js > shipping > ships free from 60');
    expect(verdicts).toContain('6 constant-changed 9.5 → 9.55: no-visible-test-fails');
    expect(verdicts).toContain('7 rounding-swapped Math.round → Math.floor: no-visible-test-fails');
    expect(verdicts).toContain('11 arguments-swapped arguments of format(…) swapped: tests/shipping.test.js > shipping > labels the total');
  });

  it('drops a mutant the hidden tests do not catch', () => {
    const hidden = {
      'tests/hidden/free.test.js':
        'import { it, expect } from "vitest";\nimport { shippingFee } from "../../src/shipping.js";\nit("free", () => expect(shippingFee(80, true)).toBe(0));\n',
    };
    const screened = screenMutants(base(hidden), ['src/shipping.js'], ['arguments-swapped', 'off-by-one']);
    if (!screened.ok) throw new Error(screened.message);
    expect(screened.verdicts.map((verdict) => (verdict.kept ? 'kept' : verdict.reason))).toEqual(['hidden-tests-pass', 'hidden-tests-pass']);
  });

  it('refuses to screen when the unmutated repository already fails', () => {
    expect(screenMutants(base(copies, SHIPPING.replace(': 4.9', ': 4.8')), ['src/shipping.js'])).toEqual({
      ok: false,
      message:
        'the unmutated repository fails: tests/hidden/shipping.test.js > shipping > charges the standard fee below the threshold; tests/shipping.test.js > shipping > charges the standard fee below the threshold',
    });
  });
});

describe('generated fix-the-test tasks', () => {
  const generated = generateMutantTasks({ fixture: 'ship', base: base({}), files: ['src/shipping.js'], variants: 2 });
  if (!generated.ok) throw new Error(generated.message);
  const text = stringify(
    { name: 'mutants', fixtures: { ship: generated.suite.fixture }, tasks: generated.suite.tasks },
    { lineWidth: 0, aliasDuplicateObjects: false },
  );
  const loaded = parseSuite(text, 'mutants.yaml');
  if (!loaded.ok) throw new Error(loaded.errors.map(formatSuiteError).join('\n'));

  it('makes a family of variants per kept mutant, deterministically', () => {
    expect(generated.suite.kept).toEqual([
      'fix-shipping-constant-changed-l2',
      'fix-shipping-condition-removed-l5',
      'fix-shipping-comparison-flipped-l5',
      'fix-shipping-off-by-one-l5',
      'fix-shipping-constant-changed-l5',
      'fix-shipping-condition-removed-l6',
      'fix-shipping-constant-changed-l6-2',
      'fix-shipping-constant-changed-l7',
      'fix-shipping-constant-changed-l7-2',
      'fix-shipping-arguments-swapped-l11',
    ]);
    expect(generated.suite.rejected).toEqual([
      { family: 'fix-shipping-constant-changed-l6', reason: 'no-visible-test-fails', description: 'src/shipping.js:6 9.5 → 9.55' },
      { family: 'fix-shipping-rounding-swapped-l7', reason: 'no-visible-test-fails', description: 'src/shipping.js:7 Math.round → Math.floor' },
    ]);
    expect(loaded.tasks.map((task) => task.id).slice(6, 8)).toEqual(['fix-shipping-off-by-one-l5-v1', 'fix-shipping-off-by-one-l5-v2']);
    expect(loaded.tasks[6]?.family).toBe('fix-shipping-off-by-one-l5');
    const again = generateMutantTasks({ fixture: 'ship', base: base({}), files: ['src/shipping.js'], variants: 2 });
    expect(again.ok && stringify(again.suite.tasks, { lineWidth: 0 })).toBe(stringify(generated.suite.tasks, { lineWidth: 0 }));
  });

  it('puts the bug in the history where git_log on the file finds it', () => {
    const task = loaded.tasks.find((candidate) => candidate.id === 'fix-shipping-off-by-one-l5-v1')!;
    const commit = task.repo.commits?.[0];
    expect(commit?.message).toBe('shipping: fix the boundary in shippingFee\n\nChanges `>=` → `>` in src/shipping.js.\n');
    expect(commit?.changes).toEqual([{ path: 'src/shipping.js', before: '  if (total >= FREE_FROM) return 0;', after: '  if (total > FREE_FROM) return 0;' }]);
    expect(task.reference.steps.find((step) => step.tool === 'git_show')?.args).toEqual({ sha: commit?.sha });
  });

  it('is proved by validate: the reference succeeds, the untouched repository and every counterexample (hard-coded value included) fail', () => {
    const validations = validateTrajectories(loaded.tasks);
    const failures = validations.flatMap((task) =>
      task.trajectories
        .filter((trajectory) => !trajectory.ok)
        .map((trajectory) => `${task.id} ${trajectory.kind} ${trajectory.name ?? ''}: ${trajectory.detail}`),
    );
    expect(failures).toEqual([]);
    const offByOne = validations.find((task) => task.id === 'fix-shipping-off-by-one-l5-v1')!;
    expect(offByOne.trajectories.map((trajectory) => [trajectory.kind, trajectory.name, trajectory.success])).toEqual([
      ['reference', undefined, true],
      ['naive', undefined, false],
      ['untouched', undefined, false],
      ['counterexample', 'hard-codes-the-expected-value', false],
      ['counterexample', 'skips-the-test', false],
      ['counterexample', 'trusts-the-memory-note', false],
    ]);
    const hardCoded = offByOne.trajectories[3]!;
    expect(hardCoded.failing_checks.map((check) => check.check)).toEqual(['tests_pass']);
    expect(hardCoded.failing_checks[0]?.detail).toMatch(/tests\/hidden\/shipping\.test\.js > shipping > ships free from 60/);
  });
});
