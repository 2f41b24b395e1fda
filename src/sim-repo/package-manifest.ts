// Owns reading package.json from the working tree: its scripts, or the package manager's error when it is broken.
import { workingFile, type RepoState } from './state.js';

/** The scripts of the working-tree package.json (`name → command`), or the error a package manager would print. */
export type ManifestResult = { ok: true; scripts: Readonly<Record<string, string>> } | { ok: false; message: string };

/** The last parsed manifest: most runs of an episode (and of a suite) read the same package.json. */
let cached: { text: string; result: ManifestResult } | undefined;

/** Parses `/repo/package.json` as it is now (edits to it take effect immediately). */
export function readManifest(state: RepoState): ManifestResult {
  const text = workingFile(state, 'package.json');
  if (text !== undefined && cached?.text === text) return cached.result;
  const result = parseManifest(text);
  if (text !== undefined) cached = { text, result };
  return result;
}

function parseManifest(text: string | undefined): ManifestResult {
  if (text === undefined) {
    return { ok: false, message: ' ERR_PNPM_NO_IMPORTER_MANIFEST_FOUND  No package.json (or package.yaml, or package.json5) was found in "/repo".' };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: ` ERR_PNPM_JSON_PARSE  ${reason} while parsing /repo/package.json` };
  }
  const scripts = typeof manifest === 'object' && manifest !== null ? (manifest as { scripts?: unknown }).scripts : undefined;
  if (typeof scripts !== 'object' || scripts === null) return { ok: true, scripts: {} };
  const entries = Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return { ok: true, scripts: Object.fromEntries(entries) };
}
