// Rule: the direct/ReAct agent did not stop: it repeated a failed call until the harness ended the run, or finished a must-stop task.
import { finding, type Rule } from '../finding.js';
import { callTarget, canonical } from '../targets.js';
import { chosenAt, endingChoiceOf, lastCallOf } from '../trace-index.js';

/**
 * Three shapes: the `repeated_call` budget ended the run (the first erroneous event is the call that repeated the
 * failure, or, when nothing failed, the call that repeated a read on an unchanged repository up to the limit); the `tool_calls` budget ended it after a failure went unanswered (the first call after that failure);
 * the task expects a stop and the agent finished (its finishing call). Evidence: that call, the failure, the end.
 */
export const noStop: Rule = ({ task, index }) => {
  const end = index.end;
  if (index.family !== 'agent' || !end) return undefined;
  const budget = index.budget;
  if (budget?.limit === 'repeated_call') {
    const repeat = [...index.toolCalls].reverse().find((t) => t.id < budget.id)!;
    const key = canonical({ tool: repeat.tool, args: repeat.args });
    const first = index.toolCalls.find((t) => t.status !== 'success' && canonical({ tool: t.tool, args: t.args }) === key);
    if (first === undefined) {
      // No failure to repeat: the same read-only call ran again and again on an unchanged repository.
      const original = index.toolCalls.find((t) => canonical({ tool: t.tool, args: t.args }) === key) ?? repeat;
      const caller = index.callerOf.get(repeat.id);
      return finding(
        'agent',
        'no_stop',
        [caller, original.id, repeat.id, budget.id],
        `The agent repeated ${repeat.tool} ${callTarget(repeat.tool, repeat.args)} at ${chosenAt(index, repeat)}, which had already run with the same result at event ${original.id} on an unchanged repository, instead of using what it had read; the harness stopped the run (event ${budget.id}).`,
      );
    }
    const again = index.toolCalls.find((t) => first !== undefined && t.id > first.id && canonical({ tool: t.tool, args: t.args }) === key) ?? repeat;
    const caller = index.callerOf.get(again.id);
    return finding(
      'agent',
      'no_stop',
      [caller, first?.id, again.id, budget.id],
      `The agent repeated ${repeat.tool} ${callTarget(repeat.tool, repeat.args)} at ${chosenAt(index, again)}, which had already failed at event ${first?.id}, instead of stopping or changing course; the harness stopped the run (event ${budget.id}).`,
    );
  }
  if (budget?.limit === 'tool_calls') {
    const failure = index.toolCalls.find((t) => t.status !== 'success');
    // An external agent that spends its tool calls without asking its model: the first tool call after the failure.
    const next =
      index.modelCalls.find((c) => failure !== undefined && c.id > failure.id) ??
      lastCallOf(index, ['agent', 'direct']) ??
      index.toolCalls.find((t) => failure === undefined || t.id > failure.id);
    return finding(
      'agent',
      'no_stop',
      [next?.id, failure?.id, budget.id],
      `After ${failure ? `the failure at event ${failure.id}` : 'its calls'} the agent kept calling tools (from event ${next?.id}${next?.type === 'tool_call' ? ', which no model call asked for' : ''}) until the harness stopped it at the budget (event ${budget.id}).`,
    );
  }
  if (task.expect === 'stop' && end.status === 'finished') {
    const choice = endingChoiceOf(index, ['agent', 'direct']);
    const call = choice.note === '' ? (lastCallOf(index, ['agent', 'direct'])?.id ?? end.id) : choice.id;
    const blocker = [...index.toolCalls].reverse().find((t) => t.status !== 'success');
    return finding(
      'agent',
      'no_stop',
      [call, blocker?.id, end.id],
      `The task needs a stop${blocker ? ` (the blocker showed at event ${blocker.id})` : ''}, but the agent finished at event ${call}${choice.note}.`,
    );
  }
  return undefined;
};
