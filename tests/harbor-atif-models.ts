// Harbor's ATIF validator and trial layout as Harbor's own tools read them, for tests: its pydantic models (transcribed
// once, in src/report/formats/atif-schema.ts, whose header names the Harbor files and commit), run the way its
// TrajectoryValidator runs them, and a trial folder found and resolved the way its viewer and trace export do.
//
// Transcribed from Harbor as vendored in refreshdotdev/harbor-trajectories at commit
// 22dafa68f53b0e20b8818510116d18a3a58fcd73:
// - vendor/harbor/utils/trajectory_validator.py — TrajectoryValidator.validate(path): JSON read, `Trajectory(**data)`,
//   every pydantic error as `trajectory.<loc>: …` (missing, extra_forbidden, value_error, literal_error, …), then
//   every local image path of a ContentPart resolved against the file's folder;
// - vendor/harbor/models/trial/paths.py — a trial's trajectory is `<trial>/agent/trajectory.json`;
// - vendor/harbor/viewer/server.py — the viewer serves `<trial>/agent/trajectory.json`;
// - vendor/harbor/utils/traces_utils.py — trace export: a trial is a folder with `agent/`; its main trajectory is
//   `agent/trajectory.json` (continued through `continued_trajectory_ref`, resolved in `agent/`); subagent
//   trajectories are `agent/trajectory.*.json` (not `.cont-`), each exported as its own dataset named after the file;
//   `subagent_trajectory_ref[].trajectory_path` names such a file; `_extract_single_episode_conversation` turns steps
//   into chat turns (system and user steps → user, agent → assistant with `<think>` and `<tool_call>` blocks, an agent
//   step's observation → a user turn before the next agent step); `_extract_instruction` takes the task's instruction
//   from the first of the sorted `agent/trajectory*.json` names (skipping `.summarization`), not from trajectory.json.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { z } from 'zod';
import { AtifTrajectory } from '../src/report/formats/atif-schema.js';

export { AtifTrajectory as HarborTrajectory };

const loc = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/** One zod issue as Harbor's validator words the pydantic error it stands for: missing, unexpected (extra) and value errors as it formats them; a wrong type or value with its input's type or value; the rest in zod's words. */
function harborErrors(issue: z.core.$ZodIssue, input: unknown): string[] {
  const at = (path: readonly PropertyKey[]) => `trajectory.${loc(path)}`;
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => `${at([...issue.path, key])}: unexpected field (not part of ATIF schema)`);
    case 'invalid_type': {
      const value = issue.path.reduce<unknown>((object, key) => (object as Record<PropertyKey, unknown> | undefined)?.[key], input);
      return [value === undefined ? `${at(issue.path)}: required field is missing` : `${at(issue.path)}: expected ${issue.expected}, got ${typeof value}`];
    }
    case 'custom':
      return [`${at(issue.path)}: Value error, ${issue.message}`];
    case 'invalid_value':
      return [`${at(issue.path)}: ${issue.message}, got '${String(issue.path.reduce<unknown>((o, k) => (o as Record<PropertyKey, unknown>)?.[k], input))}'`];
    default:
      return [`${at(issue.path)}: ${issue.message}`];
  }
}

/** Harbor's image check: every image a message or observation shows by a local path exists (URLs are skipped). */
function missingImages(trajectory: AtifTrajectory, folder: string): string[] {
  const errors: string[] = [];
  const check = (content: unknown, where: string) => {
    if (!Array.isArray(content)) return;
    content.forEach((part: { type?: string; source?: { path?: string } }, index) => {
      const path = part.type === 'image' ? part.source?.path : undefined;
      if (!path || path.includes('://')) return;
      if (!existsSync(isAbsolute(path) ? path : join(folder, path)))
        errors.push(`${where}[${index}].source.path: referenced image file does not exist: ${path}`);
    });
  };
  trajectory.steps.forEach((step, index) => {
    check(step.message, `trajectory.steps[${index}].message`);
    for (const [at, result] of (step.observation?.results ?? []).entries())
      check(result.content, `trajectory.steps[${index}].observation.results[${at}].content`);
  });
  return errors;
}

/**
 * TrajectoryValidator.validate(file): the errors Harbor reports for a trajectory file ([] when valid), and the parsed
 * trajectory when the models accept it.
 */
export function validateTrajectoryFile(file: string): { errors: string[]; trajectory: AtifTrajectory | null } {
  if (!existsSync(file)) return { errors: [`File not found: ${file}`], trajectory: null };
  let input: unknown;
  try {
    input = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { errors: [`Invalid JSON: ${(error as Error).message}`], trajectory: null };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { errors: ['Trajectory must be a JSON object/dict'], trajectory: null };
  const parsed = AtifTrajectory.safeParse(input);
  if (!parsed.success) return { errors: parsed.error.issues.flatMap((issue) => harborErrors(issue, input)), trajectory: null };
  return { errors: missingImages(parsed.data, join(file, '..')), trajectory: parsed.data };
}

/** A trial folder as Harbor's tools read it. */
export interface HarborTrial {
  /** Everything wrong, Harbor's validator's errors prefixed by the file. */
  errors: string[];
  /** agent/trajectory.json, then its continuations. */
  main: AtifTrajectory[];
  /** agent/trajectory.<name>.json by <name> (trace export's dataset name). */
  subagents: Map<string, AtifTrajectory>;
}

/**
 * Reads a trial folder as Harbor's viewer and trace export do: `agent/trajectory.json` (required) and its
 * continuations, the subagent files `agent/trajectory.*.json`, every file through validateTrajectoryFile. Beyond
 * Harbor's own checks it requires each `subagent_trajectory_ref` to name (trajectory_path, in agent/) an existing
 * file whose session_id is the ref's, and each subagent file to be referenced — a trial with a dangling reference or
 * an orphan file is reported.
 */
export function readHarborTrial(trialDir: string): HarborTrial {
  const agentDir = join(trialDir, 'agent');
  const errors: string[] = [];
  const main: AtifTrajectory[] = [];
  const subagents = new Map<string, AtifTrajectory>();
  const read = (name: string) => {
    const result = validateTrajectoryFile(join(agentDir, name));
    errors.push(...result.errors.map((error) => `${name}: ${error}`));
    return result.trajectory;
  };
  if (!existsSync(join(agentDir, 'trajectory.json'))) return { errors: [`${trialDir}: no agent/trajectory.json`], main, subagents };
  const seen = new Set<string>();
  for (let name: string | null | undefined = 'trajectory.json'; name && !seen.has(name); ) {
    seen.add(name);
    const trajectory = read(name);
    if (!trajectory) break;
    main.push(trajectory);
    name = trajectory.continued_trajectory_ref;
    if (name && !existsSync(join(agentDir, name))) errors.push(`continued_trajectory_ref ${name} does not exist`);
  }
  for (const file of readdirSync(agentDir).sort()) {
    if (!file.startsWith('trajectory.') || !file.endsWith('.json') || file === 'trajectory.json' || file.includes('.cont-')) continue;
    const trajectory = read(file);
    if (trajectory) subagents.set(file.slice('trajectory.'.length, -'.json'.length), trajectory);
  }
  const referenced = new Set<string>();
  for (const trajectory of main) {
    for (const step of trajectory.steps) {
      for (const ref of (step.observation?.results ?? []).flatMap((result) => result.subagent_trajectory_ref ?? [])) {
        const path = ref.trajectory_path;
        const name = path?.startsWith('trajectory.') && path.endsWith('.json') ? path.slice('trajectory.'.length, -'.json'.length) : undefined;
        const target = name === undefined ? undefined : subagents.get(name);
        if (!target) errors.push(`step ${step.step_id}: subagent_trajectory_ref ${path ?? '(no trajectory_path)'} names no valid file in agent/`);
        else if (target.session_id !== ref.session_id) errors.push(`step ${step.step_id}: ${path} holds session ${target.session_id}, not ${ref.session_id}`);
        if (name !== undefined) referenced.add(name);
      }
    }
  }
  // (Orphans are only known when the episode's trajectory could be read.)
  if (main.length > 0) for (const name of subagents.keys()) if (!referenced.has(name)) errors.push(`trajectory.${name}.json is referenced by no step`);
  return { errors, main, subagents };
}

/**
 * Harbor's pick of a trial's main trajectory and its instruction (traces_utils._extract_instruction, vendored at
 * refreshdotdev/harbor-trajectories@22dafa6): the names in agent/ matching `trajectory*.json`, skipping those holding
 * `.summarization`, sorted (Python compares code points; the names here are ASCII, so JavaScript's sort agrees); the
 * first file; the first step whose `message` is a non-blank string, trimmed. `file` null when no name matches,
 * `instruction` null when the file has no such step.
 */
export function harborInstruction(trialDir: string): { file: string | null; instruction: string | null } {
  const agentDir = join(trialDir, 'agent');
  const [file] = readdirSync(agentDir)
    .filter((name) => name.startsWith('trajectory') && name.endsWith('.json') && !name.includes('.summarization'))
    .sort();
  if (file === undefined) return { file: null, instruction: null };
  const steps: unknown = (JSON.parse(readFileSync(join(agentDir, file), 'utf8')) as { steps?: unknown }).steps;
  const message = Array.isArray(steps)
    ? steps.map((step) => (step as { message?: unknown } | null)?.message).find((m): m is string => typeof m === 'string' && m.trim() !== '')
    : undefined;
  return { file, instruction: message?.trim() ?? null };
}

/** One chat turn of Harbor's trace export. */
export interface HarborTurn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * Harbor's trace export of one trajectory (traces_utils.extract_conversations_from_trajectory): one conversation per
 * agent step not marked is_copied_context, holding every step up to it — system and user steps as user turns, agent
 * steps as assistant turns (`<think>…</think>`, the message, a `<tool_call>` block per call), and an agent step's
 * observation as a user turn when another agent step follows in the conversation.
 */
export function harborConversations(trajectory: AtifTrajectory): HarborTurn[][] {
  const text = (content: unknown): string =>
    typeof content === 'string' ? content : Array.isArray(content) && content.length > 0 ? String(content[0]?.text ?? '') : '';
  const ends = trajectory.steps.flatMap((step, index) => (step.source === 'agent' && !step.is_copied_context ? [index] : []));
  return ends.map((end) => {
    const steps = trajectory.steps.slice(0, end + 1);
    const lastAgent = steps.map((step) => step.source).lastIndexOf('agent');
    const turns: HarborTurn[] = [];
    for (const [index, step] of steps.entries()) {
      if (step.source !== 'agent') {
        turns.push({ role: 'user', content: text(step.message) });
        continue;
      }
      const parts = [
        ...(step.reasoning_content ? [`<think>${step.reasoning_content}</think>`] : []),
        ...(text(step.message) ? [text(step.message)] : []),
        ...(step.tool_calls ?? []).map((call) => `<tool_call>\n${JSON.stringify({ name: call.function_name, arguments: call.arguments })}\n</tool_call>`),
      ];
      turns.push({ role: 'assistant', content: parts.join('\n') });
      const results = (step.observation?.results ?? []).filter((result) => result.content !== undefined);
      if (index !== lastAgent && results.length > 0) turns.push({ role: 'user', content: results.map((result) => text(result.content)).join('\n') });
    }
    return turns;
  });
}
