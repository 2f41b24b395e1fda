// The JSON Schema of the suite format for editors (tasks/suite.schema.json), generated from the zod `Suite`, with the
// loader's structural rules that zod refinements hold (and z.toJSONSchema drops) written back in as JSON Schema.
import { z } from 'zod';
import { argsSchema, TOOL_NAMES, TOOLS } from '../tools/index.js';
import { RepoSpec } from '../sim-repo/spec.js';
import { Check, Counterexample, RepoOverrides, Suite, Trajectory, TrajectoryStep } from './schema.js';
import { MAX_VARIANTS_PER_TEMPLATE, Template } from './templates/template-schema.js';

/** Identifier of the generated schema (`$id`). */
export const SUITE_SCHEMA_ID = 'urn:stratbench:suite-schema:1';

/**
 * How many leading steps of a trajectory the schema checks `after` on (step i may name only steps 0..i-1). JSON
 * Schema reaches an item's index only through `prefixItems`, one entry per position; past this the loader alone checks
 * it (the longest shipped trajectory has 10 steps, a plan at most 12, plan-replan at most 16 tool calls).
 */
export const AFTER_CHECKED_STEPS = 64;

/**
 * A string `Number()` reads as a finite number (what an `answer_value` check of `type: number` requires of each
 * expected value, src/suite/schema.ts): optional white space around a decimal literal (sign, digits, point,
 * exponent), a 0x / 0o / 0b literal, or nothing (`Number(" ")` is 0). JavaScript's `\s` is the white space
 * `Number()` trims. Not expressible: a literal past ±1.8e308 (`1e400`), which `Number()` reads as Infinity.
 */
export const FINITE_NUMBER_TEXT = String.raw`^\s*(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+)?\s*$`;

type JsonSchema = Record<string, unknown>;

/**
 * A finite JSON Schema number: `type: number` bounded by ±Number.MAX_VALUE. A YAML suite can hold `.inf`, `-.inf` and
 * `.nan`, which JSON cannot; zod's `z.number()` refuses them, and so does Ajv's `type: number` (its default
 * strictNumbers), but a validator that checks `type` with `typeof` passes them. The bounds refuse ±Infinity in any
 * validator and NaN in Ajv (`maximum` fails on isNaN); no keyword refuses NaN where every comparison with it is false.
 */
export const FINITE_NUMBER = { type: 'number', minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE } as const;

/** `$defs` key of a tool's argument schema. */
const toolArgsDef = (tool: string): string => `tool_args_${tool}`;
const STEPS_AFTER_DEF = 'steps_after_earlier';

/** Exactly one of `keys` is present. */
const exactlyOneOf = (keys: readonly string[]): JsonSchema => ({ oneOf: keys.map((key) => ({ required: [key] })) });

const properties = (schema: JsonSchema): Record<string, JsonSchema> => schema['properties'] as Record<string, JsonSchema>;

/** A JSON Schema if/then(/else), built by key: biome reads a literal `then` property as a thenable object. */
function conditional(condition: JsonSchema, consequence: JsonSchema, alternative?: JsonSchema): JsonSchema {
  return Object.fromEntries([['if', condition], ['then', consequence], ...(alternative === undefined ? [] : [['else', alternative]])]);
}

/** Adds `items` to the schema's `allOf` (created when absent), each once: one emitted schema may be shared (trajectory and counterexample share `steps`). */
function allOf(schema: JsonSchema, ...items: JsonSchema[]): void {
  const present = (schema['allOf'] as JsonSchema[] | undefined) ?? [];
  const known = new Set(present.map((item) => JSON.stringify(item)));
  schema['allOf'] = [...present, ...items.filter((item) => !known.has(JSON.stringify(item)))];
}

/** A trajectory ends with exactly one of `finish` or `stop`; its steps' `after` name earlier steps (see exactlyOneEnding, trajectoryErrors). */
function trajectoryRules(schema: JsonSchema): void {
  Object.assign(schema, exactlyOneOf(['finish', 'stop']));
  allOf(properties(schema)['steps'] as JsonSchema, { $ref: `#/$defs/${STEPS_AFTER_DEF}` });
}

/** A word check takes exactly one of `text`, `any_of`, `pattern`, and `flags` only with `pattern` (see wordCheckIssues). */
function wordCheckRules(schema: JsonSchema): void {
  Object.assign(schema, exactlyOneOf(['text', 'any_of', 'pattern']), { dependentRequired: { flags: ['pattern'] } });
}

/** The structural rules of each check kind that a zod refinement holds, by kind. */
const CHECK_RULES: Partial<Record<Check['check'], (schema: JsonSchema) => void>> = {
  file_contains: (schema) => Object.assign(schema, exactlyOneOf(['text', 'pattern']), { dependentRequired: { flags: ['pattern'] } }),
  answer_contains: wordCheckRules,
  message_mentions: wordCheckRules,
  answer_value: (schema) => {
    const finite = { type: 'string', pattern: FINITE_NUMBER_TEXT };
    const number = { ...FINITE_NUMBER };
    allOf(
      schema,
      // `path` is given exactly when `on: file`.
      conditional({ properties: { on: { const: 'file' } }, required: ['on'] }, { required: ['path'] }, { not: { required: ['path'] } }),
      // A number's expected values read as finite numbers.
      conditional(
        { properties: { type: { const: 'number' } }, required: ['type'] },
        { properties: { expect: { anyOf: [number, finite, { type: 'array', items: { anyOf: [number, finite] } }] } } },
      ),
    );
    // `forms` applies to text and path values.
    schema['dependentSchemas'] = { forms: { properties: { type: { type: 'string', enum: ['text', 'path'] } } } };
  },
};

/** Every number zod emits is finite (z.number() refuses ±Infinity and NaN): the side of FINITE_NUMBER's bounds it lacks is added. */
function finiteNumber(zodSchema: unknown, schema: JsonSchema): void {
  if ((zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type !== 'number' || schema['type'] !== 'number' || 'const' in schema) return;
  if (!('minimum' in schema) && !('exclusiveMinimum' in schema)) schema['minimum'] = FINITE_NUMBER.minimum;
  if (!('maximum' in schema) && !('exclusiveMaximum' in schema)) schema['maximum'] = FINITE_NUMBER.maximum;
}

/** The file maps (a fixture's and a task override's `files` and `hidden_files`): a key is a file path, never "" (filesInsideRepo). */
const FILE_MAPS: unknown[] = [RepoSpec.shape.files, RepoSpec.shape.hidden_files, RepoOverrides.shape.files, RepoOverrides.shape.hidden_files].map((field) =>
  field.unwrap(),
);

/** The JSON Schema patches by the zod schema they complete (z.toJSONSchema's `override` sees each zod schema it emits). */
function structuralRules(): Map<unknown, (schema: JsonSchema) => void> {
  const rules = new Map<unknown, (schema: JsonSchema) => void>();
  for (const option of Check.options) {
    const rule = CHECK_RULES[option.shape.check.value];
    if (rule) rules.set(option, rule);
  }
  for (const map of FILE_MAPS)
    rules.set(map, (schema) => Object.assign(schema, { propertyNames: { ...(schema['propertyNames'] as JsonSchema), minLength: 1 } }));
  rules.set(Trajectory, trajectoryRules);
  rules.set(Counterexample, trajectoryRules);
  // A step's args are what its tool's own argument schema accepts (src/tools; see taskSemanticErrors); absent args are {}.
  rules.set(TrajectoryStep, (schema) =>
    allOf(
      schema,
      ...TOOL_NAMES.map((tool) => {
        const needsArgs = ((argsSchema(TOOLS[tool]) as { required?: string[] }).required ?? []).length > 0;
        return conditional(
          { properties: { tool: { const: tool } }, required: ['tool'] },
          { properties: { args: { $ref: `#/$defs/${toolArgsDef(tool)}` } }, ...(needsArgs ? { required: ['args'] } : {}) },
        );
      }),
    ),
  );
  rules.set(Template, (schema) => {
    const fields = properties(schema);
    // The cap on variants (expandTemplates); a product of value lists over it is found by the loader only.
    (fields['variants'] as JsonSchema)['maximum'] = MAX_VARIANTS_PER_TEMPLATE;
    // A template's task has no `id` or `family`: each variant gets them.
    const task = fields['task'] as JsonSchema;
    task['propertyNames'] = { ...(task['propertyNames'] as JsonSchema), not: { enum: ['id', 'family'] } };
  });
  rules.set(Suite, (schema) => {
    // `tasks` may be absent or empty when `templates` add the tasks (expandTemplates creates the list); one of them is not empty.
    schema['required'] = (schema['required'] as string[]).filter((key) => key !== 'tasks');
    delete properties(schema)['tasks']?.['minItems'];
    schema['anyOf'] = [
      { required: ['tasks'], properties: { tasks: { type: 'array', minItems: 1 } } },
      { required: ['templates'], properties: { templates: { type: 'array', minItems: 1 } } },
    ];
  });
  return rules;
}

/** `$defs` the rules refer to: each tool's argument schema (`argsSchema`, from the tool's zod schema) and the `after` bounds. */
function ruleDefinitions(): Record<string, JsonSchema> {
  const tools = Object.fromEntries(TOOL_NAMES.map((tool) => [toolArgsDef(tool), argsSchema(TOOLS[tool])]));
  const after = {
    description: `Step i's \`after\` names only earlier steps (0..i-1); checked on the first ${AFTER_CHECKED_STEPS} steps (the loader checks them all)`,
    type: 'array',
    prefixItems: Array.from({ length: AFTER_CHECKED_STEPS }, (_, index) => ({
      type: 'object',
      properties: { after: { type: 'array', items: { type: 'integer', exclusiveMaximum: index } } },
    })),
  };
  return { ...tools, [STEPS_AFTER_DEF]: after };
}

/**
 * The suite format as a draft 2020-12 JSON Schema object: `z.toJSONSchema(Suite, { io: 'input' })` (defaults make keys
 * optional, as an author writes them) with `$id`, `title` and `description` added, and the loader's structural rules
 * that zod refinements hold written in (oneOf / dependentRequired / if-then; tool arguments by each tool's own schema).
 * Structural only: what needs code (a path in the fixture, a pattern that compiles, unique ids, a fixture or group that
 * is defined, a reference that passes) is left to `stratbench validate`; tests/suite-json-schema-ajv.test.ts lists both.
 */
export function suiteJsonSchema(): Record<string, unknown> {
  const rules = structuralRules();
  const { $schema, $defs, ...body } = z.toJSONSchema(Suite, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      finiteNumber(ctx.zodSchema, ctx.jsonSchema as JsonSchema);
      rules.get(ctx.zodSchema)?.(ctx.jsonSchema as JsonSchema);
    },
  }) as JsonSchema;
  return {
    $schema,
    $id: SUITE_SCHEMA_ID,
    title: 'stratbench task suite',
    description:
      'A stratbench suite: shared repository fixtures and tasks with checks and trajectories. Structural only: `stratbench validate` also checks what needs code (paths in the fixture, patterns that compile, unique ids, defined fixtures and groups, references that pass). Generated from src/suite/schema.ts by scripts/generate-json-schema.ts; do not edit.',
    ...body,
    $defs: { ...($defs as JsonSchema | undefined), ...ruleDefinitions() },
  };
}

/** `suiteJsonSchema()` as the text of tasks/suite.schema.json (2-space indent, trailing newline). */
export function suiteJsonSchemaText(): string {
  return `${JSON.stringify(suiteJsonSchema(), null, 2)}\n`;
}
