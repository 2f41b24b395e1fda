// The `templates:` section of a suite: a task family with parameters (value lists or seeded generators) and a task body.
import { z } from 'zod';

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is YYYY-MM-DD');

/** One parameter: a list of values (scalars, or mappings read as `${name.key}`) or a seeded generator. */
export const Parameter = z.union([
  z.strictObject({
    values: z
      .array(z.union([z.string(), z.number(), z.boolean(), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))]))
      .min(1, 'a parameter needs at least one value')
      .describe('Values taken in turn (all combinations) or drawn (with `variants`); a mapping is read field by field as ${name.field}'),
  }),
  z.strictObject({
    generate: z.literal('integer'),
    min: z.number().int(),
    max: z.number().int(),
  }),
  z.strictObject({
    generate: z.literal('decimal').describe('A number with `places` decimals, uniform in [min, max]'),
    min: z.number(),
    max: z.number(),
    places: z.number().int().min(0).max(6).default(2),
  }),
  z.strictObject({
    generate: z.literal('sha').describe('Lowercase hex digits, e.g. a short commit sha'),
    length: z.number().int().min(7).max(40).default(7),
  }),
  z.strictObject({
    generate: z.literal('date').describe('A day (YYYY-MM-DD), uniform in [from, to]'),
    from: isoDay,
    to: isoDay,
  }),
]);
export type Parameter = z.infer<typeof Parameter>;

/** A task template: `family` names the variants' cluster; `task` is a task without `id` and `family`, with ${…} placeholders. */
export const Template = z
  .strictObject({
    family: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'family is kebab-case (variant ids are `<family>-v<n>`)'),
    seed: z.number().int().default(1).describe('Seeds the generators and the draw of combinations; same seed, same variants'),
    variants: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('How many variants to draw; absent: every combination of the value lists (generators drawn per variant)'),
    parameters: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a parameter name is an identifier'), Parameter),
    task: z.record(z.string(), z.unknown()).describe('The task body: every key of a task except `id` and `family`, which each variant gets'),
  })
  .superRefine((template, ctx) => {
    for (const key of ['id', 'family']) {
      if (Object.hasOwn(template.task, key))
        ctx.addIssue({ code: 'custom', path: ['task', key], message: `a template's task has no \`${key}\`: each variant gets one` });
    }
    for (const [name, parameter] of Object.entries(template.parameters)) {
      if ('min' in parameter && parameter.min > parameter.max) ctx.addIssue({ code: 'custom', path: ['parameters', name, 'min'], message: 'min is above max' });
      if ('from' in parameter && parameter.from > parameter.to)
        ctx.addIssue({ code: 'custom', path: ['parameters', name, 'from'], message: 'from is after to' });
    }
  });
export type Template = z.infer<typeof Template>;

/** Most variants one template may produce (a runaway product of value lists is an authoring error). */
export const MAX_VARIANTS_PER_TEMPLATE = 10_000;
