// Source fixtures: fixture.yaml plus a files/ tree become one repository spec; bad input names the file.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSourceFixture } from '../src/suite/source-fixture.js';

function folder(spec: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'stratbench-source-'));
  writeFileSync(join(dir, 'fixture.yaml'), spec);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, 'files', path, '..'), { recursive: true });
    writeFileSync(join(dir, 'files', path), content);
  }
  return dir;
}

describe('loadSourceFixture', () => {
  it('reads every file under files/ (dot-files and nested folders included) into the spec', () => {
    const dir = folder('date: 2026-09-15T09:00:00Z\nscripts:\n  test: { kind: test }\n', {
      'src/a.js': 'export const a = 1;\n',
      '.nvmrc': '20\n',
      'tests/deep/a.test.js': 'x',
    });
    const spec = loadSourceFixture(dir);
    expect(Object.keys(spec.files)).toEqual(['.nvmrc', 'src/a.js', 'tests/deep/a.test.js']);
    expect(spec.files['src/a.js']).toBe('export const a = 1;\n');
    expect(spec.scripts.test).toMatchObject({ kind: 'test', cmd: 'vitest run' });
  });

  it('names fixture.yaml and the field for an invalid spec, a YAML error, and files written in the YAML', () => {
    expect(() => loadSourceFixture(folder('scripts:\n  test: { kind: nope }\n', { 'a.js': '' }))).toThrow(
      /fixture\.yaml: not a valid fixture:\n\s+scripts\.test/,
    );
    expect(() => loadSourceFixture(folder('scripts: [\n', { 'a.js': '' }))).toThrow(/fixture\.yaml: .*(line|:)/s);
    expect(() => loadSourceFixture(folder('files: {}\n', { 'a.js': '' }))).toThrow(/"files" is read from/);
  });
});
