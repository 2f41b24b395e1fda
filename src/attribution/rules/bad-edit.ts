// Rule: the executor sent an edit whose old text the file does not contain.
import { earliest, finding, type Finding, type Rule } from '../finding.js';
import { canonical, normalizePath } from '../targets.js';
import { stepOf } from '../trace-index.js';

/**
 * A failed edit (old text not found) whose args the executor wrote: the step had null args, or the executor sent
 * other args than the plan gave. Edits whose args came unchanged from the plan are their author's (guessed_target).
 * Evidence: the executor's model call, the failed tool call, the earlier read of the file (if any).
 */
export const badEdit: Rule = ({ index }) => {
  if (index.family !== 'plan') return undefined;
  const findings: Finding[] = [];
  for (const call of index.toolCalls) {
    if (call.tool !== 'edit' || call.error_code !== 'old_not_found') continue;
    const located = stepOf(index, call);
    const caller = index.callerOf.get(call.id);
    if (!located || caller === undefined) continue;
    if (located.step.args !== null && canonical(located.step.args) === canonical(call.args)) continue;
    const path = normalizePath(String(call.args['path']));
    const read = index.toolCalls.find(
      (t) =>
        t.id < call.id &&
        t.status === 'success' &&
        ((t.tool === 'read' && normalizePath(String(t.args['path'])) === path) || (t.tool === 'search' && t.output.includes(`${path}:`))),
    );
    const seen = read ? ` although the file was ${read.tool === 'read' ? 'read' : 'searched'} at event ${read.id}` : ', without reading the file first';
    findings.push(
      finding(
        'executor',
        'bad_edit',
        [caller, call.id, read?.id],
        `For step ${located.step.id} the executor (event ${caller}) sent an edit of ${path} whose old text the file does not contain${seen}; the edit failed at event ${call.id}.`,
      ),
    );
  }
  return earliest(findings);
};
