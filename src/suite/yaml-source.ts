// The parsed YAML document of a suite file: positions of paths, a walk over its keys, its syntax errors as SuiteErrors.
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Pair, type YAMLMap } from 'yaml';
import { formatPath, type SuiteError, type SuitePath } from './suite-error.js';

/** A suite file as parsed by `yaml`: its name (for messages), its text, the document (with node ranges) and its line counter. */
export interface YamlSource {
  file: string;
  text: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

/** One key of a mapping found by `walkPairs`: the pair, the map holding it, and the path to its value. */
export interface FoundPair {
  pair: Pair;
  map: YAMLMap;
  path: (string | number)[];
}

function rangeStart(node: unknown): number | undefined {
  if (node !== null && typeof node === 'object' && 'range' in node) {
    const range = (node as { range?: readonly number[] | null }).range;
    return range?.[0];
  }
  return undefined;
}

function rangeEnd(node: unknown): number | undefined {
  if (node !== null && typeof node === 'object' && 'range' in node) {
    const range = (node as { range?: readonly number[] | null }).range;
    return range?.[2];
  }
  return undefined;
}

/** The key of a pair as the suite data sees it (`String` of a scalar key). */
export function keyText(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

function resolve(source: YamlSource, node: unknown): unknown {
  return isAlias(node) ? node.resolve(source.doc) : node;
}

/** 1-based line and column of a character offset. */
export function lineColAt(source: YamlSource, offset: number): { line: number; col: number } {
  return source.lineCounter.linePos(offset);
}

/**
 * Offset an error about `path` points at: the key of the deepest mapping entry on the path, or the deepest
 * sequence item; when part of the path is missing (a required key absent), the deepest part that exists.
 */
export function offsetOf(source: YamlSource, path: SuitePath): number {
  let node: unknown = resolve(source, source.doc.contents);
  let offset = rangeStart(node) ?? 0;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => keyText(item) === String(segment));
      if (pair === undefined) break;
      offset = rangeStart(pair.key) ?? offset;
      node = resolve(source, pair.value);
    } else if (isSeq(node) && typeof segment === 'number') {
      const item: unknown = node.items[segment];
      if (item === undefined) break;
      offset = rangeStart(item) ?? offset;
      node = resolve(source, item);
    } else break;
  }
  return offset;
}

/** A SuiteError located at `path` (see `offsetOf` for the rule). */
export function errorAt(source: YamlSource, path: SuitePath, message: string): SuiteError {
  return { file: source.file, ...lineColAt(source, offsetOf(source, path)), path: formatPath(path), message };
}

/** Every mapping key under `node` (depth first, in document order), with the path to its value. */
export function* walkPairs(node: unknown, path: (string | number)[] = []): Generator<FoundPair> {
  if (isMap(node)) {
    for (const pair of node.items) {
      const valuePath = [...path, keyText(pair)];
      yield { pair, map: node, path: valuePath };
      yield* walkPairs(pair.value, valuePath);
    }
  } else if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) yield* walkPairs(item, [...path, index]);
  } else if (isPair(node)) {
    yield* walkPairs(node.value, path);
  }
}

/** The value node at `path`, or undefined when part of it is missing. */
export function nodeAt(source: YamlSource, path: SuitePath): unknown {
  let node: unknown = resolve(source, source.doc.contents);
  for (const segment of path) {
    if (isMap(node)) node = resolve(source, node.items.find((item) => keyText(item) === String(segment))?.value);
    else if (isSeq(node) && typeof segment === 'number') node = resolve(source, node.items[segment]);
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** Path of the deepest node whose range contains `offset` (for an error that carries only an offset). */
function pathAtOffset(source: YamlSource, offset: number): (string | number)[] {
  let deepest: (string | number)[] = [];
  for (const { pair, path } of walkPairs(source.doc.contents)) {
    const start = rangeStart(pair.key);
    const end = rangeEnd(pair.value) ?? rangeEnd(pair.key);
    if (start !== undefined && end !== undefined && start <= offset && offset <= end && path.length >= deepest.length) {
      deepest = path;
    }
  }
  return deepest;
}

/** The quoted scalar an unclosed-quote error belongs to: the error sits at its end, the fix at its start. */
function openQuoteStart(source: YamlSource, offset: number): number | undefined {
  for (const { pair } of walkPairs(source.doc.contents)) {
    for (const node of [pair.key, pair.value]) {
      if (isScalar(node) && (node.type === 'QUOTE_SINGLE' || node.type === 'QUOTE_DOUBLE')) {
        const start = rangeStart(node);
        const end = rangeEnd(node);
        if (start !== undefined && end !== undefined && start <= offset && offset <= end) return start;
      }
    }
  }
  return undefined;
}

/** An offset inside a line's leading spaces moves to the line's first token (where an indentation error is seen). */
function skipIndent(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  if (!/^ *$/.test(text.slice(lineStart, offset))) return offset;
  let first = offset;
  while (text[first] === ' ') first += 1;
  return text[first] === undefined || text[first] === '\n' || text[first] === '\r' ? offset : first;
}

/**
 * The document's YAML errors (syntax, indentation, duplicate keys) as SuiteErrors at their positions.
 * A duplicate key (HB18) names the key and the line of its first occurrence; an unclosed quote points at
 * the opening quote and says where the file ran out. Other errors get the path `(yaml)`: the document
 * around them is unreliable.
 */
export function yamlSyntaxErrors(source: YamlSource): SuiteError[] {
  return source.doc.errors.map((error) => {
    const offset = error.pos[0];
    const at = (where: number, path: (string | number)[], message: string): SuiteError => ({
      file: source.file,
      ...lineColAt(source, where),
      path: formatPath(path),
      message,
    });
    if (error.code === 'DUPLICATE_KEY') {
      const found = [...walkPairs(source.doc.contents)].find(({ pair }) => rangeStart(pair.key) === offset);
      if (found !== undefined) {
        const key = keyText(found.pair);
        const first = found.map.items.find((pair) => keyText(pair) === key && pair !== found.pair);
        const firstLine = first === undefined ? undefined : lineColAt(source, rangeStart(first.key) ?? 0).line;
        const earlier = firstLine === undefined ? '' : ` (first at line ${firstLine})`;
        return at(offset, found.path, `duplicate key \`${key}\`${earlier}: map keys must be unique; one value would silently replace the other`);
      }
    }
    if (error.code === 'MISSING_CHAR' && /closing .?quote/i.test(error.message)) {
      const start = openQuoteStart(source, offset);
      if (start !== undefined) {
        const end = lineColAt(source, offset);
        return at(start, pathAtOffset(source, start), `${error.message}: the string opened here is still open at ${end.line}:${end.col}`);
      }
    }
    return { file: source.file, ...lineColAt(source, skipIndent(source.text, offset)), path: '(yaml)', message: error.message };
  });
}
