// Roles a strategy module declares beyond the seven built-in ones (issue 28 §1): name, component, prompt, model.
import { createHash } from 'node:crypto';
import { DECLARED_ROLE_NAME, ROLES, RoleComponent, type Role } from '../records/index.js';
import type { PromptTemplate } from './prompts.js';

/**
 * A role as a module declares it in `defineStrategy({ roles: [...] })`.
 * - `name`: kebab case, 1–40 characters, not a built-in role's name; the trace's model calls carry it.
 * - `component`: what attribution judges its replies as — `planner`, `executor`, `replanner`, `reporter`, `agent`,
 *   `gate` (that role's rules read its calls, decision 0004) or `none` (no rule: a failure resting on its output is
 *   `unattributed.no_rule`, never a guess).
 * - `prompt`: the role's prompt template, inline, like a file in prompts/ (`{{tools}}` and `{{schema}}` are filled in);
 *   its sha256 is on every model call, and editing it edits the module (a resumed run refuses a changed module).
 * - `model`: the built-in role whose model (`--<role>-model`, else `--model`) serves it, and whose chat options it
 *   gets; default: the component's role, `agent` for `none`.
 */
export interface RoleDeclaration {
  name: string;
  component: RoleComponent;
  prompt: string;
  model?: Role;
}

/** A declared role as a strategy holds it: checked, its model role settled, its prompt hashed. */
export interface DeclaredRole {
  readonly name: string;
  readonly component: RoleComponent;
  readonly model: Role;
  readonly prompt: PromptTemplate;
}

/**
 * The state a declared role's prompt is rendered from: whatever the strategy shows it, with the role's name and the
 * task. For the scripted model (and the counterfactual's oracle) to answer it, give it the fields of its model role's
 * view (e.g. `history` and `tool_calls_left` for a role served by the agent's model): they answer it as that role.
 */
export interface DeclaredRoleView {
  role: string;
  task_id: string;
  prompt: string;
  [field: string]: unknown;
}

/**
 * Checks one declaration and settles it. Throws a TypeError naming the problem (`where` prefixes it): a name that is
 * not kebab case or is a built-in role's, a component not in RoleComponent, a prompt that is not a non-empty string, a
 * model that is not a built-in role.
 */
export function declareRole(declaration: RoleDeclaration, where: string): DeclaredRole {
  const { name, component, prompt, model } = declaration ?? ({} as RoleDeclaration);
  if (typeof name !== 'string' || name.length > 40 || !DECLARED_ROLE_NAME.test(name))
    throw new TypeError(
      `${where}: a declared role's name must be kebab case (lower-case letters and digits joined by dashes, 1–40 characters), got ${JSON.stringify(name)}`,
    );
  if ((ROLES as readonly string[]).includes(name))
    throw new TypeError(`${where}: declared role ${name} clashes with the built-in role of that name (list it as '${name}' to use the built-in one)`);
  if (!RoleComponent.safeParse(component).success)
    throw new TypeError(`${where}: declared role ${name}: component must be one of ${RoleComponent.options.join(', ')}, got ${JSON.stringify(component)}`);
  if (typeof prompt !== 'string' || prompt.trim() === '')
    throw new TypeError(`${where}: declared role ${name}: prompt must be the role's prompt template (non-empty text; {{tools}} and {{schema}} are filled in)`);
  if (model !== undefined && !(ROLES as readonly string[]).includes(model))
    throw new TypeError(
      `${where}: declared role ${name}: model must be a built-in role whose model serves it (${ROLES.join(', ')}), got ${JSON.stringify(model)}`,
    );
  return Object.freeze({
    name,
    component,
    model: model ?? (component === 'none' ? 'agent' : component),
    prompt: Object.freeze({ template: prompt, sha256: createHash('sha256').update(prompt).digest('hex') }),
  });
}

/** Each declared role's component, by name (what attribution reads). */
export const declaredComponents = (roles: readonly DeclaredRole[] | undefined): Record<string, RoleComponent> =>
  Object.fromEntries((roles ?? []).map((role) => [role.name, role.component]));
