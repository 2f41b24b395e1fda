// docs/extending.md's worked strategy module, run exactly as the page shows it (issue 28 §5).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodes, ROOT, scratch, stratbench } from './support/cli.js';

describe('docs/extending.md', () => {
  it("its module passes check-strategy and runs beside react on the core suite's one-read questions", () => {
    const page = readFileSync(join(ROOT, 'docs/extending.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(page)?.[1];
    expect(code).toBeDefined();
    const dir = scratch();
    const module = join(dir, 'plan-as-advice.ts');
    // Outside the package the module imports stratbench by its path (a project would have it installed).
    writeFileSync(module, code!.replaceAll("from 'stratbench'", `from '${join(ROOT, 'dist/index.js')}'`));
    expect(code!.split('\n').length).toBeLessThanOrEqual(60);
    const check = stratbench(['check-strategy', module]);
    expect(check.stdout).toContain('7/7 contract clauses hold for plan-as-advice');
    expect(check.status).toBe(0);
    const out = join(dir, 'run');
    const run = stratbench([
      'run',
      '--strategy-module',
      module,
      '--strategies',
      'plan-as-advice,react',
      '--tasks',
      'default-currency,last-pricing-commit',
      '--out',
      out,
    ]);
    expect(run.status).toBe(0);
    expect(
      episodes(out)
        .map((r) => `${r['task']}|${r['strategy']}|${r['success']}`)
        .sort(),
    ).toEqual([
      'default-currency|plan-as-advice|true',
      'default-currency|react|true',
      'last-pricing-commit|plan-as-advice|true',
      'last-pricing-commit|react|true',
    ]);
  });
});

describe('docs/extending.md, the external agent', () => {
  it('its agent runs with --agent-cmd beside react and solves what react solves', () => {
    const page = readFileSync(join(ROOT, 'docs/extending.md'), 'utf8');
    const code = /```js\n([\s\S]*?)```/.exec(page)?.[1];
    expect(code).toBeDefined();
    // Beside the package's node_modules, as in a project that installed the MCP SDK.
    const dir = mkdtempSync(join(ROOT, 'node_modules', '.docs-agent-'));
    try {
      writeFileSync(join(dir, 'my-agent.mjs'), code!);
      const out = join(scratch(), 'run');
      const run = stratbench([
        'run',
        '--agent-cmd',
        `node ${join(dir, 'my-agent.mjs')}`,
        '--agent-name',
        'my-agent',
        '--strategies',
        'my-agent,react',
        '--tasks',
        'default-currency,rename-tax-rate,payments-sandbox-key',
        '--out',
        out,
      ]);
      expect(run.status).toBe(0);
      expect(
        episodes(out)
          .map((r) => `${r['task']}|${r['strategy']}|${r['success']}`)
          .sort(),
      ).toEqual([
        'default-currency|my-agent|true',
        'default-currency|react|true',
        'payments-sandbox-key|my-agent|true',
        'payments-sandbox-key|react|true',
        'rename-tax-rate|my-agent|true',
        'rename-tax-rate|react|true',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
