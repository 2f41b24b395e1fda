// The committed editor schema (tasks/suite.schema.json) is exactly what the zod suite schema generates.
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
      additionalProperties: boolean;
      properties: Record<string, unknown>;
    };
    expect(schema.$id).toBe(SUITE_SCHEMA_ID);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.required).toEqual(['name', 'fixtures', 'tasks']);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(['version', 'name', 'description', 'groups', 'synonyms', 'fixtures', 'templates', 'rejected', 'tasks']);
  });
});
