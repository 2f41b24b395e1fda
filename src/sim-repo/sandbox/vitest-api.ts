// Owns the `vitest` module seen inside the sandbox: describe/it/test, hooks, expect with vitest's matchers and messages, vi.fn/spyOn, and the runner entry `__vitest_run__`.
//
// The source is an ES module evaluated by QuickJS, registered as the bare module `vitest`. A test file imports it and
// registers tests while it evaluates; the host then calls `__vitest_run__(JSON.stringify({ testNamePattern }))`, which
// collects describe blocks (lazily, as vitest does), runs the tests in declaration order and resolves with the JSON
// result `{ tests: [{ path, state, error? }], errors: [{ name, message, stack, path? }] }`.
//
// Semantics and messages follow vitest 4.1 (@vitest/runner, @vitest/expect, chai 6 and loupe for `expected … to …`
// messages, pretty-format for the `expected`/`actual` strings of a diff). Sources of truth are cited per section.
// Written without backticks and dollar-brace so it can live in String.raw literals. QuickJS compiles roughly 12 KB of
// source per ms, so what most runs never need (failure displays and diffs, .each titles, asymmetric matchers, mocks:
// COLD_SOURCE) is kept as a string inside the module and compiled on first use.
const COLD_SOURCE = String.raw`
const { tagOf, hasOwn, ELLIPSIS, ASYMMETRIC, CHAI_INSPECT, isAsymmetric, isError, isObjectLike, equals, iterableEquality, subsetEquality, hasPropertyInObject, functionName, halfUnit, isMockFunction, AssertionError } = hot;
// loupe 3 (chai's inspect): the value display inside assertion messages, truncated at 40 characters by objDisplay.
function truncate(text, length, tail = ELLIPSIS) {
  text = String(text);
  if (tail.length > length && text.length > tail.length) return tail;
  if (text.length > length && text.length > tail.length) {
    let end = length - tail.length;
    if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end -= 1;
    return text.slice(0, end) + tail;
  }
  return text;
}
function inspectList(list, options, inspectItem = inspect, separator = ', ') {
  const size = list.length;
  if (size === 0) return '';
  const original = options.truncate;
  let output = '', peek = '', truncated = '';
  for (let i = 0; i < size; i += 1) {
    const last = i + 1 === size, secondToLast = i + 2 === size;
    truncated = ELLIPSIS + '(' + (size - i) + ')';
    options.truncate = original - output.length - (last ? 0 : separator.length);
    const text = peek || inspectItem(list[i], options) + (last ? '' : separator);
    const nextLength = output.length + text.length, truncatedLength = nextLength + truncated.length;
    if (last && nextLength > original && output.length + truncated.length <= original) break;
    if (!last && !secondToLast && truncatedLength > original) break;
    peek = last ? '' : inspectItem(list[i + 1], options) + (secondToLast ? '' : separator);
    if (!last && secondToLast && truncatedLength > original && nextLength + peek.length > original) break;
    output += text;
    if (!last && !secondToLast && nextLength + peek.length >= original) {
      truncated = ELLIPSIS + '(' + (size - i - 1) + ')';
      break;
    }
    truncated = '';
  }
  return output + truncated;
}
function quoteKey(key) {
  if (/^[a-zA-Z_][a-zA-Z_0-9]*$/.test(key)) return key;
  return JSON.stringify(key).replace(/'/g, "\\'").replace(/\\"/g, '"').replace(/(^"|"$)/g, "'");
}
function inspectProperty(entry, options) {
  let key = entry[0];
  options.truncate -= 2;
  if (typeof key === 'string') key = quoteKey(key);
  else if (typeof key !== 'number') key = '[' + inspect(key, options) + ']';
  options.truncate -= key.length;
  return key + ': ' + inspect(entry[1], options);
}
function inspectObject(object, options) {
  const names = Object.getOwnPropertyNames(object), symbols = Object.getOwnPropertySymbols(object);
  if (names.length === 0 && symbols.length === 0) return '{}';
  options.truncate -= 4;
  if (options.seen.includes(object)) return '[Circular]';
  options.seen.push(object);
  const named = inspectList(names.map((key) => [key, object[key]]), options, inspectProperty);
  const symbolic = inspectList(symbols.map((key) => [key, object[key]]), options, inspectProperty);
  options.seen.pop();
  return '{ ' + named + (named && symbolic ? ', ' : '') + symbolic + ' }';
}
const ERROR_KEYS = ['stack', 'line', 'column', 'name', 'message', 'fileName', 'lineNumber', 'columnNumber', 'number', 'description', 'cause'];
function inspectError(error, options) {
  const names = Object.getOwnPropertyNames(error).filter((key) => !ERROR_KEYS.includes(key));
  const name = error.name;
  options.truncate -= name.length;
  let message = '';
  if (typeof error.message === 'string') message = truncate(error.message, options.truncate);
  else names.unshift('message');
  message = message ? ': ' + message : '';
  options.truncate -= message.length + 5;
  if (options.seen.includes(error)) return '[Circular]';
  options.seen.push(error);
  const properties = inspectList(names.map((key) => [key, error[key]]), options, inspectProperty);
  return name + message + (properties ? ' { ' + properties + ' }' : '');
}
const STRING_ESCAPES = /['\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0604\u070f\u17b4\u17b5\u200c-\u200f\u2028-\u202f\u2060-\u206f\ufeff\ufff0-\uffff]/g;
const ESCAPED = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r', "'": "\\'" };
const escapeChar = (char) => ESCAPED[char] || '\\u' + ('0000' + char.charCodeAt(0).toString(16)).slice(-4);
const TYPED_ARRAYS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array'];
function inspectNumber(number, options) {
  if (Number.isNaN(number)) return 'NaN';
  if (number === Infinity) return 'Infinity';
  if (number === -Infinity) return '-Infinity';
  if (number === 0) return 1 / number === Infinity ? '+0' : '-0';
  return truncate(String(number), options.truncate);
}
function inspectEntries(kind, entries, options, item) {
  if (entries.length === 0) return kind + '{}';
  options.truncate -= 7;
  return kind + '{ ' + inspectList(entries, options, item) + ' }';
}
function inspectMapEntry(entry, options) {
  options.truncate -= 4;
  const key = inspect(entry[0], options);
  options.truncate -= key.length;
  return key + ' => ' + inspect(entry[1], options);
}
/** loupe's inspect(value, { truncate }); depth is not limited (loupe ignores it). */
function inspect(value, given = {}) {
  const options = { truncate: given.truncate === undefined ? Infinity : Number(given.truncate), seen: given.seen || [], depth: 2 };
  let type = value === null ? 'null' : typeof value;
  if (type === 'object') type = tagOf(value);
  switch (type) {
    case 'undefined': case 'null': return type;
    case 'boolean': case 'Boolean': return String(value);
    case 'number': case 'Number': return inspectNumber(value, options);
    case 'bigint': case 'BigInt': {
      const digits = truncate(value.toString(), options.truncate - 1);
      return digits === ELLIPSIS ? digits : digits + 'n';
    }
    case 'string': case 'String': return "'" + truncate(String(value).replace(STRING_ESCAPES, escapeChar), options.truncate - 2) + "'";
    case 'function': case 'Function': {
      const kind = value[Symbol.toStringTag] || 'Function';
      return value.name ? '[' + kind + ' ' + truncate(value.name, options.truncate - 11) + ']' : '[' + kind + ']';
    }
    case 'symbol': case 'Symbol': return value.description ? 'Symbol(' + value.description + ')' : 'Symbol()';
    case 'Array': {
      const extra = Object.keys(value).slice(value.length);
      if (!value.length && !extra.length) return '[]';
      options.truncate -= 4;
      const items = inspectList(value, options);
      options.truncate -= items.length;
      const properties = extra.length ? inspectList(extra.map((key) => [key, value[key]]), options, inspectProperty) : '';
      return '[ ' + items + (properties ? ', ' + properties : '') + ' ]';
    }
    case 'Date': {
      const json = value.toJSON();
      if (json === null) return 'Invalid Date';
      const parts = json.split('T');
      return parts[0] + 'T' + truncate(parts[1], options.truncate - parts[0].length - 1);
    }
    case 'Map': return inspectEntries('Map', Array.from(value.entries()), options, inspectMapEntry);
    case 'Set': return inspectEntries('Set', Array.from(value.values()), options);
    case 'RegExp': {
      const flags = value.toString().split('/')[2];
      return '/' + truncate(value.source, options.truncate - (2 + flags.length)) + '/' + flags;
    }
    case 'Promise': return 'Promise{' + ELLIPSIS + '}';
    case 'WeakSet': case 'WeakMap': return type + '{' + ELLIPSIS + '}';
    case 'Arguments': return value.length === 0 ? 'Arguments[]' : (options.truncate -= 13, 'Arguments[ ' + inspectList(value, options) + ' ]');
    case 'Generator': case 'DataView': case 'ArrayBuffer': return '';
    case 'Error': return inspectError(value, options);
  }
  if (TYPED_ARRAYS.includes(type)) return type + '[ ' + Array.from(value).join(', ') + ' ]';
  if (value) {
    const custom = value[CHAI_INSPECT];
    const output = typeof custom === 'function' ? custom.call(value, options) : typeof value.inspect === 'function' ? value.inspect(options.depth, options) : '';
    if (output) return typeof output === 'string' ? output : inspect(output, options);
  }
  const proto = value ? Object.getPrototypeOf(value) : false;
  if (proto === Object.prototype || proto === null) return inspectObject(value, options);
  if ('constructor' in value && value.constructor !== Object) {
    let name = Symbol.toStringTag in value ? value[Symbol.toStringTag] : '';
    name = name || value.constructor.name;
    if (!name || name === '_class') name = '<Anonymous Class>';
    options.truncate -= name.length;
    return name + inspectObject(value, options);
  }
  return inspectObject(value, options);
}
/** chai's objDisplay: inspect truncated at 40 characters, long arrays/objects/functions summarised. */
function objDisplay(value) {
  const text = inspect(value, { truncate: 40 });
  if (text.length < 40) return text;
  const type = tagOf(value);
  if (type === 'Function') return value.name ? '[Function: ' + value.name + ']' : '[Function]';
  if (type === 'Array') return '[ Array(' + value.length + ') ]';
  if (type === 'Object') {
    const keys = Object.keys(value);
    return '{ Object (' + (keys.length > 2 ? keys.splice(0, 2).join(', ') + ', ...' : keys.join(', ')) + ') }';
  }
  return text;
}

// ---------------------------------------------------------------------------------------------------------------
// pretty-format (@vitest/pretty-format): the multi-line display of expected/actual values and mock calls.
const DIFF_FORMAT = { indent: '  ', min: false, basic: false, escape: true, maxDepth: 20, toJSON: true, errors: true };
const FALLBACK_FORMAT = Object.assign({}, DIFF_FORMAT, { maxDepth: 8, toJSON: false });
const COMPARE_FORMAT = Object.assign({}, DIFF_FORMAT, { indent: '' });
const STRINGIFY_FORMAT = { indent: '  ', min: false, basic: true, escape: false, maxDepth: 10, toJSON: true, errors: false };
const constructorName = (value) => (typeof value.constructor === 'function' && value.constructor.name) || 'Object';
function pretty(value, config) {
  return printValue(value, config, '', 0, [], false);
}
function printItems(count, print, config, indentation) {
  if (count === 0) return '';
  const next = indentation + config.indent;
  let output = config.min ? '' : '\n';
  for (let i = 0; i < count; i += 1) {
    output += next + print(i, next);
    if (i < count - 1) output += ',' + (config.min ? ' ' : '\n');
    else if (!config.min) output += ',';
  }
  return output + (config.min ? '' : '\n' + indentation);
}
function printProperties(object, config, indentation, depth, refs) {
  const keys = Object.keys(object).sort().concat(Object.getOwnPropertySymbols(object).filter((symbol) => Object.getOwnPropertyDescriptor(object, symbol).enumerable));
  return printItems(keys.length, (i, next) => printValue(keys[i], config, next, depth, refs) + ': ' + printValue(object[keys[i]], config, next, depth, refs), config, indentation);
}
function printBasic(value, config) {
  if (value === true || value === false) return String(value);
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  const type = typeof value;
  if (type === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (type === 'bigint') return String(value) + 'n';
  if (type === 'string') return '"' + (config.escape ? value.replace(/"|\\/g, '\\$&') : value) + '"';
  if (type === 'function') return '[Function ' + (value.name || 'anonymous') + ']';
  if (type === 'symbol') return String(value).replace(/^Symbol\((.*)\)(.*)$/, 'Symbol($1)');
  const tag = tagOf(value);
  if (tag === 'WeakMap' || tag === 'WeakSet') return tag + ' {}';
  if (tag === 'Date') return Number.isNaN(+value) ? 'Date { NaN }' : value.toISOString();
  if (tag === 'Error' || value instanceof Error) return '[' + Error.prototype.toString.call(value) + ']';
  if (tag === 'RegExp') return RegExp.prototype.toString.call(value);
  return null;
}
function printValue(value, config, indentation, depth, refs, calledToJSON) {
  if (value && value.$$typeof === ASYMMETRIC) return printAsymmetric(value, config, indentation, depth, refs);
  if (config.errors && value instanceof Error) {
    if (refs.includes(value)) return '[Circular]';
    const name = value.name !== 'Error' ? value.name : constructorName(value);
    if (++depth > config.maxDepth) return '[' + name + ']';
    const entries = [['message', value.message]];
    if (value.cause !== undefined) entries.push(['cause', value.cause]);
    for (const key of Object.keys(value)) if (key !== 'message' && key !== 'cause') entries.push([key, value[key]]);
    refs = refs.concat([value]);
    return name + ' {' + printItems(entries.length, (i, next) => printValue(entries[i][0], config, next, depth, refs) + ': ' + printValue(entries[i][1], config, next, depth, refs), config, indentation) + '}';
  }
  const basic = printBasic(value, config);
  if (basic !== null) return basic;
  if (refs.includes(value)) return '[Circular]';
  refs = refs.concat([value]);
  const hitMaxDepth = ++depth > config.maxDepth;
  if (config.toJSON && !hitMaxDepth && typeof value.toJSON === 'function' && !calledToJSON) return printValue(value.toJSON(), config, indentation, depth, refs, true);
  const tag = tagOf(value);
  if (tag === 'Array' || TYPED_ARRAYS.includes(tag) || tag === 'Arguments') {
    const name = tag === 'Arguments' ? 'Arguments' : value.constructor.name;
    if (hitMaxDepth) return '[' + name + ']';
    const prefix = config.min || (!config.basic && name === 'Array') ? '' : name + ' ';
    return prefix + '[' + printItems(value.length, (i, next) => (i in value ? printValue(value[i], config, next, depth, refs) : ''), config, indentation) + ']';
  }
  if (tag === 'Map') {
    if (hitMaxDepth) return '[Map]';
    const entries = Array.from(value.entries());
    return 'Map {' + printItems(entries.length, (i, next) => printValue(entries[i][0], config, next, depth, refs) + ' => ' + printValue(entries[i][1], config, next, depth, refs), config, indentation) + '}';
  }
  if (tag === 'Set') {
    if (hitMaxDepth) return '[Set]';
    const values = Array.from(value.values());
    return 'Set {' + printItems(values.length, (i, next) => printValue(values[i], config, next, depth, refs), config, indentation) + '}';
  }
  const name = constructorName(value);
  if (hitMaxDepth) return '[' + name + ']';
  const prefix = config.min || (!config.basic && name === 'Object') ? '' : name + ' ';
  return prefix + '{' + printProperties(value, config, indentation, depth, refs) + '}';
}
function printAsymmetric(matcher, config, indentation, depth, refs) {
  const name = matcher.toString();
  if (name === 'ArrayContaining' || name === 'ArrayNotContaining') {
    if (++depth > config.maxDepth) return '[' + name + ']';
    return name + ' [' + printItems(matcher.sample.length, (i, next) => printValue(matcher.sample[i], config, next, depth, refs), config, indentation) + ']';
  }
  if (name === 'ObjectContaining' || name === 'ObjectNotContaining') {
    if (++depth > config.maxDepth) return '[' + name + ']';
    return name + ' {' + printProperties(matcher.sample, config, indentation, depth, refs) + '}';
  }
  if (/^String(Not)?(Matching|Containing)$/.test(name)) return name + ' ' + printValue(matcher.sample, config, indentation, depth, refs);
  return matcher.toAsymmetricMatcher();
}

// ---------------------------------------------------------------------------------------------------------------
// Line diff (@vitest/utils/diff, no-expand mode with 5 context lines): used in mock-call messages.
function lineDiff(expected, actual) {
  const a = pretty(expected, COMPARE_FORMAT).split('\n'), b = pretty(actual, COMPARE_FORMAT).split('\n');
  if (a.join('\n') === b.join('\n')) return 'Compared values have no visual difference.';
  const aShown = pretty(expected, DIFF_FORMAT).split('\n'), bShown = pretty(actual, DIFF_FORMAT).split('\n');
  const lengths = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) for (let j = b.length - 1; j >= 0; j -= 1) lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
  const operations = [];
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) operations.push([0, bShown[j++]]), i += 1;
    else if (j >= b.length || (i < a.length && lengths[i + 1][j] >= lengths[i][j + 1])) operations.push([-1, aShown[i++]]);
    else operations.push([1, bShown[j++]]);
  }
  const keep = operations.map((operation) => operation[0] !== 0);
  for (let start = 0; start < operations.length;) {
    if (operations[start][0] !== 0) { start += 1; continue; }
    let end = start;
    while (end < operations.length && operations[end][0] === 0) end += 1;
    const leading = start === 0, trailing = end === operations.length;
    for (let k = start; k < end; k += 1) keep[k] = leading ? k >= end - 5 : trailing ? k < start + 5 : k < start + 5 || k >= end - 5;
    start = end;
  }
  const omitted = keep.includes(false), lines = [], hunks = [];
  let aLine = 0, bLine = 0, hunk = null;
  operations.forEach((operation, k) => {
    const kind = operation[0], line = operation[1];
    if (keep[k]) {
      if (!hunk) {
        hunk = { at: lines.length, a: aLine, b: bLine, aLength: 0, bLength: 0 };
        hunks.push(hunk);
        if (omitted) lines.push('');
      }
      const indicator = kind === 0 ? ' ' : kind < 0 ? '-' : '+';
      lines.push(line.length ? indicator + ' ' + line : indicator === ' ' ? '' : indicator);
      if (kind <= 0) hunk.aLength += 1;
      if (kind >= 0) hunk.bLength += 1;
    } else hunk = null;
    if (kind <= 0) aLine += 1;
    if (kind >= 0) bLine += 1;
  });
  if (omitted) for (const h of hunks) lines[h.at] = '@@ -' + (h.a + 1) + ',' + h.aLength + ' +' + (h.b + 1) + ',' + h.bLength + ' @@';
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Failure displays: diff pairs, toMatchObject's subset, mock calls, .each titles.
function jestType(value) {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return 'array';
  if (typeof value !== 'object') return typeof value;
  return value.constructor === RegExp ? 'regexp' : value.constructor === Map ? 'map' : value.constructor === Set ? 'set' : value.constructor === Date ? 'date' : 'object';
}
function cloneForDiff(value, seen = new Map()) {
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const copy = new Array(value.length).fill(undefined);
    seen.set(value, copy);
    value.forEach((item, i) => { copy[i] = cloneForDiff(item, seen); });
    return copy;
  }
  if (tagOf(value) !== 'Object') return value;
  const copy = Object.create(Object.getPrototypeOf(value));
  seen.set(value, copy);
  for (const key of Object.getOwnPropertyNames(value).concat(Object.getOwnPropertySymbols(value))) {
    Object.defineProperty(copy, key, { enumerable: Object.getOwnPropertyDescriptor(value, key).enumerable, configurable: true, writable: true, value: cloneForDiff(value[key], seen) });
  }
  return copy;
}
const isReplaceable = (a, b) => tagOf(a) === tagOf(b) && (tagOf(a) === 'Object' || tagOf(a) === 'Array');
/** Matching asymmetric matchers take the actual value; failing container matchers are unwrapped to their sample. */
function replaceAsymmetric(actual, expected, seen) {
  if (!isReplaceable(actual, expected) || seen.has(actual) || seen.has(expected)) return [actual, expected];
  seen.add(actual);
  seen.add(expected);
  const unwrap = (a, b, key) => {
    const replaced = replaceAsymmetric(a, b, seen);
    actual[key] = replaced[0];
    expected[key] = replaced[1];
  };
  const isMatcher = (value) => tagOf(value) === 'Object' && isAsymmetric(value);
  for (const key of Object.getOwnPropertyNames(expected).concat(Object.getOwnPropertySymbols(expected))) {
    const expectedValue = expected[key], actualValue = actual[key];
    if (isMatcher(expectedValue)) {
      if (expectedValue.asymmetricMatch(actualValue)) expected[key] = actualValue;
      else if ('sample' in expectedValue && expectedValue.sample !== undefined && isReplaceable(actualValue, expectedValue.sample)) unwrap(actualValue, expectedValue.sample, key);
    } else if (isMatcher(actualValue)) {
      if (actualValue.asymmetricMatch(expectedValue)) actual[key] = expectedValue;
      else if ('sample' in actualValue && actualValue.sample !== undefined && isReplaceable(actualValue.sample, expectedValue)) unwrap(actualValue.sample, expectedValue, key);
    } else if (isReplaceable(actualValue, expectedValue)) unwrap(actualValue, expectedValue, key);
  }
  return [actual, expected];
}
/** The [expected, actual] strings vitest keeps on an error with a diff (printDiffOrStringify then prettifyValue). */
function displayPair(expected, actual) {
  const plain = (value) => (typeof value === 'string' ? value : pretty(value, DIFF_FORMAT));
  if (typeof expected === 'string' && typeof actual === 'string') return [expected, actual];
  const replaced = replaceAsymmetric(cloneForDiff(actual), cloneForDiff(expected), new WeakSet());
  let a = replaced[1], b = replaced[0];
  if (Object.is(a, b)) return [plain(expected), plain(actual)];
  let expectedType = jestType(a);
  if (expectedType === 'object' && typeof a.asymmetricMatch === 'function') {
    if (a.$$typeof !== ASYMMETRIC || typeof a.getExpectedType !== 'function') return [plain(expected), plain(actual)];
    expectedType = a.getExpectedType();
  }
  if (expectedType !== jestType(b)) return [pretty(a, FALLBACK_FORMAT), pretty(b, FALLBACK_FORMAT)];
  if (expectedType === 'string') return [plain(expected), plain(actual)];
  if (expectedType === 'map' || expectedType === 'set') {
    const sorted = (value) => (expectedType === 'map' ? new Map(Array.from(value.entries()).sort()) : new Set(Array.from(value.values()).sort()));
    a = sorted(a);
    b = sorted(b);
  }
  const shown = [pretty(a, DIFF_FORMAT), pretty(b, DIFF_FORMAT)];
  return shown[0] === shown[1] ? [plain(expected), plain(actual)] : shown;
}
function getObjectSubset(object, subset) {
  let stripped = 0;
  const keysOf = (value) => Object.keys(value).concat(Object.getOwnPropertySymbols(value).filter((symbol) => Object.getOwnPropertyDescriptor(value, symbol).enumerable));
  const withContext = (seen) => (target, sample) => {
    if (Array.isArray(target)) {
      if (Array.isArray(sample) && sample.length === target.length) return sample.map((item, i) => withContext(seen)(target[i], item));
    } else if (target instanceof Date) return target;
    else if (isObjectLike(target) && isObjectLike(sample)) {
      if (equals(target, sample, [iterableEquality, subsetEquality])) return sample;
      const trimmed = {};
      seen.set(target, trimmed);
      if (typeof target.constructor === 'function' && typeof target.constructor.name === 'string') Object.defineProperty(trimmed, 'constructor', { enumerable: false, value: target.constructor });
      for (const key of keysOf(target)) {
        if (hasPropertyInObject(sample, key)) trimmed[key] = seen.has(target[key]) ? seen.get(target[key]) : withContext(seen)(target[key], sample[key]);
        else if (!seen.has(target[key])) {
          stripped += 1;
          if (isObjectLike(target[key])) stripped += keysOf(target[key]).length;
          withContext(seen)(target[key], sample[key]);
        }
      }
      if (keysOf(trimmed).length > 0) return trimmed;
    }
    return target;
  };
  return { subset: withContext(new WeakMap())(object, subset), stripped };
}

const ordinal = (n) => {
  const unit = n % 10, ten = n % 100;
  return n + (unit === 1 && ten !== 11 ? 'st' : unit === 2 && ten !== 12 ? 'nd' : unit === 3 && ten !== 13 ? 'rd' : 'th');
};
function formatCalls(spy, message, expectedArguments) {
  const calls = spy.mock.calls;
  if (calls.length) {
    message += '\n\nReceived:\n\n' + calls.map((call, i) => {
      const shown = expectedArguments ? lineDiff(expectedArguments, call) : pretty(call, STRINGIFY_FORMAT).split('\n').map((line) => '    ' + line).join('\n');
      return '  ' + ordinal(i + 1) + ' ' + spy.getMockName() + ' call:\n\n' + shown + '\n';
    }).join('\n');
  }
  return message + '\n\nNumber of calls: ' + calls.length + '\n';
}
/** test.each with a tagged template: the header row names the columns. */
function tableCases(strings, values) {
  const header = strings.join('').trim().replace(/ /g, '').split('\n').map((row) => row.split('|'))[0];
  const cases = [];
  for (let i = 0; i < Math.floor(values.length / header.length); i += 1) {
    const row = {};
    header.forEach((column, j) => { row[column] = values[i * header.length + j]; });
    cases.push(row);
  }
  return cases;
}
/** @vitest/utils format(placeholder, value), as test titles use it (a value %% does not take is appended). */
function formatPlaceholder(placeholder, value) {
  switch (placeholder) {
    case '%%': return '% ' + (value === null || typeof value !== 'object' ? (typeof value === 'symbol' ? value.toString() : String(value)) : inspect(value));
    case '%s':
      if (typeof value === 'bigint') return value.toString() + 'n';
      if (typeof value === 'number' && value === 0 && 1 / value < 0) return '-0';
      if (typeof value === 'object' && value !== null) return typeof value.toString === 'function' && value.toString !== Object.prototype.toString ? value.toString() : inspect(value);
      return String(value);
    case '%d':
      if (typeof value === 'bigint') return value.toString() + 'n';
      return typeof value === 'symbol' ? 'NaN' : Number(value).toString();
    case '%i': return typeof value === 'bigint' ? value.toString() + 'n' : Number.parseInt(String(value)).toString();
    case '%f': return Number.parseFloat(String(value)).toString();
    case '%j':
      try {
        return JSON.stringify(value);
      } catch (error) {
        return '[Circular]';
      }
    case '%o': case '%O': return inspect(value);
    case '%c': return '';
  }
  return placeholder;
}
function formatTitle(template, items, index) {
  if (template.includes('%#') || template.includes('%$')) {
    template = template.replace(/%%/g, '__vitest_escaped_%__').replace(/%#/g, String(index)).replace(/%\$/g, String(index + 1)).replace(/__vitest_escaped_%__/g, '%%');
  }
  const count = template.split('%').length - 1;
  if (template.includes('%f')) {
    (template.match(/%f/g) || []).forEach((unused, i) => {
      if (Object.is(items[i], -0)) {
        let occurrence = 0;
        template = template.replace(/%f/g, (match) => (++occurrence === i + 1 ? '-%f' : match));
      }
    });
  }
  const objectItem = isObjectLike(items[0]);
  const attributes = (text) => text.replace(/\$([$\w.]+)/g, (match, key) => {
    const arrayKey = /^\d+$/.test(key);
    if (!objectItem && !arrayKey) return '$' + key;
    const lookup = (source) => key.replace(/\[(\d+)\]/g, '.$1').split('.').reduce((value, part) => (value === undefined ? undefined : Object(value)[part]), source);
    return objDisplay(objectItem ? lookup(items[0]) : lookup(items));
  });
  let output = '', used = 0, last = 0;
  for (const match of template.matchAll(/%[sdjifoOc%]/g)) {
    output += attributes(template.slice(last, match.index));
    output += used < count ? formatPlaceholder(match[0], items[used++]) : match[0];
    last = match.index + match[0].length;
  }
  return output + attributes(template.slice(last));
}

// ---------------------------------------------------------------------------------------------------------------
// Asymmetric matchers (@vitest/expect): expect.any, anything, stringContaining, stringMatching, objectContaining,
// arrayContaining, closeTo and their .not forms.
class AsymmetricMatcher {
  constructor(sample, inverse = false) {
    this.$$typeof = ASYMMETRIC;
    this.sample = sample;
    this.inverse = inverse;
  }
  [CHAI_INSPECT](options) {
    const text = pretty(this, { indent: '', min: true, basic: true, escape: false, maxDepth: options.depth, toJSON: true, errors: false });
    return text.length <= options.truncate ? text : this.toString() + '{' + ELLIPSIS + '}';
  }
}
class Anything extends AsymmetricMatcher {
  asymmetricMatch(other) { return other != null; }
  toString() { return 'Anything'; }
  toAsymmetricMatcher() { return 'Anything'; }
}
const PRIMITIVE_TYPES = new Map([[String, 'string'], [Number, 'number'], [Function, 'function'], [Boolean, 'boolean'], [BigInt, 'bigint'], [Symbol, 'symbol'], [Object, 'object']]);
class Any extends AsymmetricMatcher {
  constructor(sample) {
    if (typeof sample === 'undefined') throw new TypeError('any() expects to be passed a constructor function. Please pass one or use anything() to match any object.');
    super(sample);
  }
  asymmetricMatch(other) {
    const primitive = PRIMITIVE_TYPES.get(this.sample);
    if (primitive) return typeof other === primitive || (primitive !== 'object' && primitive !== 'function' && other instanceof this.sample);
    return other instanceof this.sample;
  }
  toString() { return 'Any'; }
  getExpectedType() { return this.sample === BigInt || this.sample === Symbol ? functionName(this.sample) : PRIMITIVE_TYPES.get(this.sample) || functionName(this.sample); }
  toAsymmetricMatcher() { return 'Any<' + functionName(this.sample) + '>'; }
}
class StringContaining extends AsymmetricMatcher {
  constructor(sample, inverse) {
    if (tagOf(sample) !== 'String') throw new Error('Expected is not a string');
    super(sample, inverse);
  }
  asymmetricMatch(other) { return (tagOf(other) === 'String' && other.includes(this.sample)) !== this.inverse; }
  toString() { return 'String' + (this.inverse ? 'Not' : '') + 'Containing'; }
  getExpectedType() { return 'string'; }
}
class StringMatching extends AsymmetricMatcher {
  constructor(sample, inverse) {
    if (tagOf(sample) !== 'String' && tagOf(sample) !== 'RegExp') throw new Error('Expected is not a String or a RegExp');
    super(new RegExp(sample), inverse);
  }
  asymmetricMatch(other) { return (tagOf(other) === 'String' && this.sample.test(other)) !== this.inverse; }
  toString() { return 'String' + (this.inverse ? 'Not' : '') + 'Matching'; }
  getExpectedType() { return 'string'; }
}
class ObjectContaining extends AsymmetricMatcher {
  asymmetricMatch(other, testers) {
    if (typeof this.sample !== 'object') throw new TypeError('You must provide an object to ' + this.toString() + ", not '" + typeof this.sample + "'.");
    const has = (object, key) => !!object && (hasOwn(object, key) || has(Object.getPrototypeOf(object), key));
    const keys = Object.keys(this.sample).concat(Object.getOwnPropertySymbols(this.sample).filter((symbol) => Object.getOwnPropertyDescriptor(this.sample, symbol).enumerable));
    const result = keys.every((key) => has(other, key) && equals(this.sample[key], other[key], testers));
    return result !== this.inverse;
  }
  toString() { return 'Object' + (this.inverse ? 'Not' : '') + 'Containing'; }
  getExpectedType() { return 'object'; }
}
class ArrayContaining extends AsymmetricMatcher {
  asymmetricMatch(other, testers) {
    if (!Array.isArray(this.sample)) throw new TypeError('You must provide an array to ' + this.toString() + ", not '" + typeof this.sample + "'.");
    const result = this.sample.length === 0 || (Array.isArray(other) && this.sample.every((item) => other.some((candidate) => equals(item, candidate, testers))));
    return result !== this.inverse;
  }
  toString() { return 'Array' + (this.inverse ? 'Not' : '') + 'Containing'; }
  getExpectedType() { return 'array'; }
}
class CloseTo extends AsymmetricMatcher {
  constructor(sample, precision = 2, inverse = false) {
    if (tagOf(sample) !== 'Number') throw new Error('Expected is not a Number');
    if (tagOf(precision) !== 'Number') throw new Error('Precision is not a Number');
    super(sample, inverse);
    this.precision = precision;
  }
  asymmetricMatch(other) {
    if (tagOf(other) !== 'Number') return false;
    const both = (infinity) => other === infinity && this.sample === infinity;
    const result = both(Infinity) || both(-Infinity) || Math.abs(this.sample - other) < halfUnit(this.precision);
    return result !== this.inverse;
  }
  toString() { return 'Number' + (this.inverse ? 'Not' : '') + 'CloseTo'; }
  getExpectedType() { return 'number'; }
  toAsymmetricMatcher() { return this.toString() + ' ' + this.sample + ' (' + this.precision + ' digit' + (this.precision === 1 ? '' : 's') + ')'; }
}
const MATCHER_CLASSES = { Anything, Any, StringContaining, StringMatching, ObjectContaining, ArrayContaining, CloseTo };
function asymmetric(name, inverse, args) {
  if (name === 'CloseTo') return new CloseTo(args[0], args[1], inverse);
  return name === 'Any' || name === 'Anything' ? new MATCHER_CLASSES[name](args[0]) : new MATCHER_CLASSES[name](args[0], inverse);
}

// ---------------------------------------------------------------------------------------------------------------
// vi: mock functions and spies (a small part of @vitest/spy).
let invocationOrder = 0;
const spies = [];
function createMock(implementation, name, restore) {
  const state = { implementation, once: [], name };
  let mock;
  const clear = () => { mock = { calls: [], results: [], instances: [], contexts: [], invocationCallOrder: [], lastCall: undefined }; };
  clear();
  const spy = function (...args) {
    mock.calls.push(args);
    mock.contexts.push(this);
    mock.instances.push(new.target ? this : undefined);
    mock.invocationCallOrder.push(++invocationOrder);
    mock.lastCall = args;
    const result = { type: 'incomplete', value: undefined };
    mock.results.push(result);
    const chosen = state.once.length ? state.once.shift() : state.implementation;
    try {
      result.value = chosen ? (new.target ? Reflect.construct(chosen, args, new.target) : chosen.apply(this, args)) : undefined;
      result.type = 'return';
      return result.value;
    } catch (error) {
      result.type = 'throw';
      result.value = error;
      throw error;
    }
  };
  Object.defineProperty(spy, 'mock', { get: () => mock });
  const chain = (update) => (...args) => { update(...args); return spy; };
  Object.assign(spy, {
    _isMockFunction: true,
    getMockName: () => state.name,
    getMockImplementation: () => state.implementation,
    mockName: chain((name) => { state.name = name; }),
    mockClear: chain(clear),
    mockReset: chain(() => { clear(); state.implementation = implementation; state.once = []; }),
    mockRestore: chain(() => { clear(); state.implementation = implementation; state.once = []; if (restore) restore(); }),
    mockImplementation: chain((fn) => { state.implementation = fn; }),
    mockImplementationOnce: chain((fn) => { state.once.push(fn); }),
    mockReturnValue: chain((value) => { state.implementation = () => value; }),
    mockReturnValueOnce: chain((value) => { state.once.push(() => value); }),
    mockResolvedValue: chain((value) => { state.implementation = () => Promise.resolve(value); }),
    mockResolvedValueOnce: chain((value) => { state.once.push(() => Promise.resolve(value)); }),
    mockRejectedValue: chain((value) => { state.implementation = () => Promise.reject(value); }),
    mockRejectedValueOnce: chain((value) => { state.once.push(() => Promise.reject(value)); }),
    mockReturnThis: chain(() => { state.implementation = function () { return this; }; }),
  });
  spies.push(spy);
  return spy;
}
/**
 * vi.spyOn. intrinsic(object, key), given only for test code, returns a { set, restore } slot when the property is a
 * locked intrinsic (see LOCKDOWN_SOURCE: the lockdown's override capability), so a test can spy on JSON.parse;
 * without it, spying on a locked intrinsic is an assignment the lockdown refuses.
 */
function spyOn(object, key, intrinsic) {
  const check = (condition, message) => { if (!condition) throw new Error(message); };
  check(object != null, 'The vi.spyOn() function could not find an object to spy upon. The first argument must be defined.');
  check(typeof object === 'object' || typeof object === 'function', 'Vitest cannot spy on a primitive value.');
  check(key in object, 'The property "' + String(key) + '" is not defined on the ' + typeof object + '.');
  const original = object[key], own = hasOwn(object, key);
  check(typeof original === 'function', 'vi.spyOn() can only spy on a function. Received ' + typeof original + '.');
  if (isMockFunction(original)) return original;
  const slot = intrinsic ? intrinsic(object, key) : undefined;
  const restore = slot ? () => slot.restore() : () => { if (own) object[key] = original; else delete object[key]; };
  const spy = createMock(function (...args) { return original.apply(this, args); }, String(key), restore);
  if (slot) slot.set(spy);
  else object[key] = spy;
  return spy;
}

function getSpy(assertion) {
  if (!isMockFunction(assertion._obj)) throw new TypeError(inspect(assertion._obj, { truncate: 40 }) + ' is not a spy or a call to a spy!');
  return assertion._obj;
}
const equalArguments = (a, b) => a.length === b.length && a.every((item, i) => equals(item, b[i], [iterableEquality]));
/** The spy matchers, installed on Assertion.prototype by name (this is the assertion). */
const mockMatchers = {
  toHaveBeenCalledTimes(times) {
    const spy = getSpy(this), name = spy.getMockName(), count = spy.mock.calls.length;
    this.assert(count === times, 'expected "' + name + '" to be called #{exp} times, but got ' + count + ' times', 'expected "' + name + '" to not be called #{exp} times', times, count, false);
  },
  toHaveBeenCalledOnce() {
    const spy = getSpy(this), name = spy.getMockName(), count = spy.mock.calls.length;
    this.assert(count === 1, 'expected "' + name + '" to be called once, but got ' + count + ' times', 'expected "' + name + '" to not be called once', 1, count, false);
  },
  toHaveBeenCalled() {
    const spy = getSpy(this), name = spy.getMockName(), count = spy.mock.calls.length, called = count > 0;
    if (called !== this._negate) return;
    const message = this.message(this._negate ? 'expected "' + name + '" to not be called at all, but actually been called ' + count + ' times' : 'expected "' + name + '" to be called at least once');
    throw new AssertionError(called ? formatCalls(spy, message) : message);
  },
  toHaveBeenCalledWith(...args) {
    const spy = getSpy(this), name = spy.getMockName();
    const pass = spy.mock.calls.some((call) => equalArguments(call, args));
    if (pass !== this._negate) return;
    const message = this.message(this._negate ? 'expected "' + name + '" to not be called with arguments: #{exp}' : 'expected "' + name + '" to be called with arguments: #{exp}', args);
    throw new AssertionError(formatCalls(spy, message, args));
  },
  toHaveBeenLastCalledWith(...args) {
    const spy = getSpy(this), name = spy.getMockName(), last = spy.mock.calls[spy.mock.calls.length - 1];
    this.assert(last && equalArguments(last, args), 'expected last "' + name + '" call to have been called with #{exp}', 'expected last "' + name + '" call to not have been called with #{exp}', args, last);
  },
  toHaveBeenNthCalledWith(times, ...args) {
    const spy = getSpy(this), name = spy.getMockName(), call = spy.mock.calls[times - 1], count = spy.mock.calls.length;
    const tail = times <= count ? '' : ', but called only ' + count + ' times';
    this.assert(call && equalArguments(call, args), 'expected ' + ordinal(times) + ' "' + name + '" call to have been called with #{exp}' + tail, 'expected ' + ordinal(times) + ' "' + name + '" call to not have been called with #{exp}', args, call, times <= count);
  },
  toHaveReturned() {
    const spy = getSpy(this), name = spy.getMockName();
    const pass = spy.mock.calls.length > 0 && spy.mock.results.some((result) => result.type !== 'throw');
    this.assert(pass, 'expected "' + name + '" to be successfully called at least once', 'expected "' + name + '" to not be successfully called', pass, !pass, false);
  },
};

return { asymmetric, createMock, spyOn, spies, mockMatchers, inspect, objDisplay, pretty, stringify: (value) => pretty(value, STRINGIFY_FORMAT), displayPair, getObjectSubset, formatCalls, formatTitle, tableCases };
`;

const HOT_SOURCE = String.raw`
// The host's tamper channel, taken before the realm is locked (the lockdown deletes the global).
const reportTamper = globalThis.__host_tamper;
// The lockdown hands this module its override capability for test code's vi.spyOn on locked intrinsics.
let intrinsicSlot;
globalThis.__stratbench_receive_override__ = (capability) => { intrinsicSlot = capability; };
// The runner's own serialisation, captured before any test can spy on JSON.
const stringifyReport = JSON.stringify, parseOptions = JSON.parse;
// As vitest's worker does: process.exit inside a test file throws instead of ending the run.
if (globalThis.process) globalThis.process.exit = function (code) {
  throw new Error('process.exit unexpectedly called with "' + (code === undefined ? (globalThis.process.exitCode || 0) : code) + '"');
};
const OBJECT_TO_STRING = Object.prototype.toString;
const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const tagOf = (value) => OBJECT_TO_STRING.call(value).slice(8, -1);
const ELLIPSIS = '\u2026';
const ASYMMETRIC = Symbol.for('jest.asymmetricMatcher');
const CHAI_INSPECT = Symbol.for('chai/inspect');
let coldExports = null;
/** Code most runs never need (failure displays, diffs, .each titles, asymmetric matchers, mocks), compiled on first use. */
const cold = () => coldExports || (coldExports = new Function('hot', __COLD_SOURCE__)({ tagOf, hasOwn, ELLIPSIS, ASYMMETRIC, CHAI_INSPECT, isAsymmetric, isError, isObjectLike, equals, iterableEquality, subsetEquality, hasPropertyInObject, functionName, halfUnit, isMockFunction, AssertionError }));
const OWN_FILE = (/\((.*):\d+:\d+\)/.exec(new Error('own file').stack || '') || [])[1];

// ---------------------------------------------------------------------------------------------------------------
// Equality (@vitest/expect: jasmine's eq with custom testers).
function isAsymmetric(value) {
  return !!value && typeof value === 'object' && typeof value.asymmetricMatch === 'function';
}
const isError = (value) => tagOf(value) === 'Error' || value instanceof Error;
function equals(a, b, testers = [], strict = false) {
  return eq(a, b, [], [], testers, strict ? hasOwn : hasDefinedKey);
}
function hasDefinedKey(object, key) {
  return hasOwn(object, key) && object[key] !== undefined;
}
function ownKeys(object, hasKey) {
  const keys = [];
  for (const key in object) if (hasKey(object, key)) keys.push(key);
  return keys.concat(Object.getOwnPropertySymbols(object).filter((symbol) => Object.getOwnPropertyDescriptor(object, symbol).enumerable));
}
function eq(a, b, aStack, bStack, testers, hasKey) {
  const asymmetricA = genuineMatchers.has(a), asymmetricB = isAsymmetric(b);
  if (asymmetricA && !asymmetricB) return a.asymmetricMatch(b, testers);
  if (asymmetricB && !asymmetricA) return b.asymmetricMatch(a, testers);
  for (const tester of testers) {
    const result = tester.call({ equals }, a, b, testers);
    if (result !== undefined) return result;
  }
  if (Object.is(a, b)) return true;
  if (a === null || b === null) return a === b;
  const className = OBJECT_TO_STRING.call(a);
  if (className !== OBJECT_TO_STRING.call(b)) return false;
  switch (className) {
    case '[object Boolean]': case '[object String]': case '[object Number]':
      if (typeof a !== typeof b) return false;
      return typeof a !== 'object' ? Object.is(a, b) : Object.is(a.valueOf(), b.valueOf());
    case '[object Date]': return +a === +b || (Number.isNaN(+a) && Number.isNaN(+b));
    case '[object RegExp]': return a.source === b.source && a.flags === b.flags;
  }
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  let length = aStack.length;
  while (length--) {
    if (aStack[length] === a) return bStack[length] === b;
    if (bStack[length] === b) return false;
  }
  aStack.push(a);
  bStack.push(b);
  if (className === '[object Array]' && a.length !== b.length) return false;
  if (isError(a) && isError(b)) {
    try {
      let result = OBJECT_TO_STRING.call(a) === OBJECT_TO_STRING.call(b) && a.name === b.name && a.message === b.message;
      if (typeof b.cause !== 'undefined') result = result && eq(a.cause, b.cause, aStack, bStack, testers, hasKey);
      return result && eq(Object.assign({}, a), Object.assign({}, b), aStack, bStack, testers, hasKey);
    } finally {
      aStack.pop();
      bStack.pop();
    }
  }
  const aKeys = ownKeys(a, hasKey);
  let size = aKeys.length;
  if (ownKeys(b, hasKey).length !== size) return false;
  while (size--) {
    const key = aKeys[size];
    if (!(hasKey(b, key) && eq(a[key], b[key], aStack, bStack, testers, hasKey))) return false;
  }
  aStack.pop();
  bStack.pop();
  return true;
}
function iterableEquality(a, b, testers = [], aStack = [], bStack = []) {
  if (typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b) || a === null || b === null || !a[Symbol.iterator] || !b[Symbol.iterator]) return undefined;
  if (a.constructor !== b.constructor) return false;
  let length = aStack.length;
  while (length--) if (aStack[length] === a) return bStack[length] === b;
  aStack.push(a);
  bStack.push(b);
  const withStack = (x, y) => iterableEquality(x, y, testers.slice(), aStack.slice(), bStack.slice());
  const nested = testers.filter((tester) => tester !== iterableEquality).concat([withStack]);
  if (a.size !== undefined) {
    if (a.size !== b.size) return false;
    const tag = tagOf(a);
    if (tag === 'Set' || tag === 'Map') {
      let allFound = true;
      for (const item of a) {
        const found = tag === 'Set'
          ? b.has(item) || Array.from(b).some((other) => equals(item, other, nested))
          : (b.has(item[0]) && equals(item[1], b.get(item[0]), nested)) || Array.from(b).some((other) => equals(item[0], other[0], nested) && equals(item[1], other[1], nested));
        if (!found) { allFound = false; break; }
      }
      aStack.pop();
      bStack.pop();
      return allFound;
    }
  }
  const bIterator = b[Symbol.iterator]();
  for (const item of a) {
    const next = bIterator.next();
    if (next.done || !equals(item, next.value, nested)) return false;
  }
  if (!bIterator.next().done) return false;
  if (!equals(Object.entries(a), Object.entries(b), nested)) return false;
  aStack.pop();
  bStack.pop();
  return true;
}
function typeEquality(a, b) {
  return a == null || b == null || a.constructor === b.constructor ? undefined : false;
}
function sparseArrayEquality(a, b, testers = []) {
  if (!Array.isArray(a) || !Array.isArray(b)) return undefined;
  return equals(a, b, testers.filter((tester) => tester !== sparseArrayEquality), true) && equals(Object.keys(a), Object.keys(b));
}
const isObjectLike = (value) => value != null && typeof value === 'object' && !Array.isArray(value);
function hasPropertyInObject(object, key) {
  if (!object || typeof object !== 'object' || object === Object.prototype) return false;
  return hasOwn(object, key) || hasPropertyInObject(Object.getPrototypeOf(object), key);
}
function subsetEquality(object, subset, testers = []) {
  const filtered = testers.filter((tester) => tester !== subsetEquality);
  const withContext = (seen) => (target, sample) => {
    if (!isObjectLike(sample) || isError(sample) || sample instanceof Date || sample instanceof Set || sample instanceof Map) return undefined;
    return Object.keys(sample).every((key) => {
      if (sample[key] != null && typeof sample[key] === 'object') {
        if (seen.has(sample[key])) return equals(target[key], sample[key], filtered);
        seen.set(sample[key], true);
      }
      const result = target != null && hasPropertyInObject(target, key) && equals(target[key], sample[key], filtered.concat([withContext(seen)]));
      seen.delete(sample[key]);
      return result;
    });
  };
  return withContext(new WeakMap())(object, subset);
}
const STRICT_TESTERS = [iterableEquality, typeEquality, sparseArrayEquality];

const functionName = (fn) => fn.name || (/^(?:async)?\s*function\s*(?:\*\s*)?([\w$]+)\s*\(/.exec(Function.prototype.toString.call(fn)) || [])[1] || '<anonymous>';
/** 10 ** -digits / 2 as V8 computes it (its pow differs from QuickJS's correctly rounded one for 4, 11 and 23 digits). */
function halfUnit(digits) {
  const v8 = { 4: 0.00009999999999999999, 11: 1e-11, 23: 1.0000000000000001e-23 };
  return (digits in v8 ? v8[digits] : 10 ** -digits) / 2;
}

// ---------------------------------------------------------------------------------------------------------------
// Errors: AssertionError, and the serialised form vitest's processError gives (expected/actual as pretty strings).
class AssertionError extends Error {
  constructor(message, properties) {
    super(message);
    for (const key in properties) this[key] = properties[key];
  }
  get name() { return 'AssertionError'; }
}
class SkipSignal {
  constructor(note) { this.note = note; }
}
/** The stack without the shim's own frames (its module file, and <input> for the code compiled from COLD_SOURCE). */
function cleanStack(stack) {
  if (typeof stack !== 'string') return '';
  return stack.split('\n').filter((line) => !line.includes('(<input>:') && !(OWN_FILE && line.includes('(' + OWN_FILE + ':'))).join('\n');
}
function serializeError(error) {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return { name: 'Unknown Error', message: String(error), stack: '' };
  const message = typeof error.message === 'string' ? error.message : error.message === undefined ? cold().inspect(error) : String(error.message);
  const result = { name: typeof error.name === 'string' && error.name ? error.name : 'Unknown Error', message, stack: cleanStack(error.stack) };
  if (error.showDiff || (error.showDiff === undefined && error.expected !== undefined && error.actual !== undefined)) {
    const pair = cold().displayPair(error.expected, error.actual);
    result.expected = pair[0];
    result.actual = pair[1];
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// expect: one Assertion per call; matchers from @vitest/expect's JestChaiExpect with chai's assert() semantics.
const expectState = { assertionCalls: 0, expectedAssertions: null, expectingAssertions: false };
let currentTest = null;
const chaiType = (value) => (value === undefined || value === null ? String(value) : typeof value[Symbol.toStringTag] === 'string' ? value[Symbol.toStringTag] : tagOf(value));
class Assertion {
  constructor(value, message) {
    this._obj = value;
    this._message = message;
    this._negate = false;
  }
  get not() {
    this._negate = true;
    return this;
  }
  get resolves() { return settledAssertion(this, 'resolves'); }
  get rejects() { return settledAssertion(this, 'rejects'); }
  /** chai's Assertion#assert: fails unless expr (negated by .not); #{this}, #{exp}, #{act} become objDisplay values. */
  assert(expr, message, negatedMessage, expected, actual, showDiff) {
    if (this._negate ? !expr : expr) return;
    const shownActual = arguments.length > 4 ? actual : this._obj;
    const diff = showDiff !== false && !(expected === undefined && actual === undefined);
    throw new AssertionError(this.message(this._negate ? negatedMessage : message, expected, shownActual), { actual: shownActual, expected, showDiff: diff });
  }
  message(template, expected, actual) {
    const text = template.replace(/#\{(this|act|exp)\}/g, (match, tag) => cold().objDisplay(tag === 'this' ? this._obj : tag === 'act' ? actual : expected));
    return this._message ? this._message + ': ' + text : text;
  }
}
function settledAssertion(assertion, kind) {
  const access = new Error(kind);
  const subject = assertion._obj;
  const promise = kind === 'rejects' && typeof subject === 'function' ? subject() : subject;
  if (typeof (promise && promise.then) !== 'function') throw new TypeError('You must provide a Promise to expect() when using .' + kind + ", not '" + typeof promise + "'.");
  assertion._promise = kind;
  const proxy = new Proxy(assertion, {
    get(target, key) {
      const value = target[key];
      if (typeof value !== 'function') return value === target ? proxy : value;
      return (...args) => {
        const settled = Promise.resolve(promise).then(
          (resolved) => {
            if (kind === 'rejects') throw new AssertionError('promise resolved "' + cold().inspect(resolved, { truncate: 40 }) + '" instead of rejecting', { showDiff: true, expected: new Error('rejected promise'), actual: resolved });
            target._obj = resolved;
            return value.apply(target, args);
          },
          (reason) => {
            if (kind === 'rejects') {
              target._obj = reason;
              return value.apply(target, args);
            }
            const error = new AssertionError('promise rejected "' + cold().inspect(reason, { truncate: 40 }) + '" instead of resolving', { showDiff: false });
            error.cause = reason;
            throw error;
          },
        ).catch((error) => {
          if (isError(error)) error.stack = access.stack;
          throw error;
        });
        return recordAsync(settled);
      };
    },
  });
  return proxy;
}
/** An async assertion the test did not await still fails it: the runner awaits the unclaimed ones when the test ends. */
function recordAsync(promise) {
  const test = currentTest;
  if (!test) return promise;
  const record = { promise, claimed: false };
  test.pending.push(record);
  promise.catch(() => {});
  const claim = (method) => (...args) => { record.claimed = true; return promise[method](...args); };
  return { then: claim('then'), catch: claim('catch'), finally: claim('finally') };
}
function assertNumbers(actual, expected) {
  for (const [name, value] of [['actual', actual], ['expected', expected]]) {
    if (typeof value !== 'number' && typeof value !== 'bigint') throw new TypeError(name + ' value must be number or bigint, received "' + typeof value + '"');
  }
}
function isMockFunction(value) {
  return typeof value === 'function' && value._isMockFunction === true;
}
/** pathval's getPathInfo (chai): 'a.b[0]' paths, walking only through truthy values. */
function getPathInfo(object, path) {
  const parts = path.replace(/([^\\])\[/g, '$1.[').match(/(\\\.|[^.]+?)+/g).map((part) => {
    const index = /^\[(\d+)\]$/.exec(part);
    return index ? Number(index[1]) : part.replace(/\\([.[\]])/g, '$1');
  });
  const walk = (depth) => {
    let value = object, result = null;
    for (let i = 0; i < depth && value; i += 1) {
      value = value[parts[i]];
      if (i === depth - 1) result = value;
    }
    return result;
  };
  const parent = parts.length > 1 ? walk(parts.length - 1) : object;
  return { exists: parent != null && parts[parts.length - 1] in Object(parent), value: walk(parts.length) };
}
/** chai's assertThrows, as vitest calls it for toThrow() with no argument, a string or a RegExp. */
function chaiThrows(assertion, matcher) {
  const subject = assertion._obj, negate = assertion._negate;
  if (typeof subject !== 'function') throw new AssertionError(assertion.message('expected #{this} to be a function'));
  let caught, threw = false;
  try {
    subject();
  } catch (error) {
    threw = true;
    caught = error;
  }
  if (matcher === undefined || !negate) {
    const shown = caught instanceof Error ? caught.toString() : typeof caught === 'string' ? caught : caught && (typeof caught === 'object' || typeof caught === 'function') ? functionName(caught.constructor) : caught;
    assertion.assert(threw, 'expected #{this} to throw an error', 'expected #{this} to not throw an error but #{act} was thrown', matcher === undefined ? undefined : null, shown);
  }
  if (caught && matcher !== undefined) {
    const text = typeof caught === 'string' ? caught : caught.message;
    const compatible = text !== undefined && (matcher instanceof RegExp ? matcher.test(text) : text.indexOf(matcher) !== -1);
    if (compatible === negate) {
      const placeholder = matcher instanceof RegExp ? 'matching' : 'including';
      assertion.assert(negate, 'expected #{this} to throw error ' + placeholder + ' #{exp} but got #{act}', 'expected #{this} to throw error not ' + placeholder + ' #{exp}', matcher, typeof caught === 'string' ? caught : caught.message || '');
    }
  }
}
const MATCHERS = {
  toBe(expected) {
    const actual = this._obj, pass = Object.is(actual, expected);
    let message = 'expected #{this} to be #{exp} // Object.is equality';
    if (!pass) {
      const deep = equals(actual, expected, STRICT_TESTERS, true) ? 'toStrictEqual' : equals(actual, expected, [iterableEquality]) ? 'toEqual' : '';
      if (deep) message += '\n\nIf it should pass with deep equality, replace "toBe" with "' + deep + '"\n\nExpected: #{this}\nReceived: serializes to the same string\n';
    }
    this.assert(pass, message, 'expected #{this} not to be #{exp} // Object.is equality', expected, actual);
  },
  toEqual(expected) {
    this.assert(equals(this._obj, expected, [iterableEquality]), 'expected #{this} to deeply equal #{exp}', 'expected #{this} to not deeply equal #{exp}', expected, this._obj);
  },
  toStrictEqual(expected) {
    this.assert(equals(this._obj, expected, STRICT_TESTERS, true), 'expected #{this} to strictly equal #{exp}', 'expected #{this} to not strictly equal #{exp}', expected, this._obj);
  },
  toMatchObject(expected) {
    const pass = equals(this._obj, expected, [iterableEquality, subsetEquality]);
    if (pass !== this._negate) return;
    const found = cold().getObjectSubset(this._obj, expected);
    const message = this.message(this._negate ? 'expected #{this} to not match object #{exp}' : 'expected #{this} to match object #{exp}', expected, found.subset);
    const omitted = found.stripped === 0 ? '' : '\n(' + found.stripped + ' matching ' + (found.stripped === 1 ? 'property' : 'properties') + ' omitted from actual)';
    throw new AssertionError(message + omitted, { showDiff: true, expected, actual: found.subset });
  },
  toMatch(expected) {
    const actual = this._obj;
    if (typeof actual !== 'string') throw new TypeError('.toMatch() expects to receive a string, but got ' + typeof actual);
    this.assert(typeof expected === 'string' ? actual.includes(expected) : actual.match(expected), 'expected #{this} to match #{exp}', 'expected #{this} not to match #{exp}', expected, actual);
  },
  toContain(item) {
    const actual = this._obj;
    if (typeof actual === 'string' && typeof item === 'string') return this.assert(actual.includes(item), 'expected #{this} to contain #{exp}', 'expected #{this} not to contain #{exp}', item, actual);
    if (actual != null && typeof actual !== 'string') this._obj = Array.from(actual);
    const type = chaiType(this._obj).toLowerCase();
    if (type !== 'string' && type !== 'array') {
      const itemType = chaiType(item).toLowerCase();
      throw new AssertionError((this._message ? this._message + ': ' : '') + 'the given combination of arguments (' + type + ' and ' + itemType + ') is invalid for this assertion. You can use an array, a map, an object, a set, a string, or a weakset instead of a ' + itemType);
    }
    const included = this._obj.indexOf(item) !== -1;
    if (included === this._negate) {
      const shown = cold().inspect(item, { truncate: 40 });
      this.assert(included, 'expected #{this} to include ' + shown, 'expected #{this} to not include ' + shown);
    }
  },
  toContainEqual(expected) {
    const found = Array.from(this._obj).some((item) => equals(item, expected));
    this.assert(found, 'expected #{this} to deep equally contain #{exp}', 'expected #{this} to not deep equally contain #{exp}', expected);
  },
  toBeTruthy() { this.assert(Boolean(this._obj), 'expected #{this} to be truthy', 'expected #{this} to not be truthy', true, this._obj); },
  toBeFalsy() { this.assert(!this._obj, 'expected #{this} to be falsy', 'expected #{this} to not be falsy', false, this._obj); },
  toBeNaN() { this.assert(Number.isNaN(this._obj), 'expected #{this} to be NaN', 'expected #{this} not to be NaN', NaN, this._obj); },
  toBeUndefined() { this.assert(this._obj === undefined, 'expected #{this} to be undefined', 'expected #{this} not to be undefined', undefined, this._obj); },
  toBeNull() { this.assert(this._obj === null, 'expected #{this} to be null', 'expected #{this} not to be null', null, this._obj); },
  toBeDefined() { this.assert(this._obj !== undefined, 'expected #{this} to be defined', 'expected #{this} to be undefined', this._obj); },
  toBeTypeOf(expected) {
    const actual = typeof this._obj;
    this.assert(expected === actual, 'expected #{this} to be type of #{exp}', 'expected #{this} not to be type of #{exp}', expected, actual);
  },
  toBeInstanceOf(constructor) {
    let pass;
    try {
      pass = this._obj instanceof constructor;
    } catch (error) {
      if (error instanceof TypeError) throw new AssertionError((this._message ? this._message + ': ' : '') + 'The instanceof assertion needs a constructor but ' + chaiType(constructor) + ' was given.');
      throw error;
    }
    const name = typeof constructor === 'function' ? constructor.name : 'an unnamed constructor';
    this.assert(pass, 'expected #{this} to be an instance of ' + name, 'expected #{this} to not be an instance of ' + name);
  },
  toBeGreaterThan(expected) { compare(this, expected, (a, b) => a > b, 'greater than'); },
  toBeGreaterThanOrEqual(expected) { compare(this, expected, (a, b) => a >= b, 'greater than or equal to'); },
  toBeLessThan(expected) { compare(this, expected, (a, b) => a < b, 'less than'); },
  toBeLessThanOrEqual(expected) { compare(this, expected, (a, b) => a <= b, 'less than or equal to'); },
  toBeCloseTo(expected, digits = 2) {
    const actual = this._obj;
    let pass, expectedDifference = 0, receivedDifference = 0;
    if ((expected === Infinity && actual === Infinity) || (expected === -Infinity && actual === -Infinity)) pass = true;
    else {
      expectedDifference = halfUnit(digits);
      receivedDifference = Math.abs(actual - expected);
      pass = receivedDifference < expectedDifference;
    }
    const tail = ', received difference is ' + receivedDifference + ', but expected ' + expectedDifference;
    this.assert(pass, 'expected #{this} to be close to #{exp}' + tail, 'expected #{this} to not be close to #{exp}' + tail, expected, actual, false);
  },
  toHaveLength(length) {
    const subject = this._obj, type = chaiType(subject).toLowerCase();
    let count, descriptor = 'length';
    if (type === 'map' || type === 'set') {
      descriptor = 'size';
      count = subject.size;
    } else {
      if (subject == null) throw new AssertionError((this._message ? this._message + ': ' : '') + 'Target cannot be null or undefined.');
      if (!('length' in Object(subject))) throw new AssertionError(this.message("expected #{this} to have property 'length'"));
      count = subject.length;
    }
    this.assert(count == length, 'expected #{this} to have a ' + descriptor + ' of #{exp} but got #{act}', 'expected #{this} to not have a ' + descriptor + ' of #{act}', length, count);
  },
  toHaveProperty(...args) {
    if (Array.isArray(args[0])) args[0] = args[0].map((key) => String(key).replace(/([.[\]])/g, '\\$1')).join('.');
    const subject = this._obj, name = args[0], expected = args[1];
    if (subject == null) throw new TypeError('Cannot convert undefined or null to object');
    const info = hasOwn(subject, name) ? { exists: true, value: subject[name] } : getPathInfo(subject, name);
    const pass = info.exists && (args.length === 1 || equals(expected, info.value));
    if (!!pass !== this._negate) return;
    const withValue = args.length === 1 ? '' : ' with value ' + cold().objDisplay(expected);
    this.assert(pass, 'expected #{this} to have property "' + name + '"' + withValue, 'expected #{this} to not have property "' + name + '"' + withValue, expected, info.exists ? info.value : undefined);
  },
  toThrow(expected) {
    const subject = this._obj, negate = this._negate, promise = this._promise;
    if (promise === 'rejects' && (typeof expected === 'string' || expected === undefined || expected instanceof RegExp)) this._obj = () => { throw subject; };
    else if (promise === 'resolves' && typeof subject !== 'function') {
      if (negate) return;
      throw new AssertionError(this._message || "expected promise to throw an error, but it didn't", { showDiff: false });
    }
    if (typeof expected === 'string' || expected === undefined || expected instanceof RegExp) return chaiThrows(this, expected === '' ? /^$/ : expected);
    let thrown = null;
    if (promise === 'rejects') thrown = subject;
    else {
      let threw = false;
      try {
        subject();
      } catch (error) {
        threw = true;
        thrown = error;
      }
      if (!threw && !negate) throw new AssertionError(this._message || "expected function to throw an error, but it didn't", { showDiff: false });
    }
    if (typeof expected === 'function') {
      const name = expected.name || expected.prototype.constructor.name;
      return this.assert(thrown && thrown instanceof expected, 'expected error to be instance of ' + name, 'expected error not to be instance of ' + name, expected, thrown);
    }
    if (isError(expected)) return this.assert(equals(thrown, expected, [iterableEquality]), 'expected a thrown error to be #{exp}', 'expected a thrown error not to be #{exp}', expected, thrown);
    if (isAsymmetric(expected)) return this.assert(thrown && expected.asymmetricMatch(thrown), 'expected error to match asymmetric matcher', 'expected error not to match asymmetric matcher', expected, thrown);
    this.assert(equals(thrown, expected, [iterableEquality]), 'expected a thrown value to equal #{exp}', 'expected a thrown value not to equal #{exp}', expected, thrown);
  },
};
MATCHERS.toThrowError = MATCHERS.toThrow;
Object.assign(Assertion.prototype, MATCHERS);
const MOCK_MATCHERS = ['toHaveBeenCalledTimes', 'toHaveBeenCalledOnce', 'toHaveBeenCalled', 'toHaveBeenCalledWith', 'toHaveBeenLastCalledWith', 'toHaveBeenNthCalledWith', 'toHaveReturned'];
const MOCK_ALIASES = { toBeCalled: 'toHaveBeenCalled', toBeCalledTimes: 'toHaveBeenCalledTimes', toBeCalledWith: 'toHaveBeenCalledWith', lastCalledWith: 'toHaveBeenLastCalledWith', nthCalledWith: 'toHaveBeenNthCalledWith', toReturn: 'toHaveReturned' };
for (const name of MOCK_MATCHERS.concat(Object.keys(MOCK_ALIASES))) {
  Assertion.prototype[name] = function (...args) { return cold().mockMatchers[MOCK_ALIASES[name] || name].apply(this, args); };
}
function compare(assertion, expected, holds, relation) {
  const actual = assertion._obj;
  assertNumbers(actual, expected);
  assertion.assert(holds(actual, expected), 'expected ' + actual + ' to be ' + relation + ' ' + expected, 'expected ' + actual + ' to be not ' + relation + ' ' + expected, expected, actual, false);
}

/**
 * Asymmetric matchers made by a test's expect. On the received side of an equality only these match by their own
 * rule (jest lets any object with asymmetricMatch decide, so a wrong value that carries one passed toEqual); the
 * source API's factories make matchers that do not count there.
 */
const genuineMatchers = new WeakSet();
const asymmetric = (name, inverse = false) => (...args) => {
  const matcher = cold().asymmetric(name, inverse, args);
  genuineMatchers.add(matcher);
  return matcher;
};
const sourceAsymmetric = (name, inverse = false) => (...args) => cold().asymmetric(name, inverse, args);
/** Matchers added by expect.extend (test code only), served by a proxy: Assertion.prototype itself is frozen. */
const customMatchers = new Map();
const CUSTOM_MATCHERS = {
  get(target, key, receiver) {
    if (typeof key === 'string' && !(key in target) && customMatchers.has(key)) return customMatchers.get(key);
    return Reflect.get(target, key, receiver);
  },
};
export function expect(value, message) {
  expectState.assertionCalls += 1;
  const assertion = new Assertion(value, message);
  return customMatchers.size === 0 ? assertion : new Proxy(assertion, CUSTOM_MATCHERS);
}
Object.assign(expect, {
  anything: asymmetric('Anything'),
  any: asymmetric('Any'),
  stringContaining: asymmetric('StringContaining'),
  stringMatching: asymmetric('StringMatching'),
  objectContaining: asymmetric('ObjectContaining'),
  arrayContaining: asymmetric('ArrayContaining'),
  closeTo: asymmetric('CloseTo'),
  not: {
    stringContaining: asymmetric('StringContaining', true),
    stringMatching: asymmetric('StringMatching', true),
    objectContaining: asymmetric('ObjectContaining', true),
    arrayContaining: asymmetric('ArrayContaining', true),
    closeTo: asymmetric('CloseTo', true),
  },
  /** Like expect, but a failed matcher fails the test and lets it go on. */
  soft(value, message) {
    const test = currentTest;
    if (!test) throw new Error('expect.soft() can only be used inside a test');
    const assertion = expect(value, message);
    const proxy = new Proxy(assertion, {
      get(target, key) {
        const member = target[key];
        if (typeof member !== 'function') return member === target ? proxy : member;
        return (...args) => {
          try {
            const result = member.apply(target, args);
            return result && typeof result.then === 'function' ? result.then(undefined, (error) => fail(test, error)) : result;
          } catch (error) {
            fail(test, error);
          }
        };
      },
    });
    return proxy;
  },
  assertions(count) { expectState.expectedAssertions = count; },
  hasAssertions() { expectState.expectingAssertions = true; },
  getState: () => expectState,
  unreachable(message) { throw new AssertionError('expected' + (message ? ' "' + message + '" ' : ' ') + 'not to be reached'); },
  /** Custom matchers: fn(received, ...args) returns { pass, message() } (or a promise of it), as in jest. */
  extend(matchers) {
    for (const name of Object.keys(matchers)) {
      // Built-in matchers are read-only: a matcher that grades cannot be replaced (vitest allows it; a grader must not).
      if (Object.prototype.hasOwnProperty.call(Assertion.prototype, name)) {
        reportTamper('expect.extend replaced the built-in matcher ' + name, new Error('tamper').stack);
        throw new TypeError('expect.extend cannot replace the built-in matcher ' + name + ' in the stratbench sandbox (its matchers grade the run)');
      }
      customMatchers.set(name, function (...args) {
        const show = (value) => cold().stringify(value);
        const context = { isNot: this._negate, promise: this._promise || '', equals, utils: { stringify: show, printReceived: show, printExpected: show, matcherHint: () => '' } };
        const check = (result) => {
          if (result.pass !== this._negate) return;
          const error = new Error((this._message ? this._message + ': ' : '') + result.message());
          error.actual = result.actual;
          error.expected = result.expected;
          throw error;
        };
        const result = matchers[name].call(context, this._obj, ...args);
        return result && typeof result.then === 'function' ? result.then(check) : check(result);
      });
    }
  },
});

// ---------------------------------------------------------------------------------------------------------------
// vi: mock functions and spies (a small part of @vitest/spy).
export const vi = {
  fn: (implementation) => (isMockFunction(implementation) ? implementation : cold().createMock(implementation, 'vi.fn()')),
  spyOn: (object, key) => cold().spyOn(object, key, intrinsicSlot),
  isMockFunction,
  mocked: (value) => value,
  clearAllMocks() { if (coldExports) coldExports.spies.forEach((spy) => spy.mockClear()); return vi; },
  resetAllMocks() { if (coldExports) coldExports.spies.forEach((spy) => spy.mockReset()); return vi; },
  restoreAllMocks() { if (coldExports) coldExports.spies.forEach((spy) => spy.mockRestore()); return vi; },
};

// ---------------------------------------------------------------------------------------------------------------
// Collection and running (@vitest/runner): describe factories run after the file evaluated, .only/-t by
// interpretTaskModes, hooks in 'stack' order (after-hooks reversed), beforeAll failure skips the suite's tests.
const file = { type: 'suite', name: '', mode: 'run', tasks: [], hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] }, errors: [], options: {} };
let collecting = file;
function parseArguments(optionsOrFn, timeoutOrFn) {
  if (timeoutOrFn != null && typeof timeoutOrFn === 'object') throw new TypeError('Signature "test(name, fn, { ... })" was deprecated in Vitest 3 and removed in Vitest 4. Please, provide options as a second argument instead.');
  let options = {}, handler;
  if (typeof timeoutOrFn === 'number') options = { timeout: timeoutOrFn };
  else if (typeof optionsOrFn === 'object' && optionsOrFn !== null) options = optionsOrFn;
  if (typeof optionsOrFn === 'function') {
    if (typeof timeoutOrFn === 'function') throw new TypeError('Cannot use two functions as arguments. Please use the second argument for options.');
    handler = optionsOrFn;
  } else if (typeof timeoutOrFn === 'function') handler = timeoutOrFn;
  return { options, handler };
}
const formatName = (name) => (typeof name === 'string' ? name : typeof name === 'function' ? name.name || '<anonymous>' : String(name));
const modeOf = (flags) => (flags.only ? 'only' : flags.skip ? 'skip' : flags.todo ? 'todo' : 'run');
function registerTest(name, optionsOrFn, timeoutOrFn) {
  const parsed = parseArguments(optionsOrFn, timeoutOrFn);
  const flags = Object.assign({}, collecting.options, this, parsed.options);
  const mode = modeOf(flags);
  collecting.tasks.push({ type: 'test', name: formatName(name), mode: mode === 'run' && !parsed.handler ? 'todo' : mode, fn: parsed.handler, suite: collecting, fails: !!flags.fails });
}
function registerSuite(name, factoryOrOptions, optionsOrFactory) {
  if (currentTest) throw new Error('Calling the suite function inside test function is not allowed. It can be only called at the top level or inside another suite function.');
  const parsed = parseArguments(factoryOrOptions, optionsOrFactory);
  const options = Object.assign({}, collecting.options, parsed.options);
  const mode = modeOf(Object.assign({}, options, this));
  collecting.tasks.push({ type: 'suite', name: formatName(name), mode: mode === 'run' && !parsed.handler ? 'todo' : mode, factory: parsed.handler, suite: collecting, tasks: [], hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] }, errors: [], options });
}
function createChainable(keys, register, context = {}) {
  const chain = (...args) => register.apply(context, args);
  for (const key of keys) Object.defineProperty(chain, key, { get: () => createChainable(keys, register, Object.assign({}, context, { [key]: true })) });
  chain.each = (cases, ...values) => {
    if (Array.isArray(cases) && values.length) cases = cold().tableCases(cases, values);
    return (name, optionsOrFn, fnOrOptions) => {
      const title = formatName(name), arraysOnly = cases.every(Array.isArray);
      const parsed = parseArguments(optionsOrFn, fnOrOptions);
      cases.forEach((item, index) => {
        const items = Array.isArray(item) ? item : [item];
        chain(cold().formatTitle(title, items, index), parsed.options, parsed.handler && (arraysOnly ? () => parsed.handler(...items) : () => parsed.handler(item)));
      });
    };
  };
  chain.for = (cases, ...values) => {
    if (Array.isArray(cases) && values.length) cases = cold().tableCases(cases, values);
    return (name, optionsOrFn, fnOrOptions) => {
      const parsed = parseArguments(optionsOrFn, fnOrOptions);
      cases.forEach((item, index) => chain(cold().formatTitle(formatName(name), Array.isArray(item) ? item : [item], index), parsed.options, parsed.handler && ((context) => parsed.handler(item, context))));
    };
  };
  chain.skipIf = (condition) => (condition ? chain.skip : chain);
  chain.runIf = (condition) => (condition ? chain : chain.skip);
  return chain;
}

const TEST_KEYS = ['concurrent', 'sequential', 'skip', 'only', 'todo', 'fails'];
export const test = createChainable(TEST_KEYS, registerTest);
export const it = test;
export const describe = createChainable(['concurrent', 'sequential', 'shuffle', 'skip', 'only', 'todo'], registerSuite);
export const suite = describe;
const hook = (name) => (fn) => { collecting.hooks[name].push(fn); };
export const beforeAll = hook('beforeAll');
export const afterAll = hook('afterAll');
export const beforeEach = hook('beforeEach');
export const afterEach = hook('afterEach');
export function onTestFinished(fn) { if (currentTest) currentTest.onFinished.push(fn); }
export function onTestFailed(fn) { if (currentTest) currentTest.onFailed.push(fn); }

async function collect(suiteTask) {
  if (suiteTask.factory) {
    const previous = collecting;
    collecting = suiteTask;
    try {
      await suiteTask.factory();
    } finally {
      collecting = previous;
    }
  }
  for (const task of suiteTask.tasks) if (task.type === 'suite') await collect(task);
}
const someOnly = (suiteTask) => suiteTask.tasks.some((task) => task.mode === 'only' || (task.type === 'suite' && someOnly(task)));
const fullName = (task) => (task.suite && task.suite !== file ? fullName(task.suite) + ' ' : '') + task.name;
function setAll(suiteTask, mode) {
  for (const task of suiteTask.tasks) {
    if (task.mode === 'run') {
      task.mode = mode;
      if (task.type === 'suite') setAll(task, mode);
    }
  }
}
function interpretModes(suiteTask, parentIsOnly, onlyMode, pattern) {
  const suiteIsOnly = parentIsOnly || suiteTask.mode === 'only';
  const hasSomeOnly = onlyMode && someOnly(suiteTask);
  for (const task of suiteTask.tasks) {
    const included = hasSomeOnly ? task.mode === 'only' || (task.type === 'suite' && someOnly(task)) : suiteIsOnly || task.mode === 'only';
    if (onlyMode) {
      if (task.type === 'suite' && (included || someOnly(task))) {
        if (task.mode === 'only') task.mode = 'run';
      } else if (task.mode === 'run' && !included) task.mode = 'skip';
      else if (task.mode === 'only') task.mode = 'run';
    }
    if (task.type === 'test') {
      if (pattern && !pattern.test(fullName(task))) task.mode = 'skip';
    } else if (task.mode === 'skip' || task.mode === 'todo') setAll(task, task.mode);
    else interpretModes(task, included, onlyMode, pattern);
  }
  if (suiteTask.mode === 'run' && suiteTask.tasks.length && suiteTask.tasks.every((task) => task.mode !== 'run')) suiteTask.mode = 'skip';
}
const hasTests = (suiteTask) => suiteTask.tasks.some((task) => task.type === 'test' || hasTests(task));
function markSkipped(suiteTask) {
  for (const task of suiteTask.tasks) {
    task.mode = 'skip';
    if (task.type === 'suite') markSkipped(task);
    else task.state = 'skip';
  }
}
async function runSuite(suiteTask, filepath) {
  if (suiteTask.mode !== 'run') return;
  const cleanups = [];
  try {
    try {
      for (const fn of suiteTask.hooks.beforeAll) cleanups.push(await fn(suiteTask));
    } catch (error) {
      suiteTask.errors.push(serializeError(error));
      markSkipped(suiteTask);
      return;
    }
    for (const task of suiteTask.tasks) {
      if (task.type === 'test') await runTest(task);
      else await runSuite(task);
    }
  } finally {
    try {
      for (const fn of suiteTask.hooks.afterAll.slice().reverse()) await fn(suiteTask);
      for (const cleanup of cleanups.reverse()) if (typeof cleanup === 'function') await cleanup();
    } catch (error) {
      suiteTask.errors.push(serializeError(error));
    }
  }
  if (!hasTests(suiteTask) && !suiteTask.errors.length) suiteTask.errors.push(serializeError(new Error('No test found in suite ' + (suiteTask === file ? filepath : suiteTask.name))));
}
const suiteChain = (suiteTask) => (suiteTask ? suiteChain(suiteTask.suite).concat([suiteTask]) : []);
function fail(test, error) {
  if (error instanceof SkipSignal) {
    test.skipped = true;
    return;
  }
  test.state = 'fail';
  for (const each of Array.isArray(error) ? error : [error]) test.errors.push(serializeError(each));
}
async function runTest(test) {
  if (test.mode !== 'run') return;
  Object.assign(test, { state: 'run', errors: [], pending: [], onFinished: [], onFailed: [] });
  Object.assign(expectState, { assertionCalls: 0, expectedAssertions: null, expectingAssertions: false });
  currentTest = test;
  const chain = suiteChain(test.suite);
  const context = {
    task: { name: test.name, type: 'test' },
    expect,
    skip(condition, note) {
      if (condition === false) return;
      throw new SkipSignal(typeof condition === 'string' ? condition : note);
    },
    onTestFinished,
    onTestFailed,
  };
  const cleanups = [];
  try {
    for (const suiteTask of chain) for (const fn of suiteTask.hooks.beforeEach) cleanups.push(await fn(context, test.suite));
    await test.fn(context);
    const unclaimed = test.pending.filter((record) => !record.claimed).map((record) => record.promise);
    const rejected = (await Promise.allSettled(unclaimed)).filter((result) => result.status === 'rejected').map((result) => result.reason);
    if (rejected.length) throw rejected;
    if (expectState.expectedAssertions !== null && expectState.assertionCalls !== expectState.expectedAssertions) throw new Error('expected number of assertions to be ' + expectState.expectedAssertions + ', but got ' + expectState.assertionCalls);
    if (expectState.expectingAssertions && expectState.assertionCalls === 0) throw new Error('expected any number of assertion, but got none');
    if (test.state !== 'fail') test.state = 'pass';
  } catch (error) {
    fail(test, error);
  }
  try {
    for (const suiteTask of chain.slice().reverse()) for (const fn of suiteTask.hooks.afterEach.slice().reverse()) await fn(context, test.suite);
    for (const cleanup of cleanups.reverse()) if (typeof cleanup === 'function') await cleanup();
  } catch (error) {
    fail(test, error);
  }
  const finishers = test.onFinished.reverse().concat(test.state === 'fail' ? test.onFailed : []);
  for (const fn of finishers) {
    try {
      await fn(context);
    } catch (error) {
      fail(test, error);
    }
  }
  currentTest = null;
  if (test.skipped) test.state = 'skip';
  else if (test.fails) {
    test.errors = test.state === 'pass' ? [serializeError(new Error('Expect test to fail'))] : [];
    test.state = test.state === 'pass' ? 'fail' : 'pass';
  }
}
function report(suiteTask, path, tests, errors) {
  for (const error of suiteTask.errors) errors.push(suiteTask === file ? error : Object.assign({ path }, error));
  for (const task of suiteTask.tasks) {
    const taskPath = path.concat([task.name]);
    if (task.type === 'suite') {
      report(task, taskPath, tests, errors);
      continue;
    }
    const entry = { path: taskPath, state: task.state && task.state !== 'run' ? task.state : task.mode };
    if (task.errors && task.errors.length) entry.error = task.errors[0];
    tests.push(entry);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Hardening (issue 25): what repository code can reach of this module cannot change what it grades. Every member of
// Assertion.prototype is frozen (extend's matchers are served by a proxy), expect and vi are frozen, and a module that is not
// a test file gets the source API below instead of this module (the module loader decides by the importer's path).
// Frozen, not only read-only: an accessor added for an instance field (_negate, _obj) or a swapped prototype would
// turn every failure into a passing .not.
Object.freeze(Assertion.prototype);
Object.freeze(Assertion);
Object.freeze(AssertionError);
Object.freeze(AssertionError.prototype);
// The asymmetric matchers' classes (compiled now, before the snapshot): a source module reaches them through
// expect.any(…) and must not rewrite asymmetricMatch for the test's matchers.
for (const sample of [expect.anything(), expect.any(Number), expect.stringContaining(''), expect.stringMatching(''), expect.objectContaining({}), expect.arrayContaining([]), expect.closeTo(0)]) {
  for (let proto = Object.getPrototypeOf(sample); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    Object.freeze(proto);
    if (typeof proto.constructor === 'function') Object.freeze(proto.constructor);
  }
}
Object.freeze(expect.not);
Object.freeze(expect);
Object.freeze(vi);
function refusedFromSource(name) {
  return function () {
    reportTamper(name + ' called from a module that is not a test file', new Error('tamper').stack);
    throw new TypeError('vitest.' + name + ' can only be called from a test file (a source module imported vitest; in the stratbench sandbox only test files register tests, hooks and matchers)');
  };
}
function chainRefused(name) {
  const refuse = refusedFromSource(name);
  return new Proxy(refuse, { get: (target, key) => (key === 'prototype' ? undefined : refusedFromSource(name + '.' + String(key))), apply: () => refuse() });
}
function sourceExpect(value, message) { return expect(value, message); }
for (const key of Object.keys(expect)) if (key !== 'extend' && key !== 'getState') sourceExpect[key] = expect[key];
for (const name of ['Anything', 'Any', 'StringContaining', 'StringMatching', 'ObjectContaining', 'ArrayContaining', 'CloseTo']) {
  sourceExpect[name[0].toLowerCase() + name.slice(1)] = sourceAsymmetric(name);
}
sourceExpect.not = Object.freeze(Object.fromEntries(Object.keys(expect.not).map((key) => [key, sourceAsymmetric(key[0].toUpperCase() + key.slice(1), true)])));
sourceExpect.extend = refusedFromSource('expect.extend');
sourceExpect.getState = () => Object.freeze(Object.assign({}, expectState));
Object.freeze(sourceExpect);
/** What a non-test module sees as 'vitest': expect (without extend), vi, and registration functions that refuse. */
// Source may create mocks and spies, not clear, reset or restore the test's (a cleared spy passes not.toHaveBeenCalled).
const sourceVi = Object.freeze({
  fn: vi.fn,
  spyOn: (object, key) => cold().spyOn(object, key),
  isMockFunction: vi.isMockFunction,
  mocked: vi.mocked,
  clearAllMocks: refusedFromSource('vi.clearAllMocks'),
  resetAllMocks: refusedFromSource('vi.resetAllMocks'),
  restoreAllMocks: refusedFromSource('vi.restoreAllMocks'),
});
export const __stratbench_source_api = Object.freeze({
  expect: sourceExpect,
  vi: sourceVi,
  test: chainRefused('test'),
  it: chainRefused('it'),
  describe: chainRefused('describe'),
  suite: chainRefused('suite'),
  beforeAll: refusedFromSource('beforeAll'),
  afterAll: refusedFromSource('afterAll'),
  beforeEach: refusedFromSource('beforeEach'),
  afterEach: refusedFromSource('afterEach'),
  onTestFinished: refusedFromSource('onTestFinished'),
  onTestFailed: refusedFromSource('onTestFailed'),
});

/**
 * Runs the registered tests. optionsJson: { testNamePattern: regex source or null (vitest -t), filepath?: the test
 * file's path for vitest's "No test suite found in file" message }. Resolves with the JSON result described at the
 * top of this module; a describe callback that throws fails the file (tests: [], errors: [that error]).
 */
globalThis.__vitest_run__ = async function (optionsJson) {
  const options = parseOptions(optionsJson || '{}');
  try {
    await collect(file);
  } catch (error) {
    return stringifyReport({ tests: [], errors: [serializeError(error)] });
  }
  const pattern = options.testNamePattern ? new RegExp(options.testNamePattern) : null;
  interpretModes(file, false, someOnly(file), pattern);
  const filepath = options.filepath || '';
  if (!file.tasks.length) file.errors.push(serializeError(new Error('No test suite found in file ' + filepath)));
  else await runSuite(file, filepath);
  const tests = [], errors = [];
  report(file, [], tests, errors);
  return stringifyReport({ tests, errors });
};
`;

/**
 * What a module that is not a test file gets when it imports `vitest` (the module loader routes it here by the
 * importer's path): expect without `extend`, `vi`, and test/hook registration that refuses and reports tampering.
 */
export const VITEST_SOURCE_MODULE_NAME = 'vitest [imported by a source module]';
export const VITEST_SOURCE_MODULE_SOURCE = `import { __stratbench_source_api as api } from 'vitest';
export const { expect, vi, test, it, describe, suite, beforeAll, afterAll, beforeEach, afterEach, onTestFinished, onTestFailed } = api;
`;

/** The `vitest` module's source (ES module); COLD_SOURCE is spliced in as a string literal. */
export const VITEST_MODULE_SOURCE: string = HOT_SOURCE.replace('__COLD_SOURCE__', () => JSON.stringify(COLD_SOURCE));
