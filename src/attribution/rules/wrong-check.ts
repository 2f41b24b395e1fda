// Rule: the planner's done_when holds a check that cannot pass in this repository, and that check ended the run.
import { failingChecks, finding, type Rule } from '../finding.js';
import { readReplannerStop } from '../stops.js';
import { brief, canonical, describeCheck } from '../targets.js';
import { lastDoneWhenBlock } from '../trace-index.js';

/** How a shell or package manager says a command or script does not exist. */
const NO_SUCH_COMMAND = /^exit 127\b|ERR_PNPM_NO_SCRIPT|Missing script:|command not found/;

/** Whether a check's failure detail says it cannot pass in this repository: no such command, script or file. */
export const cannotPass = (detail: string): boolean => NO_SUCH_COMMAND.test(detail) || / does not exist$/.test(detail);

/**
 * A check of the first plan's done_when that failed in the last done_when evaluation and cannot pass: its command
 * or script does not exist (exit 127, "Missing script"), its file does not exist, or (on a task that expects finish) it fails although every
 * state check of the task passes — the work is done and only the check stands in the way (seed 001: "a check
 * copied from the developer's words inherits the developer's mistake"). On a must-stop task a failing check is how
 * the blocker shows, so only the first two count there.
 * Decisive only if its failure ended the run: no replanner saw it, or the replanner's answer was a stop that names
 * the failure. A replanner that revised and kept the check, or stopped vaguely, owns the failure instead.
 * Evidence: the planner's model call, the plan event, the check's first and last failures, the end.
 */
export const wrongCheck: Rule = ({ task, index, checks }) => {
  const first = index.plans[0];
  const end = index.end;
  if (!first || first.author !== 'planner' || !end) return undefined;
  const planned = new Set(first.doneWhen.map(canonical));
  const stateDone = failingChecks(checks).state.length === 0;
  for (const event of lastDoneWhenBlock(index)) {
    if (event.pass || !planned.has(canonical(event.check))) continue;
    const impossible = cannotPass(event.detail);
    if (!impossible && !(task.expect === 'finish' && stateDone)) continue;
    const firstFailure = index.doneWhenChecks.find((c) => !c.pass && canonical(c.check) === canonical(event.check))!;
    const replannerAfter = index.modelCalls.find((c) => c.role === 'replanner' && c.id > firstFailure.id);
    if (replannerAfter) {
      const stop = readReplannerStop(index, checks);
      const revisedAfter = index.plans.some((p) => p.eventId > firstFailure.id);
      if (revisedAfter || !stop || stop.vague) continue;
    }
    const why = impossible ? `cannot pass here (${brief(event.detail)})` : `fails (${brief(event.detail)}) although every state check of the task passes`;
    return finding(
      'planner',
      'wrong_check',
      [first.authorCallId, first.eventId, firstFailure.id, event.id, end.id],
      `The first plan's done_when (written at event ${first.authorCallId}, plan event ${first.eventId}) requires ${describeCheck(event.check)}, which ${why}; it failed at event ${event.id} and the episode ended ${end.status} (event ${end.id}).`,
    );
  }
  return undefined;
};
