// The fast path for a suite written as JSON (YAML's flow subset): JSON.parse instead of the YAML composer, with the
// YAML document (for error positions) built only when an error has to be located.
import { LineCounter, parseDocument } from 'yaml';
import type { YamlSource } from './yaml-source.js';

/**
 * The value of `text` when it is one JSON object with no repeated key in any object and no `templates` (their
 * expansion reads the YAML document); undefined otherwise, and the caller takes the YAML path, which reports a syntax
 * error or a repeated key at its line. Measured on the 400-task generated suite: JSON.parse reads 1.7 MB in ~5 ms
 * where the YAML composer takes ~1.5 s (docs/decisions/0010-generated-suite-layout.md).
 */
export function jsonSuiteData(text: string): Record<string, unknown> | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  if (Object.hasOwn(data, 'templates') || hasRepeatedKey(text)) return undefined;
  return data as Record<string, unknown>;
}

/**
 * Whether some JSON object in `text` (valid JSON) names a key twice: JSON.parse keeps the last silently, the YAML
 * loader refuses it (uniqueKeys), so such a file must take the YAML path.
 */
export function hasRepeatedKey(text: string): boolean {
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (char === 0x22 /* " */) {
      let end = at + 1;
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c /* \ */ ? 2 : 1;
      const keys = stack.at(-1);
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        if (keys.has(key)) return true;
        keys.add(key);
      }
      expectKey = false;
      at = end;
    } else if (char === 0x7b /* { */) {
      stack.push(new Set());
      expectKey = true;
    } else if (char === 0x5b /* [ */) stack.push(null);
    else if (char === 0x7d /* } */ || char === 0x5d /* ] */) stack.pop();
    else if (char === 0x2c /* , */) expectKey = stack.at(-1) !== null;
  }
  return false;
}

/** A YamlSource whose document and line counter are parsed on first use (only when an error is located). */
export function lazyYamlSource(file: string, text: string): YamlSource {
  let parsed: { doc: YamlSource['doc']; lineCounter: LineCounter } | undefined;
  const load = () => {
    if (parsed === undefined) {
      const lineCounter = new LineCounter();
      parsed = { doc: parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false }), lineCounter };
    }
    return parsed;
  };
  return {
    file,
    text,
    get doc() {
      return load().doc;
    },
    get lineCounter() {
      return load().lineCounter;
    },
  };
}
