// Writes tasks/suite.schema.json from the zod suite schema (`npm run schema`); a test fails when it is stale.
import { writeFile } from 'node:fs/promises';
import { suiteJsonSchemaText } from '../src/suite/suite-json-schema.js';

const target = new URL('../tasks/suite.schema.json', import.meta.url);
await writeFile(target, suiteJsonSchemaText(), 'utf8');
console.error(`wrote ${target.pathname}`);
