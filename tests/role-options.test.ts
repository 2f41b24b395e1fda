// Per-role Ollama options: --role-option ROLE.KEY=VALUE parsed, validated and merged over the run's options.
import { describe, expect, it } from 'vitest';
import { ollamaRunConfig, parseRoleOptions, roleChatOptions } from '../src/runner/ollama-setup.js';
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
});
