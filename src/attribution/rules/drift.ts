// Rule: the executor's call does not do what the step says.
import { earliest, finding, type Finding, type Rule } from '../finding.js';
import { callTarget, namedTargets, normalizeArg } from '../targets.js';
import { stepOf } from '../trace-index.js';

const MISMATCH = /^the executor returned an? (\w+) call for an? (\w+) step/;

/**
 * Three signs, for plan strategies: the harness refused the call because its tool is not the step's; an argument
 * the plan gave (path, cmd, old, new, …) differs in the call (extra arguments are allowed); an edit whose new text
 * equals its old text (it changes nothing); for a step whose arguments the plan leaves to the executor (`args:
 * null`), a call on another file or command than the one its description names, or a run of the description itself. Evidence: the executor's model call, the tool call (or the step_end).
 */
export const drift: Rule = ({ index }) => {
  if (index.family !== 'plan') return undefined;
  const findings: Finding[] = [];
  for (const end of index.stepEnds) {
    const match = MISMATCH.exec(end.reason ?? '');
    const caller = index.callerOf.get(end.id);
    if (!match || caller === undefined) continue;
    findings.push(
      finding(
        'executor',
        'drift',
        [caller, end.id],
        `Step ${end.step_id} asks for a ${match[2]} call but the executor returned a ${match[1]} call (event ${caller}); the harness failed the step (event ${end.id}).`,
      ),
    );
  }
  for (const call of index.toolCalls) {
    const caller = index.callerOf.get(call.id);
    const located = stepOf(index, call);
    if (caller === undefined || !located) continue;
    const { step } = located;
    if (call.tool === 'edit' && typeof call.args['old'] === 'string' && call.args['old'] === call.args['new']) {
      findings.push(
        finding(
          'executor',
          'drift',
          [caller, call.id],
          `For step ${step.id} ("${step.does}") the executor (event ${caller}) sent an edit of ${String(call.args['path'])} whose new text equals its old text, so the call at event ${call.id} changed nothing.`,
        ),
      );
      continue;
    }
    if (step.args === null) {
      // The plan leaves the arguments to the executor (issue 27, kind 2): the call must still be on what the step
      // names — the one file or backticked command of its description — and must not run the description itself.
      const named = namedTargets(step.does);
      const target = callTarget(call.tool, call.args);
      const ranDescription = call.tool === 'run' && typeof call.args['cmd'] === 'string' && normalizeWords(call.args['cmd']) === normalizeWords(step.does);
      const file = named[0] ?? '';
      const sameFile = target === file || target.endsWith(`/${file}`) || file.endsWith(`/${target}`);
      const elsewhere = named.length === 1 && ['edit', 'write', 'read'].includes(call.tool) && /[./]/.test(file) && !/\s/.test(file) && !sameFile;
      const otherCommand = named.length === 1 && call.tool === 'run' && !/[/]/.test(named[0] ?? '') && /\s/.test(named[0] ?? '') && named[0] !== target;
      if (ranDescription || elsewhere || otherCommand)
        findings.push(
          finding(
            'executor',
            'drift',
            [caller, call.id],
            ranDescription
              ? `Step ${step.id} leaves its arguments to the executor, which ran the step's own description as a command (event ${caller}, call at event ${call.id}).`
              : `Step ${step.id} ("${step.does}") names ${named[0]}, but the executor's call (event ${caller}) is on ${target} (event ${call.id}).`,
          ),
        );
      continue;
    }
    const changed = Object.keys(step.args).find((key) => normalizeArg(key, step.args![key]) !== normalizeArg(key, call.args[key]));
    if (changed === undefined) continue;
    findings.push(
      finding(
        'executor',
        'drift',
        [caller, call.id],
        `Step ${step.id} gives ${changed} ${JSON.stringify(step.args[changed])}, but the executor's call (event ${caller}) used ${JSON.stringify(call.args[changed])} (event ${call.id}).`,
      ),
    );
  }
  return earliest(findings);
};

/** Lower case, single spaces, no closing punctuation: to compare a command with a sentence. */
function normalizeWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/[.!]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}
