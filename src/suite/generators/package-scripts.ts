// A generated task that adds package scripts writes them into package.json too: `pnpm X` looks X up there, so a script
// only in the repository spec answers "Missing script" (the blind answer corpora found triage and secret tasks doing it).
import type { ScriptSpec } from '../../sim-repo/spec.js';

export /** `{ 'package.json': … }` with `scripts`' commands added to its scripts (none when it has no package.json or already has them all). */
function withScripts(manifest: string | undefined, scripts: Readonly<Record<string, ScriptSpec>>): Record<string, string> {
  if (manifest === undefined) return {};
  let parsed: { scripts?: Record<string, string> };
  try {
    parsed = JSON.parse(manifest) as { scripts?: Record<string, string> };
  } catch {
    return {};
  }
  const missing = Object.entries(scripts).filter(([name]) => parsed.scripts?.[name] === undefined);
  if (missing.length === 0) return {};
  const added = { ...parsed, scripts: { ...parsed.scripts, ...Object.fromEntries(missing.map(([name, spec]) => [name, (spec as { cmd: string }).cmd])) } };
  return { 'package.json': `${JSON.stringify(added, null, 2)}\n` };
}
