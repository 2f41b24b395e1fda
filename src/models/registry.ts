// Turns model specs ("scripted", "scripted:faults=…", "ollama:qwen3:8b") into ChatModel instances.
import { ROLES, type ChatModel, type Role } from './types.js';
import { ScriptedModel, type ScriptedTask } from './scripted.js';
import { FAULT_NAMES } from './scripted-faults.js';

/** Thrown for a model spec the harness does not know (a usage error: exit 2). */
export class ModelSpecError extends Error {
  override readonly name = 'ModelSpecError';
}

export type ModelSpec = { backend: 'scripted'; faults: string[] } | { backend: 'ollama'; model: string } | { backend: 'openai'; model: string };

/** Parses one model spec. Throws ModelSpecError naming the spec and the known backends. */
export function parseModelSpec(spec: string): ModelSpec {
  if (spec === 'scripted') return { backend: 'scripted', faults: [] };
  if (spec.startsWith('scripted:')) {
    const rest = spec.slice('scripted:'.length);
    const match = /^faults=(.+)$/.exec(rest);
    if (!match) throw new ModelSpecError(`unknown scripted option "${rest}" in model "${spec}"; use scripted or scripted:faults=role.mode[,…]`);
    return {
      backend: 'scripted',
      faults: match[1]!
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    };
  }
  if (spec.startsWith('ollama:')) {
    const model = spec.slice('ollama:'.length);
    if (model === '') throw new ModelSpecError(`model "${spec}" names no Ollama model; e.g. ollama:qwen3:8b`);
    return { backend: 'ollama', model };
  }
  if (spec.startsWith('openai:')) {
    const model = spec.slice('openai:'.length);
    if (model === '') throw new ModelSpecError(`model "${spec}" names no model; e.g. openai:Qwen/Qwen3-8B (the id the server lists at /v1/models)`);
    return { backend: 'openai', model };
  }
  throw new ModelSpecError(`unknown model "${spec}"; known backends: scripted, scripted:faults=…, ollama:<model>, openai:<model>`);
}

/** Resolves the spec for every role: a per-role override, else the default. */
export function modelSpecsByRole(defaultSpec: string, overrides: Partial<Record<Role, string>>): Record<Role, string> {
  return Object.fromEntries(ROLES.map((role) => [role, overrides[role] ?? defaultSpec])) as Record<Role, string>;
}

export interface ModelFactoryDeps {
  tasks: ScriptedTask[];
  /** Builds a real backend; injected so tests and the CLI choose how (host, options, cache). */
  ollama?: (model: string) => ChatModel;
  /** Builds an OpenAI-compatible backend (vLLM, llama.cpp server, LM Studio, LiteLLM). */
  openai?: (model: string) => ChatModel;
}

/** Throws ModelSpecError naming the first unknown fault in `spec` and listing the known ones. */
export function checkFaults(faults: readonly string[], spec: string): void {
  const unknown = faults.filter((fault) => !FAULT_NAMES.includes(fault));
  if (unknown.length > 0) {
    throw new ModelSpecError(`unknown fault ${unknown.map((f) => `"${f}"`).join(', ')} in model "${spec}"; known faults: ${FAULT_NAMES.join(', ')}`);
  }
}

/**
 * Builds one ChatModel per distinct spec and maps roles onto them. Throws ModelSpecError for unknown
 * specs or faults (`faultCheck` may add its own checks), and when an Ollama model is named but no Ollama
 * factory was given.
 */
export function buildModels(specs: Record<Role, string>, deps: ModelFactoryDeps, faultCheck?: (faults: string[]) => void): Record<Role, ChatModel> {
  const bySpec = new Map<string, ChatModel>();
  const build = (spec: string): ChatModel => {
    const parsed = parseModelSpec(spec);
    if (parsed.backend === 'scripted') {
      checkFaults(parsed.faults, spec);
      faultCheck?.(parsed.faults);
      return new ScriptedModel(deps.tasks, parsed.faults);
    }
    if (parsed.backend === 'openai') {
      if (!deps.openai) throw new ModelSpecError(`model "${spec}" needs the OpenAI-compatible backend, which this command does not provide`);
      return deps.openai(parsed.model);
    }
    if (!deps.ollama) throw new ModelSpecError(`model "${spec}" needs the Ollama backend, which this command does not provide`);
    return deps.ollama(parsed.model);
  };
  return Object.fromEntries(
    ROLES.map((role) => {
      const spec = specs[role];
      let model = bySpec.get(spec);
      if (!model) {
        model = build(spec);
        bySpec.set(spec, model);
      }
      return [role, model];
    }),
  ) as Record<Role, ChatModel>;
}
