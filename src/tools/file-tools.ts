// Owns the file tools: read, list, search, edit and write.
import { z } from 'zod';
import type { SearchMatch } from '../sim-repo/index.js';
import { defineTool } from './define-tool.js';
import { capOutput, OUTPUT_LIMITS } from './cap-output.js';
import { fromRepoError, lookupMiss, succeeded, timed } from './tool-result.js';

/** Search output lists at most this many matches; the rest are counted in the "… N more lines" marker. */
export const MAX_SEARCH_MATCHES = 100;

const path = z.string().min(1).describe('File path relative to the repository root, e.g. "src/pricing.js" (absolute paths must be under /repo)');

export const read = defineTool({
  name: 'read',
  description:
    'Read a whole file from the working tree and return its exact content. Use it before editing a file so the old text you send matches exactly. ' +
    'A file longer than the output limit is cut, with a last line saying how many lines are not shown (search finds text past it). A missing file is reported as not found.',
  args: z.strictObject({ path }),
  sideEffect: 'none',
  readOnly: true,
  execute: (repo, args) =>
    timed(repo, () => {
      const file = repo.read(args.path);
      return file.ok ? succeeded(file.content) : fromRepoError(file, true);
    }),
});

export const list = defineTool({
  name: 'list',
  description:
    'List the entries of a directory, one repository-relative path per line; directories end with "/". Use it to find where files live before reading them.',
  args: z.strictObject({
    path: z.string().min(1).optional().describe('Directory relative to the repository root; the root when omitted'),
  }),
  sideEffect: 'none',
  readOnly: true,
  execute: (repo, args) =>
    timed(repo, () => {
      const listed = repo.list(args.path);
      if (!listed.ok) return fromRepoError(listed, true);
      return listed.entries.length === 0 ? lookupMiss(`${args.path ?? '.'} is empty`) : succeeded(listed.entries.join('\n'));
    }),
});

/**
 * The search tool's output: the first MAX_SEARCH_MATCHES matches as `path:line: text` lines, capped (capOutput) with
 * the matches past them counted in its last line. Pure, so a search of an unchanged scope prints it once per base.
 */
function printMatches(matches: readonly SearchMatch[]): string {
  const lines = matches.slice(0, MAX_SEARCH_MATCHES).map((match) => `${match.path}:${match.line}: ${match.text}`);
  return capOutput(lines.join('\n'), OUTPUT_LIMITS, matches.length - lines.length);
}

export const search = defineTool({
  name: 'search',
  description:
    'Search the working tree for a literal, case-sensitive text and return every matching line as "path:line: text". Use it to find where a name is defined or used. ' +
    'Long lines are cut; past the output limit a last line says how many more lines there are — then search a more specific text or give a path. No matches is reported as a lookup miss.',
  args: z.strictObject({
    text: z.string().min(1).describe('Literal text to find (not a regular expression)'),
    path: z.string().min(1).optional().describe('Only search this file or directory; the whole repository when omitted'),
  }),
  sideEffect: 'none',
  readOnly: true,
  execute: (repo, args) =>
    timed(repo, () => {
      const found = repo.searchPrinted(args.text, args.path, 'search-tool', printMatches);
      if (!found.ok) return fromRepoError(found, true);
      const scope = args.path === undefined ? '' : ` in ${args.path}`;
      if (found.count === 0) return lookupMiss(`No matches for "${args.text}"${scope}`, 'no_matches');
      return succeeded(found.output);
    }),
});

export const edit = defineTool({
  name: 'edit',
  description:
    'Replace exact text in an existing file. old must match the current file content exactly (copy it from read), including indentation. ' +
    'Fails when old text is not found or matches more than once; then the file is not changed — add surrounding lines to old, or set replace_all. ' +
    'In files with CRLF line endings, line breaks in old and new are matched and written as CRLF.',
  args: z.strictObject({
    path,
    old: z.string().describe('The exact existing text to replace; must occur exactly once unless replace_all is true'),
    new: z.string().describe('The replacement text'),
    replace_all: z.boolean().optional().describe('Replace every occurrence of old instead of requiring exactly one (default false)'),
  }),
  sideEffect: 'reversible',
  readOnly: false,
  execute: (repo, args) =>
    timed(repo, () => {
      const edited = repo.edit(args.path, args.old, args.new, args.replace_all ?? false);
      if (!edited.ok) return fromRepoError(edited, false);
      const count = `${edited.replacements} replacement${edited.replacements === 1 ? '' : 's'}`;
      return succeeded(`Edited ${edited.path} (${count}${edited.crlfAdapted ? ', CRLF line endings kept' : ''})`, 'reversible');
    }),
});

export const write = defineTool({
  name: 'write',
  description:
    'Create a file, or overwrite an existing one with the given content. Prefer edit for changing part of an existing file: write replaces all of it.',
  args: z.strictObject({
    path,
    content: z.string().describe('The complete new content of the file'),
  }),
  sideEffect: 'reversible',
  readOnly: false,
  execute: (repo, args) =>
    timed(repo, () => {
      const written = repo.write(args.path, args.content);
      if (!written.ok) return fromRepoError(written, false);
      return succeeded(`${written.created ? 'Created' : 'Wrote'} ${written.path} (${args.content.length} bytes)`, 'reversible');
    }),
});
