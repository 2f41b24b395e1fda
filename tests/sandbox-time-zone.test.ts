// The sandbox's time zone is UTC wherever the harness runs (decision 0049): QuickJS's local-time Date methods read the
// process's zone, so a test of new Date(0).getHours() passed in UTC and failed in Tokyo. An external agent, the
// user's own program, still gets the user's zone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withHostTimeZone } from '../src/sim-repo/index.js';
import { ROOT } from './support/cli.js';

/** Runs a test file reading local time in a fresh process started with `TZ`, through the built SimRepo. */
function localTimeIn(zone: string | undefined): { states: string[]; agentZone: string | null } {
  const script = `
import { RepoSpec, SimRepo, stopCodeWorker, withHostTimeZone } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/sim-repo/index.js')).href)};
const spec = RepoSpec.parse({
  files: { 'tests/tz.test.js': 'import { it, expect } from "vitest";\\nit("hours", () => expect(new Date(0).getHours()).toBe(0));\\nit("string", () => expect(new Date(0).toString()).toContain("GMT+0000"));\\nit("parts", () => expect(new Date(2024, 0, 1).toISOString()).toBe("2024-01-01T00:00:00.000Z"));\\n' },
  devDependencies: { vitest: '^4.1.12' },
  scripts: { test: { kind: 'test', cmd: 'vitest run' } },
});
const states = SimRepo.fromSpec(spec).testResults().tests.map((test) => test.state);
stopCodeWorker();
process.stdout.write(JSON.stringify({ states, agentZone: withHostTimeZone(process.env).TZ ?? null }));
`;
  const env = { ...process.env };
  if (zone === undefined) delete env['TZ'];
  else env['TZ'] = zone;
  // A file, not -e: a worker inherits the process's execArgv, an -e script included.
  const file = join(mkdtempSync(join(tmpdir(), 'sandbox-time-zone-')), 'probe.mjs');
  writeFileSync(file, script);
  const child = spawnSync(process.execPath, [file], { cwd: ROOT, env, encoding: 'utf8' });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as { states: string[]; agentZone: string | null };
}

describe('the sandbox time zone', () => {
  it('is UTC for repository code in every zone, and the agent keeps the user zone', () => {
    for (const zone of ['Asia/Tokyo', 'America/New_York', 'UTC', undefined]) {
      const seen = localTimeIn(zone);
      expect({ zone, states: seen.states }).toEqual({ zone, states: ['passed', 'passed', 'passed'] });
      expect(seen.agentZone).toBe(zone ?? null);
    }
  });

  it('gives back an environment unchanged before any code ran', () => {
    expect(withHostTimeZone({ TZ: 'Asia/Tokyo', A: '1' })).toEqual({ TZ: 'Asia/Tokyo', A: '1' });
  });
});
