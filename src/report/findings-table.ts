// The run's "costs on successes" (findings of successful episodes) and its counterfactual replay summary, tallied and rendered.
import type { CounterfactualSummary, EpisodeRecord, FindingsSummary } from '../records/index.js';

/** Folds records' findings and counterfactual replays as they come (no traces kept). */
export class FindingsTally {
  private episodes = 0;
  private readonly modes = new Map<string, FindingsSummary['modes'][number]>();
  private counterfactual: CounterfactualSummary | undefined;

  /** Adds one record: its findings if it succeeded, its counterfactual replay if it has one. */
  add(record: EpisodeRecord): void {
    const findings = record.success ? (record.findings ?? []) : [];
    if (findings.length > 0) this.episodes += 1;
    for (const f of findings) {
      const key = `${f.component}.${f.mode}`;
      const entry = this.modes.get(key) ?? { component: f.component, mode: f.mode, count: 0, replans: 0, model_calls: 0, tool_calls: 0, by_strategy: {} };
      entry.count += 1;
      entry.replans += f.cost.replans;
      entry.model_calls += f.cost.model_calls;
      entry.tool_calls += f.cost.tool_calls;
      entry.by_strategy[record.strategy] = (entry.by_strategy[record.strategy] ?? 0) + 1;
      this.modes.set(key, entry);
    }
    const replay = record.counterfactual;
    if (!replay) return;
    const c = (this.counterfactual ??= { replayed: 0, fixed: 0, compared: 0, agreed: 0, by_component: {}, oracle_calls: 0, unreplayed: 0, replayed_calls: 0 });
    c.replayed += 1;
    if (replay.component !== null) {
      c.fixed += 1;
      c.by_component[replay.component] = (c.by_component[replay.component] ?? 0) + 1;
    }
    if (replay.agrees_with_rules !== null) {
      c.compared += 1;
      if (replay.agrees_with_rules) c.agreed += 1;
    }
    for (const swap of [...Object.values(replay.swaps), ...(replay.decisions ?? [])]) {
      c.oracle_calls += swap.oracle_calls;
      c.unreplayed += swap.unreplayed;
      c.replayed_calls += swap.replayed;
    }
    if (replay.decisive) {
      c.decisive = (c.decisive ?? 0) + 1;
      if (record.attribution) {
        c.decisive_compared = (c.decisive_compared ?? 0) + 1;
        if (record.attribution.evidence[0] === replay.decisive.event) c.decisive_agreed = (c.decisive_agreed ?? 0) + 1;
      }
    }
  }

  /** The summary's `findings` (absent when no success had one) and `counterfactual` (absent when nothing was replayed). */
  build(): { findings?: FindingsSummary; counterfactual?: CounterfactualSummary } {
    const modes = [...this.modes.values()].sort((a, b) => b.count - a.count || `${a.component}.${a.mode}`.localeCompare(`${b.component}.${b.mode}`));
    return {
      ...(this.episodes > 0 ? { findings: { episodes: this.episodes, modes } } : {}),
      ...(this.counterfactual ? { counterfactual: this.counterfactual } : {}),
    };
  }
}

const percent = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

/** "Costs on successes": one line per component.mode with its count, summed cost and strategies; '' when none. */
export function renderCostsOnSuccesses(findings: FindingsSummary | undefined): string {
  if (!findings || findings.modes.length === 0) return '';
  const lines = [`Costs on successes (${findings.episodes} successful episode(s) with a finding; findings, not failures):`];
  for (const m of findings.modes) {
    const where = Object.entries(m.by_strategy)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ');
    const cost = `${m.replans} replan(s), ${m.model_calls} model call(s), ${m.tool_calls} tool call(s)`;
    lines.push(`  ${String(m.count).padStart(4)}  ${`${m.component}.${m.mode}`.padEnd(32)} cost ${cost}  ${where}`);
  }
  return lines.join('\n');
}

/** The counterfactual summary: replayed episodes, agreement with the rules, the components blamed, the calls it took; '' when none. */
export function renderCounterfactualSummary(c: CounterfactualSummary | undefined): string {
  if (!c) return '';
  const blamed = Object.entries(c.by_component)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([component, n]) => `${component} ${n}`)
    .join(', ');
  return [
    `Counterfactual replay (${c.replayed} failed episode(s); each role swapped for the reference oracle, the others replayed from the trace):`,
    `  fixed by a single-role swap: ${c.fixed}/${c.replayed}${blamed ? ` (${blamed})` : ''}`,
    `  agreement with the rules: ${c.agreed}/${c.compared} (${percent(c.agreed, c.compared)}) of episodes where both name a component`,
    ...(c.decisive === undefined
      ? []
      : [
          `  decisive decision (one reply that, swapped alone, fixes it): ${c.decisive}/${c.replayed}; the rules' first erroneous event in ${c.decisive_agreed ?? 0}/${c.decisive_compared ?? 0}`,
        ]),
    `  extra calls: ${c.oracle_calls + c.unreplayed} answered by the oracle (${c.unreplayed} of them for replayed roles whose request was not in the trace; no model is called), ${c.replayed_calls} replayed from traces`,
  ].join('\n');
}
