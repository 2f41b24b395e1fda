// Loads the role prompt templates from a prompts/ folder and hashes each one (recorded in run.json and on every call).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROLES } from '../models/types.js';
import type { PromptSet } from '../strategies/prompts.js';

/** Thrown when a prompts folder lacks a role's template. */
export class PromptFilesError extends Error {
  override readonly name = 'PromptFilesError';
}

/** Reads `<dir>/<role>.md` for every role. Throws PromptFilesError naming the missing file. */
export async function loadPromptSet(dir: string): Promise<PromptSet> {
  const entries = await Promise.all(
    ROLES.map(async (role) => {
      const path = join(dir, `${role}.md`);
      let template: string;
      try {
        template = await readFile(path, 'utf8');
      } catch (error) {
        throw new PromptFilesError(`cannot read prompt template ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
      return [role, { template, sha256: createHash('sha256').update(template).digest('hex') }] as const;
    }),
  );
  return Object.fromEntries(entries) as PromptSet;
}
