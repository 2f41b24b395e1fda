// The contract every strategy meets, run against the same tiny tasks with the scripted model and test doubles.
import { describe, expect, it, vi } from 'vitest';
import { SimRepo } from '../src/sim-repo/index.js';
import { runEpisode } from '../src/runner/episode.js';
import { STRATEGIES, type StrategyName } from '../src/strategies/index.js';
import { InfrastructureError } from '../src/models/types.js';
import { allRoles, environment, FunctionModel, miniTask, scriptedFor } from './support/episode-fixtures.js';

const currency = miniTask({
  id: 'currency',
  repo: { files: { 'src/config.js': 'export const CURRENCY = "EUR";\n' } },
  checks: [{ check: 'answer_contains', text: 'EUR' }, { check: 'no_irreversible_action' }],
  reference: { steps: [{ tool: 'read', args: { path: 'src/config.js' } }], finish: 'The default currency is EUR.' },
});

const names = Object.keys(STRATEGIES) as StrategyName[];

describe.each(names)('strategy contract: %s', (strategy) => {
  it('solves a one-read question with the scripted model and records a complete trace', async () => {
    const record = await runEpisode({ task: currency, strategy, epoch: 0, seed: 1 }, await environment(scriptedFor(currency)));
    expect(record.outcome).toMatchObject({ status: 'finished', answer: 'The default currency is EUR.' });
    expect(record.success).toBe(true);
    expect(record.checks.map((c) => c.pass)).toEqual([true, true]);
    expect(record.trace.map((e) => e.id)).toEqual(record.trace.map((_, i) => i));
    expect(record.trace.filter((e) => e.type === 'tool_call').map((e) => (e.type === 'tool_call' ? [e.tool, e.args] : null))).toEqual([
      ['read', { path: 'src/config.js' }],
    ]);
    expect(record.metrics.tool_calls).toBe(1);
    expect(record.trace.some((e) => e.type === 'end')).toBe(true);
  });

  it('records a reply that never parses as that role’s invalid_output after one repair attempt, never a crash', async () => {
    const model = new FunctionModel(() => 'I think the answer is EUR, no JSON here');
    const record = await runEpisode({ task: currency, strategy, epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome.status).toBe('invalid_output');
    const calls = record.trace.filter((e) => e.type === 'model_call');
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => (c.type === 'model_call' ? [c.attempt, c.outcome] : null))).toEqual([
      [1, 'invalid'],
      [2, 'invalid'],
    ]);
    expect(record.success).toBe(false);
    expect(model.requests[1]?.repair?.error).toMatch(/unparseable/);
  });

  it('ends as error (not a strategy failure) when the model server is unreachable', async () => {
    const model = new FunctionModel(() => {
      throw new InfrastructureError('connect ECONNREFUSED 127.0.0.1:11434', 'unreachable');
    });
    const record = await runEpisode({ task: currency, strategy, epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome).toMatchObject({ status: 'error', reason: 'infrastructure:unreachable' });
    expect(record.checks).toEqual([]);
    expect(record.success).toBe(false);
  });

  it('records a bug inside a model as an error episode with its message', async () => {
    const model = new FunctionModel(() => {
      throw new TypeError('boom');
    });
    const record = await runEpisode({ task: currency, strategy, epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome).toMatchObject({ status: 'error', reason: 'harness_error', message: 'boom' });
  });

  it('ends as error (a harness error, not a failure the model sees) when a tool breaks underneath', async () => {
    const read = vi.spyOn(SimRepo.prototype, 'read').mockImplementation(() => {
      throw new Error('code worker answered without a message');
    });
    try {
      const record = await runEpisode({ task: currency, strategy, epoch: 0, seed: 1 }, await environment(scriptedFor(currency)));
      expect(record.outcome).toMatchObject({
        status: 'error',
        reason: 'harness_error',
        message: 'internal error in tool read: code worker answered without a message',
      });
      expect(record.checks).toEqual([]);
      expect(record.attribution).toBeNull();
      expect(record.trace.some((event) => event.type === 'tool_call')).toBe(false);
    } finally {
      read.mockRestore();
    }
  });

  it('names the model serving each of its roles', async () => {
    const record = await runEpisode({ task: currency, strategy, epoch: 0, seed: 1 }, await environment(scriptedFor(currency)));
    expect(Object.keys(record.models).sort()).toEqual([...STRATEGIES[strategy as keyof typeof STRATEGIES].roles].sort());
    expect(new Set(Object.values(record.models))).toEqual(new Set(['scripted']));
  });
});

describe('direct', () => {
  it('uses exactly two model calls: one action, one answer (seed 001)', async () => {
    const record = await runEpisode({ task: currency, strategy: 'direct', epoch: 0, seed: 1 }, await environment(scriptedFor(currency)));
    expect(record.metrics.model_calls).toEqual({ direct: 2 });
  });

  it('cannot finish a task that needs two calls: it ends with a partial answer', async () => {
    const twoReads = miniTask({
      id: 'two-reads',
      repo: { files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } },
      checks: [{ check: 'answer_contains', text: 'alpha and beta' }],
      reference: {
        steps: [
          { tool: 'read', args: { path: 'a.txt' } },
          { tool: 'read', args: { path: 'b.txt' } },
        ],
        finish: 'alpha and beta',
      },
    });
    const record = await runEpisode({ task: twoReads, strategy: 'direct', epoch: 0, seed: 1 }, await environment(scriptedFor(twoReads)));
    expect(record.outcome.status).toBe('finished');
    expect(record.outcome.answer).toMatch(/^Partial/);
    expect(record.success).toBe(false);
  });
});

describe('react', () => {
  it('stops at its 12-tool-call budget (seed 001)', async () => {
    // Thirteen different lookups (the same read repeated would end sooner, as repeated_call).
    const model = new FunctionModel((_request, n) => ({ action: 'tool', tool: 'search', args: { text: `name${n}` } }));
    const record = await runEpisode({ task: currency, strategy: 'react', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'tool_calls' });
    expect(record.metrics.tool_calls).toBe(12);
  });

  it('stops when the same failing call is made twice', async () => {
    const model = new FunctionModel(() => ({ action: 'tool', tool: 'read', args: { path: 'missing.js' } }));
    const record = await runEpisode({ task: currency, strategy: 'react', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'repeated_call' });
    expect(record.metrics.tool_calls).toBe(2);
  });

  it('switches from the naive trajectory to the reference after observing a failure', async () => {
    const moved = miniTask({
      id: 'moved',
      group: 'first-approach-fails',
      repo: { files: { 'docs/README.md': 'Requires Node 20.\n' } },
      checks: [{ check: 'answer_contains', text: 'Node 20' }],
      naive: { steps: [{ tool: 'read', args: { path: 'README.md' } }], finish: 'unknown' },
      reference: {
        steps: [
          { tool: 'search', args: { text: 'Node' } },
          { tool: 'read', args: { path: 'docs/README.md' } },
        ],
        finish: 'It needs Node 20.',
      },
    });
    const record = await runEpisode({ task: moved, strategy: 'react', epoch: 0, seed: 1 }, await environment(scriptedFor(moved)));
    expect(record.success).toBe(true);
    expect(record.trace.filter((e) => e.type === 'tool_call').map((e) => (e.type === 'tool_call' ? e.status : ''))).toEqual([
      'lookup_miss',
      'success',
      'success',
    ]);
  });
});
