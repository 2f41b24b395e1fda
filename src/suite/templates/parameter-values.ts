// The parameter values of each variant of a template: combinations of the value lists, generators drawn per variant.
import { MAX_VARIANTS_PER_TEMPLATE, type Parameter, type Template } from './template-schema.js';
import { drawIndex, seededDraw, shuffledIndices, type Draw } from './seeded-random.js';

/** A parameter's value in one variant: a scalar, or a mapping read as ${name.field}. */
export type ParameterValue = string | number | boolean | Record<string, string | number | boolean>;
/** One variant's parameter values, by parameter name. */
export type VariantValues = Record<string, ParameterValue>;

const DAY_MS = 86_400_000;

/** One value of a generator parameter. */
function generated(parameter: Exclude<Parameter, { values: unknown }>, draw: Draw): ParameterValue {
  switch (parameter.generate) {
    case 'integer':
      return parameter.min + drawIndex(draw, parameter.max - parameter.min + 1);
    case 'decimal': {
      const scale = 10 ** parameter.places;
      const low = Math.ceil(parameter.min * scale);
      const high = Math.floor(parameter.max * scale);
      return (low + drawIndex(draw, Math.max(1, high - low + 1))) / scale;
    }
    case 'sha':
      return Array.from({ length: parameter.length }, () => '0123456789abcdef'[drawIndex(draw, 16)]).join('');
    case 'date': {
      const from = Date.parse(`${parameter.from}T00:00:00Z`);
      const days = Math.round((Date.parse(`${parameter.to}T00:00:00Z`) - from) / DAY_MS);
      return new Date(from + drawIndex(draw, days + 1) * DAY_MS).toISOString().slice(0, 10);
    }
    default: {
      const unhandled: never = parameter;
      throw new Error(`unhandled generator ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * The values of every variant of `template`, in variant order. List parameters: without `variants`, every
 * combination (the first parameter varies slowest); with `variants: n`, n distinct combinations in a seeded order
 * (combinations repeat, in a new seeded order, only when n exceeds their number). Generators are drawn per variant
 * from (seed, family, variant index), so a variant's values do not depend on how many variants there are.
 * Returns an error message (not a throw) when the template would make more than MAX_VARIANTS_PER_TEMPLATE.
 */
export function variantValues(template: Template): { ok: true; variants: VariantValues[] } | { ok: false; message: string } {
  const lists = Object.entries(template.parameters).flatMap(([name, parameter]) => ('values' in parameter ? [{ name, values: parameter.values }] : []));
  const generators = Object.entries(template.parameters).flatMap(([name, parameter]) => ('values' in parameter ? [] : [{ name, parameter }]));
  const combinations = lists.reduce((product, list) => product * list.values.length, 1);
  const count = template.variants ?? combinations;
  if (count > MAX_VARIANTS_PER_TEMPLATE || (template.variants === undefined && combinations > MAX_VARIANTS_PER_TEMPLATE)) {
    return { ok: false, message: `${count} variants exceed the limit of ${MAX_VARIANTS_PER_TEMPLATE} per template; give \`variants\` to draw fewer` };
  }
  const names = Object.keys(template.parameters);
  const combinationOf = (index: number): VariantValues => {
    const values: VariantValues = Object.fromEntries(names.map((name) => [name, '']));
    let rest = index;
    for (let i = lists.length - 1; i >= 0; i -= 1) {
      const list = lists[i] as (typeof lists)[number];
      values[list.name] = list.values[rest % list.values.length] as ParameterValue;
      rest = Math.floor(rest / list.values.length);
    }
    return values;
  };
  const order: number[] = [];
  for (let round = 0; order.length < count; round += 1) {
    const indices =
      template.variants === undefined
        ? Array.from({ length: combinations }, (_, i) => i)
        : shuffledIndices(seededDraw(template.seed, template.family, 'order', round), combinations);
    order.push(...indices.slice(0, count - order.length));
  }
  const variants = order.map((combination, variant) => {
    const draw = seededDraw(template.seed, template.family, variant);
    const values = combinationOf(combination);
    for (const { name, parameter } of generators) values[name] = generated(parameter, draw);
    return values;
  });
  return { ok: true, variants };
}
