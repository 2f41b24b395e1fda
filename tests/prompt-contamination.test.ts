// The contamination check (issue 11 §4): prompt templates share no long word run and no plan with any task.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { embeddedToolCalls, findPromptContamination, normalisedWords } from '../src/suite/prompt-contamination.js';
import { ROOT, scratch, stratbench } from './support/cli.js';

const PROMPTS = join(ROOT, 'prompts');
const CORE = join(ROOT, 'tasks/core.yaml');

function shippedTemplates(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(PROMPTS)
      .filter((name) => name.endsWith('.md'))
      .map((name) => [name.slice(0, -3), readFileSync(join(PROMPTS, name), 'utf8')]),
  );
}

async function tasksOf(path: string): Promise<LoadedTask[]> {
  const loaded = await loadSuiteFile(path);
  if (!loaded.ok) throw new Error(`${path} does not load`);
  return loaded.tasks;
}

/** The fix-checkout-test memory note as the suite writes it (folded YAML joins its lines with a space). */
const CHECKOUT_NOTE = 'The checkout test is flaky when the fixtures get out of sync. Running pnpm fixtures:reset and then rerunning the test usually fixes it.';

const NOTE_WORDS = normalisedWords(CHECKOUT_NOTE);

/** A copy of the shipped prompts with `extra` appended to the planner's template. */
function plantedPrompts(extra: string): string {
  const dir = join(scratch('stratbench-prompts-'), 'prompts');
  cpSync(PROMPTS, dir, { recursive: true });
  writeFileSync(join(dir, 'planner.md'), `${readFileSync(join(dir, 'planner.md'), 'utf8')}\n${extra}\n`);
  return dir;
}

describe('normalisedWords', () => {
  it('drops JSON keys, folds case and splits commands into words', () => {
    expect(normalisedWords('{"does":"Reset the Fixtures","args":{"cmd":"pnpm fixtures:reset"}}')).toEqual([
      'reset',
      'the',
      'fixtures',
      'pnpm',
      'fixtures',
      'reset',
    ]);
  });
});

describe('findPromptContamination', () => {
  it('finds no shared run or plan between the shipped prompts and every shipped suite', async () => {
    const suites = readdirSync(join(ROOT, 'tasks')).filter((name) => name.endsWith('.yaml'));
    expect(suites.length).toBeGreaterThan(0);
    for (const suite of suites) {
      expect(findPromptContamination(shippedTemplates(), await tasksOf(join(ROOT, 'tasks', suite))), suite).toEqual([]);
    }
  });

  it('reports a memory note copied into a template, with the template, task, field and the longest shared run', async () => {
    expect(NOTE_WORDS).toHaveLength(24);
    const tasks = await tasksOf(CORE);
    const findings = findPromptContamination({ planner: `Remember: ${CHECKOUT_NOTE.toUpperCase()} Then plan.` }, tasks);
    expect(findings).toEqual([
      {
        kind: 'words',
        template: 'planner',
        task: 'fix-checkout-test',
        field: 'memory[0]',
        sequence: normalisedWords(CHECKOUT_NOTE).join(' '),
        length: NOTE_WORDS.length,
      },
    ]);
  });

  it('ignores a shared run one word shorter than the threshold', async () => {
    const tasks = await tasksOf(CORE);
    const eleven = normalisedWords(CHECKOUT_NOTE).slice(0, 11).join(' ');
    expect(findPromptContamination({ planner: eleven }, tasks)).toEqual([]);
    expect(findPromptContamination({ planner: eleven }, tasks, 11)).toHaveLength(1);
  });

  it('reports a plan whose tool calls copy a trajectory, though ids and fields break up its words', async () => {
    const tasks = await tasksOf(CORE);
    // The study's own good plan for the checkout task, as the planner prompt once showed it.
    const plan =
      '{"steps":[{"id":"s1","does":"Reset","tool":"run","args":{"cmd":"pnpm fixtures:reset"},"depends_on":[]},' +
      '{"id":"s2","does":"Rerun","tool":"run","args":{"cmd":"pnpm test:checkout"},"depends_on":["s1"]}]}';
    const findings = findPromptContamination({ planner: `A good plan:\n${plan}` }, tasks);
    expect(findings.filter((finding) => finding.task === 'fix-checkout-test')).toEqual([
      {
        kind: 'tool_calls',
        template: 'planner',
        task: 'fix-checkout-test',
        field: 'naive',
        sequence: 'run {"cmd":"pnpm fixtures:reset"}; run {"cmd":"pnpm test:checkout"}',
        length: 2,
      },
      {
        kind: 'tool_calls',
        template: 'planner',
        task: 'fix-checkout-test',
        field: 'counterexamples[2] "trusts-the-memory-note"',
        sequence: 'run {"cmd":"pnpm fixtures:reset"}; run {"cmd":"pnpm test:checkout"}',
        length: 2,
      },
    ]);
  });

  it('reads tool calls only from JSON objects, with keys in any order, skipping placeholders', () => {
    expect(embeddedToolCalls('{{tools}} {"args":{"path":"a.js"},"tool":"read"} {not json} {"tool":"run"}')).toEqual(['read {"path":"a.js"}']);
  });
});

describe('validate and run report a planted contamination', () => {
  it('validate warns on stderr, keeps its exit code and lists the finding in --json', () => {
    const prompts = plantedPrompts(CHECKOUT_NOTE);
    const lines = stratbench(['validate', CORE, '--prompts', prompts]);
    expect(lines.status).toBe(0);
    expect(lines.stderr).toContain(
      `warning: prompt contamination: planner.md shares ${NOTE_WORDS.length} words with task fix-checkout-test's memory[0]: "${normalisedWords(CHECKOUT_NOTE).join(' ')}"`,
    );
    const json = stratbench(['validate', '--json', CORE, '--prompts', prompts]);
    const document = JSON.parse(json.stdout) as { prompt_contamination: { min_words: number; findings: { task: string; field: string }[] } };
    expect(document.prompt_contamination.min_words).toBe(12);
    expect(document.prompt_contamination.findings.map((f) => `${f.task} ${f.field}`)).toEqual(['fix-checkout-test memory[0]']);
  });

  it('validate with the shipped prompts prints no warning', () => {
    const result = stratbench(['validate', CORE]);
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain('prompt contamination');
  });

  it('run warns and records the finding in run.json; the shipped prompts record none', () => {
    const prompts = plantedPrompts(CHECKOUT_NOTE);
    const out = join(scratch(), 'results');
    const planted = stratbench(['run', '--tasks', 'default-currency', '--strategies', 'direct', '--no-progress', '--prompts', prompts, '--out', out]);
    expect(planted.status).toBe(0);
    expect(planted.stderr).toContain(`warning: prompt contamination: planner.md shares ${NOTE_WORDS.length} words with task fix-checkout-test's memory[0]`);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { prompt_contamination: unknown };
    expect(run.prompt_contamination).toEqual({
      min_words: 12,
      findings: [
        {
          kind: 'words',
          template: 'planner',
          task: 'fix-checkout-test',
          field: 'memory[0]',
          sequence: normalisedWords(CHECKOUT_NOTE).join(' '),
          length: NOTE_WORDS.length,
        },
      ],
    });
    const cleanOut = join(scratch(), 'results');
    const clean = stratbench(['run', '--tasks', 'default-currency', '--strategies', 'direct', '--no-progress', '--out', cleanOut]);
    expect(clean.status).toBe(0);
    expect(JSON.parse(readFileSync(join(cleanOut, 'run.json'), 'utf8')).prompt_contamination).toEqual({ min_words: 12, findings: [] });
  });
});
