// The harness's identity for the validation cache: its version, Node's, its dependencies' and a hash of its own code.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from '../records/index.js';

/** What decides a verdict besides the suite: a change to any field must re-validate every task. */
export interface HarnessIdentity {
  /** package.json `version`. */
  version: string;
  /** `process.version`: ESLint and the host side of the checks run on it. */
  node: string;
  /** sha256 hex of the code (see harnessIdentity): a rebuilt harness misses the cache even at the same version. */
  code: string;
  /** Installed version of each runtime dependency (ESLint, QuickJS, zod…), or `missing`. */
  dependencies: Record<string, string>;
}

/** Where the harness's code and package.json are: this file is src/runner/ (tsx, vitest) or dist/runner/ (the CLI). */
export interface HarnessLocation {
  /** The folder of the code that runs (dist/ or src/). */
  codeRoot: string;
  /** The package root (package.json, node_modules/, dist/sandbox-vitest-libraries.js). */
  packageRoot: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));
/** This installation: dist/ (or src/) and the package root above it. */
export const INSTALLED_HARNESS: HarnessLocation = { codeRoot: dirname(HERE), packageRoot: dirname(dirname(HERE)) };

/** The sandbox's bundle of vitest's libraries (sim-repo/sandbox/vitest-libraries.ts), built beside the code. */
const SANDBOX_BUNDLE = join('dist', 'sandbox-vitest-libraries.js');
const CODE_FILE = /\.(?:js|mjs|cjs|ts|mts|cts)$/;
const DECLARATION_FILE = /\.d\.[mc]?ts$/;

/**
 * The identity of the harness at `location` (default: this installation). `code` hashes every code file under the
 * code root (`.js`/`.ts` and kin, declarations left out; about 320 files, 2.2 MB in dist/: the simulated repository,
 * the tools, the checks, the loader and the replay that decide a verdict, and the rest) by relative path and content,
 * and the sandbox bundle; any rebuild that changes a byte of them changes it. Reads files; throws only when the
 * code root cannot be listed.
 */
export async function harnessIdentity(location: HarnessLocation = INSTALLED_HARNESS): Promise<HarnessIdentity> {
  const manifest = JSON.parse(await readFile(join(location.packageRoot, 'package.json'), 'utf8').catch(() => '{}')) as {
    version?: unknown;
    dependencies?: Record<string, unknown>;
  };
  const files = (await codeFiles(location.codeRoot)).map((file) => ({ name: relative(location.codeRoot, file).split(sep).join('/'), file }));
  const bundle = join(location.packageRoot, SANDBOX_BUNDLE);
  if (!files.some((entry) => entry.file === bundle)) files.push({ name: `(package)/${SANDBOX_BUNDLE}`, file: bundle });
  const contents = await Promise.all(files.map((entry) => readFile(entry.file).catch(() => Buffer.from('(absent)'))));
  const hash = createHash('sha256');
  files.forEach((entry, index) => {
    const content = contents[index] as Buffer;
    hash.update(`${entry.name}\0${content.length}\0`).update(content);
  });
  const dependencies = Object.fromEntries(
    await Promise.all(Object.keys(manifest.dependencies ?? {}).map(async (name) => [name, await installedVersion(location.packageRoot, name)] as const)),
  );
  return { version: String(manifest.version ?? 'unknown'), node: process.version, code: hash.digest('hex'), dependencies };
}

/** sha256 hex of an identity's canonical JSON: the name of its cache file. */
export function harnessDigest(identity: HarnessIdentity): string {
  return createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

/** Every code file under `root`, recursively, sorted by path (node_modules left out). */
async function codeFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && CODE_FILE.test(entry.name) && !DECLARATION_FILE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.split(sep).includes('node_modules'))
    .sort();
}

/** The version in `node_modules/<name>/package.json` nearest above `from` (Node's lookup), or `missing`. */
async function installedVersion(from: string, name: string): Promise<string> {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const version = (JSON.parse(await readFile(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version?: unknown }).version;
      return String(version);
    } catch {
      if (dirname(dir) === dir) return 'missing';
    }
  }
}
