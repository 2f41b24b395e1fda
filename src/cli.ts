#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=20
// Argument parsing only: turns the command line into calls on the runner, suite loader and report modules.
import './cli-prewarm.js';
import { Command, CommanderError, Option } from 'commander';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { parsePairs } from './runner/pairs-option.js';
import { UsageError } from './runner/usage-error.js';
import { exitQuietlyOnClosedPipe, outputFault } from './runner/terminal.js';
import { DEFAULT_CACHE_DIR } from './models/response-cache.js';
import type { CompareCommandOptions } from './runner/commands/compare.js';
// Each command's module is imported when the command runs, so start-up loads only what it needs.

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The embedded default suite and prompts, resolved from the package, not the working directory. */
export const DEFAULT_SUITE = resolve(packageRoot, 'tasks/core.yaml');
export const DEFAULT_PROMPTS = resolve(packageRoot, 'prompts');
/** The installed package's version (`stratbench --version`). */
const VERSION = (JSON.parse(readFileSync(resolve(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

const integer =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isSafeInteger(n)) throw new UsageError(`${name} must be a whole number, got "${value}"`);
    return n;
  };
/** A whole number from `min` to `max`; the message names the flag, the bounds and what was given. */
const boundedInt =
  (name: string, min: number, max: number, why = '') =>
  (value: string): number => {
    const n = Number(value);
    // Number() also reads 0x10, 0o7 and 0b1: a count on the command line is written in decimal.
    if (value.trim() === '' || !Number.isInteger(n) || /^\s*[+-]?0[xob]/i.test(value)) throw new UsageError(`${name} must be a whole number, got "${value}"`);
    if (n < min || n > max) throw new UsageError(`${name} must be from ${min} to ${max.toLocaleString('en-US')}${why}, got ${value}`);
    return n;
  };

/** A number from 0 to `max`. */
const boundedNumber =
  (name: string, max: number) =>
  (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > max) throw new UsageError(`${name} must be a number from 0 to ${max}, got "${value}"`);
    return n;
  };

/** Upper bounds of run's numeric flags: far above any sensible run, low enough that a typo is refused, not run. */
const MAX_EPOCHS = 1000;
const MAX_CONCURRENCY = 64;
const MAX_TOKENS = 1_048_576;
const MAX_TIMEOUT_MS = 86_400_000;
const MAX_TEMPERATURE = 2;

/** A share: `0.05` or `5%`, between 0 and 1. */
const fraction =
  (name: string) =>
  (value: string): number => {
    const text = value.trim();
    const n = text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text);
    if (text === '' || text === '%' || !Number.isFinite(n) || n < 0 || n > 1)
      throw new UsageError(`${name} takes a fraction from 0 to 1 or a percentage (0.05, 5%), got "${value}"`);
    return n;
  };

/** `--think` alone is true; `--think false|off|no|0` is false. */
const booleanValue =
  (name: string) =>
  (value: string): boolean => {
    const text = value.trim().toLowerCase();
    if (['true', 'on', 'yes', '1'].includes(text)) return true;
    if (['false', 'off', 'no', '0'].includes(text)) return false;
    throw new UsageError(`${name} takes true or false, got "${value}"`);
  };

function program(): Command {
  const cli = new Command('stratbench')
    .description('Benchmark LLM agent strategies (direct, ReAct, plan-up-front, plan-and-replan, gated) on task suites against a simulated repository.')
    .version(VERSION, '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');

  const run = cli
    .command('run')
    .description('Run strategies × tasks × epochs, score every episode in code, write a results folder and print the table.')
    .option('--suite <file>', 'task suite (YAML)', DEFAULT_SUITE)
    .option('--strategies <list>', 'comma-separated strategies, or "all" (direct, react, plan-up-front, plan-replan, gated); also plan-replan-lookup', 'all')
    .option('--tasks <list>', 'only these task ids (comma-separated)')
    .option('--split <split>', 'only the tasks of this split of a suite that has them: dev (tune prompts) or test (report)')
    .option(
      '--epochs <n>',
      `repetitions of every task × strategy (1–${MAX_EPOCHS})`,
      boundedInt('--epochs', 1, MAX_EPOCHS, ' (shard a larger run with --shard i/n)'),
      1,
    )
    .option(
      '--concurrency <n>',
      `model calls in flight at once, 1–${MAX_CONCURRENCY}, with a quarter more episodes under way so the server never waits on the harness (default: 4; with only the in-process scripted stand-in, episodes at once, default 1: it has no I/O to overlap)`,
      boundedInt('--concurrency', 1, MAX_CONCURRENCY),
    )
    .option('--seed <n>', 'base seed (each episode derives its own)', integer('--seed'), 1)
    .option(
      '--model <spec>',
      'default model for every role: scripted (deterministic stand-in, not an LLM), scripted:faults=…, ollama:<model>, openai:<model> (an OpenAI-compatible server: vLLM, llama.cpp, LM Studio, LiteLLM)',
      'scripted',
    )
    .option('--out <dir>', 'results folder (default results/<timestamp>)')
    .option('--prompts <dir>', 'folder of role prompt templates', DEFAULT_PROMPTS)
    .option('--no-progress', 'no progress output on stderr')
    .option(
      '--compress',
      'write episodes.jsonl.gz (gzip, ~0.6 KB an episode instead of ~7 KB on the core suite) instead of episodes.jsonl; every command and zcat read it',
    )
    .option('--wide', 'print every column, per-group statistics row and failed episode (default: fit 120 columns)')
    .option('--no-validate', 'skip replaying the references of the tasks to run before the first episode (a broken suite otherwise exits 2)')
    .option(
      '--validation-cache-dir <dir>',
      'where tasks whose references passed are remembered, keyed by task content and harness, so the next run does not replay them (default: .stratbench-cache/validation)',
    )
    .option('--no-validation-cache', 'replay every reference, neither reading nor writing the validation cache')
    .option(
      '--code-cache-dir <dir>',
      "where the results of the repositories' code runs (test files, eslint, node) are kept by content and harness, so a later run does not run the same code again (default: .stratbench-cache/code-runs)",
    )
    .option('--no-code-cache', 'neither read nor write the code cache: every code run this process has not made itself runs in the sandbox')
    .option(
      '--max-error-rate <share>',
      'exit 4 when more than this share of the episodes ended in an infrastructure error (0.05 or 5%; default 5%)',
      fraction('--max-error-rate'),
    )
    .option(
      '--counterfactual',
      "replay each failed episode once per role, that role played by an oracle on the task's reference and the others replayed from the trace, then each decision of a role that fixed it swapped alone (no model calls); the record keeps which swaps fix it, the decisive decision and whether that agrees with the rules",
    )
    .option('--resume <dir>', 'continue an interrupted run in <dir>: finished episodes are kept, the rest run')
    .option('--shard <i/n>', 'run only slice i of n of the episode matrix (merge the folders with `stratbench merge`)')
    .option(
      '--pairs <list>',
      'strategy pairs the statistics compare, first:second,… (difference = second − first; default: every pair up to 6 strategies, else each against the first)',
      parsePairs,
    )
    .addOption(new Option('--format <format>', 'stdout format').choices(['table', 'json']).default('table'));
  for (const role of ['direct', 'agent', 'planner', 'executor', 'replanner', 'reporter', 'gate'] as const) {
    run.option(`--${role}-model <spec>`, `model for the ${role} role (default: --model)`);
  }
  // Ollama: used by roles whose model is ollama:<model>; preflight checks the server and models before any episode.
  run
    .option('--ollama-host <url>', 'Ollama server, or several separated by commas (default: $OLLAMA_HOST, else http://127.0.0.1:11434)')
    .option(
      '--openai-base-url <url>',
      'OpenAI-compatible server for openai:<model> roles, ending in /v1, or several separated by commas (default: $OPENAI_BASE_URL, else http://127.0.0.1:8000/v1); the key is read from $OPENAI_API_KEY',
    )
    .option(
      '--host-concurrency <n>',
      `with several hosts: model calls in flight per host, 1–${MAX_CONCURRENCY} (default: --concurrency / hosts, rounded up)`,
      boundedInt('--host-concurrency', 1, MAX_CONCURRENCY),
    )
    .addOption(
      new Option('--tool-calling <mode>', "actions as JSON matching the action schema, or through the server's tools field (default: json)").choices([
        'json',
        'native',
      ]),
    )
    .option('--temperature <t>', `sampling temperature of every call, 0–${MAX_TEMPERATURE} (default: 0)`, boundedNumber('--temperature', MAX_TEMPERATURE))
    .option('--num-ctx <tokens>', 'context window in tokens; Ollama truncates prompts beyond it (default: 8192)', boundedInt('--num-ctx', 1, MAX_TOKENS))
    .option('--num-predict <tokens>', 'cap on tokens generated per call, thinking included (default: none)', boundedInt('--num-predict', 1, MAX_TOKENS))
    .option('--think [bool]', 'let thinking models (qwen3) think before replying (default: false)', booleanValue('--think'))
    .option('--keep-alive <duration>', 'how long Ollama keeps the model loaded after a call, e.g. 30m, 1h, -1 (default: 30m)')
    .option(
      '--timeout-ms <ms>',
      'abort a model call after this many ms (infrastructure error, retried; default: none)',
      boundedInt('--timeout-ms', 1, MAX_TIMEOUT_MS),
    )
    .option('--cache', 'store Ollama replies on disk and reuse them (key: model digest, messages, schema, options, epoch)')
    .option('--cache-dir <dir>', `response cache folder; implies --cache (default: ${DEFAULT_CACHE_DIR})`);
  run
    .option(
      '--judge <spec>',
      "model that grades the suite's judged checks: scripted (a deterministic rule, not a measure of quality), ollama:<model>, openai:<model>; needed when a task has one",
    )
    .option(
      '--calibration-dir <dir>',
      "where judge-check keeps its measurements, read to record the judge's calibration in run.json (default: .stratbench-cache/judge-calibration)",
    );
  run.option(
    '--strategy-module <path>',
    "a module defining a strategy (export default defineStrategy({ name, roles, run }) from 'stratbench'), repeatable; .js/.mjs, or .ts through jiti; its name joins --strategies",
    (value: string, previous: string[] = []) => [...previous, value],
  );
  run
    .option(
      '--agent-cmd <command>',
      'an agent process to run once per episode (with /bin/sh): it works through an MCP server (STRATBENCH_MCP_URL) and a recording model proxy (OPENAI_BASE_URL, OLLAMA_HOST) and ends with its finish/stop tool; see docs/extending.md',
    )
    .option('--agent-name <name>', 'the strategy name of the --agent-cmd agent in tables and --strategies (default: external)')
    .option('--agent-max-tool-calls <n>', "the agent's tool-call budget per episode, enforced at the MCP server (default 12, ReAct's)")
    .option('--agent-max-model-calls <n>', "the agent's model-call budget per episode, enforced at the proxy (default 24)")
    .option('--agent-deadline-ms <ms>', "the agent's wall-clock deadline per episode, ms; its process group is killed then (default 120000)");
  run.option(
    '--role-option <role.key=value>',
    'an option for one role, repeatable: temperature, num_ctx, num_predict, think, keep_alive, timeout_ms (e.g. planner.num_ctx=16384)',
    (value: string, previous: string[] = []) => [...previous, value],
  );
  for (const role of ['direct', 'agent', 'planner', 'executor', 'replanner', 'reporter', 'gate'] as const) {
    run.option(`--${role}-think [bool]`, `--think for the ${role} role only`, booleanValue(`--${role}-think`));
  }
  run.action(async (options: Record<string, unknown>, command: Command) => {
    const explicit = new Set(Object.keys(options).filter((name) => command.getOptionValueSource(name) === 'cli'));
    const { runCommand } = await import('./runner/commands/run.js');
    process.exitCode = await runCommand(options, explicit);
  });

  const cache = cli.command('cache').description('Manage the on-disk caches: the replies of --cache, and the validation and code caches of run and validate.');
  cache
    .command('clear')
    .description('Delete every cached reply in the cache folder and every file of the validation and code caches (other files are left alone).')
    .option('--cache-dir <dir>', 'response cache folder', DEFAULT_CACHE_DIR)
    .option('--validation-cache-dir <dir>', 'validation cache folder (default: validation/ inside --cache-dir)')
    .option('--code-cache-dir <dir>', 'code cache folder (default: code-runs/ inside --cache-dir)')
    .action(async (options: { cacheDir: string; validationCacheDir?: string; codeCacheDir?: string }) => {
      const { cacheClearCommand } = await import('./runner/commands/cache-clear.js');
      process.exitCode = await cacheClearCommand(options);
    });

  cli
    .command('validate')
    .description(
      'Load a suite (schema errors as file:line:col), then replay every reference (must succeed), the untouched repository (a do-nothing agent: must fail), every counterexample (must fail) and the naive trajectory (informational).',
    )
    .argument('[suite]', 'task suite (YAML)', DEFAULT_SUITE)
    .option('--json', "print one JSON document (per task, every trajectory's result and failing checks) instead of lines")
    .option('--wide', 'print every ok line in full (default: cut at 120 columns; FAIL lines are always whole)')
    .option(
      '--prompts <dir>',
      "role prompt templates checked for contamination: a warning for each that shares 12 consecutive words, or a plan's tool calls, with a task",
      DEFAULT_PROMPTS,
    )
    .option(
      '--validation-cache-dir <dir>',
      "where the tasks whose reference passes and whose untouched repository fails are recorded, for run's check (default: .stratbench-cache/validation)",
    )
    .option('--code-cache-dir <dir>', "where the results of the repositories' code runs are kept between runs (default: .stratbench-cache/code-runs)")
    .option('--no-code-cache', 'neither read nor write the code cache')
    .action(
      async (
        suite: string,
        options: { json?: boolean; prompts?: string; wide?: boolean; validationCacheDir?: string; codeCacheDir?: string; codeCache?: boolean },
      ) => {
        const { validateCommand } = await import('./runner/commands/validate.js');
        process.exitCode = await validateCommand(suite, options);
      },
    );

  cli
    .command('judge-check')
    .description(
      "Grade a suite's labelled answers (<suite>.judge-answers.yaml) with a judge and print, per rubric and overall, n, agreement, Cohen's κ (± SE, 95% CI), false passes and false fails; the measurement is kept for run --judge to record.",
    )
    .option('--suite <file>', 'task suite (YAML) with judged checks', DEFAULT_SUITE)
    .requiredOption('--judge <spec>', 'the judge: scripted, ollama:<model>, openai:<model>')
    .option('--answers <file>', 'labelled answer set (default: the suite file name with .judge-answers.yaml)')
    .option('--json', 'print one JSON document instead of lines')
    .option('--prompts <dir>', 'folder holding judge.md (default: the shipped prompts)', DEFAULT_PROMPTS)
    .option('--calibration-dir <dir>', 'where the measurement is kept (default: .stratbench-cache/judge-calibration)')
    .option('--no-record', 'do not keep the measurement')
    .option('--ollama-host <url>', 'Ollama server (default: $OLLAMA_HOST, else http://127.0.0.1:11434)')
    .option('--openai-base-url <url>', 'OpenAI-compatible server, ending in /v1 (default: $OPENAI_BASE_URL, else http://127.0.0.1:8000/v1)')
    .option('--timeout-ms <ms>', 'abort a judge call after this many ms (infrastructure error)', boundedInt('--timeout-ms', 1, MAX_TIMEOUT_MS))
    .action(async (options: Record<string, unknown>) => {
      const { judgeCheckCommand } = await import('./runner/commands/judge-check.js');
      process.exitCode = await judgeCheckCommand(options);
    });

  cli
    .command('check-strategy')
    .description(
      "Run the contract every built-in strategy meets on a strategy module's strategies (scripted model, a reply that never parses, a server that is down, the core suite): one line per clause; exit 0 when all hold, 1 when one does not, 2 for a module that does not load.",
    )
    .argument('<path>', 'the strategy module (.js/.mjs, or .ts through jiti)')
    .option('--suite <file>', 'task suite the clauses run on (default: the core suite)', DEFAULT_SUITE)
    .option('--prompts <dir>', 'folder of role prompt templates', DEFAULT_PROMPTS)
    .option('--json', 'print one JSON document instead of lines')
    .action(async (path: string, options: Record<string, unknown>) => {
      const { checkStrategyCommand } = await import('./runner/commands/check-strategy.js');
      process.exitCode = await checkStrategyCommand(path, {
        suite: String(options['suite']),
        prompts: String(options['prompts']),
        json: options['json'] === true,
      });
    });

  cli
    .command('report')
    .description('Re-print the tables (run, statistics) of a results folder without running anything.')
    .argument('<dir>', 'results folder')
    .option('--markdown <file>', 'also write the report as markdown; "-" prints only the markdown on stdout')
    .option('--json', 'print summary JSON instead of tables')
    .option('--wide', 'print every column, per-group statistics row and failed episode (default: fit 120 columns)')
    .option('--html <file>', 'also write the report as one self-contained HTML file (charts, task × strategy grid, trace viewer)')
    .option('--csv <file>', 'also write one CSV row per episode (as `export --format csv`); "-" prints only the CSV on stdout')
    .option(
      '--pairs <list>',
      'strategy pairs the statistics compare, first:second,… (difference = second − first; default: every pair up to 6 strategies, else each against the first)',
      parsePairs,
    )
    .action(async (dir: string, options: { markdown?: string; json?: boolean; wide?: boolean; html?: string; csv?: string; pairs?: [string, string][] }) => {
      const { reportCommand } = await import('./runner/commands/report.js');
      process.exitCode = await reportCommand(dir, options);
    });

  cli
    .command('export')
    .description(
      'Write a results folder for other tools: csv = one row per episode (keys, ending, success, error kind, costs, attribution, counterfactual, trace command); ' +
        "atif = one Harbor trial folder per episode, <trial>/agent/trajectory.json in Harbor's Agent Trajectory Interchange Format (ATIF-v1.6) with each role call beside it as a subagent trajectory, readable by Harbor, Inspect Scout and Docent.",
    )
    .argument('<dir>', 'results folder')
    .addOption(new Option('--format <format>', 'what to write').choices(['csv', 'atif']).makeOptionMandatory())
    .requiredOption('--out <path>', 'csv: the file ("-" for stdout); atif: a new or empty folder (one <task>__<strategy>__epoch-<n>/agent/ per episode)')
    .action(async (dir: string, options: { format: 'csv' | 'atif'; out: string }) => {
      const { exportCommand } = await import('./runner/commands/export.js');
      process.exitCode = await exportCommand(dir, options);
    });

  cli
    .command('view')
    .description('Write the HTML report into the results folder (report.html) and print its file:// URL; --serve also serves it on 127.0.0.1.')
    .argument('<dir>', 'results folder')
    .option('--serve', 'serve the report on 127.0.0.1 (only) until Ctrl-C')
    .option('--port <n>', 'port for --serve (default: any free port)', integer('--port'))
    .action(async (dir: string, options: { serve?: boolean; port?: number }) => {
      const { viewCommand } = await import('./runner/commands/view.js');
      process.exitCode = await viewCommand(dir, options);
    });

  cli
    .command('compare')
    .description(
      'Compare two results folders (e.g. main vs a PR): changes with intervals, flipped tasks, every configuration difference. As a CI gate (--fail-on-regression): ' +
        'exit 0 no regression, 1 regressed (a significant drop, a stable-pass task now stable-fail, or too many head errors), 3 inconclusive (the comparison could have missed a drop of --min-effect), ' +
        '2 unusable input (including a head lacking base episodes).',
    )
    .argument('<base>', 'results folder of the baseline')
    .argument('<head>', 'results folder to judge')
    .option('--fail-on-regression', 'exit with the verdict: 1 regressed, 3 inconclusive, 0 no regression (without it, 0 unless the input is unusable)')
    .option(
      '--allow-partial',
      "when the head lacks some of the base's strategy × task × epoch episodes, compare the episodes both have (and say so) instead of exiting 2",
    )
    .option(
      '--max-error-rate <share>',
      'the head fails when more of its episodes than this ended in an infrastructure error (0.05 or 5%)',
      fraction('--max-error-rate'),
      0.05,
    )
    .option(
      '--min-effect <share>',
      'the smallest drop in success rate the gate must be able to detect (80% power) to say "no regression"; above it the verdict is inconclusive (0.2 or 20%)',
      fraction('--min-effect'),
      0.2,
    )
    .option('--json', 'print one JSON document { verdict, exitCode, report } instead of tables')
    .option('--wide', 'print every column of the per-strategy table (default: fit 120 columns)')
    .option('--markdown <file>', 'also write the comparison as markdown (CI step summary)')
    .option('--junit <file>', 'also write JUnit XML: one test case per task × strategy')
    .option('--html <file>', 'also write the comparison as one self-contained HTML file (changes, flipped tasks with both traces, configuration)')
    .action(async (base: string, head: string, options: CompareCommandOptions) => {
      const { compareCommand } = await import('./runner/commands/compare.js');
      process.exitCode = await compareCommand(base, head, options);
    });

  cli
    .command('explain')
    .description(
      'Print one episode in order (plan, revisions with diffs, tool calls, checks, the messages each model call was sent) with the attributed events marked.',
    )
    .argument('<results-dir>', 'results folder')
    .argument('<task>', 'task id')
    .argument('<strategy>', 'strategy name')
    .option('--epoch <n>', 'which epoch (default: the first)', boundedInt('--epoch', 0, Number.MAX_SAFE_INTEGER))
    .option('--messages', 'print every message each model call was sent, and its thinking, in full (default: one line each)')
    .action(async (dir: string, task: string, strategy: string, options: { epoch?: number; messages?: boolean }) => {
      const { explainCommand } = await import('./runner/commands/explain.js');
      process.exitCode = await explainCommand(dir, task, strategy, options);
    });

  cli
    .command('power')
    .description(
      'Before spending model time: how many tasks (and families) a paired comparison of two strategies needs to detect --effect percentage points, at epochs 1, 2, 3 and 5; with --tasks n or --suite FILE, the smallest detectable difference instead.',
    )
    .option('--effect <pp>', 'difference in success rate to detect, in percentage points (0–100), e.g. 5')
    .option('--discordance <p>', 'probability that the two strategies disagree on a task in one epoch, in (0, 1] (or estimate it with --from)')
    .option('--alpha <a>', 'two-sided significance level (default: 0.05)')
    .option('--power <p>', 'chance of detecting the effect (default: 0.8)')
    .option('--epochs <k>', 'only this number of epochs per task (default: 1, 2, 3 and 5)')
    .option('--tasks <n>', 'number of tasks: print the minimum detectable effect for n tasks')
    .option('--design-effect <d>', 'Kish design effect of task families (≥ 1; default: 1, or from --suite / --from)')
    .option('--task-correlation <rho>', "share of a task's per-epoch difference variance that is between tasks, 0–1 (default: 0.5, or from --from)")
    .option('--suite <file>', "take the number of tasks and the families' design effect bound from this suite")
    .option('--from <dir>', "estimate discordance, within-task correlation and design effect from this results folder's episodes")
    .option('--json', 'print one JSON document (question, assumptions, rows, notes)')
    .action(async (options: Record<string, string | boolean | undefined>) => {
      const { powerCommand } = await import('./runner/commands/power.js');
      process.exitCode = await powerCommand(options);
    });

  cli
    .command('merge')
    .description(
      'Combine the folders of a sharded run (--shard i/n) into one results folder; refuses different configurations, and episodes found in ' +
        'several folders unless --prefer says which wins. An incomplete result (a shard missing, an interrupted run) is merged and labelled incomplete.',
    )
    .argument('<dirs...>', 'results folders to merge')
    .requiredOption('--out <dir>', 'merged results folder')
    .addOption(
      new Option('--prefer <side>', 'when folders hold the same episode (task × strategy × epoch), keep the one of the first or last folder given').choices([
        'first',
        'last',
      ]),
    )
    .option('--compress', 'write episodes.jsonl.gz (the default when any folder given holds episodes.jsonl.gz)')
    .action(async (dirs: string[], options: { out: string; prefer?: 'first' | 'last'; compress?: boolean }) => {
      const { mergeCommand } = await import('./runner/commands/merge.js');
      process.exitCode = await mergeCommand(dirs, options.out, {
        ...(options.prefer === undefined ? {} : { prefer: options.prefer }),
        ...(options.compress === true ? { compress: true } : {}),
      });
    });

  return cli;
}

async function main(argv: string[]): Promise<number> {
  exitQuietlyOnClosedPipe();
  const code = await runProgram(argv);
  // A refused write to stdout is reported on a later tick: let it arrive before choosing the exit code.
  await new Promise((resolve) => setImmediate(resolve));
  // stdout (or stderr) on a full disk: the command did its work, but what it printed was lost — exit 5, never its own code.
  if (outputFault.code !== undefined) {
    const meaning = (await import('./runner/disk-fault.js')).DiskWriteError;
    const why = new meaning(outputFault.stream ?? 'stdout', outputFault.code).message;
    if (outputFault.stream !== 'stderr') process.stderr.write(`stratbench: the disk refused a write: ${why}\n`);
    return 5;
  }
  return code;
}

async function runProgram(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; every other commander error is a usage error.
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    // ConfigurationError (models/preflight): a model server or model that is not there; matched by name so the
    // Ollama client is only loaded by runs that use it.
    if (error instanceof UsageError || (error instanceof Error && error.name === 'ConfigurationError')) {
      process.stderr.write(`stratbench: ${error.message}\n`);
      return 2;
    }
    // A disk that refuses a write (ENOSPC, EROFS, EIO…) in any command: the file and the errno, not a stack (exit 5).
    const { DISK_FAULT_EXIT_CODE, diskFaultCode, DiskReadError, DiskWriteError } = await import('./runner/disk-fault.js');
    const diskFault = diskFaultCode(error);
    if (error instanceof DiskReadError) {
      process.stderr.write(`stratbench: the disk failed a read: ${error.message}\n`);
      return DISK_FAULT_EXIT_CODE;
    }
    if (diskFault !== undefined) {
      const why = error instanceof DiskWriteError ? error.message : `cannot write ${(error as NodeJS.ErrnoException).path ?? 'a file'}: ${diskFault}`;
      process.stderr.write(`stratbench: the disk refused a write: ${why}\n`);
      return DISK_FAULT_EXIT_CODE;
    }
    process.stderr.write(`stratbench: crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 70;
  }
}

process.exitCode = await main(process.argv);
