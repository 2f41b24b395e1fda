// Owns the lockdown of the sandbox's realm: what repository code can no longer change of the intrinsics the test runner grades with.

/**
 * Locks the realm's intrinsics before any repository module loads (evaluated once per engine, after the prelude and
 * the vitest API, before the memory snapshot): the standard constructors, prototypes and namespaces reachable from
 * the global object are locked and their global bindings made read-only, so repository code cannot rewrite what the
 * test runner and its matchers compute with (`Object.is`, `JSON`, `Array.prototype`, `Promise`, `Function.prototype`, …).
 * This is SES's `lockdown()` (Agoric, "Hardened JavaScript") with its override taming applied to every writable
 * property: the property becomes an accessor whose setter defines an own property on the object assigned to, so
 * ordinary code keeps working (`this.name = 'ConfigError'` in an Error subclass, `Child.prototype.constructor = Child`,
 * `obj.toString = …`); assigning it on the intrinsic itself is refused and reported (`__host_tamper(what, stack)`).
 *
 * - Prototypes and everything else reachable are frozen. The namespaces and constructors code polyfills (`Object`,
 *   `Array`, `Promise`, `Symbol`, `Error`, `Number`, `String`, `Math`, `JSON`, `Reflect`) keep their existing members
 *   locked but accept new ones (`Symbol.dispose ??= …`, `Error.stackTraceLimit = 50`); no locked object's
 *   [[Prototype]] can change (`Object.setPrototypeOf`, `Reflect.setPrototypeOf` and the `__proto__` setter refuse).
 * - The definers (`Object.defineProperty`, `defineProperties`, `Reflect.defineProperty`, `Reflect.deleteProperty`)
 *   report an attempt on an existing member of a locked object before failing as on any frozen object.
 * - Objects the vitest API names in `__stratbench_guarded_objects__` ([object, name] pairs; chai's Assertion.prototype,
 *   whose members it locked itself) get the definers' reports and a fixed [[Prototype]], and stay extensible.
 * - The vitest API receives an override capability (`__stratbench_receive_override__`): test code's `vi.spyOn` on a
 *   locked member (`JSON.parse`) installs its spy in the member's slot and restores it; source code gets no such path.
 * - Left unlocked, as tests mock them and the runner does not decide results with them: `Date`, `Math.random`,
 *   `console`, `process`, timers, `performance`, `Intl`, `fetch`.
 */
export const LOCKDOWN_SOURCE = `
(function () {
  var report = globalThis.__host_tamper;
  delete globalThis.__host_tamper;
  var receiveOverride = globalThis.__stratbench_receive_override__;
  delete globalThis.__stratbench_receive_override__;
  var guardedOnly = globalThis.__stratbench_guarded_objects__ || [];
  delete globalThis.__stratbench_guarded_objects__;
  // Captured before the definers below are wrapped: the lockdown itself is never reported.
  var freeze = Object.freeze, defineProperty = Object.defineProperty, getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  var getPrototypeOf = Object.getPrototypeOf, ownKeys = Reflect.ownKeys, isExtensible = Object.isExtensible;
  var apply = Reflect.apply, hasOwnProperty = Object.prototype.hasOwnProperty, TypeErrorCtor = TypeError, ErrorCtor = Error;
  var LOCKED_GLOBALS = ['Object', 'Function', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'BigInt', 'Error', 'EvalError',
    'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'AggregateError', 'InternalError', 'Math', 'JSON',
    'Reflect', 'Promise', 'Proxy', 'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'RegExp',
    'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
    'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
    'Float16Array', 'Atomics', 'Iterator', 'eval', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'encodeURI',
    'encodeURIComponent', 'decodeURI', 'decodeURIComponent', 'escape', 'unescape', 'structuredClone', 'globalThis'];
  var POLYFILLABLE = ['Object', 'Array', 'Promise', 'Symbol', 'Error', 'Number', 'String', 'Math', 'JSON', 'Reflect'];
  var skip = new Set([globalThis, globalThis.Date, globalThis.Date && globalThis.Date.prototype, globalThis.console, globalThis.process,
    globalThis.performance, globalThis.Intl]);
  var extensible = new Set(POLYFILLABLE.map(function (name) { return globalThis[name]; }));
  var names = new Map();
  var locked = new WeakSet();
  /** Per locked object, per tamed key: the slot test code's vi.spyOn may fill ({ overridden, value }). */
  var slots = new Map();
  function where(object, key) { return (names.get(object) || 'an intrinsic') + (key === undefined ? '' : '.' + String(key)); }
  function refuse(what) { report(what, new ErrorCtor('tamper').stack); }
  function isObject(value) { return (typeof value === 'object' || typeof value === 'function') && value !== null; }

  function tame(object, key) {
    var desc = getOwnPropertyDescriptor(object, key);
    if (!desc) return;
    if (!('value' in desc) || !desc.writable || !desc.configurable) {
      if (desc.configurable) { desc.configurable = false; if ('value' in desc) desc.writable = false; defineProperty(object, key, desc); }
      return;
    }
    var value = desc.value;
    var slot = { overridden: false, value: undefined };
    if (!slots.has(object)) slots.set(object, new Map());
    slots.get(object).set(key, slot);
    defineProperty(object, key, {
      get: function () { return slot.overridden ? slot.value : value; },
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

  // The definers: an attempt on an existing member of a locked object is reported, then fails natively.
  function guard(holder, name, what, refuseAlways) {
    var original = holder[name];
    var wrapped = {
      [name]: function () {
        var target = arguments[0], key = arguments[1];
        if (isObject(target) && locked.has(target)) {
          var existing = (typeof key === 'string' || typeof key === 'symbol') && apply(hasOwnProperty, target, [key]);
          if (refuseAlways) {
            refuse(what + ' ' + where(target));
            throw new TypeErrorCtor('Cannot change the prototype of ' + where(target) + " (the sandbox's intrinsics are locked)");
          }
          if (existing || !isExtensible(target) || name === 'defineProperties') refuse(what + ' ' + where(target, existing ? key : undefined));
        }
        return apply(original, this, arguments);
      },
    }[name];
    defineProperty(wrapped, 'length', { value: original.length });
    defineProperty(holder, name, { value: wrapped, writable: true, enumerable: false, configurable: true });
  }
  guard(Object, 'defineProperty', 'redefined', false);
  guard(Object, 'defineProperties', 'redefined properties of', false);
  guard(Reflect, 'defineProperty', 'redefined', false);
  guard(Reflect, 'deleteProperty', 'deleted', false);
  guard(Object, 'setPrototypeOf', 'changed the prototype of', true);
  guard(Reflect, 'setPrototypeOf', 'changed the prototype of', true);
  var proto = getOwnPropertyDescriptor(Object.prototype, '__proto__');
  defineProperty(Object.prototype, '__proto__', {
    get: proto.get,
    set: function (next) {
      if (isObject(this) && locked.has(this)) {
        refuse('changed the prototype of ' + where(this));
        throw new TypeErrorCtor('Cannot change the prototype of ' + where(this) + " (the sandbox's intrinsics are locked)");
      }
      return apply(proto.set, this, [next]);
    },
    enumerable: false,
    configurable: false,
  });

  var seen = new Set();
  var queue = [];
  function visit(value, name) {
    if (!isObject(value) || seen.has(value)) return;
    seen.add(value);
    names.set(value, name);
    queue.push(value);
  }
  LOCKED_GLOBALS.forEach(function (name) {
    if (name !== 'globalThis' && hasOwnProperty.call(globalThis, name)) visit(globalThis[name], name);
  });
  LOCKED_GLOBALS.forEach(function (name) {
    var value = name === 'globalThis' ? undefined : globalThis[name];
    if (typeof value === 'function' && isObject(value.prototype)) visit(value.prototype, name + '.prototype');
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
  queue.forEach(function (object) {
    if (skip.has(object)) return;
    locked.add(object);
    ownKeys(object).forEach(function (key) {
      if (key === '__proto__' || (object === Math && key === 'random')) return;
      tame(object, key);
    });
    if (!extensible.has(object)) freeze(object);
  });
  LOCKED_GLOBALS.forEach(function (name) {
    if (!hasOwnProperty.call(globalThis, name)) return;
    defineProperty(globalThis, name, { writable: false, configurable: false });
  });
  // Objects the vitest API locked itself but keeps extensible (chai's Assertion.prototype: expect.extend adds to it):
  // the definers report attempts on their members, and their [[Prototype]] cannot change.
  guardedOnly.forEach(function (entry) { locked.add(entry[0]); names.set(entry[0], entry[1]); });
  if (typeof receiveOverride === 'function') {
    receiveOverride(function (object, key) {
      var slot = isObject(object) && slots.has(object) ? slots.get(object).get(key) : undefined;
      if (slot === undefined) return undefined;
      return {
        set: function (value) { slot.overridden = true; slot.value = value; },
        restore: function () { slot.overridden = false; slot.value = undefined; },
      };
    });
  }
})();
`;
