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
export const LOCKDOWN_SOURCE = `
(function () {
  var report = globalThis.__host_tamper;
  delete globalThis.__host_tamper;
  var freeze = Object.freeze, defineProperty = Object.defineProperty, getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  var getPrototypeOf = Object.getPrototypeOf, ownKeys = Reflect.ownKeys, preventExtensions = Object.preventExtensions;
  // Captured before the definers below are wrapped: the lockdown itself is never reported.
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
  var names = new Map();
  var locked = new WeakSet();
  function where(object, key) { return (names.get(object) || 'an intrinsic') + (key === undefined ? '' : '.' + String(key)); }
  function refuse(what) {
    report(what, new ErrorCtor('tamper').stack);
  }
  // Every writable data property becomes an accessor (SES's override taming, applied to all): reading it is unchanged,
  // assigning it on an object that inherits it defines the object's own property (so 'this.name = …' in an Error
  // subclass works), assigning it on the intrinsic itself is refused and reported.
  function tame(object, key) {
    var desc = getOwnPropertyDescriptor(object, key);
    if (!desc || !('value' in desc) || !desc.writable || !desc.configurable) return;
    var value = desc.value;
    defineProperty(object, key, {
      get: function () { return value; },
      set: function (next) {
        if (this === object) {
          refuse('assigned ' + where(object, key));
          throw new TypeErrorCtor('Cannot assign to read only property ' + String(key) + ' of ' + where(object) + " (the sandbox's intrinsics are locked)");
        }
        if (apply(hasOwnProperty, this, [key])) { this[key] = next; return; }
        defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
      },
      enumerable: desc.enumerable,
      configurable: false,
    });
  }
  // The definers report an attempt on a locked intrinsic before they fail as they would on any frozen object.
  function guard(holder, name, targets) {
    var original = holder[name];
    var wrapped = {
      [name]: function () {
        var target = arguments[0];
        if ((typeof target === 'object' || typeof target === 'function') && target !== null && locked.has(target)) {
          refuse(targets + ' ' + where(target, typeof arguments[1] === 'string' || typeof arguments[1] === 'symbol' ? arguments[1] : undefined));
        }
        return apply(original, this, arguments);
      },
    }[name];
    defineProperty(wrapped, 'length', { value: original.length });
    defineProperty(holder, name, { value: wrapped, writable: true, enumerable: false, configurable: true });
  }
  guard(Object, 'defineProperty', 'redefined');
  guard(Object, 'defineProperties', 'redefined properties of');
  guard(Object, 'setPrototypeOf', 'changed the prototype of');
  guard(Reflect, 'defineProperty', 'redefined');
  guard(Reflect, 'setPrototypeOf', 'changed the prototype of');
  guard(Reflect, 'deleteProperty', 'deleted');
  var seen = new Set();
  var queue = [];
  function visit(value, name) {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
    seen.add(value);
    names.set(value, name);
    queue.push(value);
  }
  function lock(object) {
    if (skip.has(object)) return;
    locked.add(object);
    ownKeys(object).forEach(function (key) {
      if (key === '__proto__' || (object === Math && key === 'random')) return;
      tame(object, key);
    });
    if (object === Math) {
      // Math.random stays writable (tests mock it); every other member is locked.
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
  LOCKED_GLOBALS.forEach(function (name) {
    if (name !== 'globalThis' && hasOwnProperty.call(globalThis, name)) visit(globalThis[name], name);
  });
  LOCKED_GLOBALS.forEach(function (name) {
    var value = name === 'globalThis' ? undefined : globalThis[name];
    if (typeof value === 'function' && (typeof value.prototype === 'object' || typeof value.prototype === 'function')) visit(value.prototype, name + '.prototype');
  });
  [
    [getPrototypeOf(function () {}), 'Function.prototype'], [getPrototypeOf(async function () {}), 'AsyncFunction.prototype'],
    [getPrototypeOf(function* () {}), 'GeneratorFunction.prototype'], [getPrototypeOf(async function* () {}), 'AsyncGeneratorFunction.prototype'],
    [getPrototypeOf([][Symbol.iterator]()), 'ArrayIterator.prototype'], [getPrototypeOf(new Map().entries()), 'MapIterator.prototype'],
    [getPrototypeOf(new Set().values()), 'SetIterator.prototype'], [getPrototypeOf(''[Symbol.iterator]()), 'StringIterator.prototype'],
    [getPrototypeOf(/a/[Symbol.matchAll]('')), 'RegExpStringIterator.prototype'], [getPrototypeOf(Int8Array), 'TypedArray'],
    [getPrototypeOf(function* () {}).prototype, 'Generator.prototype'], [getPrototypeOf(async function* () {}).prototype, 'AsyncGenerator.prototype'],
    [getPrototypeOf((function* () {})()), 'Generator.prototype'], [getPrototypeOf(getPrototypeOf((async function* () {})())), 'AsyncGenerator.prototype'],
  ].forEach(function (root) { visit(root[0], root[1]); });
  for (var index = 0; index < queue.length; index++) {
    var object = queue[index];
    if (skip.has(object)) continue;
    var base = names.get(object);
    ownKeys(object).forEach(function (key) {
      var desc = getOwnPropertyDescriptor(object, key);
      if (!desc) return;
      var name = base + '.' + String(key);
      visit(desc.value, name); visit(desc.get, name); visit(desc.set, name);
    });
    visit(getPrototypeOf(object), base + '.[[Prototype]]');
  }
  queue.forEach(lock);
  LOCKED_GLOBALS.forEach(function (name) {
    if (!hasOwnProperty.call(globalThis, name)) return;
    defineProperty(globalThis, name, { writable: false, configurable: false });
  });
})();
`;
