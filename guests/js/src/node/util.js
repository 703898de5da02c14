// Node's `util` module (`inspect`, `format`, `isDeepStrictEqual`, `promisify`, `inherits`,
// `types`, `deprecate`) and the deep equality `assert` shares with it. Evaluated on first use; the
// prelude passes its helpers (`inspect`, `format`) and gets `{ util, isDeepEqual }` back.
(function (helpers) {
  "use strict";
  const { inspect, format } = helpers;
  const tagOf = (value) => Object.prototype.toString.call(value);
  const looseEqual = (a, b) => a == b || (a !== a && b !== b);

  // Node's deep equality: `strict` as `assert.deepStrictEqual` (Object.is on primitives, same
  // prototypes), loose as `assert.deepEqual` (== on primitives, prototypes ignored). Cycles are
  // compared pairwise.
  function isDeepEqual(a, b, strict, seen) {
    if (strict ? Object.is(a, b) : looseEqual(a, b)) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
      if (strict || typeof a === "object" && a !== null || typeof b === "object" && b !== null) return false;
      return looseEqual(a, b);
    }
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const tag = tagOf(a);
    if (tag !== tagOf(b)) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    seen = seen || new Map();
    const pairs = seen.get(a);
    if (pairs && pairs.has(b)) return true;
    if (pairs) pairs.add(b); else seen.set(a, new Set([b]));

    if (a instanceof Date) {
      if (a.getTime() !== b.getTime()) return false;
    } else if (a instanceof RegExp) {
      if (String(a) !== String(b) || a.lastIndex !== b.lastIndex) return false;
    } else if (a instanceof Error) {
      if (a.message !== b.message || a.name !== b.name) return false;
    } else if (a instanceof Number || a instanceof String || a instanceof Boolean) {
      if (!Object.is(a.valueOf(), b.valueOf())) return false;
    } else if (ArrayBuffer.isView(a)) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!(strict ? Object.is(a[i], b[i]) : a[i] == b[i])) return false;
    } else if (a instanceof Map) {
      if (a.size !== b.size) return false;
      for (const [key, value] of a) {
        if (b.has(key)) {
          if (!isDeepEqual(value, b.get(key), strict, seen)) return false;
        } else if (typeof key !== "object" || key === null ||
          ![...b].some(([k, v]) => isDeepEqual(key, k, strict, seen) && isDeepEqual(value, v, strict, seen))) {
          return false;
        }
      }
    } else if (a instanceof Set) {
      if (a.size !== b.size) return false;
      for (const value of a) {
        if (b.has(value)) continue;
        if (typeof value !== "object" || value === null || ![...b].some((v) => isDeepEqual(value, v, strict, seen))) return false;
      }
    }
    const keysA = Object.keys(a), keysB = Object.keys(b);
    if (keysA.length !== keysB.length) return false;
    for (const key of keysA) {
      if (!Object.prototype.propertyIsEnumerable.call(b, key)) return false;
      if (!isDeepEqual(a[key], b[key], strict, seen)) return false;
    }
    if (strict) {
      const symbols = (o) => Object.getOwnPropertySymbols(o).filter((s) => Object.prototype.propertyIsEnumerable.call(o, s));
      const symbolsA = symbols(a), symbolsB = symbols(b);
      if (symbolsA.length !== symbolsB.length) return false;
      for (const symbol of symbolsA) {
        if (!Object.prototype.propertyIsEnumerable.call(b, symbol) || !isDeepEqual(a[symbol], b[symbol], strict, seen)) return false;
      }
    }
    return true;
  }

  const custom = Symbol.for("nodejs.util.promisify.custom");

  function promisify(fn) {
    if (typeof fn !== "function") throw new TypeError('The "original" argument must be of type function');
    if (typeof fn[custom] === "function") return fn[custom];
    return function (...args) {
      return new Promise((resolve, reject) => {
        fn.call(this, ...args, (error, ...values) => (error ? reject(error) : resolve(values.length > 1 ? values : values[0])));
      });
    };
  }

  const util = {
    // Node's default depth is 2; `depth: null` or Infinity shows everything.
    inspect: (value, options) => {
      const depth = options && "depth" in options ? (options.depth === null ? Infinity : Number(options.depth)) : 2;
      return inspect(value, 2 - depth, true);
    },
    format: (...args) => format(args),
    isDeepStrictEqual: (a, b) => isDeepEqual(a, b, true),
    promisify: Object.assign(promisify, { custom }),
    inherits(ctor, superCtor) {
      Object.defineProperty(ctor, "super_", { value: superCtor, writable: true, configurable: true });
      Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
    },
    deprecate: (fn) => fn,
    isArray: Array.isArray,
    types: {
      isDate: (v) => v instanceof Date,
      isRegExp: (v) => v instanceof RegExp,
      isMap: (v) => v instanceof Map,
      isSet: (v) => v instanceof Set,
      isPromise: (v) => v instanceof Promise,
      isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
    },
  };
  if (typeof TextEncoder === "function") util.TextEncoder = TextEncoder;
  if (typeof TextDecoder === "function") util.TextDecoder = TextDecoder;
  return { util, isDeepEqual };
})
