// Owns source fixtures: a repository kept as real files (tasks/sources/<name>/files/) plus its fixture.yaml.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parseDocument } from 'yaml';
import { RepoSpec } from '../sim-repo/spec.js';

/**
 * Loads the source fixture in `dir` (e.g. `tasks/sources/cli-tool`): `fixture.yaml` holds every field of a
 * fixture (as `fixtures.<name>` in a suite file: scripts, commits, env, date, dependencies, …) except `files`,
 * which are read from `dir/files/` recursively (posix paths, sorted; dot-files included). Returns the parsed
 * RepoSpec (defaults applied).
 * @throws Error naming `fixture.yaml` (with line:col for YAML errors) or the zod issues when the spec is invalid,
 * and when `fixture.yaml` itself sets `files`.
 */
export function loadSourceFixture(dir: string): RepoSpec {
  const specPath = join(dir, 'fixture.yaml');
  const document = parseDocument(readFileSync(specPath, 'utf8'), { prettyErrors: true });
  if (document.errors.length > 0) throw new Error(`${specPath}: ${document.errors.map((error) => error.message).join('\n')}`);
  const spec = (document.toJS() ?? {}) as Record<string, unknown>;
  if ('files' in spec) throw new Error(`${specPath}: "files" is read from ${join(dir, 'files')}/, not written in fixture.yaml`);
  const parsed = RepoSpec.safeParse({ ...spec, files: readTree(join(dir, 'files')) });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`${specPath}: not a valid fixture:\n${issues.join('\n')}`);
  }
  return parsed.data;
}

/** Every file under `root` as posix relative path → UTF-8 content, sorted by path. */
function readTree(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const name of readdirSync(join(root, relative)).sort()) {
      const path = relative === '' ? name : posix.join(relative, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else files[path] = readFileSync(join(root, path), 'utf8');
    }
  };
  walk('');
  return files;
}
