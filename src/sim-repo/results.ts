// Owns the result values every SimRepo operation returns: success or a coded, expected failure.

/** Machine-readable reasons an operation on the simulated repository did not happen. */
export type RepoErrorCode =
  | 'path_escape'
  | 'not_found'
  | 'is_directory'
  | 'not_a_directory'
  | 'empty_old'
  | 'old_not_found'
  | 'ambiguous_match'
  | 'empty_query'
  | 'ambiguous_sha'
  | 'permission_denied'
  | 'unknown_remote';

/** An expected failure: nothing changed; `message` is written for the agent that made the call. */
export interface RepoError {
  ok: false;
  code: RepoErrorCode;
  message: string;
}

/** `{ ok: true, ...value } | { ok: false, code, message }`. */
export type RepoResult<T extends object> = ({ ok: true } & T) | RepoError;

/** Builds a `RepoError`. */
export function repoError(code: RepoErrorCode, message: string): RepoError {
  return { ok: false, code, message };
}
