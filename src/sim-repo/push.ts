// Owns git push: the token's permission, git-style messages, and recording the irreversible push.
import { repoError, type RepoResult } from './results.js';
import { recordChange, type RepoState } from './state.js';

/** Options of a push; defaults are the spec's `remote` and `branch`. */
export interface PushOptions {
  remote?: string;
  branch?: string;
  force?: boolean;
}

/**
 * Pushes the current branch to `remote`/`branch`. Errors: unknown_remote; permission_denied when the
 * spec's `permissions.push` is false (a 403 as git prints it). A successful push is irreversible and is
 * recorded in the change log. The caller advances the clock.
 */
export function pushBranch(state: RepoState, options: PushOptions = {}): RepoResult<{ output: string }> {
  const spec = state.spec;
  const remote = options.remote ?? spec.remote;
  const target = options.branch ?? spec.branch;
  const url = `https://github.com/acme/${repositoryName(state)}.git`;
  if (remote !== spec.remote) {
    return repoError(
      'unknown_remote',
      `fatal: '${remote}' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\n` +
        'Please make sure you have the correct access rights\nand the repository exists.',
    );
  }
  if (!spec.permissions.push) {
    return repoError(
      'permission_denied',
      `remote: Permission to acme/${repositoryName(state)}.git denied to ci-bot.\n` +
        `fatal: unable to access '${url}/': The requested URL returned error: 403`,
    );
  }
  const sha = spec.commits[0]?.sha.slice(0, 7) ?? '0000000';
  const line =
    target !== spec.branch
      ? ` * [new branch]      ${spec.branch} -> ${target}`
      : options.force === true
        ? ` + ${sha}...${sha} ${spec.branch} -> ${target} (forced update)`
        : `   ${sha}..${sha}  ${spec.branch} -> ${target}`;
  recordChange(state, { kind: 'push', detail: `${remote} ${target}${options.force === true ? ' (force)' : ''}`, side_effect: 'irreversible' });
  return { ok: true, output: `To ${url}\n${line}` };
}

/** The repository's name on the remote: package.json `name` at HEAD without its scope, else `app`. */
function repositoryName(state: RepoState): string {
  try {
    const manifest: unknown = JSON.parse(state.head.get('package.json') ?? '{}');
    const name = typeof manifest === 'object' && manifest !== null ? (manifest as { name?: unknown }).name : undefined;
    return typeof name === 'string' && name !== '' ? name.replace(/^@[^/]+\//, '') : 'app';
  } catch {
    return 'app';
  }
}
