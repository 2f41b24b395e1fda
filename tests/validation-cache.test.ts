// The validation cache (issue 32 §3): a task that passed run's reference check under the same harness is not replayed;
// a changed task, a broken one, another harness, a corrupt or unwritable cache never give a false pass or a crash.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReferencesCached, type ReferenceCacheOptions } from '../src/runner/run-checks.js';
import { harnessIdentity, type HarnessIdentity } from '../src/runner/harness-identity.js';
import { NODE_CACHE_FILES, validationCacheFile, type CacheFiles } from '../src/runner/validation-cache.js';
import { UsageError } from '../src/runner/usage-error.js';
import { parseSuite, type LoadedTask } from '../src/suite/load-suite.js';
import { taskDigests } from '../src/suite/task-digest.js';
import { scratch, stratbench } from './support/cli.js';

const HARNESS: HarnessIdentity = { version: '0.1.0', node: 'v20.0.0', code: 'a'.repeat(64), dependencies: { eslint: '9.39.1' } };

/** Two tasks on one fixture; `answers` are what each reference finishes with (the check wants "hello"). */
function suiteText(answers: { one: string; two: string }, fileText = 'hello'): string {
  const task = (id: string, answer: string) => [
    `  - id: ${id}`,
    '    group: g',
    '    prompt: What does a.txt say?',
    '    repo: {fixture: f}',
    '    expect: finish',
    '    checks: [{check: answer_contains, text: hello}]',
    `    reference: {steps: [{tool: read, args: {path: a.txt}}], finish: ${answer}}`,
  ];
  return ['name: cached', 'fixtures:', `  f: {files: {"a.txt": "${fileText}"}}`, 'tasks:', ...task('one', answers.one), ...task('two', answers.two), ''].join(
    '\n',
  );
}

function tasksOf(text: string): LoadedTask[] {
  const loaded = parseSuite(text, 'suite.yaml');
  if (!loaded.ok) throw new Error(loaded.errors.map((error) => error.message).join('\n'));
  return loaded.tasks;
}

/** A cache in a fresh folder with the fixed harness, its warnings collected. */
function cacheOptions(overrides: Partial<ReferenceCacheOptions> = {}): ReferenceCacheOptions & { warnings: string[] } {
  const warnings: string[] = [];
  return { cacheDir: join(scratch(), 'validation'), harness: HARNESS, warn: (line) => warnings.push(line), warnings, ...overrides };
}

const counts = (validation: { mode: string; replayed: number; cached: number }) => ({
  mode: validation.mode,
  replayed: validation.replayed,
  cached: validation.cached,
});

describe('the validation cache', () => {
  const good = tasksOf(suiteText({ one: 'hello', two: 'hello' }));

  it('replays every task the first time and serves them from the cache the second; a subset reuses the entries', async () => {
    const options = cacheOptions();
    expect(counts(await checkReferencesCached(good, 'suite.yaml', options))).toEqual({ mode: 'replayed', replayed: 2, cached: 0 });
    expect(counts(await checkReferencesCached(good, 'suite.yaml', options))).toEqual({ mode: 'cached', replayed: 0, cached: 2 });
    expect(counts(await checkReferencesCached(good.slice(1), 'suite.yaml', options))).toEqual({ mode: 'cached', replayed: 0, cached: 1 });
    const file = JSON.parse(readFileSync(validationCacheFile(options.cacheDir as string, HARNESS), 'utf8')) as { passed: Record<string, string> };
    expect(Object.values(file.passed).sort()).toEqual(['one', 'two']);
    expect(options.warnings).toEqual([]);
  });

  it('replays a task edited after it was cached, and fails it when its reference no longer scores success', async () => {
    const options = cacheOptions();
    await checkReferencesCached(good, 'suite.yaml', options);
    const edited = tasksOf(suiteText({ one: 'hello', two: 'goodbye' }));
    const error = await checkReferencesCached(edited, 'suite.yaml', options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('the reference of 1 task(s) does not score success');
    expect((error as Error).message).toMatch(/ {2}two: answer_contains: /);
    // Still broken the next time: a failing task is never cached.
    await expect(checkReferencesCached(edited, 'suite.yaml', options)).rejects.toThrow(/ {2}two: answer_contains: /);
    // The unchanged task was served from the cache both times; the edited one replayed: the partial result says so.
    expect(counts(await checkReferencesCached(edited.slice(0, 1), 'suite.yaml', options))).toEqual({ mode: 'cached', replayed: 0, cached: 1 });
  });

  it('replays a task whose fixture file changed (the digest covers the resolved repository, not the task text)', async () => {
    const options = cacheOptions();
    await checkReferencesCached(good, 'suite.yaml', options);
    const otherFile = tasksOf(suiteText({ one: 'hello', two: 'hello' }, 'goodbye'));
    expect(counts(await checkReferencesCached(otherFile, 'suite.yaml', options))).toEqual({ mode: 'replayed', replayed: 2, cached: 0 });
  });

  it('caches the passing tasks of a broken suite and fails it every time', async () => {
    const options = cacheOptions();
    const broken = tasksOf(suiteText({ one: 'hello', two: 'goodbye' }));
    await expect(checkReferencesCached(broken, 'suite.yaml', options)).rejects.toThrow(UsageError);
    await expect(checkReferencesCached(broken, 'suite.yaml', options)).rejects.toThrow(UsageError);
    const file = JSON.parse(readFileSync(validationCacheFile(options.cacheDir as string, HARNESS), 'utf8')) as { passed: Record<string, string> };
    expect(Object.values(file.passed)).toEqual(['one']);
  });

  it('misses under another harness: a rebuilt code hash at the same version, another Node or another dependency', async () => {
    const options = cacheOptions();
    await checkReferencesCached(good, 'suite.yaml', options);
    for (const harness of [
      { ...HARNESS, code: 'b'.repeat(64) },
      { ...HARNESS, node: 'v22.0.0' },
      { ...HARNESS, dependencies: { eslint: '9.40.0' } },
    ]) {
      expect(counts(await checkReferencesCached(good, 'suite.yaml', { ...options, harness }))).toEqual({ mode: 'replayed', replayed: 2, cached: 0 });
    }
    expect(counts(await checkReferencesCached(good, 'suite.yaml', options))).toEqual({ mode: 'cached', replayed: 0, cached: 2 });
  });

  it('ignores a corrupt cache file with one warning, replays, and rewrites it', async () => {
    for (const garbage of ['{"format": 1, "harn', '[]', JSON.stringify({ format: 1, harness_digest: 'x', passed: {} }), '{"format": 9}']) {
      const options = cacheOptions();
      mkdirSync(options.cacheDir as string, { recursive: true });
      const file = validationCacheFile(options.cacheDir as string, HARNESS);
      writeFileSync(file, garbage);
      expect(counts(await checkReferencesCached(good, 'suite.yaml', options))).toEqual({ mode: 'replayed', replayed: 2, cached: 0 });
      expect(options.warnings).toHaveLength(1);
      expect(options.warnings[0]).toMatch(new RegExp(`^warning: ignoring the validation cache ${file} \\(.+\\); every task's reference is replayed`));
      expect(counts(await checkReferencesCached(good, 'suite.yaml', options))).toEqual({ mode: 'cached', replayed: 0, cached: 2 });
      expect(options.warnings).toHaveLength(1);
    }
  });

  it('a forged entry under a wrong digest serves nothing: a broken task still fails', async () => {
    const options = cacheOptions();
    const broken = tasksOf(suiteText({ one: 'hello', two: 'goodbye' }));
    await expect(checkReferencesCached(broken, 'suite.yaml', options)).rejects.toThrow(UsageError);
    const file = validationCacheFile(options.cacheDir as string, HARNESS);
    const content = JSON.parse(readFileSync(file, 'utf8')) as { passed: Record<string, string> };
    content.passed['f'.repeat(64)] = 'two';
    writeFileSync(file, JSON.stringify(content));
    await expect(checkReferencesCached(broken, 'suite.yaml', options)).rejects.toThrow(/ {2}two: answer_contains: /);
  });

  it('an unreadable cache file (a folder in its place) costs a warning for the read and one for the write, never the run', async () => {
    const options = cacheOptions();
    mkdirSync(validationCacheFile(options.cacheDir as string, HARNESS), { recursive: true });
    expect(counts(await checkReferencesCached(good, 'suite.yaml', options))).toEqual({ mode: 'replayed', replayed: 2, cached: 0 });
    expect(options.warnings).toEqual([
      expect.stringMatching(/^warning: ignoring the validation cache .+ \(cannot read it: EISDIR\)/),
      expect.stringMatching(/^warning: cannot write the validation cache .+ \(EISDIR\); the run goes on/),
    ]);
  });

  it('a read-only cache folder does not fail the run: one warning, and the tasks are replayed', async () => {
    const readOnly: CacheFiles = {
      ...NODE_CACHE_FILES,
      writeFile: () => Promise.reject(Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' })),
    };
    const options = cacheOptions({ files: readOnly });
    expect(counts(await checkReferencesCached(good, 'suite.yaml', options))).toEqual({ mode: 'replayed', replayed: 2, cached: 0 });
    expect(options.warnings).toEqual([expect.stringMatching(/^warning: cannot write the validation cache .+ \(EROFS\); the run goes on/)]);
    expect(counts(await checkReferencesCached(good, 'suite.yaml', options))).toEqual({ mode: 'replayed', replayed: 2, cached: 0 });
    // A folder that cannot be made (its parent is a file) is the same.
    const parentFile = join(scratch(), 'file');
    writeFileSync(parentFile, '');
    const blocked = cacheOptions({ cacheDir: join(parentFile, 'validation') });
    expect(counts(await checkReferencesCached(good, 'suite.yaml', blocked))).toEqual({ mode: 'replayed', replayed: 2, cached: 0 });
    expect(blocked.warnings).toEqual([expect.stringMatching(/^warning: cannot write the validation cache /)]);
  });

  it('without a cache folder (--no-validation-cache) replays and writes nothing', async () => {
    const options = cacheOptions({ cacheDir: null });
    expect(await checkReferencesCached(good, 'suite.yaml', options)).toEqual({
      mode: 'replayed',
      replayed: 2,
      cached: 0,
      ms: expect.any(Number),
      cache_dir: null,
      harness: null,
    });
  });
});

describe('task digests', () => {
  it('differ for a changed id, answer or fixture file, and not for a reordered mapping', () => {
    const [one, two] = taskDigests(tasksOf(suiteText({ one: 'hello', two: 'hello' })));
    expect(one).not.toBe(two);
    expect(taskDigests(tasksOf(suiteText({ one: 'hello', two: 'hello' })))).toEqual([one, two]);
    expect(taskDigests(tasksOf(suiteText({ one: 'hello', two: 'hello!' })))).toEqual([one, expect.not.stringMatching(two as string)]);
    const longFile = 'x'.repeat(300);
    const [withLong] = taskDigests(tasksOf(suiteText({ one: 'hello', two: 'hello' }, longFile)));
    const [withOtherLong] = taskDigests(tasksOf(suiteText({ one: 'hello', two: 'hello' }, `${longFile}y`)));
    expect(new Set([one, withLong, withOtherLong]).size).toBe(3);
    const reordered = suiteText({ one: 'hello', two: 'hello' }).replace(
      '    prompt: What does a.txt say?\n    repo: {fixture: f}',
      '    repo: {fixture: f}\n    prompt: What does a.txt say?',
    );
    expect(taskDigests(tasksOf(reordered))[0]).toBe(one);
  });
});

describe('the harness identity', () => {
  it("hashes the code root's code files and the sandbox bundle: one changed byte changes it at the same version", async () => {
    const root = scratch();
    mkdirSync(join(root, 'dist', 'scoring'), { recursive: true });
    writeFileSync(join(root, 'package.json'), JSON.stringify({ version: '1.2.3', dependencies: { 'not-installed-anywhere-x': '1.0.0' } }));
    writeFileSync(join(root, 'dist', 'scoring', 'checks.js'), 'export const pass = true;\n');
    writeFileSync(join(root, 'dist', 'scoring', 'checks.d.ts'), 'export declare const pass: boolean;\n');
    writeFileSync(join(root, 'dist', 'sandbox-vitest-libraries.js'), 'globalThis.x = 1;\n');
    const location = { codeRoot: join(root, 'dist'), packageRoot: root };
    const first = await harnessIdentity(location);
    expect(first).toEqual({
      version: '1.2.3',
      node: process.version,
      code: expect.stringMatching(/^[0-9a-f]{64}$/),
      dependencies: { 'not-installed-anywhere-x': 'missing' },
    });
    expect((await harnessIdentity(location)).code).toBe(first.code);
    writeFileSync(join(root, 'dist', 'scoring', 'checks.d.ts'), 'export declare const pass: true;\n');
    expect((await harnessIdentity(location)).code).toBe(first.code);
    writeFileSync(join(root, 'dist', 'scoring', 'checks.js'), 'export const pass = false;\n');
    const edited = await harnessIdentity(location);
    expect(edited.version).toBe('1.2.3');
    expect(edited.code).not.toBe(first.code);
    writeFileSync(join(root, 'dist', 'sandbox-vitest-libraries.js'), 'globalThis.x = 2;\n');
    expect((await harnessIdentity(location)).code).not.toBe(edited.code);
    // From src/ (tsx, vitest), the bundle in dist/ is hashed too.
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.ts'), 'export {};\n');
    const fromSource = { codeRoot: join(root, 'src'), packageRoot: root };
    const before = (await harnessIdentity(fromSource)).code;
    writeFileSync(join(root, 'dist', 'sandbox-vitest-libraries.js'), 'globalThis.x = 3;\n');
    expect((await harnessIdentity(fromSource)).code).not.toBe(before);
    expect(readdirSync(root).sort()).toEqual(['dist', 'package.json', 'src']);
  });
});

describe('run and validate with the validation cache (the built CLI)', () => {
  const runJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { validation?: Record<string, unknown> };
  const suiteFile = (): string => {
    const path = join(scratch(), 'suite.yaml');
    writeFileSync(path, suiteText({ one: 'hello', two: 'hello' }));
    return path;
  };
  const run = (suite: string, cacheDir: string, ...flags: string[]) => {
    const out = join(scratch(), 'out');
    const result = stratbench(['run', '--suite', suite, '--strategies', 'direct', '--out', out, '--no-progress', '--validation-cache-dir', cacheDir, ...flags]);
    expect(result.status, result.stderr).toBe(0);
    return { out, stderr: result.stderr };
  };

  it('records in run.json and under the matrix whether the references were replayed or served from the cache', () => {
    const suite = suiteFile();
    const cacheDir = join(scratch(), 'validation');
    const first = run(suite, cacheDir);
    expect(runJson(first.out).validation).toEqual({
      mode: 'replayed',
      replayed: 2,
      cached: 0,
      ms: expect.any(Number),
      cache_dir: cacheDir,
      harness: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(first.stderr.split('\n')[2]).toMatch(new RegExp(`^ {2}references: 2 tasks replayed \\(\\d+\\.\\d s; cache: ${cacheDir}\\)$`));
    const second = run(suite, cacheDir);
    expect(runJson(second.out).validation).toMatchObject({ mode: 'cached', replayed: 0, cached: 2, cache_dir: cacheDir });
    expect(second.stderr.split('\n')[2]).toMatch(new RegExp(`^ {2}references: 2 tasks served from the validation cache ${cacheDir} \\(\\d+\\.\\d s\\)$`));
    const subset = run(suite, cacheDir, '--tasks', 'two');
    expect(runJson(subset.out).validation).toMatchObject({ mode: 'cached', replayed: 0, cached: 1 });
  });

  it('--no-validate skips and --no-validation-cache replays, neither touching the cache folder', () => {
    const suite = suiteFile();
    const cacheDir = join(scratch(), 'validation');
    expect(runJson(run(suite, cacheDir, '--no-validate').out).validation).toEqual({
      mode: 'skipped',
      replayed: 0,
      cached: 0,
      ms: 0,
      cache_dir: null,
      harness: null,
    });
    expect(runJson(run(suite, cacheDir, '--no-validation-cache').out).validation).toMatchObject({ mode: 'replayed', replayed: 2, cache_dir: null });
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('validate records what passes for the next run; a broken suite exits 2 on every run; cache clear empties it', () => {
    const suite = suiteFile();
    const cacheDir = join(scratch(), 'validation');
    expect(stratbench(['validate', suite, '--validation-cache-dir', cacheDir]).status).toBe(0);
    expect(runJson(run(suite, cacheDir).out).validation).toMatchObject({ mode: 'cached', cached: 2 });
    writeFileSync(suite, suiteText({ one: 'hello', two: 'goodbye' }));
    for (let attempt = 0; attempt < 2; attempt++) {
      const broken = stratbench(['run', '--suite', suite, '--strategies', 'direct', '--out', join(scratch(), 'o'), '--validation-cache-dir', cacheDir]);
      expect(broken.status).toBe(2);
      expect(broken.stderr).toMatch(/ {2}two: answer_contains: /);
    }
    const responses = join(scratch(), 'responses');
    const cleared = stratbench(['cache', 'clear', '--cache-dir', responses, '--validation-cache-dir', cacheDir]);
    expect(cleared.stdout).toBe(`removed 0 cached replies from ${responses}\nremoved 1 validation cache file from ${cacheDir}\n`);
    expect(readdirSync(cacheDir)).toEqual([]);
  });
});
