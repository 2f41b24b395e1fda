// Measures attribution against injected faults: every fault × applicable task × strategy, run in-process on the scripted model.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { loadSuiteFile, formatSuiteError, type LoadedTask } from '../src/suite/load-suite.js';
import { loadPromptSet } from '../src/runner/prompt-files.js';
import { runEpisode, type RunEnvironment } from '../src/runner/episode.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { faultIn, SCRIPTED_FAULTS, type ScriptedFault } from '../src/models/scripted-faults.js';
import { ROLES, type ChatModel, type Role } from '../src/models/types.js';
import { DEFAULT_STRATEGIES, strategyByName, type DeclaredRole, type StrategyName } from '../src/strategies/index.js';
import { componentOf } from '../src/runner/counterfactual-replay.js';
import { toolDescriptionsForPrompt } from '../src/tools/index.js';
import { wilsonInterval, type Interval } from '../src/report/statistics-intervals.js';
import { renderCounterfactualVerdict } from '../src/runner/counterfactual-replay.js';
import type { EpisodeCounterfactual } from '../src/records/index.js';
import type { Trial } from './attribution-trial.js';

export type { Trial, Truth } from './attribution-trial.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The goals of issue 4 §3 (fractions). */
export const GOALS = { component: 0.95, step: 0.9, mode: 0.85 } as const;

/** The goals on the realistic reply corpus (issue 11 §3). */
export const REALISTIC_GOALS = { component: 0.9, step: 0.8, mode: 0.8 } as const;

type Goals = { component: number; step: number; mode: number };

/** Every strategy the check covers: the default five plus the lookup variant of plan-and-replan. */
export const CHECK_STRATEGIES: StrategyName[] = [...DEFAULT_STRATEGIES, 'plan-replan-lookup'];

export interface CheckOptions {
  suite?: string;
  faults?: readonly string[];
  tasks?: readonly string[];
  strategies?: readonly StrategyName[];
}

/**
 * Roles that a fault role corrupts, as model_call roles in a trace: the built-in ones, and a strategy's declared roles
 * served by one of them (the scripted model answers a declared role as its model role, faults included).
 */
const traceRoles = (fault: ScriptedFault, declared: readonly DeclaredRole[] = []): string[] => {
  const builtIn = fault.role === 'agent' ? ['agent', 'direct'] : [fault.role];
  return [...builtIn, ...declared.filter((role) => builtIn.includes(role.model)).map((role) => role.name)];
};

/**
 * The truth a fault injects where it struck: a built-in role's is the fault's component and mode; a declared role's is
 * its declared component (the rules read it as that role) with the fault's mode, or `unattributed.no_rule` for `none`.
 */
function truthOf(fault: ScriptedFault, role: string, declared: readonly DeclaredRole[]): { component: string; mode: string } {
  const own = declared.find((candidate) => candidate.name === role);
  if (own === undefined) return { component: fault.role, mode: fault.mode };
  const component = componentOf(role, declared);
  return component === 'unattributed' ? { component, mode: 'no_rule' } : { component, mode: fault.mode };
}

function environment(tasks: LoadedTask[], faults: string[], prompts: RunEnvironment['prompts']): RunEnvironment {
  const model: ChatModel = new ScriptedModel(
    tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })),
    faults,
  );
  const models = Object.fromEntries(ROLES.map((role) => [role, model])) as Record<Role, ChatModel>;
  return {
    models,
    prompts,
    toolDescriptions: toolDescriptionsForPrompt(),
    chatOptions: () => ({ temperature: 0 }),
    options: { lookupMissAsResult: false },
    configHash: faults.join('+') || 'baseline',
  };
}

const run = (task: LoadedTask, strategy: StrategyName, env: RunEnvironment): Promise<EpisodeRecord> => runEpisode({ task, strategy, epoch: 0, seed: 1 }, env);

/**
 * Runs the fault-free baseline, then every fault on every (task, strategy) where it applies: the baseline
 * succeeded (so nothing else is wrong and the truth is known by construction) and the fault's role made a model
 * call in the baseline episode (a fault applies where its role is used). Throws when the suite does not load.
 */
export async function runAttributionCheck(options: CheckOptions = {}): Promise<{ trials: Trial[]; skipped: { baselineFailed: string[] } }> {
  const loaded = await loadSuiteFile(options.suite ?? resolve(root, 'tasks/core.yaml'));
  if (!loaded.ok) throw new Error(loaded.errors.map(formatSuiteError).join('\n'));
  const prompts = await loadPromptSet(resolve(root, 'prompts'));
  const tasks = loaded.tasks.filter((t) => !options.tasks || options.tasks.includes(t.id));
  const strategies = options.strategies ?? CHECK_STRATEGIES;
  const baselineEnv = environment(loaded.tasks, [], prompts);
  const baseline = new Map<string, EpisodeRecord>();
  const baselineFailed: string[] = [];
  for (const task of tasks) {
    for (const strategy of strategies) {
      const record = await run(task, strategy, baselineEnv);
      baseline.set(`${task.id}|${strategy}`, record);
      if (!record.success) baselineFailed.push(`${task.id}|${strategy}`);
    }
  }
  const trials: Trial[] = [];
  for (const fault of Object.values(SCRIPTED_FAULTS).filter((f) => !options.faults || options.faults.includes(f.name))) {
    const env = environment(loaded.tasks, [fault.name], prompts);
    for (const task of tasks) {
      for (const strategy of strategies) {
        const base = baseline.get(`${task.id}|${strategy}`)!;
        const declared = strategyByName(strategy)?.declaredRoles ?? [];
        const used = base.trace.some((e) => e.type === 'model_call' && traceRoles(fault, declared).includes(e.role));
        if (!base.success || !used) continue;
        const record = await run(task, strategy, env);
        const marked = record.trace.find((e) => e.type === 'model_call' && faultIn(e.text) === fault.name);
        trials.push({
          key: record.key,
          fault: fault.name,
          task: task.id,
          strategy,
          struck: marked !== undefined,
          failed: !record.success && record.outcome.status !== 'error',
          ...(marked?.type === 'model_call' ? { truth: { ...truthOf(fault, marked.role, declared), event: marked.id } } : {}),
          attribution: record.attribution,
          ...(record.success ? { findings: (record.findings ?? []).map((f) => `${f.component}.${f.mode}`) } : {}),
        });
      }
    }
  }
  return { trials, skipped: { baselineFailed } };
}

export interface Accuracy {
  hits: number;
  n: number;
  interval: Interval | undefined;
}

export interface AccuracyReport {
  /** Struck faults whose episode failed: the ones attribution is measured on. */
  measured: Trial[];
  recovered: Trial[];
  notStruck: Trial[];
  component: Accuracy;
  mode: Accuracy;
  step: Accuracy;
  /** truth component → attributed component → count. */
  confusion: Record<string, Record<string, number>>;
  misses: Trial[];
  /** Per fault; `tasks`: the distinct tasks on which it produced its component and mode. */
  byFault: Array<{ fault: string; measured: number; component: number; mode: number; step: number; recovered: number; notStruck: number; tasks: string[] }>;
}

const accuracy = (hits: number, n: number): Accuracy => ({ hits, n, interval: n > 0 ? wilsonInterval(hits, n) : undefined });
const componentHit = (t: Trial): boolean => t.attribution?.component === t.truth?.component;
const modeHit = (t: Trial): boolean => componentHit(t) && t.attribution?.mode === t.truth?.mode;
const stepHit = (t: Trial): boolean => t.attribution?.evidence[0] === t.truth?.event;

/** Scores trials: accuracies with Wilson 95% intervals over the measured trials, the confusion matrix, the misses. Pure. */
export function measureAccuracy(trials: readonly Trial[]): AccuracyReport {
  const measured = trials.filter((t) => t.struck && t.failed);
  const confusion: Record<string, Record<string, number>> = {};
  for (const t of measured) {
    const row = (confusion[t.truth!.component] ??= {});
    const got = t.attribution?.component ?? '(none)';
    row[got] = (row[got] ?? 0) + 1;
  }
  const byFault = [...new Set(trials.map((t) => t.fault))].map((fault) => {
    const mine = measured.filter((t) => t.fault === fault);
    return {
      fault,
      measured: mine.length,
      component: mine.filter(componentHit).length,
      mode: mine.filter(modeHit).length,
      step: mine.filter(stepHit).length,
      recovered: trials.filter((t) => t.fault === fault && t.struck && !t.failed).length,
      notStruck: trials.filter((t) => t.fault === fault && !t.struck).length,
      tasks: [...new Set(mine.filter(modeHit).map((t) => t.task))],
    };
  });
  return {
    measured,
    recovered: trials.filter((t) => t.struck && !t.failed),
    notStruck: trials.filter((t) => !t.struck),
    component: accuracy(measured.filter(componentHit).length, measured.length),
    mode: accuracy(measured.filter(modeHit).length, measured.length),
    step: accuracy(measured.filter(stepHit).length, measured.length),
    confusion,
    misses: measured.filter((t) => !componentHit(t) || !modeHit(t) || !stepHit(t)),
    byFault,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
export const line = (name: string, a: Accuracy, goal: number): string =>
  `${name.padEnd(10)} ${String(a.hits).padStart(4)}/${String(a.n).padEnd(4)} ${a.interval ? `${pct(a.interval.estimate).padStart(6)}  95% CI [${pct(a.interval.lower)}, ${pct(a.interval.upper)}]` : '   n/a'}  goal ≥ ${pct(goal)}  ${a.interval && a.interval.estimate >= goal ? 'PASS' : 'FAIL'}`;

/** Whether every goal is met. */
export const meetsGoals = (report: AccuracyReport, goals: Goals): boolean =>
  (report.component.interval?.estimate ?? 0) >= goals.component &&
  (report.step.interval?.estimate ?? 0) >= goals.step &&
  (report.mode.interval?.estimate ?? 0) >= goals.mode;

/** The printed report; `passed` is whether every goal is met. */
export function renderAccuracyReport(report: AccuracyReport, skipped: { baselineFailed: string[] }): { text: string; passed: boolean } {
  const out: string[] = [];
  const { measured, recovered, notStruck } = report;
  out.push(
    `attribution check: ${measured.length + recovered.length + notStruck.length} faulted episodes — ${measured.length} failed (measured), ${recovered.length} succeeded despite the fault, ${notStruck.length} where the fault never struck`,
  );
  out.push(`(cells skipped because the fault-free episode already fails, so no truth is known by construction: ${skipped.baselineFailed.length})`, '');
  out.push(line('component', report.component, GOALS.component), line('step', report.step, GOALS.step), line('mode', report.mode, GOALS.mode), '');
  const components = [...new Set([...Object.keys(report.confusion), ...Object.values(report.confusion).flatMap((row) => Object.keys(row))])].sort();
  out.push('confusion (rows: injected component, columns: attributed component)');
  out.push(`${''.padEnd(11)}${components.map((c) => c.padStart(10)).join('')}`);
  for (const truth of Object.keys(report.confusion).sort())
    out.push(`${truth.padEnd(11)}${components.map((c) => String(report.confusion[truth]![c] ?? 0).padStart(10)).join('')}`);
  out.push('', `${'fault'.padEnd(30)} measured component  mode  step  recovered  not-struck  tasks with its mode`);
  for (const f of report.byFault) {
    out.push(
      `${f.fault.padEnd(30)} ${String(f.measured).padStart(8)} ${String(f.component).padStart(9)} ${String(f.mode).padStart(5)} ${String(f.step).padStart(5)} ${String(f.recovered).padStart(10)} ${String(f.notStruck).padStart(11)}  ${f.tasks.length}`,
    );
  }
  out.push('', `misses (${report.misses.length}):`);
  for (const t of report.misses) {
    const got = t.attribution ? `${t.attribution.component}.${t.attribution.mode} @${t.attribution.evidence[0]}` : 'none';
    out.push(
      `  ${t.key}  truth ${t.truth!.component}.${t.truth!.mode} @${t.truth!.event}  got ${got}${t.attribution ? ` — ${t.attribution.explanation}` : ''}`,
    );
  }
  // A recovered fault still cost something: a finding should name the injected role (issue 11 §1).
  const named = recovered.filter((t) => t.findings?.some((f) => f.startsWith(`${t.truth!.component}.`)));
  out.push(
    '',
    `succeeded despite the fault (${recovered.length}; a finding names the injected role in ${named.length}):`,
    ...recovered.map((t) => `  ${t.key}  findings [${(t.findings ?? []).join(', ')}]`),
  );
  if (notStruck.length > 0) {
    out.push('', `fault never struck (${notStruck.length}; its strike point is absent there — see each fault's "strikes"):`);
    for (const fault of [...new Set(notStruck.map((t) => t.fault))]) {
      out.push(
        `  ${fault}: ${notStruck
          .filter((t) => t.fault === fault)
          .map((t) => `${t.task}/${t.strategy}`)
          .join(', ')}`,
      );
    }
  }
  const passed = meetsGoals(report, GOALS);
  out.push('', passed ? 'PASS: every goal met' : 'FAIL: a goal was missed');
  return { text: out.join('\n'), passed };
}

/** The realistic corpus section: accuracy over the measured episodes, every miss, and episodes that could not be measured. */
/** The goal for the counterfactual replay on the realistic corpus: agreement with the expected component. */
export const COUNTERFACTUAL_GOAL = 0.8;

type RealisticRun = { trial: Trial; problem?: string; episode: { source: string; expected: { component: string } }; counterfactual?: EpisodeCounterfactual };

export function renderRealisticReport(runs: ReadonlyArray<RealisticRun>): { text: string; passed: boolean } {
  const report = measureAccuracy(runs.map((r) => r.trial));
  const sources = (source: string) => runs.filter((r) => r.episode.source === source).length;
  const out = [
    `realistic reply corpus (tests/fixtures/realistic-corpus.ts, served by a fake Ollama through \`stratbench run\`): ${runs.length} episodes (${sources('seed-001')} from seed 001, ${sources('own')} written in its spirit), ${report.measured.length} failed as written and were measured`,
    '',
    line('component', report.component, REALISTIC_GOALS.component),
    line('step', report.step, REALISTIC_GOALS.step),
    line('mode', report.mode, REALISTIC_GOALS.mode),
    '',
    `misses (${report.misses.length}):`,
  ];
  for (const t of report.misses) {
    const got = t.attribution ? `${t.attribution.component}.${t.attribution.mode} @${t.attribution.evidence[0]}` : 'none';
    out.push(
      `  ${t.key}  expected ${t.truth!.component}.${t.truth!.mode} @${t.truth!.event}  got ${got}${t.attribution ? ` — ${t.attribution.explanation}` : ''}`,
    );
  }
  const unmeasured = runs.filter((r) => r.problem !== undefined);
  out.push('', `not measured (${unmeasured.length}; the episode did not go as written):`, ...unmeasured.map((r) => `  ${r.trial.key}: ${r.problem}`));
  const replayed = runs.filter((r) => r.counterfactual !== undefined);
  const expectedHits = replayed.filter((r) => r.counterfactual!.component === r.episode.expected.component).length;
  const withRules = replayed.filter((r) => r.counterfactual!.agrees_with_rules !== null);
  const counterfactual = accuracy(expectedHits, replayed.length);
  if (replayed.length > 0) {
    out.push(
      '',
      `counterfactual replay (each role swapped for the reference oracle, the others replayed from the trace; no model calls): ${replayed.length} failed episodes`,
      line('expected', counterfactual, COUNTERFACTUAL_GOAL),
      `agrees with the rules: ${withRules.filter((r) => r.counterfactual!.agrees_with_rules).length}/${withRules.length}`,
      'every swap (fixes = the swap alone turned the failure into a success; unreplayed = calls of other roles the trace could not answer, answered by the oracle):',
      ...replayed.map(
        (r) =>
          `  ${r.counterfactual!.component === r.episode.expected.component ? '  ' : '✗ '}${r.trial.key}  ${renderCounterfactualVerdict(r.counterfactual!)}`,
      ),
    );
  }
  // An episode that did not go as written counts against the corpus: the goals are met only if every one was measured.
  const passed =
    unmeasured.length === 0 &&
    meetsGoals(report, REALISTIC_GOALS) &&
    (replayed.length === 0 || (counterfactual.interval?.estimate ?? 0) >= COUNTERFACTUAL_GOAL);
  out.push('', passed ? 'PASS: every realistic-corpus goal met' : 'FAIL: a realistic-corpus goal was missed');
  return { text: out.join('\n'), passed };
}

async function main(): Promise<number> {
  // --suite PATH: the injected faults on another suite (the generated one: tasks/bench.json); --every N keeps every
  // Nth task of it (a deterministic sample). The realistic corpus is written for the core suite and runs only without --suite.
  // --strategy-module PATH (repeatable) with --strategies a,b: the injected faults on a module's strategies (issue 28 §2).
  const { values } = parseArgs({
    options: {
      suite: { type: 'string' },
      every: { type: 'string', default: '1' },
      'strategy-module': { type: 'string', multiple: true },
      strategies: { type: 'string' },
      'agent-cmd': { type: 'string' },
      'agent-name': { type: 'string', default: 'external' },
    },
  });
  const { loadStrategyModules } = await import('../src/runner/strategy-modules.js');
  await loadStrategyModules(values['strategy-module'] ?? []);
  // --agent-cmd CMD [--agent-name NAME] with --strategies NAME: the injected faults on an external agent (issue 28 §3).
  if (values['agent-cmd'] !== undefined) {
    const { AGENT_BUDGETS, externalAgentStrategy } = await import('../src/agent-bridge/external-agent.js');
    const { addModuleStrategy } = await import('../src/strategies/index.js');
    addModuleStrategy(externalAgentStrategy({ name: values['agent-name'] ?? 'external', command: values['agent-cmd'], budgets: AGENT_BUDGETS }));
  }
  const strategies = values.strategies?.split(',').map((name) => name.trim());
  const every = Number(values.every);
  if (!Number.isInteger(every) || every < 1) throw new Error(`--every: a whole number ≥ 1, not "${values.every}"`);
  let tasks: string[] | undefined;
  if (values.suite !== undefined && every > 1) {
    const loaded = await loadSuiteFile(resolve(values.suite));
    if (!loaded.ok) throw new Error(loaded.errors.map(formatSuiteError).join('\n'));
    tasks = loaded.tasks.filter((_, i) => i % every === 0).map((t) => t.id);
  }
  const { trials, skipped } = await runAttributionCheck({
    ...(values.suite ? { suite: resolve(values.suite) } : {}),
    ...(tasks ? { tasks } : {}),
    ...(strategies ? { strategies } : {}),
  });
  const injected = renderAccuracyReport(measureAccuracy(trials), skipped);
  process.stdout.write(
    `== injected faults (scripted model${values.suite ? `, ${values.suite}${every > 1 ? `, every ${every}th task` : ''}` : ''})\n${injected.text}\n\n`,
  );
  if (values.suite !== undefined || strategies !== undefined) return injected.passed ? 0 : 1;
  const { runRealisticCorpus, addCounterfactuals } = await import('./realistic-corpus.js');
  const runs = await runRealisticCorpus();
  await addCounterfactuals(runs);
  const realistic = renderRealisticReport(runs);
  process.stdout.write(`== realistic replies\n${realistic.text}\n`);
  return injected.passed && realistic.passed ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
