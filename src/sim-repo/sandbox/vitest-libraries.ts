// Owns finding the bundle of real vitest matcher libraries (chai, @vitest/expect, @vitest/spy) the sandbox's `vitest` module runs on.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` (scripts/build-sandbox-vitest.ts) writes the bundle, relative to the package root. */
export const VITEST_LIBRARIES_PATH = 'dist/sandbox-vitest-libraries.js';

/** The package root: this file is src/sim-repo/sandbox/ (tsx, vitest) or dist/sim-repo/sandbox/ (the CLI). */
const root = new URL('../../../', import.meta.url);

/**
 * The bundle's source (~250 KB, a script that sets `globalThis.__stratbench_vitest_libraries__`), read from the package
 * root. Read when the first sandbox engine is built, never at import, so the CLI's start-up does not pay for it.
 * Throws when the bundle was never built (a checkout without `npm run build`), naming the command that builds it.
 */
export function vitestLibrariesSource(): string {
  const path = fileURLToPath(new URL(VITEST_LIBRARIES_PATH, root));
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`the sandbox's vitest libraries are not built (${path}): run \`npm run build\` (${(error as Error).message})`);
  }
}
