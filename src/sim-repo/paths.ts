// Owns path resolution: every path an agent names is normalised by segments and must stay inside /repo.
import { posix } from 'node:path';
import { repoError, type RepoResult } from './results.js';

/** The absolute path of the repository root as agents see it. */
export const REPO_ROOT = '/repo';

/**
 * Resolves an agent-supplied path. Relative paths resolve against `/repo`, absolute ones against `/`;
 * `.` and `..` segments are normalised first, then containment is checked on segments (the path must be
 * `/repo` or start with `/repo/`), so `/repo/../x` and `/repo-secrets/x` are both outside (HB07).
 * Returns the repo-relative path (`''` for the root itself, never a trailing slash) or `path_escape`.
 */
export function resolveRepoPath(input: string): RepoResult<{ path: string }> {
  let resolved = resolved_.get(input);
  if (resolved === undefined) {
    if (resolved_.size >= RESOLVED_LIMIT) resolved_.clear();
    resolved = resolveUncached(input);
    resolved_.set(input, resolved);
  }
  return resolved;
}

/** Resolutions are pure functions of the input string: memoised (bounded), as every file access resolves. */
const resolved_ = new Map<string, RepoResult<{ path: string }>>();
const RESOLVED_LIMIT = 2_000;

function resolveUncached(input: string): RepoResult<{ path: string }> {
  const absolute = posix.normalize(input.startsWith('/') ? input : posix.join(REPO_ROOT, input));
  const trimmed = absolute.length > 1 && absolute.endsWith('/') ? absolute.slice(0, -1) : absolute;
  if (trimmed === REPO_ROOT) return { ok: true, path: '' };
  if (trimmed.startsWith(REPO_ROOT + '/')) return { ok: true, path: trimmed.slice(REPO_ROOT.length + 1) };
  return repoError(
    'path_escape',
    `${input}: resolves to ${trimmed}, which is outside the repository root ${REPO_ROOT}; only paths inside ${REPO_ROOT} can be used`,
  );
}

/** True when repo-relative `path` is `directory` itself or inside it (`''` is the root). */
export function isWithin(path: string, directory: string): boolean {
  return directory === '' || path === directory || path.startsWith(directory + '/');
}

/** How a repo-relative path is shown to an agent (`.` for the root). */
export function displayPath(path: string): string {
  return path === '' ? '.' : path;
}
