// Suite check (issue 27 §4): every package script a task's prompt, memory notes or reference steps name exists in the
// task repository's package.json. A generated task that names a script its repository lacks makes a realistic agent
// fail for the suite's reason ("Missing script"), not its own.
import { SimRepo, type RepoSpec } from '../sim-repo/index.js';

/** One package script a task names that its repository's package.json does not define. */
export interface MissingScript {
  task: string;
  script: string;
  /** Where it is named: `prompt`, `memory`, or `reference step N` (1-based). */
  where: string;
}

/** pnpm's own commands, which are not package scripts (`pnpm install`, `pnpm exec …`). */
const PNPM_COMMANDS = new Set([
  'add',
  'audit',
  'bin',
  'ci',
  'config',
  'create',
  'dlx',
  'env',
  'exec',
  'fetch',
  'i',
  'import',
  'init',
  'install',
  'link',
  'list',
  'ls',
  'outdated',
  'pack',
  'prune',
  'publish',
  'rebuild',
  'remove',
  'root',
  'run',
  'store',
  'unlink',
  'update',
  'version',
  'why',
]);

/** The scripts a text names as `pnpm X`, `pnpm run X` or `npm run X` (not pnpm's own commands; "pnpm script" is prose). */
export function scriptsNamed(text: string): string[] {
  const names = [...text.matchAll(/\b(?:pnpm\s+(?:run\s+)?|npm\s+run\s+|yarn\s+)([a-z][\w:.-]*[\w])/gi)].map((match) => match[1] as string);
  return [...new Set(names.filter((name) => !PNPM_COMMANDS.has(name) && name !== 'script' && name !== 'scripts'))];
}

/**
 * The scripts each task names but its repository lacks. A task built around that very mistake is left out: its
 * reference ending says the script is missing ("There is no db:migrate script in package.json") in the sentence
 * that names it. Reads each task's package.json once (no episode runs).
 */
export function missingScripts(
  tasks: ReadonlyArray<{
    id: string;
    prompt: string;
    memory?: ReadonlyArray<{ text: string } | string> | undefined;
    reference?: { steps?: readonly unknown[]; finish?: string | undefined; stop?: string | undefined } | undefined;
    repoSpec: RepoSpec;
  }>,
): MissingScript[] {
  const found: MissingScript[] = [];
  for (const task of tasks) {
    let scripts: Record<string, unknown> = {};
    try {
      const manifest = JSON.parse(SimRepo.fromSpec(task.repoSpec).fileAt('package.json') ?? '{}') as { scripts?: unknown };
      scripts = typeof manifest.scripts === 'object' && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : {};
    } catch {
      scripts = {};
    }
    const ending = `${task.reference?.finish ?? ''} ${task.reference?.stop ?? ''}`;
    const sayMissing = (script: string) =>
      ending
        .split(/(?<=[.!?])\s+/)
        .some((sentence) => sentence.includes(script) && /\b(?:no|not|missing|lacks|isn't|doesn't|does not|there is no)\b/i.test(sentence));
    const places: Array<[string, string]> = [
      ['prompt', task.prompt],
      ...(task.memory ?? []).map((note): [string, string] => ['memory', typeof note === 'string' ? note : note.text]),
      ...(task.reference?.steps ?? []).flatMap((step, index): Array<[string, string]> => {
        const { tool, args } = (step ?? {}) as { tool?: unknown; args?: { cmd?: unknown } };
        return tool === 'run' && typeof args?.cmd === 'string' ? [[`reference step ${index + 1}`, args.cmd]] : [];
      }),
    ];
    const seen = new Set<string>();
    for (const [where, text] of places) {
      for (const script of scriptsNamed(text)) {
        if (Object.hasOwn(scripts, script) || seen.has(script) || sayMissing(script)) continue;
        seen.add(script);
        found.push({ task: task.id, script, where });
      }
    }
  }
  return found;
}
