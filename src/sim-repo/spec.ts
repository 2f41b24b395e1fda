// The declarative shape of a simulated repository: files, history, scripts, tests, env, faults.
import { z } from 'zod';
import { resolveRepoPath } from './paths.js';

/** Side-effect class of a tool call or command (seed 001, step fields): none < reversible < irreversible. */
export const SideEffect = z
  .enum(['none', 'reversible', 'irreversible'])
  .describe('none: reads only; reversible: changes the working tree; irreversible: pushes, migrations against a shared database');
export type SideEffect = z.infer<typeof SideEffect>;

const path = z.string().min(1).describe('Repository-relative posix path');

/**
 * A predicate on repository state, used for test pass conditions and script outcomes.
 * Discriminated on `kind`; `all`/`any`/`not` compose.
 */
export type Predicate =
  | { kind: 'file_contains'; path: string; text: string }
  | { kind: 'file_lacks'; path: string; text: string }
  | { kind: 'file_exists'; path: string }
  | { kind: 'env_set'; name: string }
  | { kind: 'env_equals'; name: string; value: string }
  | { kind: 'installed' }
  | { kind: 'migrations_applied'; ids: string[] }
  | { kind: 'flag'; name: string; value: string }
  | { kind: 'all'; of: Predicate[] }
  | { kind: 'any'; of: Predicate[] }
  | { kind: 'not'; of: Predicate };

export const Predicate: z.ZodType<Predicate> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('file_contains'), path, text: z.string().min(1) }),
    z.strictObject({ kind: z.literal('file_lacks'), path, text: z.string().min(1) }),
    z.strictObject({ kind: z.literal('file_exists'), path }),
    z.strictObject({ kind: z.literal('env_set'), name: z.string().min(1) }),
    z.strictObject({ kind: z.literal('env_equals'), name: z.string().min(1), value: z.string() }),
    z.strictObject({ kind: z.literal('installed') }),
    z.strictObject({ kind: z.literal('migrations_applied'), ids: z.array(z.string()).min(1) }),
    z.strictObject({ kind: z.literal('flag'), name: z.string().min(1), value: z.string() }),
    z.strictObject({ kind: z.literal('all'), of: z.array(Predicate).min(1) }),
    z.strictObject({ kind: z.literal('any'), of: z.array(Predicate).min(1) }),
    z.strictObject({ kind: z.literal('not'), of: Predicate }),
  ]),
);

/** One file change inside a commit; `before`/`after` may be excerpts (null = file absent). */
export const CommitChange = z.strictObject({
  path,
  before: z.string().nullable().default(null),
  after: z.string().nullable().default(null),
});

export const Commit = z.strictObject({
  sha: z.string().regex(/^[0-9a-f]{7,40}$/, 'sha must be 7-40 lowercase hex digits'),
  author: z.string().min(1),
  date: z.string().describe('ISO date, e.g. 2026-09-14'),
  message: z.string().min(1),
  changes: z.array(CommitChange).default([]),
});
export type Commit = z.infer<typeof Commit>;

const duration = z.number().int().nonnegative().describe('Simulated duration in ms');

/** What a package script does when run; discriminated on `kind`. */
export const ScriptSpec = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('test'),
    cmd: z
      .string()
      .default('vitest run')
      .describe('A vitest command line: its file filters, -t/--testNamePattern and --exclude select the tests, as vitest does'),
    duration_ms: duration.default(20_000),
  }),
  z.strictObject({
    kind: z.literal('lint'),
    cmd: z.string().default('eslint .').describe("An ESLint command line, run with ESLint's in-process Linter and the fixture's eslint.config.js"),
    duration_ms: duration.default(6_000),
  }),
  z.strictObject({ kind: z.literal('install'), cmd: z.string().default('pnpm install'), duration_ms: duration.default(15_000) }),
  z.strictObject({ kind: z.literal('migrate'), cmd: z.string().default('node scripts/migrate.js'), duration_ms: duration.default(5_000) }),
  z.strictObject({ kind: z.literal('migrate_status'), cmd: z.string().default('node scripts/migrate.js --status'), duration_ms: duration.default(1_000) }),
  z.strictObject({
    kind: z.literal('command'),
    cmd: z.string().min(1),
    passes_when: Predicate.optional().describe('Exit 0 when this holds (always when absent)'),
    output: z.string().default(''),
    failure: z.string().default('failed').describe('Printed (exit 1) when passes_when does not hold'),
    sets_flags: z.record(z.string(), z.string()).default({}).describe('Flags set when the command succeeds'),
    side_effect: SideEffect.default('none'),
    duration_ms: duration.default(2_000),
  }),
]);
export type ScriptSpec = z.infer<typeof ScriptSpec>;

/** What an environment-dependent test needs that the sandbox does not model. */
export const TestNeed = z.enum(['database', 'secret', 'network', 'service']);
export type TestNeed = z.infer<typeof TestNeed>;

/**
 * An environment-dependent test: its file is not executed (it needs a database, a secret, the network or another
 * service the sandbox does not model); it passes when `passes_when` holds on the repository state. Every other
 * test file is executed for real.
 */
export const TestSpec = z.strictObject({
  name: z.string().min(1).describe('Full name as vitest prints it: describe names and the test name joined by " > "'),
  file: path.describe('The test file; a `.skip(` in it marks the test skipped'),
  needs: TestNeed.describe('Why this test cannot run in the sandbox'),
  passes_when: Predicate,
  failure: z.string().min(1).describe('Assertion output when it fails, e.g. "PaymentsConfigError: PAYMENTS_SANDBOX_KEY is not set"'),
});
export type TestSpec = z.infer<typeof TestSpec>;

/** A fault: the first `times` commands matching `command` fail with `output`. */
export const FaultSpec = z.strictObject({
  command: z.string().min(1).describe('Command prefix, whitespace-normalised, e.g. "pnpm install"'),
  times: z.number().int().positive().default(1),
  transient: z.boolean().default(true).describe('Transient faults match known retryable patterns (ECONNRESET, ETIMEDOUT)'),
  output: z.string().min(1),
  exit_code: z.number().int().positive().default(1),
});
export type FaultSpec = z.infer<typeof FaultSpec>;

export const MemoryNote = z.strictObject({
  date: z.string().describe('ISO date the note was saved'),
  text: z.string().min(1),
});
export type MemoryNote = z.infer<typeof MemoryNote>;

/** File maps keyed by repository-relative paths; a key that leaves the repository root is an authoring error. */
export function filesInsideRepo<T extends z.ZodType>(value: T) {
  return z.record(z.string(), value).superRefine((files, ctx) => {
    for (const path of Object.keys(files)) {
      const resolved = resolveRepoPath(path);
      if (!resolved.ok || resolved.path === '') {
        ctx.addIssue({ code: 'custom', path: [path], message: `file path "${path}" is not a file inside the repository` });
      }
    }
  });
}

/** The whole initial state of one simulated repository. */
export const RepoSpec = z.strictObject({
  files: filesInsideRepo(z.string()).default({}),
  commits: z.array(Commit).default([]).describe('Newest first'),
  scripts: z.record(z.string(), ScriptSpec).default({}),
  tests: z.array(TestSpec).default([]).describe('Environment-dependent tests only; every other test file is executed'),
  hidden_files: filesInsideRepo(z.string())
    .default({})
    .describe('Test files the agent can neither list, read nor run; they run only when the final state is scored'),
  date: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), 'date must be an ISO date, e.g. 2026-09-15T09:00:00Z')
    .default('2026-01-01T09:00:00Z')
    .describe("The repository's fixed clock: what new Date() and Date.now() return when its code runs"),
  dependencies: z.record(z.string(), z.string()).default({}).describe('package.json dependencies (bare imports of other packages fail as in Node)'),
  devDependencies: z.record(z.string(), z.string()).default({}).describe('package.json devDependencies'),
  env: z.record(z.string(), z.string()).default({}),
  permissions: z.strictObject({ push: z.boolean().default(true) }).default({ push: true }),
  installed: z.boolean().default(true).describe('Whether node_modules is present'),
  migrations: z.strictObject({ applied: z.array(z.string()).default([]), pending: z.array(z.string()).default([]) }).default({ applied: [], pending: [] }),
  flags: z.record(z.string(), z.string()).default({}),
  faults: z.array(FaultSpec).default([]),
  memory: z.array(MemoryNote).default([]),
  ci_log: z.string().optional(),
  branch: z.string().default('main'),
  remote: z.string().default('origin'),
});
export type RepoSpec = z.infer<typeof RepoSpec>;
export type RepoSpecInput = z.input<typeof RepoSpec>;
