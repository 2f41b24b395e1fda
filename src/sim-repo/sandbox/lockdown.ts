/**
 * Locks the realm's intrinsics before any repository module loads (evaluated once per engine, after the prelude and
 * the vitest API, before the memory snapshot): the standard constructors, prototypes and namespaces reachable from
 * the global object are frozen, and their global bindings made read-only, so repository code cannot rewrite what the
 * test runner and its matchers compute with (`Object.is`, `JSON`, `Array.prototype`, `Promise`, `Function.prototype`, …).
 * This is the technique of SES's `lockdown()` (Agoric, "Hardened JavaScript"), including its override taming: the
 * properties ordinary code assigns on its own objects (`this.name = 'ConfigError'` on an Error subclass,
 * `Child.prototype.constructor = Child`, `obj.toString = …`) become accessors whose setter defines an own property on
 * the object assigned to, so the "override mistake" of a frozen prototype does not break them; assigning them on the
 * intrinsic itself is refused and reported to the host as tampering (`__host_tamper`).
 * Left writable on purpose, as test code mocks them (vi.spyOn, fake timers, stubbed globals) and the runner does not
 * compute results with them: `Date`, `Math.random`, `console`, `process`, timers, `performance`, `Intl`, `fetch`.
 */
export const LOCKDOWN_SOURCE = String.raw`
(function () {
  var report = globalThis.__host_tamper;
  delete globalThis.__host_tamper;
  var freeze = Object.freeze, defineProperty = Object.defineProperty, getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  var getPrototypeOf = Object.getPrototypeOf, ownKeys = Reflect.ownKeys, preventExtensions = Object.preventExtensions;
  var apply = Reflect.apply, hasOwnProperty = Object.prototype.hasOwnProperty, TypeErrorCtor = TypeError, ErrorCtor = Error;
  var LOCKED_GLOBALS = ['Object', 'Function', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'BigInt', 'Error', 'EvalError',
    'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'AggregateError', 'InternalError', 'Math', 'JSON',
    'Reflect', 'Promise', 'Proxy', 'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'RegExp',
    'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
    'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
    'Float16Array', 'Atomics', 'Iterator', 'eval', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'encodeURI',
    'encodeURIComponent', 'decodeURI', 'decodeURIComponent', 'escape', 'unescape', 'structuredClone', 'globalThis'];
  // Objects mocked by tests and not used by the runner to decide a result: reachable, but not frozen.
  var unlocked = [globalThis, globalThis.Date, globalThis.Date && globalThis.Date.prototype, globalThis.console, globalThis.process,
    globalThis.performance, globalThis.Intl];
  var skip = new Set(unlocked);
  // Names ordinary code assigns on its own objects that inherit them (SES's override taming, 'moderate').
  var OVERRIDABLE = ['constructor', 'toString', 'valueOf', 'toLocaleString', 'name', 'message', 'hasOwnProperty',
    'isPrototypeOf', 'propertyIsEnumerable', 'toJSON', 'then', 'catch', 'finally'];
  var tamed = new Set([Object.prototype, Function.prototype, Error.prototype, Number.prototype, String.prototype,
    Boolean.prototype, Symbol.prototype, BigInt.prototype, RegExp.prototype, Array.prototype]);
  ['EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'AggregateError', 'InternalError'].forEach(function (name) {
    if (typeof globalThis[name] === 'function') tamed.add(globalThis[name].prototype);
  });
  function label(object, key) {
    var owner = object === Object.prototype ? 'Object.prototype' : object === Function.prototype ? 'Function.prototype'
      : object && hasOwnProperty.call(object, 'constructor') && typeof object.constructor === 'function' ? object.constructor.name + '.prototype' : 'an intrinsic';
    return owner + '.' + String(key);
  }
  function tame(object, key) {
    var desc = getOwnPropertyDescriptor(object, key);
    if (!desc || !('value' in desc) || !desc.configurable) return;
    // Array.prototype.constructor and Promise.prototype.constructor are read by every map/await: left as data.
    if (key === 'constructor' && object === Array.prototype) return;
    var value = desc.value;
    var where = label(object, key);
    defineProperty(object, key, {
      get: function () { return value; },
      set: function (next) {
        if (this === object) {
          report('assigned ' + where, new ErrorCtor('tamper').stack);
          throw new TypeErrorCtor('Cannot assign to read only property ' + String(key) + ' of ' + where + ' (the sandbox\'s intrinsics are locked)');
        }
        if (apply(hasOwnProperty, this, [key])) { this[key] = next; return; }
        defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
      },
      enumerable: desc.enumerable,
      configurable: false,
    });
  }
  var seen = new Set();
  var queue = [];
  function visit(value) {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
    seen.add(value);
    queue.push(value);
  }
  function lock(object) {
    if (skip.has(object)) return;
    if (tamed.has(object)) {
      var keys = object === Object.prototype ? ownKeys(object) : OVERRIDABLE;
      keys.forEach(function (key) { if (key !== '__proto__' && hasOwnProperty.call(object, key)) tame(object, key); });
    }
    if (object === Math) {
      // Math.random stays writable (tests mock it); every other member is read-only.
      ownKeys(Math).forEach(function (key) {
        if (key === 'random') return;
        var desc = getOwnPropertyDescriptor(Math, key);
        if ('value' in desc) desc.writable = false;
        desc.configurable = false;
        defineProperty(Math, key, desc);
      });
      preventExtensions(Math);
      return;
    }
    freeze(object);
  }
  var roots = LOCKED_GLOBALS.filter(function (name) { return name !== 'globalThis' && hasOwnProperty.call(globalThis, name); })
    .map(function (name) { return globalThis[name]; });
  roots.push(
    getPrototypeOf(function () {}), getPrototypeOf(async function () {}), getPrototypeOf(function* () {}), getPrototypeOf(async function* () {}),
    getPrototypeOf([][Symbol.iterator]()), getPrototypeOf(new Map().entries()), getPrototypeOf(new Set().values()),
    getPrototypeOf(''[Symbol.iterator]()), getPrototypeOf(/a/[Symbol.matchAll]('')), getPrototypeOf(Int8Array),
    getPrototypeOf(function* () {}).prototype, getPrototypeOf(async function* () {}).prototype,
    getPrototypeOf((function* () {})()), getPrototypeOf(getPrototypeOf((async function* () {})())));
  roots.forEach(visit);
  for (var index = 0; index < queue.length; index++) {
    var object = queue[index];
    if (skip.has(object)) continue;
    ownKeys(object).forEach(function (key) {
      var desc = getOwnPropertyDescriptor(object, key);
      if (!desc) return;
      visit(desc.value); visit(desc.get); visit(desc.set);
    });
    visit(getPrototypeOf(object));
  }
  queue.forEach(lock);
  LOCKED_GLOBALS.forEach(function (name) {
    if (!hasOwnProperty.call(globalThis, name)) return;
    defineProperty(globalThis, name, { writable: false, configurable: false });
  });
})();
`;
