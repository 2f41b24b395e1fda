// The JSON Schema of the suite format for editors (tasks/suite.schema.json), generated from the zod `Suite`.
import { z } from 'zod';
import { Suite } from './schema.js';

/** Identifier of the generated schema (`$id`). */
export const SUITE_SCHEMA_ID = 'urn:stratbench:suite-schema:1';

/**
 * The suite format as a draft 2020-12 JSON Schema object: `z.toJSONSchema(Suite, { io: 'input' })` (defaults
 * make keys optional, as an author writes them) with `$id`, `title` and `description` added.
 */
export function suiteJsonSchema(): Record<string, unknown> {
  const { $schema, ...body } = z.toJSONSchema(Suite, { io: 'input', unrepresentable: 'any' });
  return {
    $schema,
    $id: SUITE_SCHEMA_ID,
    title: 'stratbench task suite',
    description:
      'A stratbench suite: shared repository fixtures and tasks with checks and trajectories. Generated from src/suite/schema.ts by scripts/generate-json-schema.ts; do not edit.',
    ...body,
  };
}

/** `suiteJsonSchema()` as the text of tasks/suite.schema.json (2-space indent, trailing newline). */
export function suiteJsonSchemaText(): string {
  return `${JSON.stringify(suiteJsonSchema(), null, 2)}\n`;
}
