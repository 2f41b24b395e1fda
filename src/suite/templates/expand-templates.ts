// Template expansion on the parsed YAML document: each variant is a copy of the template's task node with its
// ${…} placeholders filled, appended to `tasks`, so every later error still points into the template's lines.
import { isMap, isScalar, isSeq, Scalar, YAMLSeq, type Node } from 'yaml';
import { schemaIssueErrors } from '../schema-issues.js';
import { formatPath, type SuiteError } from '../suite-error.js';
import { errorAt, lineColAt, type YamlSource } from '../yaml-source.js';
import { variantValues, type ParameterValue, type VariantValues } from './parameter-values.js';
import { Template } from './template-schema.js';

/** Where a generated task came from: its template's index in `templates`, its family and its variant number (1-based). */
export interface VariantOrigin {
  template: number;
  family: string;
  id: string;
}

/** The outcome of expanding a document's templates: the origin of each appended task, by its index in `tasks`. */
export type ExpansionResult = { ok: true; origins: Map<number, VariantOrigin> } | { ok: false; errors: SuiteError[] };

/** `${name}` or `${name.field}`; `$${…}` is an escaped, literal `${…}` (a JavaScript template literal in a file). */
const PLACEHOLDER = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_-]*))?\}/g;
const WHOLE_PLACEHOLDER = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_-]*))?\}$/;

/** The value a placeholder stands for, or an error message naming what is missing. */
function lookUp(
  values: VariantValues,
  name: string,
  field: string | undefined,
): { ok: true; value: string | number | boolean } | { ok: false; message: string } {
  if (!Object.hasOwn(values, name)) return { ok: false, message: `unknown parameter \${${name}}; declared: ${Object.keys(values).join(', ') || '(none)'}` };
  const value = values[name] as ParameterValue;
  if (typeof value === 'object') {
    if (field === undefined)
      return { ok: false, message: `parameter ${name} holds mappings: name a field, e.g. \${${name}.${Object.keys(value)[0] ?? 'field'}}` };
    if (!Object.hasOwn(value, field))
      return { ok: false, message: `parameter ${name} has no field ${field} in every value; fields: ${Object.keys(value).join(', ')}` };
    return { ok: true, value: value[field] as string | number | boolean };
  }
  if (field !== undefined) return { ok: false, message: `parameter ${name} is a ${typeof value}, it has no field ${field}` };
  return { ok: true, value };
}

/** How deep a value may hold placeholders of its own (a wording naming ${file.path}). */
const MAX_NESTING = 4;

/** `text` with its placeholders filled (values' own placeholders too, MAX_NESTING deep) and `$${` unescaped. */
function expandText(text: string, values: VariantValues, depth: number, errors: string[]): string {
  return text.replace(PLACEHOLDER, (match, name: string | undefined, field: string | undefined) => {
    if (name === undefined) return '${';
    const found = lookUp(values, name, field);
    if (!found.ok) {
      errors.push(found.message);
      return match;
    }
    const value = found.value;
    return typeof value === 'string' && depth < MAX_NESTING && value.includes('${') ? expandText(value, values, depth + 1, errors) : String(value);
  });
}

/**
 * Fills the placeholders of one scalar in place: a scalar that is exactly one placeholder takes the value's type
 * (a number stays a number); otherwise the values are written into the text. Returns the error messages.
 */
function fill(scalar: Scalar, values: VariantValues): string[] {
  if (typeof scalar.value !== 'string' || !scalar.value.includes('${')) return [];
  const errors: string[] = [];
  const whole = WHOLE_PLACEHOLDER.exec(scalar.value);
  const found = whole ? lookUp(values, whole[1] as string, whole[2]) : undefined;
  if (found?.ok && typeof found.value !== 'string') scalar.value = found.value;
  else scalar.value = expandText(scalar.value, values, 0, errors);
  return errors;
}

/** Every scalar (keys included) under `node`, with the path to it inside the task. */
function* scalars(node: unknown, path: (string | number)[]): Generator<{ scalar: Scalar; path: (string | number)[] }> {
  if (isScalar(node)) yield { scalar: node, path };
  else if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (isScalar(pair.key)) yield { scalar: pair.key, path: [...path, key] };
      yield* scalars(pair.value, [...path, key]);
    }
  } else if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) yield* scalars(item, [...path, index]);
  }
}

/**
 * Expands the `templates` of a parsed suite document into tasks appended to its `tasks` sequence (created when
 * absent) and removes `templates`. Variant n of family f gets `id: f-vN` (N from 1, zero-padded to the widest)
 * and `family: f`. `$${` writes a literal `${` (e.g. a JavaScript template literal in a file). Errors: a template that fails its schema, more variants than allowed, an unknown placeholder or
 * field — each located at the template's line and column. Deterministic: same document, same variants.
 */
export function expandTemplates(source: YamlSource): ExpansionResult {
  const doc = source.doc;
  const templatesNode = doc.get('templates', true);
  const origins = new Map<number, VariantOrigin>();
  if (templatesNode === undefined) return { ok: true, origins };
  const data: unknown = (templatesNode as { toJS(doc: unknown): unknown }).toJS(doc);
  const templates = Template.array().safeParse(data);
  if (!templates.success) {
    const issues = templates.error.issues.map((issue) => ({ ...issue, path: ['templates', ...issue.path] }));
    return { ok: false, errors: schemaIssueErrors(source, issues, { templates: data }) };
  }
  let tasksNode = doc.get('tasks', true);
  if (tasksNode === undefined) {
    tasksNode = new YAMLSeq();
    doc.set('tasks', tasksNode);
  }
  if (!isSeq(tasksNode)) return { ok: false, errors: [errorAt(source, ['tasks'], '`tasks` must be a list when the suite has templates')] };
  const errors: SuiteError[] = [];
  const templateNodes = isSeq(templatesNode) ? templatesNode.items : [];
  for (const [index, template] of templates.data.entries()) {
    const expanded = variantValues(template);
    if (!expanded.ok) {
      errors.push(errorAt(source, ['templates', index, 'variants'], expanded.message));
      continue;
    }
    const taskNode = (templateNodes[index] as { get?: (key: string, keepNode: true) => unknown } | undefined)?.get?.('task', true);
    if (!isMap(taskNode)) continue;
    const width = String(expanded.variants.length).length;
    const reported = new Set<string>();
    for (const [variant, values] of expanded.variants.entries()) {
      const copy = taskNode.clone();
      for (const { scalar, path } of scalars(copy, [])) {
        for (const message of fill(scalar, values)) {
          const at = lineColAt(source, scalar.range?.[0] ?? 0);
          const key = `${at.line}:${at.col}:${message}`;
          if (reported.has(key)) continue;
          reported.add(key);
          errors.push({ file: source.file, ...at, path: formatPath(['templates', index, 'task', ...path]), message });
        }
      }
      const id = `${template.family}-v${String(variant + 1).padStart(width, '0')}`;
      copy.items.unshift(doc.createPair('id', id), doc.createPair('family', template.family));
      origins.set(tasksNode.items.length, { template: index, family: template.family, id });
      tasksNode.items.push(copy as Node);
    }
  }
  doc.delete('templates');
  return errors.length > 0 ? { ok: false, errors } : { ok: true, origins };
}

/**
 * Rewrites the errors about generated tasks (path `tasks[k]…`) to name their template and variants: the position
 * already points into the template's lines; the path becomes `templates[j].task…`, and one error shared by several
 * variants is reported once, naming them (`(variants f-v1, f-v2, f-v3 and 5 more)`). Other errors pass unchanged.
 */
export function locateTemplateErrors(errors: readonly SuiteError[], origins: ReadonlyMap<number, VariantOrigin>): SuiteError[] {
  const merged = new Map<string, { error: SuiteError; variants: string[] }>();
  const result: (SuiteError | { key: string })[] = [];
  for (const error of errors) {
    const match = /^tasks\[(\d+)\]/.exec(error.path);
    const origin = match ? origins.get(Number(match[1])) : undefined;
    if (match === null || origin === undefined) {
      result.push(error);
      continue;
    }
    const located = { ...error, path: `templates[${origin.template}].task${error.path.slice(match[0].length)}` };
    const key = `${located.line}:${located.col}\u0000${located.path}\u0000${located.message}`;
    const entry = merged.get(key);
    if (entry) entry.variants.push(origin.id);
    else {
      merged.set(key, { error: located, variants: [origin.id] });
      result.push({ key });
    }
  }
  return result.map((item) => {
    if (!('key' in item)) return item;
    const { error, variants } = merged.get(item.key) as { error: SuiteError; variants: string[] };
    const named = variants.length <= 4 ? variants.join(', ') : `${variants.slice(0, 3).join(', ')} and ${variants.length - 3} more`;
    return { ...error, message: `${error.message} (${variants.length === 1 ? 'variant' : 'variants'} ${named})` };
  });
}
