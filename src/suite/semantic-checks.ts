// Checks a schema-valid task needs beyond its shape: known tools with valid args, `after` pointing back, unique counterexample names.
import { argsSchema, getTool } from '../tools/index.js';
import type { Task, Trajectory } from './schema.js';
import { describeIssue } from './schema-issues.js';
import { formatPath, type SuiteError } from './suite-error.js';
import { errorAt, type YamlSource } from './yaml-source.js';

type Path = (string | number)[];

/** The trajectories of a task with their paths relative to the task. */
function trajectoriesOf(task: Task): { trajectory: Trajectory; path: Path }[] {
  return [
    { trajectory: task.reference, path: ['reference'] },
    ...(task.naive === undefined ? [] : [{ trajectory: task.naive, path: ['naive'] }]),
    ...task.counterexamples.map((counterexample, index) => ({ trajectory: counterexample, path: ['counterexamples', index] })),
  ];
}

/** Errors of one trajectory's steps: unknown tools, args their tool's schema rejects, `after` not pointing back. */
function trajectoryErrors(source: YamlSource, trajectory: Trajectory, trajectoryPath: Path): SuiteError[] {
  const errors: SuiteError[] = [];
  trajectory.steps.forEach((step, stepIndex) => {
    const stepPath = [...trajectoryPath, 'steps', stepIndex];
    const tool = getTool(step.tool);
    if (tool === undefined) {
      errors.push(errorAt(source, [...stepPath, 'tool'], `unknown tool ${JSON.stringify(step.tool)}`));
    } else {
      const parsed = tool.args.safeParse(step.args);
      for (const issue of parsed.success ? [] : parsed.error.issues) {
        if (issue.code === 'unrecognized_keys') {
          const known = Object.keys((argsSchema(tool) as { properties?: object }).properties ?? {}).join(', ') || '(none)';
          for (const key of issue.keys) {
            errors.push(
              errorAt(source, [...stepPath, 'args', ...issue.path, key], `tool \`${step.tool}\` has no argument \`${key}\` (its arguments: ${known})`),
            );
          }
          continue;
        }
        const field = formatPath(['args', ...issue.path]);
        errors.push(errorAt(source, [...stepPath, 'args', ...issue.path], `tool \`${step.tool}\`: ${field}: ${describeIssue(issue, step.args)}`));
      }
    }
    (step.after ?? []).forEach((earlier, afterIndex) => {
      if (earlier < stepIndex) return;
      const named = earlier === stepIndex ? 'itself' : `step ${earlier}`;
      const allowed = stepIndex === 0 ? 'step 0 has no earlier steps' : `earlier steps are 0..${stepIndex - 1}`;
      errors.push(errorAt(source, [...stepPath, 'after', afterIndex], `\`after\` must name earlier steps: step ${stepIndex} names ${named} (${allowed})`));
    });
  });
  return errors;
}

/**
 * The semantic errors of one schema-valid task at `tasks[taskIndex]`: every trajectory step (reference, naive,
 * counterexamples) names a known tool whose zod args schema accepts its args (the message names the tool and
 * the field); `after` indices refer to earlier steps; counterexample names are unique within the task.
 */
export function taskSemanticErrors(source: YamlSource, task: Task, taskIndex: number): SuiteError[] {
  const taskPath: Path = ['tasks', taskIndex];
  const errors = trajectoriesOf(task).flatMap(({ trajectory, path }) => trajectoryErrors(source, trajectory, [...taskPath, ...path]));
  const firstByName = new Map<string, number>();
  task.counterexamples.forEach((counterexample, index) => {
    const first = firstByName.get(counterexample.name);
    if (first === undefined) firstByName.set(counterexample.name, index);
    else {
      errors.push(
        errorAt(
          source,
          [...taskPath, 'counterexamples', index, 'name'],
          `duplicate counterexample name "${counterexample.name}" (first at counterexamples[${first}])`,
        ),
      );
    }
  });
  return errors;
}
