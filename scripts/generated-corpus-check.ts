// Issue 27 §3: the blind attribution corpus on generated tasks (tests/fixtures/attribution-corpus-generated.ts), each
// episode served by a fake Ollama on 127.0.0.1 through the real `stratbench run` path on tasks/bench.json, and the
// rules' verdicts compared with the labels frozen before any run: component, mode (a labelled alternative accepted),
// first erroneous event, and no finding on a success. `npx tsx scripts/generated-corpus-check.ts [--list]`.
import { fileURLToPath } from 'node:url';
import { GENERATED_CORPUS, type GeneratedEpisode } from '../tests/fixtures/attribution-corpus-generated.js';
import { okReply, startFakeOllama, type FakeChatRequest, type FixtureReply } from '../tests/support/fake-ollama-server.js';
import { records } from '../tests/support/scripted-over-ollama.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { wilsonInterval } from '../src/report/statistics-intervals.js';
import { nthCall, replayEnvironment, replier, runServed } from './realistic-corpus.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { replayCounterfactuals } from '../src/runner/counterfactual-replay.js';
import type { EpisodeCounterfactual } from '../src/records/index.js';

const BENCH = fileURLToPath(new URL('../tasks/bench.json', import.meta.url));

/** One corpus episode as it ran, with the verdict compared to its label. */
export interface GeneratedRun {
  episode: GeneratedEpisode;
  record: EpisodeRecord | undefined;
  /** Why it could not be measured as labelled (no record, an error ending, the outcome differs from the label). */
  problem?: string;
  /** The counterfactual replay of a failed episode (each role swapped for the reference oracle). */
  counterfactual?: EpisodeCounterfactual;
}

/** Adds the counterfactual replay to every failed run measured (no model is called). Throws when the suite does not load. */
export async function addGeneratedCounterfactuals(runs: GeneratedRun[]): Promise<void> {
  const loaded = await loadSuiteFile(BENCH);
  if (!loaded.ok) throw new Error('tasks/bench.json does not load');
  const env = await replayEnvironment('generated-corpus');
  for (const run of runs) {
    const task = loaded.tasks.find((t) => t.id === run.episode.task);
    if (!run.record || run.problem !== undefined || run.record.success || !task) continue;
    run.counterfactual = await replayCounterfactuals(run.record, task, env);
  }
}

/** Runs every corpus episode (or those named). Throws if the fake server cannot start. */
export async function runGeneratedCorpus(ids?: readonly string[]): Promise<GeneratedRun[]> {
  let current: ((request: FakeChatRequest) => FixtureReply) | undefined;
  const server = await startFakeOllama({ reply: (request) => (current ? current(request) : okReply('')) });
  const runs: GeneratedRun[] = [];
  try {
    for (const episode of GENERATED_CORPUS.filter((e) => !ids || ids.includes(e.id))) {
      current = replier(episode as Parameters<typeof replier>[0]);
      const { code, out, stderr } = await runServed(server.url, episode, BENCH);
      const record = code === 0 || code === 1 || code === 3 ? records(out)[0] : undefined;
      const wantFailure = episode.expected.outcome === 'failure';
      const problem =
        record === undefined
          ? `the run exited ${code}: ${stderr.trim().split('\n').slice(-1)[0] ?? ''}`
          : record.outcome.status === 'error'
            ? `error: ${record.outcome.message ?? record.outcome.reason}`
            : record.success === wantFailure
              ? `labelled ${episode.expected.outcome}, but the episode ${record.success ? 'succeeded' : `failed (${record.outcome.status})`}`
              : undefined;
      runs.push({ episode, record, ...(problem ? { problem } : {}) });
    }
  } finally {
    await server.close();
  }
  return runs;
}

const pct = (hits: number, n: number): string => {
  if (n === 0) return 'n/a';
  const ci = wilsonInterval(hits, n);
  return `${String(hits).padStart(3)}/${n}  ${((hits / n) * 100).toFixed(1)}%  95% CI [${(ci.lower * 100).toFixed(1)}%, ${(ci.upper * 100).toFixed(1)}%]`;
};

/** The goals of issue 27 on the blind corpus (fractions of the failed episodes measured). */
export const GENERATED_GOALS = { component: 0.95, mode: 0.9, counterfactual: 0.9 } as const;

/** The figures: hits and n for each agreement, findings on successes, episodes that did not go as labelled. */
export interface GeneratedFigures {
  measured: number;
  successes: number;
  component: number;
  mode: number;
  first: number;
  counterfactual: { hits: number; n: number };
  decisive: { hits: number; n: number };
  findingsOnSuccesses: number;
  unmeasured: string[];
  confusion: Record<string, Record<string, number>>;
  misses: string[];
}

/** The figures as text: agreement on the failed episodes measured, findings on successes, the confusion matrix. */
export function renderGeneratedReport(runs: readonly GeneratedRun[], list = false): string {
  return renderFigures(measureGenerated(runs), runs.length, list);
}

/** Measures the corpus runs against their frozen labels. Pure. */
export function measureGenerated(runs: readonly GeneratedRun[]): GeneratedFigures {
  const measured = runs.filter((run) => run.problem === undefined && run.episode.expected.outcome === 'failure' && run.record !== undefined);
  const successes = runs.filter((run) => run.problem === undefined && run.episode.expected.outcome === 'success');
  let component = 0;
  let mode = 0;
  let first = 0;
  const confusion: Record<string, Record<string, number>> = {};
  const misses: string[] = [];
  for (const run of measured) {
    const expected = run.episode.expected as Extract<GeneratedEpisode['expected'], { outcome: 'failure' }>;
    const got = run.record?.attribution;
    const label = `${expected.component}.${expected.mode}`;
    const verdict = got ? `${got.component}.${got.mode}` : '(none)';
    const row = (confusion[expected.component] ??= {});
    row[got?.component ?? '(none)'] = (row[got?.component ?? '(none)'] ?? 0) + 1;
    const componentHit = got?.component === expected.component || (expected.alternatives ?? []).some((alt) => alt.split('.')[0] === got?.component);
    const modeHit = verdict === label || (expected.alternatives ?? []).includes(verdict);
    const event = run.record ? nthCall(run.record, expected.first.role, expected.first.call) : undefined;
    const firstHit = event !== undefined && got?.evidence[0] === event;
    if (componentHit) component += 1;
    if (modeHit) mode += 1;
    if (firstHit) first += 1;
    if (!modeHit || !firstHit)
      misses.push(
        `  ${run.episode.id}  expected ${label} @${expected.first.role}#${expected.first.call} (${event ?? '?'})  got ${verdict} @${got?.evidence[0] ?? '?'}`,
      );
  }
  const replayed = measured.filter((run) => run.counterfactual !== undefined);
  const named = (run: GeneratedRun) => run.counterfactual?.component ?? 'none';
  const labelled = (run: GeneratedRun) => {
    const role = (run.episode.expected as { counterfactual?: string }).counterfactual ?? 'none';
    // The reporter writes up the executor's results: its component is the executor's (decision 0004).
    return role === 'reporter' ? 'executor' : role === 'direct' ? 'agent' : role;
  };
  const counterfactualHits = replayed.filter((run) => named(run) === labelled(run)).length;
  for (const run of replayed)
    if (named(run) !== labelled(run)) misses.push(`  ${run.episode.id}  counterfactual: labelled ${labelled(run)}, replay names ${named(run)}`);
  // The decisive decision against the labelled first erroneous event (the episodes whose labelled role a decision swap names).
  const firstEvent = (run: GeneratedRun) => {
    const expected = run.episode.expected as Extract<GeneratedEpisode['expected'], { outcome: 'failure' }>;
    return run.record ? nthCall(run.record, expected.first.role, expected.first.call) : undefined;
  };
  const decisiveHits = replayed.filter((run) => run.counterfactual?.decisive != null && run.counterfactual.decisive.event === firstEvent(run)).length;
  const withDecisive = replayed.filter((run) => run.counterfactual?.decisive != null).length;
  for (const run of replayed)
    if (run.counterfactual?.decisive != null && run.counterfactual.decisive.event !== firstEvent(run))
      misses.push(
        `  ${run.episode.id}  decisive decision: ${run.counterfactual.decisive.role} @${run.counterfactual.decisive.event}, labelled first event @${firstEvent(run) ?? '?'}`,
      );
  return {
    measured: measured.length,
    successes: successes.length,
    component,
    mode,
    first,
    counterfactual: { hits: counterfactualHits, n: replayed.length },
    decisive: { hits: decisiveHits, n: withDecisive },
    findingsOnSuccesses: successes.filter((run) => run.record?.attribution).length,
    unmeasured: runs.filter((run) => run.problem !== undefined).map((run) => `${run.episode.id}: ${run.problem}`),
    confusion,
    misses,
  };
}

function renderFigures(figures: GeneratedFigures, episodes: number, list: boolean): string {
  const { measured, successes, component, mode, first, confusion, misses } = figures;
  const lines = [
    `generated-task corpus (tests/fixtures/attribution-corpus-generated.ts, blind labels): ${episodes} episodes, ${measured} failed as labelled and measured, ${successes} succeeded as labelled`,
    `component  ${pct(component, measured)}   goal ≥ 95%`,
    `mode       ${pct(mode, measured)}   goal ≥ 90% (a labelled alternative accepted)`,
    `first      ${pct(first, measured)}`,
    `counterfactual ${pct(figures.counterfactual.hits, figures.counterfactual.n)}   goal ≥ 90% (names the labelled role; "none" when no swap fixes it)`,
    `decisive   ${pct(figures.decisive.hits, figures.decisive.n)}   (the counterfactual's decisive decision is the labelled first erroneous event; ${figures.counterfactual.n - figures.decisive.n} replays with no single fixing decision)`,
    `findings on successes: ${figures.findingsOnSuccesses} of ${successes}`,
    'confusion (rows: labelled component, columns: attributed component)',
    ...Object.entries(confusion).map(
      ([row, cells]) =>
        `  ${row.padEnd(10)} ${Object.entries(cells)
          .map(([col, n]) => `${col} ${n}`)
          .join(', ')}`,
    ),
  ];
  lines.push(`not measured (${figures.unmeasured.length}; the episode did not go as labelled):`);
  lines.push(...figures.unmeasured.map((line) => `  ${line}`));
  if (list) lines.push(`misses (${misses.length}):`, ...misses);
  return lines.join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = await runGeneratedCorpus();
  await addGeneratedCounterfactuals(runs);
  process.stdout.write(`${renderGeneratedReport(runs, process.argv.includes('--list'))}\n`);
}
