// Helpers for tests that run the built CLI (dist/cli.js) as a child process.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `stratbench <args>` to completion. */
export function stratbench(args: string[], cwd = ROOT): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `stratbench <args>` without waiting. */
export function startStratbench(args: string[]) {
  return spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function scratch(prefix = 'stratbench-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The episodes file's text: episodes.jsonl, or episodes.jsonl.gz decompressed (`run --compress`). */
export function episodesText(dir: string): string {
  const compressed = join(dir, 'episodes.jsonl.gz');
  return existsSync(compressed) ? gunzipSync(readFileSync(compressed)).toString('utf8') : readFileSync(join(dir, 'episodes.jsonl'), 'utf8');
}

/** episodes.jsonl (or episodes.jsonl.gz) lines parsed, with the one wall-clock field removed. */
export function episodes(dir: string): Array<Record<string, unknown>> {
  return episodesText(dir)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const { wall_ms: _wall, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    });
}
