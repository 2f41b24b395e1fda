// The in-repo copies of the shared fixtures must match the originals whenever the originals are present.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const names = ['harness-pitfalls.json', 'ollama-replies.json'];

describe('shared fixture copies', () => {
  it.each(names)('%s is a faithful copy', (name) => {
    const copy = new URL(`./fixtures/shared/${name}`, import.meta.url);
    const original = new URL(`../../shared/fixtures/${name}`, import.meta.url);
    const copied = readFileSync(copy, 'utf8');
    expect(JSON.parse(copied)).toBeInstanceOf(Array);
    if (existsSync(original)) expect(copied).toBe(readFileSync(original, 'utf8'));
  });
});
