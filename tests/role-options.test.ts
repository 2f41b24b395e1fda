// Per-role Ollama options: --role-option ROLE.KEY=VALUE parsed, validated and merged over the run's options.
import { describe, expect, it } from 'vitest';
import { ollamaRunConfig, roleChatOptions } from '../src/runner/ollama-setup.js';
import { parseRoleOptions } from '../src/runner/role-options.js';
import { UsageError } from '../src/runner/usage-error.js';

describe('--role-option', () => {
  it('sets options for one role over the run-wide ones', () => {
    const config = ollamaRunConfig(
      { numCtx: 8192, roleOption: ['planner.num_ctx=16384', 'planner.think=true', 'executor.temperature=0.2', 'executor.keep_alive=-1'] },
      {},
    );
    expect(roleChatOptions(config, 'planner')).toMatchObject({ num_ctx: 16384, think: true, temperature: 0 });
    expect(roleChatOptions(config, 'executor')).toMatchObject({ num_ctx: 8192, temperature: 0.2, keep_alive: -1 });
    expect(roleChatOptions(config, 'reporter')).toMatchObject({ num_ctx: 8192, think: false });
  });

  it.each(['wizard.num_ctx=1', 'planner.colour=red', 'planner.num_ctx=lots', 'planner.think=maybe', 'planner'])('rejects %s', (value) => {
    expect(() => parseRoleOptions([value])).toThrow(UsageError);
  });

  it('bounds timeout_ms as --timeout-ms: a whole number of ms from 1 to one day (a longer timer would fire at once)', () => {
    expect(parseRoleOptions(['planner.timeout_ms=86400000'])).toEqual({ planner: { timeout_ms: 86_400_000 } });
    for (const value of ['0', '86400001', '4294967296', '1.5']) {
      expect(() => parseRoleOptions([`planner.timeout_ms=${value}`])).toThrow(
        `--role-option planner.timeout_ms takes a whole number of ms from 1 to 86400000, got "${value}"`,
      );
    }
  });
});
