// Owns predicate evaluation: the conditions under which fake tests pass and scripts succeed.
import { resolveRepoPath } from './paths.js';
import type { Predicate } from './spec.js';
import { workingFile, type RepoState } from './state.js';

/**
 * Evaluates `predicate` on the working tree and `env` (the spec's env, overlaid by a running command's
 * own `VAR=value` prefix). File predicates on paths outside the repository are false (file_lacks: true);
 * `env_set` means set to a non-empty value (`KEY= cmd` does not provide a key).
 */
export function evaluatePredicate(predicate: Predicate, state: RepoState, env: Readonly<Record<string, string>>): boolean {
  switch (predicate.kind) {
    case 'file_contains':
      return fileAt(state, predicate.path)?.includes(predicate.text) ?? false;
    case 'file_lacks':
      return !(fileAt(state, predicate.path)?.includes(predicate.text) ?? false);
    case 'file_exists':
      return fileAt(state, predicate.path) !== undefined;
    case 'env_set':
      return (env[predicate.name] ?? '') !== '';
    case 'env_equals':
      return env[predicate.name] === predicate.value;
    case 'installed':
      return state.installed;
    case 'migrations_applied':
      return predicate.ids.every((id) => state.applied.includes(id));
    case 'flag':
      return state.flags[predicate.name] === predicate.value;
    case 'all':
      return predicate.of.every((inner) => evaluatePredicate(inner, state, env));
    case 'any':
      return predicate.of.some((inner) => evaluatePredicate(inner, state, env));
    case 'not':
      return !evaluatePredicate(predicate.of, state, env);
  }
}

function fileAt(state: RepoState, path: string): string | undefined {
  const resolved = resolveRepoPath(path);
  return resolved.ok ? workingFile(state, resolved.path) : undefined;
}
