// The committed editor schema (tasks/suite.schema.json) is exactly what the zod suite schema generates, with the loader's
// structural rules written in (tests/suite-json-schema-ajv.test.ts runs Ajv over the suites the loader rejects).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SUITE_SCHEMA_ID, suiteJsonSchema, suiteJsonSchemaText } from '../src/suite/suite-json-schema.js';

describe('tasks/suite.schema.json', () => {
  it('matches freshly generated output (run `npm run schema` after changing src/suite/schema.ts)', async () => {
    const committed = await readFile(new URL('../tasks/suite.schema.json', import.meta.url), 'utf8');
    expect(committed).toBe(suiteJsonSchemaText());
  });

  it('describes the suite as an author writes it: defaulted keys optional, unknown keys refused', () => {
    const schema = suiteJsonSchema() as {
      $id: string;
      $schema: string;
      required: string[];
      anyOf: unknown[];
      additionalProperties: boolean;
      properties: Record<string, unknown>;
    };
    expect(schema.$id).toBe(SUITE_SCHEMA_ID);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    // `tasks` may be left out (or empty) when `templates` add the tasks: one of the two is a non-empty list.
    expect(schema.required).toEqual(['name', 'fixtures']);
    expect(schema.anyOf).toEqual([
      { required: ['tasks'], properties: { tasks: { type: 'array', minItems: 1 } } },
      { required: ['templates'], properties: { templates: { type: 'array', minItems: 1 } } },
    ]);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(['version', 'name', 'description', 'groups', 'synonyms', 'fixtures', 'templates', 'rejected', 'tasks']);
  });
});
