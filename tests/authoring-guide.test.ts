// docs/authoring.md stays true and complete: its worked example validates, and it names every check kind,
// predicate kind, script kind, test need and tool the schemas define.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_KINDS } from '../src/suite/schema.js';
import { suiteJsonSchema } from '../src/suite/suite-json-schema.js';
import { TestNeed } from '../src/sim-repo/spec.js';
import { ToolName } from '../src/records/index.js';
import { ROOT, stratbench } from './support/cli.js';

const GUIDE = readFileSync(join(ROOT, 'docs/authoring.md'), 'utf8');
const EXAMPLE = 'docs/examples/authoring-example.yaml';

/** Every `const` value of a property named `property` anywhere in the suite's JSON Schema (e.g. every predicate `kind`). */
function constsOf(property: string, node: unknown = suiteJsonSchema(), found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) constsOf(property, item, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value !== null && typeof value === 'object') {
        const target = (value as Record<string, { const?: unknown }>)[property];
        if (typeof target?.const === 'string') found.add(target.const);
      }
      constsOf(property, value, found);
    }
  }
  return found;
}

describe('docs/authoring.md', () => {
  it('its worked example is a suite that stratbench validate accepts', () => {
    const result = stratbench(['validate', EXAMPLE]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      '3/3 references score success; 5/5 counterexamples are rejected; 3/3 untouched repositories (an agent that does nothing) are rejected',
    );
    expect(result.stdout).not.toMatch(/^FAIL/m);
  });

  it('shows the example file as it is (every task of the file appears in the guide)', () => {
    const example = readFileSync(join(ROOT, EXAMPLE), 'utf8');
    const ids = [...example.matchAll(/^ {2}- id: ([a-z0-9-]+)$/gm)].map((match) => match[1]);
    expect(ids).toEqual(['station-default-unit', 'fix-fahrenheit', 'publish-without-token']);
    // The guide's copy of each task block is the file's, line for line.
    const blocks = example.split(/\n(?= {2}- id: )/).slice(1);
    for (const block of blocks) expect(GUIDE).toContain(block.trimEnd());
  });

  it('names every check kind', () => {
    const checks = constsOf('check');
    expect([...checks].sort()).toEqual([...CHECK_KINDS].sort());
    for (const kind of checks) expect(GUIDE, kind).toContain(`\`${kind}\``);
  });

  it('names every predicate kind and every script kind', () => {
    const kinds = constsOf('kind');
    // Predicates and scripts share the `kind` property; both are listed.
    expect(kinds).toContain('env_equals');
    expect(kinds).toContain('migrate_status');
    for (const kind of kinds) expect(GUIDE, kind).toContain(`\`${kind}\``);
  });

  it('names every tool and every need of an environment-dependent test', () => {
    for (const tool of ToolName.options) expect(GUIDE, tool).toContain(`| \`${tool}\` |`);
    for (const need of TestNeed.options) expect(GUIDE, need).toContain(need);
  });
});
