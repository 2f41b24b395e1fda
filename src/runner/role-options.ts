// `--role-option ROLE.KEY=VALUE`: one role's call options (temperature, num_ctx, num_predict, think, keep_alive, timeout_ms).
import { ROLES, type ChatOptions, type Role } from '../models/types.js';
import { UsageError } from './usage-error.js';

/** The most `--role-option ROLE.timeout_ms` may be, ms: one day, as `--timeout-ms`. */
const MAX_ROLE_TIMEOUT_MS = 86_400_000;

/** Options `--role-option ROLE.KEY=VALUE` may set for one role (the run-wide flags of the same names). */
const ROLE_OPTION_KEYS = ['temperature', 'num_ctx', 'num_predict', 'think', 'keep_alive', 'timeout_ms'] as const;

/**
 * Parses `--role-option` values such as `planner.num_ctx=16384` or `executor.temperature=0.2` into per-role
 * options. Throws UsageError naming a bad role, key or value.
 */
export function parseRoleOptions(values: readonly string[]): Partial<Record<Role, ChatOptions>> {
  const out: Partial<Record<Role, ChatOptions>> = {};
  for (const value of values) {
    const match = /^([a-z]+)\.([a-z_]+)=(.*)$/.exec(value.trim());
    const role = match?.[1] as Role | undefined;
    const key = match?.[2] as (typeof ROLE_OPTION_KEYS)[number] | undefined;
    const raw = match?.[3] ?? '';
    if (!match || !role || !(ROLES as readonly string[]).includes(role) || !key || !(ROLE_OPTION_KEYS as readonly string[]).includes(key)) {
      throw new UsageError(
        `--role-option takes ROLE.KEY=VALUE with ROLE one of ${ROLES.join(', ')} and KEY one of ${ROLE_OPTION_KEYS.join(', ')}; got "${value}"`,
      );
    }
    const options = (out[role] ??= {});
    if (key === 'think') {
      if (!/^(true|false)$/.test(raw)) throw new UsageError(`--role-option ${role}.think takes true or false, got "${raw}"`);
      options.think = raw === 'true';
    } else if (key === 'keep_alive') options.keep_alive = keepAliveValue(raw);
    else {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`--role-option ${role}.${key} takes a number ≥ 0, got "${raw}"`);
      // The bounds of --timeout-ms: a timer cannot wait longer than 2^31 − 1 ms, and fires at once beyond that.
      if (key === 'timeout_ms' && (!Number.isInteger(n) || n < 1 || n > MAX_ROLE_TIMEOUT_MS)) {
        throw new UsageError(`--role-option ${role}.timeout_ms takes a whole number of ms from 1 to ${MAX_ROLE_TIMEOUT_MS}, got "${raw}"`);
      }
      options[key] = n;
    }
  }
  return out;
}

/** `"30m"` stays a duration; `"300"` or `-1` (seconds; negative keeps the model loaded) becomes a number. */
export function keepAliveValue(value: unknown): string | number {
  if (typeof value === 'number') return value;
  const text = String(value).trim();
  return /^-?\d+$/.test(text) ? Number(text) : text;
}
