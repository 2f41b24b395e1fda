// Test helpers: tiny tasks, a function-driven model, and a run environment using the real prompts.
import { fileURLToPath } from 'node:url';
import { RepoSpec, type RepoSpecInput } from '../../src/sim-repo/spec.js';
import { Trajectory, Check, type TrajectoryStep } from '../../src/suite/schema.js';
import { ROLES, type ChatModel, type ChatRequest, type ChatResponse, type Role } from '../../src/models/types.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import { loadPromptSet } from '../../src/runner/prompt-files.js';
import { toolDescriptionsForPrompt } from '../../src/tools/index.js';
import type { EpisodeTask, RunEnvironment } from '../../src/runner/episode.js';
import type { PromptSet } from '../../src/strategies/prompts.js';

export const PROMPTS_DIR = fileURLToPath(new URL('../../prompts', import.meta.url));
export const CORE_SUITE = fileURLToPath(new URL('../../tasks/core.yaml', import.meta.url));

let prompts: PromptSet | undefined;
export async function testPrompts(): Promise<PromptSet> {
  prompts ??= await loadPromptSet(PROMPTS_DIR);
  return prompts;
}

/**
 * tests/total.test.js of the small "fix the rounding" repositories: real vitest code that imports src/total.js
 * and expects `total(1.5)` to be 2, so it fails while total uses Math.floor and passes once it uses Math.round.
 */
export const TOTAL_TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { total } from '../src/total.js';",
  '',
  "describe('total', () => {",
  "  it('rounds', () => {",
  '    expect(total(1.5)).toBe(2);',
  '  });',
  '});',
  '',
].join('\n');

export interface MiniTask extends EpisodeTask {
  reference: Trajectory;
  naive?: Trajectory;
}

type TrajectoryInput = {
  steps?: Array<Partial<TrajectoryStep> & { tool: TrajectoryStep['tool'] }>;
  finish?: string;
  stop?: string;
  done_when?: unknown[];
  assumption?: string;
};

/** A task from a repo spec, checks and trajectories (parsed through the real schemas). */
export function miniTask(input: {
  id?: string;
  group?: string;
  repo: RepoSpecInput;
  expect?: 'finish' | 'stop';
  checks: unknown[];
  reference: TrajectoryInput;
  naive?: TrajectoryInput;
}): MiniTask {
  const task: MiniTask = {
    id: input.id ?? 'mini',
    group: input.group ?? 'single-action',
    prompt: 'Do the thing.',
    expect: input.expect ?? 'finish',
    checks: input.checks.map((c) => Check.parse(c)),
    repoSpec: RepoSpec.parse(input.repo),
    reference: Trajectory.parse(input.reference),
  };
  if (input.naive) task.naive = Trajectory.parse(input.naive);
  return task;
}

/** A model whose replies come from a function of the request (records every request). */
export class FunctionModel implements ChatModel {
  readonly deterministic = true;
  readonly requests: ChatRequest[] = [];
  constructor(
    private readonly respond: (request: ChatRequest, index: number) => unknown,
    readonly name = 'function',
  ) {}
  async chat(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(request);
    const value = this.respond(request, this.requests.length - 1);
    return { text: typeof value === 'string' ? value : JSON.stringify(value), tokens_in: 10, tokens_out: 5, duration_ms: 7, load_ms: 0, model: this.name };
  }
}

export function allRoles(model: ChatModel): Record<Role, ChatModel> {
  return Object.fromEntries(ROLES.map((role) => [role, model])) as Record<Role, ChatModel>;
}

export async function environment(models: Record<Role, ChatModel>, lookupMissAsResult = false): Promise<RunEnvironment> {
  return {
    models,
    prompts: await testPrompts(),
    toolDescriptions: toolDescriptionsForPrompt(),
    chatOptions: () => ({ temperature: 0 }),
    options: { lookupMissAsResult },
    configHash: 'test',
  };
}

export function scriptedFor(...tasks: MiniTask[]): Record<Role, ChatModel> {
  return allRoles(new ScriptedModel(tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive }))));
}

/** Answers one role's request: the request and how many calls that role has made before (0-based). */
export type RoleHandler = (request: ChatRequest, n: number) => unknown;

/**
 * A model answering each role from `handlers`; without a handler the executor returns the step's own call and the
 * reporter a fixed "report", any other role throws (a test that forgot a role fails loudly).
 */
export function roleModel(handlers: Partial<Record<string, RoleHandler>>): FunctionModel {
  const counts = new Map<string, number>();
  return new FunctionModel((request) => {
    const n = counts.get(request.role) ?? 0;
    counts.set(request.role, n + 1);
    const handler = handlers[request.role];
    if (handler) return handler(request, n);
    if (request.role === 'executor') {
      const view = request.view as { step: { tool: string; args: Record<string, unknown> | null } };
      return { tool: view.step.tool, args: view.step.args ?? {} };
    }
    if (request.role === 'reporter') return { answer: 'report' };
    throw new Error(`no handler for ${request.role}`);
  });
}

/** A hidden test for `lineTax` in `src/pricing.js` (nearest-cent rounding), used by the hidden-file and tests_pass tests. */
export const ROUNDING_TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { lineTax } from '../../src/pricing.js';",
  '',
  "describe('lineTax', () => {",
  "  it('rounds to the nearest cent', () => {",
  '    expect(lineTax(0.5)).toBe(0.04);',
  '  });',
  '});',
  '',
].join('\n');
