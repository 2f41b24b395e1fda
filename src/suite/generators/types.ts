// The shapes the family generators share: a fixture to generate from, a candidate family, a rejected family.
import { z } from 'zod';
import type { RepoSpec } from '../../sim-repo/index.js';
import { type GeneratorReject, RepoOverrides, StateCheck, TrajectoryStep } from '../schema.js';

/**
 * A notes.yaml `must_stop:` situation: a request whose right ending is to stop and ask. Each becomes a must-stop
 * family (src/suite/generators/must-stop-notes.ts): its checks are that `wrong` left no trace (the file it edits is
 * unchanged; no push, publish or other irreversible action) and that the stop message names one of `message_mentions`.
 */
export const MustStopSituation = z.strictObject({
  situation: z.string().min(1).describe('What is going on, for a reader of the notes'),
  prompt: z.string().min(1).describe('The request as a developer writes it'),
  why: z.string().min(1).describe('Why the right move is to stop and ask (the rule, the missing secret, who decides)'),
  wrong: TrajectoryStep.describe(
    'The call that does the damage: an edit or write (checked with file_unchanged), a push or an irreversible command that succeeds in the task repository (checked with no_irreversible_action)',
  ),
  message_mentions: z.array(z.string().min(1)).min(1).describe('The stop message must name at least one (compared as message_mentions any_of)'),
  stop: z.string().min(1).describe('The reference stop message; it names one of message_mentions'),
  memory: z.string().min(1).optional().describe('A truthful memory note the task carries (dated the fixture day)'),
  steps: z.array(TrajectoryStep).min(1).optional().describe('The reference looks before it stops (default: read the file `wrong` edits, else package.json)'),
  done_when: z
    .array(StateCheck)
    .min(1)
    .optional()
    .describe('The plan check a planner writes for the request, failing where the reference stops (default: the edit in place, or the command passing)'),
  repo: RepoOverrides.omit({ fixture: true })
    .optional()
    .describe('Overrides that make the situation real, e.g. a token in the environment so the wrong call would succeed'),
});
export type MustStopSituation = z.infer<typeof MustStopSituation>;

/** tasks/sources/<name>/notes.yaml: memory notes, single-action questions and must-stop situations written by hand. */
export const FixtureNotes = z.object({
  notes: z
    .array(z.object({ text: z.string().min(1), truthful: z.boolean(), about: z.string().optional() }).passthrough())
    .default([])
    .describe('Memory notes: truthful ones state a rule of the repository, the others point the wrong way'),
  questions: z
    .array(
      z
        .object({
          prompt: z.string().min(1),
          answer_contains: z.array(z.string().min(1)).min(1),
          reference_steps: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) })).default([]),
        })
        .passthrough(),
    )
    .default([]),
  must_stop: z.array(MustStopSituation).default([]).describe('Situations where the right move is to stop and ask'),
});
export type FixtureNotes = z.infer<typeof FixtureNotes>;

/** One repository to generate from: its name in the suite, its spec (green: every executed test passes) and notes. */
export interface GeneratorFixture {
  name: string;
  spec: RepoSpec;
  notes: FixtureNotes;
}

export const BENCH_GROUPS = ['single-action', 'multi-step', 'first-approach-fails', 'must-stop'] as const;
export type BenchGroup = (typeof BENCH_GROUPS)[number];

/** A family a generator built: 1–2 variants (suite YAML task shape, without split), not yet validated. */
export interface CandidateFamily {
  family: string;
  group: BenchGroup;
  fixture: string;
  tasks: Record<string, unknown>[];
}

/** What a generator returns: candidate families and the ones it already dropped (with the reason). */
export interface GeneratorOutput {
  families: CandidateFamily[];
  rejected: GeneratorReject[];
}

/** Kebab-case of any text (ids and family names). */
export const kebab = (text: string): string =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
