// Every path a task's checks name is in its repository or written by its reference: else the check is a typo or theatre.
import { resolveRepoPath, SimRepo, type RepoSpec } from '../sim-repo/index.js';
import type { Task } from './schema.js';
import type { SuiteError } from './suite-error.js';
import { errorAt, type YamlSource } from './yaml-source.js';

/** Repo-relative paths the reference creates: the `path` of each of its `write` steps (edits change, runs are not followed). */
function pathsWrittenBy(task: Task): string[] {
  return task.reference.steps.flatMap((step) => {
    const path = step.tool === 'write' ? step.args['path'] : undefined;
    const resolved = typeof path === 'string' ? resolveRepoPath(path) : undefined;
    return resolved?.ok === true ? [resolved.path] : [];
  });
}

/**
 * The errors of checks naming paths nothing provides, for the task at `tasks[taskIndex]` whose resolved
 * repository is `repoSpec`. `file_contains.path` and `file_unchanged.path` must be a file of the repository at
 * the start (generated files such as package.json count) or the `path` of a reference `write` step;
 * `text_absent.under` must be such a file or a folder holding one. A path naming a folder where a file is
 * needed, or leaving the repository, is an error too. Each error points at the `path` (or `under`) key.
 * A `tests_pass` test id's file must be such a file or one of the hidden files.
 */
export function checkPathErrors(source: YamlSource, task: Task, taskIndex: number, repoSpec: RepoSpec): SuiteError[] {
  const initial = SimRepo.fromSpec(repoSpec)
    .allFiles()
    .map(([path]) => path);
  const written = pathsWrittenBy(task);
  const available = [...initial, ...written];
  const nowhere = `is neither in fixture "${task.repo.fixture}" nor created by the reference (a \`write\` step)`;
  const errors: SuiteError[] = [];
  task.checks.forEach((check, checkIndex) => {
    const at = (key: string, message: string): void => {
      errors.push(errorAt(source, ['tasks', taskIndex, 'checks', checkIndex, key], message));
    };
    if (check.check === 'file_contains' || check.check === 'file_unchanged') {
      const resolved = resolveRepoPath(check.path);
      if (!resolved.ok || resolved.path === '') return at('path', `check path ${JSON.stringify(check.path)} is not a file inside the repository`);
      if (available.includes(resolved.path)) return;
      if (available.some((path) => isUnder(path, resolved.path))) {
        return at('path', `check path ${JSON.stringify(check.path)} is a folder in fixture "${task.repo.fixture}"; ${check.check} needs a file`);
      }
      return at('path', `check path ${JSON.stringify(check.path)} ${nowhere}`);
    }
    if (check.check === 'tests_pass') {
      const hidden = Object.keys(repoSpec.hidden_files);
      check.tests.forEach((id, testIndex) => {
        const file = id.slice(0, id.indexOf(' > '));
        if (available.includes(file) || hidden.includes(file)) return;
        errors.push(
          errorAt(
            source,
            ['tasks', taskIndex, 'checks', checkIndex, 'tests', testIndex],
            `test file ${JSON.stringify(file)} of ${JSON.stringify(id)} is neither in fixture "${task.repo.fixture}", nor a hidden file, nor created by the reference`,
          ),
        );
      });
      return;
    }
    if (check.check === 'text_absent' && check.under !== undefined) {
      const resolved = resolveRepoPath(check.under);
      if (!resolved.ok) return at('under', `check path ${JSON.stringify(check.under)} (under) is outside the repository`);
      if (available.some((path) => isUnder(path, resolved.path))) return;
      return at(
        'under',
        `check path ${JSON.stringify(check.under)} (under) is neither a file nor a folder in fixture "${task.repo.fixture}" nor created by the reference (a \`write\` step)`,
      );
    }
  });
  return errors;
}

/** Whether repository path `path` is `scope` or inside it (posix paths, normalised; `''` is the root). */
export function isUnder(path: string, scope: string): boolean {
  return scope === '' || path === scope || path.startsWith(`${scope}/`);
}
