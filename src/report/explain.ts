// `stratbench explain`: one episode's trace in order — plan, revisions with diffs, tool calls, checks — with the attributed events marked.
import { listNames } from './name-list.js';
import type { EpisodeRecord, PlanSnapshot, StoredText, TraceEvent } from '../records/index.js';

const FIRST = '▶';
const OTHER = '•';

const clip = (text: string, max: number): string => {
  const line = text.replace(/\s*\n\s*/g, ' | ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const args = (value: unknown): string => (value === null || value === undefined ? 'null' : clip(JSON.stringify(value), 90));

function describeCheck(check: Record<string, unknown>): string {
  const rest = Object.entries(check)
    .filter(([key]) => key !== 'check')
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return `${String(check['check'])}${rest.length > 0 ? ` ${rest.join(' ')}` : ''}`;
}

/** The lines of a plan snapshot: goal, done_when, assumptions, then the steps of `revision` (all when undefined). */
function planLines(plan: PlanSnapshot, revision?: number): string[] {
  const lines: string[] = [];
  if (revision === undefined) lines.push(`goal: ${clip(plan.goal, 100)}`);
  lines.push(plan.done_when.length > 0 ? `done_when: ${plan.done_when.map(describeCheck).join(' · ')}` : 'done_when: (none)');
  if (plan.assumptions.length > 0) lines.push(`assumptions: ${plan.assumptions.map((a) => `"${clip(a, 80)}"`).join(' · ')}`);
  for (const step of plan.steps) {
    if (revision !== undefined && step.revision !== revision) continue;
    const deps = step.depends_on.length > 0 ? ` ← ${step.depends_on.join(', ')}` : '';
    lines.push(`${step.id.padEnd(6)} ${step.tool.padEnd(8)} ${args(step.args)}${deps}  "${clip(step.does, 70)}"`);
  }
  return lines;
}

/** A parsed reply in a few words: the plan's size, the replanner's decision, the action or call chosen. */
function replySummary(role: string, value: unknown): string {
  const v = (value ?? {}) as Record<string, unknown>;
  const count = (key: string): number => (Array.isArray(v[key]) ? (v[key] as unknown[]).length : 0);
  switch (role) {
    case 'planner':
      return `a plan of ${count('steps')} step(s), ${count('done_when')} done_when check(s)`;
    case 'replanner':
      return v['decision'] === 'stop'
        ? `stop — "${clip(String(v['message'] ?? ''), 90)}"`
        : `revise — invalidated "${clip(String(v['invalidated'] ?? ''), 70)}", ${count('steps')} new step(s)`;
    case 'agent':
    case 'direct':
      if (v['action'] === 'tool') return `${String(v['tool'])} ${args(v['args'])}`;
      return `${String(v['action'])} — "${clip(String(v['answer'] ?? v['message'] ?? ''), 90)}"`;
    case 'gate':
      return `route ${String(v['route'])}`;
    case 'reporter':
      return `answer "${clip(String(v['answer'] ?? ''), 90)}"`;
    default:
      return v['tool'] !== undefined ? `${String(v['tool'])} ${args(v['args'])}` : args(value);
  }
}

/** How explain shows the texts a model call references: the folder's messages.jsonl, and whether to print them whole. */
export interface ExplainTexts {
  texts: ReadonlyMap<string, StoredText>;
  /** true: every message and thinking text in full; false: one clipped line each. */
  full: boolean;
  /** Lines on the counterfactual replay of a failed episode, printed under the attribution (absent: none). */
  counterfactual?: readonly string[];
}

/** The messages a model call was sent (with its options) and the thinking it returned, as indented lines. */
function sentLines(event: Extract<TraceEvent, { type: 'model_call' }>, shown: ExplainTexts): string[] {
  const lines: string[] = [];
  const text = (hash: string, label: (stored: StoredText) => string): string[] => {
    const stored = shown.texts.get(hash);
    if (!stored) return [`[${hash} is not in messages.jsonl]`];
    if (!shown.full) return [`${label(stored)} ${clip(stored.content, 100)}`];
    return [`${label(stored)}`, ...stored.content.split('\n').map((line) => `  ${line}`)];
  };
  if (event.sent) {
    const options = Object.entries(event.sent.options)
      .map(([key, value]) => `${key} ${String(value)}`)
      .join(', ');
    lines.push(`sent ${event.sent.messages.length} message(s)${options ? ` (${options})` : ''}:`);
    for (const hash of event.sent.messages) lines.push(...text(hash, (stored) => `[${stored.role}]`));
  }
  if (event.thinking !== undefined) lines.push(...text(event.thinking, () => 'thinking:'));
  return lines;
}

/** One event as a headline and indented detail lines. */
function describeEvent(event: TraceEvent, shown: ExplainTexts): { head: string; body: string[] } {
  switch (event.type) {
    case 'model_call': {
      const retry = event.attempt > 1 ? ' (repair)' : '';
      const sent = sentLines(event, shown);
      if (event.outcome === 'invalid')
        return { head: `model_call ${event.role}${retry}: invalid — ${clip(event.error ?? '', 80)}`, body: [...sent, `reply: ${clip(event.text, 110)}`] };
      return { head: `model_call ${event.role}${retry}: ${replySummary(event.role, event.value)}`, body: sent };
    }
    case 'gate':
      return { head: `gate → ${event.route}`, body: [] };
    case 'plan':
      return { head: 'plan (revision 0)', body: planLines(event.plan) };
    case 'plan_invalid':
      return { head: 'plan_invalid', body: event.errors.map((e) => clip(e, 110)) };
    case 'plan_revision':
      return { head: `plan_revision ${event.revision}: invalidated "${clip(event.invalidated, 80)}"`, body: planLines(event.plan, event.revision) };
    case 'plan_diff':
      return {
        head: `plan_diff ${event.revision}: removed [${event.diff.removed.join(', ')}] added [${event.diff.added.join(', ')}] revised [${event.diff.revised.join(', ')}]`,
        body: [],
      };
    case 'tool_call': {
      const step = event.step_id === undefined ? '' : ` ${event.step_id}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`;
      const code = event.exit_code === undefined ? '' : ` exit ${event.exit_code}`;
      const lines = event.output.split('\n').filter((l) => l.trim() !== '');
      const body = lines.slice(0, 3).map((l) => clip(l, 110));
      if (lines.length > 3) body.push(`… ${lines.length - 3} more line(s)`);
      return { head: `tool_call${step} ${event.tool} ${args(event.args)} → ${event.status}${code}${event.error_code ? ` (${event.error_code})` : ''}`, body };
    }
    case 'step_end':
      return { head: `step_end ${event.step_id} ${event.status}${event.reason ? ` (${clip(event.reason, 80)})` : ''}`, body: [] };
    case 'check':
      return { head: `check ${event.scope} ${event.pass ? 'pass' : 'FAIL'} ${describeCheck(event.check)}`, body: [clip(event.detail, 110)] };
    case 'budget':
      return { head: `budget ${event.limit}: ${event.detail}`, body: [] };
    case 'agent_process': {
      const how = event.exit_code === null ? `killed by ${event.signal ?? 'a signal'}` : `exit ${event.exit_code}`;
      const tail = event.stderr.split('\n').filter((l) => l.trim() !== '');
      return {
        head: `agent_process ${how}${event.killed ? ` (the harness killed it: ${event.killed})` : ''} after ${event.wall_ms} ms: ${clip(event.command, 60)}`,
        body: tail.slice(-3).map((l) => `stderr: ${clip(l, 100)}`),
      };
    }
    case 'end': {
      const said = event.answer ?? event.message;
      return { head: `end ${event.status} (${event.reason})`, body: said ? [`${event.answer !== undefined ? 'answer' : 'message'}: ${clip(said, 110)}`] : [] };
    }
  }
}

/**
 * Renders one episode for a person: a header (task, strategy, epoch, outcome, success), the attribution with its
 * explanation, then every trace event in order with its id. Events in the attribution's evidence are marked
 * `▶` (the first erroneous event) and `•` (the rest). Plans show goal, done_when, assumptions and steps;
 * revisions show the broken assumption and their new steps, diffs their removed/added/revised ids; tool calls
 * their first output lines; checks their detail. Model calls show the messages the model was sent (with the options)
 * and the thinking it returned, looked up in `shown.texts` (messages.jsonl): one clipped line each, or in full.
 * Pure.
 */
export function explainEpisode(record: EpisodeRecord, shown: ExplainTexts = { texts: new Map(), full: false }): string {
  const evidence = record.attribution?.evidence ?? [];
  const lines: string[] = [];
  lines.push(
    `${record.task} × ${record.strategy}, epoch ${record.epoch} — ${record.outcome.status} (${record.outcome.reason}), ${record.success ? 'succeeded' : 'failed'} (expected ${record.expect})`,
  );
  lines.push(
    `models: ${Object.entries(record.models)
      .map(([role, model]) => `${role}=${model}`)
      .join(' ')}`,
  );
  if (record.attribution) {
    const { component, mode, explanation } = record.attribution;
    lines.push(`attribution: ${component}.${mode} — ${explanation}`);
    lines.push(`evidence: ${evidence.map((id, i) => `${i === 0 ? FIRST : OTHER}${id}`).join(' ')}   (${FIRST} first erroneous event, ${OTHER} other evidence)`);
  } else if (!record.success) {
    lines.push(
      record.outcome.status === 'error' ? 'attribution: none (error episodes are infrastructure, not a strategy failure)' : 'attribution: none recorded',
    );
  }
  for (const finding of record.findings ?? []) {
    const { replans, model_calls, tool_calls } = finding.cost;
    const cost = `cost: ${replans} replan(s), ${model_calls} model call(s), ${tool_calls} tool call(s); evidence ${finding.evidence.join(' ')}`;
    lines.push(`finding: ${finding.component}.${finding.mode} (${cost}) — ${finding.explanation}`);
  }
  lines.push(...(shown.counterfactual ?? []));
  lines.push('');
  const width = String(record.trace.length).length;
  for (const event of record.trace) {
    const mark = evidence[0] === event.id ? FIRST : evidence.includes(event.id) ? OTHER : ' ';
    const { head, body } = describeEvent(event, shown);
    lines.push(`${mark} ${String(event.id).padStart(width)}  ${head}`);
    for (const line of body) lines.push(`  ${' '.repeat(width)}      ${line}`);
  }
  return lines.join('\n');
}

/**
 * Picks the episode `explain` prints: `task` × `strategy` at `epoch` (default: the lowest epoch there is).
 * Returns the record, or a message naming what the results hold instead.
 */
export function findEpisode(
  records: readonly EpisodeRecord[],
  task: string,
  strategy: string,
  epoch?: number,
): { ok: true; record: EpisodeRecord } | { ok: false; error: string } {
  const matching = records.filter((r) => r.task === task && r.strategy === strategy).sort((a, b) => a.epoch - b.epoch);
  const record = epoch === undefined ? matching[0] : matching.find((r) => r.epoch === epoch);
  if (record) return { ok: true, record };
  if (matching.length > 0) return { ok: false, error: `no epoch ${epoch} of ${task} × ${strategy}; epochs: ${matching.map((r) => r.epoch).join(', ')}` };
  const tasks = [...new Set(records.map((r) => r.task))];
  const strategies = [...new Set(records.map((r) => r.strategy))];
  return { ok: false, error: `no episode ${task} × ${strategy}; tasks: ${listNames(tasks, task)}; strategies: ${listNames(strategies, strategy)}` };
}
