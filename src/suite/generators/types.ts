// The shapes the family generators share: a fixture to generate from, a candidate family, a rejected family.
import { z } from 'zod';
import type { RepoSpec } from '../../sim-repo/index.js';
import type { GeneratorReject } from '../schema.js';

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
  must_stop: z.array(z.unknown()).default([]).describe('Situations where the right move is to stop and ask (free-form entries)'),
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
