// Owns the shapes of the run results the code cache keeps: a stored result is checked before it is served.
import { z } from 'zod';
import type { StoredForm } from './run-store.js';
import { SideEffect } from './spec.js';
import type { FileResult } from './test-results.js';

const ErrorShape = z.looseObject({ name: z.string(), message: z.string(), stack: z.string() });

/** A test file's result (FileResult): what scoring and the printed output read. Other fields pass through. */
const FileResultShape = z.looseObject({
  file: z.string(),
  tests: z.array(
    z.looseObject({
      id: z.string(),
      file: z.string(),
      path: z.array(z.string()),
      state: z.enum(['passed', 'failed', 'skipped', 'todo']),
      error: ErrorShape.optional(),
    }),
  ),
  error: ErrorShape.optional(),
  tampered: z.string().optional(),
});

/** A `node` run's outcome (script-runner's CommandOutcome). */
const CommandOutcomeShape = z.looseObject({ exit_code: z.number(), output: z.string(), side_effect: SideEffect });

/** An `eslint` run's outcome as stored: `fixed` (--fix's files) as [path, content] pairs. */
const LintOutcomeShape = z.looseObject({ exit_code: z.number(), output: z.string(), fixed: z.array(z.tuple([z.string(), z.string()])).optional() });

/** What an `eslint` run leaves: exit code, output, and the files --fix wrote. */
export interface LintOutcome {
  exit_code: number;
  output: string;
  fixed?: Map<string, string>;
}

/**
 * Each cache's stored form: results as JSON values, checked on the way back (a file edited with its checksum line
 * recomputed, or of a shape this harness does not read, is a miss, never a crash: an adversarial review, decision 0049).
 */
export const STORED_FORMS = {
  testFile: { encode: (result) => result, decode: (value) => FileResultShape.parse(value) as FileResult } satisfies StoredForm<FileResult>,
  node: { encode: (result) => result, decode: (value) => CommandOutcomeShape.parse(value) } satisfies StoredForm<z.infer<typeof CommandOutcomeShape>>,
  eslint: {
    encode: ({ fixed, ...outcome }) => (fixed === undefined ? outcome : { ...outcome, fixed: [...fixed] }),
    decode: (value) => {
      const { fixed, ...outcome } = LintOutcomeShape.parse(value);
      return (fixed === undefined ? outcome : { ...outcome, fixed: new Map(fixed) }) as LintOutcome;
    },
  } satisfies StoredForm<LintOutcome>,
};
