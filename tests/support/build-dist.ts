// vitest globalSetup: compiles src/ to dist/ once, so CLI tests run the real `stratbench` bin as users do, and bundles the sandbox's vitest libraries.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildSandboxVitest } from '../../scripts/build-sandbox-vitest.js';

export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  await buildSandboxVitest();
}
