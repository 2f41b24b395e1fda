// Owns the globals repository code sees in the sandbox: console, process, a fixed Date, seeded Math.random, timers, Intl.
//
// Evaluated as a global script once per engine, before the engine's memory is snapshotted. It reads default
// settings from `__stratbench_settings__` (JSON: env, argv, date_ms, seed, cwd, formatSource); each run then calls
// `__stratbench_configure__(json)` once (env, argv, date_ms, seed) before its entry module. It talks to the host
// only through `__host_write(stream, text)` and `__host_intl(kind, locale, optionsJson, value)`.
/** console's object formatting (Node's util.inspect, simplified), compiled inside the sandbox on first use. */
export const FORMAT_SOURCE = String.raw`(function () {
  function inspect(value, depth, seen, nested) {
    if (value === null) return 'null';
    var type = typeof value;
    if (type === 'undefined') return 'undefined';
    if (type === 'string') return nested ? "'" + value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'" : value;
    if (type === 'number') return Object.is(value, -0) ? '-0' : String(value);
    if (type === 'bigint') return String(value) + 'n';
    if (type === 'boolean') return String(value);
    if (type === 'symbol') return value.toString();
    if (type === 'function') return '[' + (/^class\s/.test(Function.prototype.toString.call(value)) ? 'class' : 'Function') + (value.name ? ': ' + value.name : ' (anonymous)') + ']';
    if (value instanceof Error) return nested ? '[' + (value.stack ? value.name + ': ' + value.message : String(value)) + ']' : value.name + ': ' + value.message + (value.stack ? '\n' + value.stack.replace(/\n$/, '') : '');
    if (value instanceof Date) return isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    if (value instanceof RegExp) return String(value);
    if (seen.indexOf(value) >= 0) return '[Circular *1]';
    if (depth > 2) return Array.isArray(value) ? '[Array]' : '[Object]';
    seen = seen.concat([value]);
    var parts;
    if (Array.isArray(value)) {
      parts = value.map(function (item) { return inspect(item, depth + 1, seen, true); });
      return parts.length === 0 ? '[]' : '[ ' + parts.join(', ') + ' ]';
    }
    if (value instanceof Map) {
      parts = [];
      value.forEach(function (v, k) { parts.push(inspect(k, depth + 1, seen, true) + ' => ' + inspect(v, depth + 1, seen, true)); });
      return 'Map(' + value.size + ') ' + (parts.length ? '{ ' + parts.join(', ') + ' }' : '{}');
    }
    if (value instanceof Set) {
      parts = [];
      value.forEach(function (v) { parts.push(inspect(v, depth + 1, seen, true)); });
      return 'Set(' + value.size + ') ' + (parts.length ? '{ ' + parts.join(', ') + ' }' : '{}');
    }
    if (typeof value.then === 'function') return 'Promise { <pending> }';
    parts = Object.keys(value).map(function (key) {
      var shown = /^[A-Za-z_$][\w$]*$/.test(key) ? key : "'" + key + "'";
      return shown + ': ' + inspect(value[key], depth + 1, seen, true);
    });
    var proto = Object.getPrototypeOf(value);
    var prefix = proto && proto !== Object.prototype && proto.constructor && proto.constructor.name ? proto.constructor.name + ' ' : proto === null ? '[Object: null prototype] ' : '';
    return prefix + (parts.length === 0 ? '{}' : '{ ' + parts.join(', ') + ' }');
  }

  function format(args) {
    var first = args[0];
    var rest = Array.prototype.slice.call(args, 1);
    var text;
    if (typeof first === 'string' && /%[sdifjoOc%]/.test(first)) {
      text = first.replace(/%([sdifjoOc%])/g, function (match, code) {
        if (code === '%') return '%';
        if (rest.length === 0) return match;
        var next = rest.shift();
        switch (code) {
          case 's': return typeof next === 'string' ? next : inspect(next, 1, [], false);
          case 'd': case 'i': return String(code === 'i' ? parseInt(next, 10) : Number(next));
          case 'f': return String(parseFloat(next));
          case 'j': return JSON.stringify(next);
          case 'c': return '';
          default: return inspect(next, 0, [], true);
        }
      });
    } else {
      text = args.length === 0 ? '' : inspect(first, 0, [], false);
    }
    for (var i = 0; i < rest.length; i++) text += ' ' + inspect(rest[i], 0, [], false);
    return text;
  }

  return { inspect: inspect, format: format };
})()`;

export const PRELUDE_SOURCE = String.raw`
(function () {
  var settings = JSON.parse(globalThis.__stratbench_settings__);
  delete globalThis.__stratbench_settings__;
  // Per-run settings, applied once by the host before the entry module runs (the engine is snapshotted before).
  globalThis.__stratbench_configure__ = function (json) {
    var run = JSON.parse(json);
    globalThis.process.env = run.env;
    globalThis.process.argv = run.argv;
    fixed = run.date_ms;
    globalThis.performance.timeOrigin = fixed;
    state = run.seed >>> 0;
    delete globalThis.__stratbench_configure__;
  };
  var hostWrite = globalThis.__host_write;
  var hostIntl = globalThis.__host_intl;
  delete globalThis.__host_write;
  delete globalThis.__host_intl;

  // Formatting objects is rare and costs parse time on every run: compiled on first use (QuickJS parses eagerly).
  var formatter;
  function format(args) {
    var simple = true;
    for (var i = 0; i < args.length; i++) {
      var type = typeof args[i];
      if (type !== 'number' && type !== 'boolean' && !(type === 'string' && (i > 0 || args[i].indexOf('%') < 0))) { simple = false; break; }
    }
    if (simple) return Array.prototype.join.call(args, ' ');
    if (formatter === undefined) formatter = (0, eval)(settings.formatSource);
    return formatter.format(args);
  }
  function inspect(value, depth, seen, nested) {
    if (formatter === undefined) formatter = (0, eval)(settings.formatSource);
    return formatter.inspect(value, depth, seen, nested);
  }

  function writer(stream) {
    return function () { hostWrite(stream, format(arguments)); };
  }
  var counts = {};
  globalThis.console = {
    log: writer('stdout'), info: writer('stdout'), debug: writer('stdout'), trace: writer('stderr'),
    error: writer('stderr'), warn: writer('stderr'),
    dir: function (value) { hostWrite('stdout', inspect(value, 0, [], true)); },
    table: writer('stdout'), group: writer('stdout'), groupEnd: function () {}, time: function () {}, timeEnd: function () {},
    assert: function (condition) { if (!condition) hostWrite('stderr', 'Assertion failed' + (arguments.length > 1 ? ': ' + format(Array.prototype.slice.call(arguments, 1)) : '')); },
    count: function (label) { label = label === undefined ? 'default' : label; counts[label] = (counts[label] || 0) + 1; hostWrite('stdout', label + ': ' + counts[label]); },
  };

  // process: env, argv, exit (as a thrown sentinel the host recognises), no real I/O.
  function ExitSignal(code) { this.__stratbench_exit__ = code; }
  globalThis.process = {
    env: settings.env,
    argv: settings.argv,
    argv0: 'node',
    execArgv: [],
    platform: 'linux',
    arch: 'x64',
    pid: 4242,
    version: 'v20.20.2',
    versions: { node: '20.20.2' },
    exitCode: undefined,
    cwd: function () { return settings.cwd; },
    exit: function (code) { throw new ExitSignal(code === undefined ? (globalThis.process.exitCode || 0) : Number(code)); },
    on: function () { return globalThis.process; },
    once: function () { return globalThis.process; },
    off: function () { return globalThis.process; },
    nextTick: function (fn) { var args = Array.prototype.slice.call(arguments, 1); Promise.resolve().then(function () { fn.apply(null, args); }); },
    hrtime: Object.assign(function () { return [0, 0]; }, { bigint: function () { return 0n; } }),
    memoryUsage: function () { return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }; },
    stdout: { write: function (text) { hostWrite('stdout-raw', String(text)); return true; }, isTTY: false },
    stderr: { write: function (text) { hostWrite('stderr-raw', String(text)); return true; }, isTTY: false },
  };

  // A fixed clock: new Date() and Date.now() give the fixture's date; explicit dates work as usual.
  var RealDate = Date;
  var fixed = settings.date_ms;
  // Constructed with the arguments as given, by count: a Date is made per call, so the generic path's slice, concat,
  // bind and apply (each a call of the lockdown's tamed getter) cost date-heavy code ~8% of its run (issue 32).
  function FixedDate() {
    if (!new.target) return new RealDate(fixed).toString();
    var a = arguments;
    switch (a.length) {
      case 0: return new RealDate(fixed);
      case 1: return new RealDate(a[0]);
      case 2: return new RealDate(a[0], a[1]);
      case 3: return new RealDate(a[0], a[1], a[2]);
      case 4: return new RealDate(a[0], a[1], a[2], a[3]);
      case 5: return new RealDate(a[0], a[1], a[2], a[3], a[4]);
      case 6: return new RealDate(a[0], a[1], a[2], a[3], a[4], a[5]);
      case 7: return new RealDate(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
      default: return new (Function.prototype.bind.apply(RealDate, [null].concat(Array.prototype.slice.call(a))))();
    }
  }
  FixedDate.prototype = RealDate.prototype;
  FixedDate.now = function () { return fixed; };
  FixedDate.parse = RealDate.parse;
  FixedDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: FixedDate, writable: true, configurable: true });
  globalThis.Date = FixedDate;
  globalThis.performance = { now: function () { return 0; }, timeOrigin: fixed };

  // Seeded Math.random (mulberry32): the same run gives the same numbers.
  var state = settings.seed >>> 0;
  Math.random = function () {
    state = (state + 0x6d2b79f5) >>> 0;
    var t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  // Timers on a virtual clock: the host runs them in time order once the job queue is empty.
  var timers = [];
  var timerSeq = 0;
  var virtualNow = 0;
  function addTimer(fn, ms, args, repeat) {
    var id = ++timerSeq;
    timers.push({ id: id, at: virtualNow + Math.max(0, Number(ms) || 0), fn: fn, args: args, repeat: repeat ? Math.max(1, Number(ms) || 0) : 0 });
    return id;
  }
  function clearTimer(id) { timers = timers.filter(function (t) { return t.id !== id; }); }
  globalThis.setTimeout = function (fn, ms) { return addTimer(fn, ms, Array.prototype.slice.call(arguments, 2), false); };
  globalThis.setInterval = function (fn, ms) { return addTimer(fn, ms, Array.prototype.slice.call(arguments, 2), true); };
  globalThis.setImmediate = function (fn) { return addTimer(fn, 0, Array.prototype.slice.call(arguments, 1), false); };
  globalThis.clearTimeout = clearTimer;
  globalThis.clearInterval = clearTimer;
  globalThis.clearImmediate = clearTimer;
  globalThis.queueMicrotask = function (fn) { Promise.resolve().then(fn); };
  globalThis.__stratbench_next_timer__ = function () {
    if (timers.length === 0) return false;
    timers.sort(function (a, b) { return a.at - b.at || a.id - b.id; });
    var timer = timers.shift();
    virtualNow = timer.at;
    if (timer.repeat) timers.push({ id: timer.id, at: virtualNow + timer.repeat, fn: timer.fn, args: timer.args, repeat: timer.repeat });
    if (typeof timer.fn === 'function') timer.fn.apply(null, timer.args);
    return true;
  };
  globalThis.global = globalThis;
  // The HTML structured clone algorithm, as Node's structuredClone: Dates, RegExps, Maps, Sets, arrays, plain data,
  // array buffers and typed arrays, errors and cycles are kept; a class instance comes back as a plain object, and a
  // function or symbol throws a DataCloneError.
  globalThis.structuredClone = function (value) {
    var seen = new Map();
    function fail(what) {
      var error = new Error(what + ' could not be cloned.');
      error.name = 'DataCloneError';
      throw error;
    }
    function clone(item) {
      if (typeof item === 'function') fail(String(item).slice(0, 40));
      if (typeof item === 'symbol') fail(String(item));
      if (typeof item !== 'object' || item === null) return item;
      if (seen.has(item)) return seen.get(item);
      var copy;
      var tag = Object.prototype.toString.call(item);
      if (tag === '[object Date]') copy = new RealDate(RealDate.prototype.getTime.call(item));
      else if (tag === '[object RegExp]') copy = new RegExp(item.source, item.flags);
      else if (tag === '[object Boolean]' || tag === '[object Number]' || tag === '[object String]') copy = Object(item.valueOf());
      else if (tag === '[object ArrayBuffer]') copy = item.slice(0);
      else if (ArrayBuffer.isView(item)) copy = new item.constructor(clone(item.buffer), item.byteOffset, tag === '[object DataView]' ? item.byteLength : item.length);
      else if (tag === '[object Map]') { copy = new Map(); seen.set(item, copy); item.forEach(function (v, k) { copy.set(clone(k), clone(v)); }); return copy; }
      else if (tag === '[object Set]') { copy = new Set(); seen.set(item, copy); item.forEach(function (v) { copy.add(clone(v)); }); return copy; }
      else if (tag === '[object Error]') { copy = new (globalThis[item.name] && globalThis[item.name].prototype instanceof Error ? globalThis[item.name] : Error)(item.message); if ('stack' in item) copy.stack = item.stack; }
      else if (Array.isArray(item)) copy = new Array(item.length);
      else if (tag === '[object Promise]' || tag === '[object WeakMap]' || tag === '[object WeakSet]') fail('#<' + tag.slice(8, -1) + '>');
      else copy = {};
      seen.set(item, copy);
      if (Array.isArray(item) || tag === '[object Object]') {
        Object.keys(item).forEach(function (key) { copy[key] = clone(item[key]); });
      }
      return copy;
    }
    if (arguments.length === 0) throw new TypeError("Failed to execute 'structuredClone': 1 argument required, but only 0 present.");
    return clone(value);
  };
  // Well-known symbols Node 20 defines and QuickJS does not (explicit resource management): polyfills guarded by
  // ??= find them, as in Node, instead of writing to the locked Symbol.
  if (typeof Symbol.dispose !== 'symbol') Object.defineProperty(Symbol, 'dispose', { value: Symbol('Symbol.dispose') });
  if (typeof Symbol.asyncDispose !== 'symbol') Object.defineProperty(Symbol, 'asyncDispose', { value: Symbol('Symbol.asyncDispose') });

  // Intl: QuickJS has none. NumberFormat and DateTimeFormat forward to the host's ICU (deterministic for a
  // given Node version, the same one real vitest would use); toLocaleString follows.
  function makeFormat(kind) {
    function IntlFormat(locale, options) {
      if (!(this instanceof IntlFormat)) return new IntlFormat(locale, options);
      this.__locale = locale === undefined ? 'en-US' : locale;
      this.__options = JSON.stringify(options === undefined ? {} : options);
    }
    IntlFormat.prototype.format = function (value) {
      if (kind === 'date') value = value === undefined ? fixed : (value instanceof RealDate ? value.getTime() : Number(value));
      return hostIntl(kind, JSON.stringify(this.__locale), this.__options, kind === 'number' && typeof value === 'bigint' ? Number(value) : value);
    };
    IntlFormat.prototype.formatToParts = function (value) {
      if (kind === 'date') value = value === undefined ? fixed : (value instanceof RealDate ? value.getTime() : Number(value));
      return JSON.parse(hostIntl(kind + '-parts', JSON.stringify(this.__locale), this.__options, value));
    };
    IntlFormat.prototype.resolvedOptions = function () {
      return JSON.parse(hostIntl(kind + '-options', JSON.stringify(this.__locale), this.__options, 0));
    };
    IntlFormat.supportedLocalesOf = function (locales) { return [].concat(locales === undefined ? [] : locales); };
    return IntlFormat;
  }
  globalThis.Intl = { NumberFormat: makeFormat('number'), DateTimeFormat: makeFormat('date') };
  var numberToLocale = Number.prototype.toLocaleString;
  Number.prototype.toLocaleString = function (locale, options) { return new globalThis.Intl.NumberFormat(locale, options).format(Number(this)); };
  RealDate.prototype.toLocaleString = function (locale, options) { return new globalThis.Intl.DateTimeFormat(locale, Object.assign({ dateStyle: undefined }, options || { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })).format(this); };
  RealDate.prototype.toLocaleDateString = function (locale, options) { return new globalThis.Intl.DateTimeFormat(locale, options || { year: 'numeric', month: 'numeric', day: 'numeric' }).format(this); };
  RealDate.prototype.toLocaleTimeString = function (locale, options) { return new globalThis.Intl.DateTimeFormat(locale, options || { hour: 'numeric', minute: 'numeric', second: 'numeric' }).format(this); };
  void numberToLocale;
})();
`;
