// A recorded trajectory as the scripted model plays it: the suite's trajectories, read by models/ without the
// suite's YAML schema (suite/schema.ts validates the full, strict shape; every suite trajectory is one of these).
import { z } from 'zod';
import { CheckSpec } from './outcome.js';
import { ToolName } from './roles.js';

export const TrajectoryStep = z.object({
  tool: ToolName,
  args: z.record(z.string(), z.unknown()),
  does: z.string().optional().describe('One sentence for the plan step'),
  expect: z.string().optional().describe('What a good result looks like; "exit 0" or "any exit"'),
  deferred: z.boolean().describe('The planner writes args: null and the executor fills them'),
  after: z.array(z.number().int().nonnegative()).optional().describe('Indices of earlier steps this one depends on'),
});
export type TrajectoryStep = z.infer<typeof TrajectoryStep>;

export const Trajectory = z.object({
  assumption: z.string().optional(),
  done_when: z.array(CheckSpec).optional(),
  steps: z.array(TrajectoryStep),
  finish: z.string().optional().describe('Ends by finishing with this answer'),
  stop: z.string().optional().describe('Ends by stopping with this message to a person'),
});
export type Trajectory = z.infer<typeof Trajectory>;
