// Owns turning SimRepo outcomes into classified ToolResults (status, error_code, simulated duration).
import type { RepoError, RunResult, SideEffect, SimRepo } from '../sim-repo/index.js';
import type { ToolResult, ToolStatus } from './types.js';

/** Output patterns of failures worth retrying (network resets and timeouts). */
export const TRANSIENT_PATTERN = /ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up/;

/** Runs `body` and stamps the result with the simulated ms it took on `repo`'s clock. */
export function timed(repo: SimRepo, body: () => Omit<ToolResult, 'duration_ms'>): ToolResult {
  const start = repo.clock.now_ms;
  // Object.assign, not a spread: results come in many shapes, and a spread of many shapes is ~10× slower (every tool call).
  const result = Object.assign({}, body()) as ToolResult;
  result.duration_ms = repo.clock.now_ms - start;
  return result;
}

/** A result that changed what `side_effect` says. */
export function succeeded(output: string, side_effect: SideEffect = 'none'): Omit<ToolResult, 'duration_ms'> {
  return { status: 'success', output, side_effect };
}

/** A read-only call that found nothing (a result, not a failure). */
export function lookupMiss(output: string, error_code = 'not_found'): Omit<ToolResult, 'duration_ms'> {
  return { status: 'lookup_miss', output, side_effect: 'none', error_code };
}

/**
 * Classifies a SimRepo error: a path outside the repository or a refused push → permission_denied;
 * not_found → lookup_miss for read-only tools (failure for edits); anything else → failure. Nothing changed.
 */
export function fromRepoError(error: RepoError, readOnly: boolean): Omit<ToolResult, 'duration_ms'> {
  const status: ToolStatus =
    error.code === 'path_escape' || error.code === 'permission_denied'
      ? 'permission_denied'
      : error.code === 'not_found' && readOnly
        ? 'lookup_miss'
        : 'failure';
  return { status, output: error.message, side_effect: 'none', error_code: error.code };
}

/**
 * Classifies a shell run: exit 0 → success; a refused path or push → permission_denied; a transient
 * injected fault or a known network error in the output → transient_error; other non-zero → failure
 * (`command_not_found` for exit 127). `exit_code` is always set.
 */
export function fromRun(result: RunResult): Omit<ToolResult, 'duration_ms'> {
  const base = { output: result.output, exit_code: result.exit_code, side_effect: result.side_effect };
  if (result.exit_code === 0) return { status: 'success', ...base };
  if (result.error_code !== undefined) return { status: 'permission_denied', ...base, error_code: result.error_code };
  if (result.transient || TRANSIENT_PATTERN.test(result.output)) return { status: 'transient_error', ...base, error_code: 'transient' };
  return { status: 'failure', ...base, error_code: result.exit_code === 127 ? 'command_not_found' : 'nonzero_exit' };
}
