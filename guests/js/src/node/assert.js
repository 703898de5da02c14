// Node's `assert` module (`require("assert")`, `require("node:assert")`, `assert/strict`): the
// functions test harnesses call (MultiPL-E, HumanEval-X), throwing Node's `AssertionError` with
// its code, actual, expected, operator and message text. Evaluated on first `require`; the
// prelude passes its helpers (`inspect`, and `isDeepEqual` from util.js).
(function (helpers) {
  "use strict";
  const { inspect, isDeepEqual } = helpers;
  const show = (value) => inspect(value, 0, true);

  class AssertionError extends Error {
    constructor(options) {
      const { message, actual, expected, operator } = options || {};
      const generated = options && options.generated !== undefined ? options.generated : message === undefined;
      super(generated ? generatedMessage(actual, expected, operator) : String(message));
      this.name = "AssertionError";
      this.code = "ERR_ASSERTION";
      this.actual = actual;
      this.expected = expected;
      this.operator = operator;
      this.generatedMessage = generated;
    }
    toString() {
      return this.name + " [" + this.code + "]: " + this.message;
    }
  }

  function twoSided(actual, expected, title) {
    return title + ":\n+ actual - expected\n\n+ " + show(actual) + "\n- " + show(expected);
  }

  function generatedMessage(actual, expected, operator) {
    switch (operator) {
      case "==": return show(actual) + " == " + show(expected);
      case "!=": return show(actual) + " != " + show(expected);
      case "strictEqual":
        return typeof actual === "object" && actual !== null || typeof expected === "object" && expected !== null
          ? twoSided(actual, expected, "Expected values to be strictly equal")
          : "Expected values to be strictly equal:\n\n" + show(actual) + " !== " + show(expected) + "\n";
      case "notStrictEqual": return 'Expected "actual" to be strictly unequal to: ' + show(expected);
      case "deepStrictEqual": return twoSided(actual, expected, "Expected values to be strictly deep-equal");
      case "deepEqual":
        return "Expected values to be loosely deep-equal:\n\n" + show(actual) + "\n\nshould loosely deep-equal\n\n" + show(expected);
      case "notDeepStrictEqual": return 'Expected "actual" not to be strictly deep-equal to: ' + show(expected);
      case "notDeepEqual": return '"actual" should not be loosely deep-equal to: ' + show(expected);
      case "fail": return "Failed";
      case "match": return "The input did not match the regular expression " + String(expected) + ". Input:\n\n" + show(actual) + "\n";
      case "doesNotMatch": return "The input was expected to not match the regular expression " + String(expected) + ". Input:\n\n" + show(actual) + "\n";
      default: return "The expression evaluated to a falsy value:\n\n  assert(" + show(actual) + ")\n";
    }
  }

  function raise(message, actual, expected, operator) {
    if (message instanceof Error) throw message;
    throw new AssertionError({ message, actual, expected, operator });
  }

  function ok(...args) {
    if (args.length === 0) {
      const error = new AssertionError({ message: "No value argument passed to `assert.ok()`", operator: "==" });
      error.generatedMessage = true;
      throw error;
    }
    if (!args[0]) raise(args[1], args[0], true, "==");
  }

  const looseEqual = (a, b) => a == b || (a !== a && b !== b);

  // Whether `error` is what `expected` (a class, a RegExp, a validation function or an object of
  // properties) asks for: nothing when it is, else Node's message saying why not.
  function mismatch(error, expected) {
    if (expected === undefined) return null;
    if (typeof expected === "function") {
      if (expected.prototype !== undefined && error instanceof expected) return null;
      if (expected === Error || Error.isPrototypeOf(expected)) {
        const received = error && error.constructor ? error.constructor.name : typeof error;
        return 'The error is expected to be an instance of "' + expected.name + '". Received "' + received + '"' +
          (error && error.message !== undefined ? "\n\nError message:\n\n" + error.message : "");
      }
      const result = expected.call({}, error);
      if (result === true) return null;
      return "The " + (expected.name ? '"' + expected.name + '" validation function' : "validation function") +
        ' is expected to return "true". Received ' + show(result) + "\n\nCaught error:\n\n" + String(error);
    }
    if (expected instanceof RegExp) {
      return expected.test(String(error)) ? null
        : "The input did not match the regular expression " + String(expected) + ". Input:\n\n" + show(String(error)) + "\n";
    }
    if (typeof expected === "object" && expected !== null) {
      for (const key of Object.keys(expected)) {
        const want = expected[key], got = error === null || error === undefined ? undefined : error[key];
        const same = want instanceof RegExp && typeof got === "string" ? want.test(got) : isDeepEqual(got, want, true);
        if (!same) return twoSided(got, want, "Expected values to be strictly deep-equal");
      }
      return null;
    }
    return null;
  }

  function check(error, expected, message, operator) {
    const why = mismatch(error, expected);
    if (why !== null) {
      throw new AssertionError({ message: message === undefined ? why : message, actual: error, expected, operator, generated: message === undefined });
    }
  }

  function missing(expected, message, operator) {
    const name = typeof expected === "function" && expected.name ? " (" + expected.name + ")" : "";
    const text = typeof message === "string" ? ": " + message : ".";
    raise("Missing expected " + (operator === "rejects" ? "rejection" : "exception") + name + text, undefined, expected, operator);
  }

  function throws(fn, expected, message) {
    if (typeof expected === "string") { message = expected; expected = undefined; }
    try {
      fn();
    } catch (error) {
      check(error, expected, message, "throws");
      return;
    }
    missing(expected, message, "throws");
  }

  function doesNotThrow(fn, expected, message) {
    if (typeof expected === "string") { message = expected; expected = undefined; }
    try {
      fn();
    } catch (error) {
      if (expected !== undefined && typeof expected !== "string" && mismatch(error, expected) !== null) throw error;
      raise("Got unwanted exception" + (message ? ": " + message : ".") + "\nActual message: \"" + (error && error.message) + "\"", error, expected, "doesNotThrow");
    }
  }

  async function rejects(promiseOrFn, expected, message) {
    if (typeof expected === "string") { message = expected; expected = undefined; }
    try {
      await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
    } catch (error) {
      check(error, expected, message, "rejects");
      return;
    }
    missing(expected, message, "rejects");
  }

  async function doesNotReject(promiseOrFn, expected, message) {
    try {
      await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
    } catch (error) {
      raise("Got unwanted rejection" + (message ? ": " + message : ".") + "\nActual message: \"" + (error && error.message) + "\"", error, expected, "doesNotReject");
    }
  }

  function build(strict) {
    const assert = (...args) => ok(...args);
    const methods = {
      ok,
      fail(message) {
        raise(message === undefined ? undefined : message, undefined, undefined, "fail");
      },
      equal(actual, expected, message) {
        if (strict ? !Object.is(actual, expected) : !looseEqual(actual, expected)) raise(message, actual, expected, strict ? "strictEqual" : "==");
      },
      notEqual(actual, expected, message) {
        if (strict ? Object.is(actual, expected) : looseEqual(actual, expected)) raise(message, actual, expected, strict ? "notStrictEqual" : "!=");
      },
      strictEqual(actual, expected, message) {
        if (!Object.is(actual, expected)) raise(message, actual, expected, "strictEqual");
      },
      notStrictEqual(actual, expected, message) {
        if (Object.is(actual, expected)) raise(message, actual, expected, "notStrictEqual");
      },
      deepEqual(actual, expected, message) {
        if (!isDeepEqual(actual, expected, strict)) raise(message, actual, expected, strict ? "deepStrictEqual" : "deepEqual");
      },
      notDeepEqual(actual, expected, message) {
        if (isDeepEqual(actual, expected, strict)) raise(message, actual, expected, strict ? "notDeepStrictEqual" : "notDeepEqual");
      },
      deepStrictEqual(actual, expected, message) {
        if (!isDeepEqual(actual, expected, true)) raise(message, actual, expected, "deepStrictEqual");
      },
      notDeepStrictEqual(actual, expected, message) {
        if (isDeepEqual(actual, expected, true)) raise(message, actual, expected, "notDeepStrictEqual");
      },
      match(string, regexp, message) {
        if (typeof string !== "string" || !regexp.test(string)) raise(message, string, regexp, "match");
      },
      doesNotMatch(string, regexp, message) {
        if (typeof string !== "string" || regexp.test(string)) raise(message, string, regexp, "doesNotMatch");
      },
      ifError(value) {
        if (value !== null && value !== undefined) {
          const text = value instanceof Error || (typeof value === "object" && typeof value.message === "string" && value.message.length)
            ? value.message : show(value);
          throw new AssertionError({ message: "ifError got unwanted exception: " + text, actual: value, expected: null, operator: "ifError", generated: false });
        }
      },
      throws,
      doesNotThrow,
      rejects,
      doesNotReject,
      AssertionError,
    };
    Object.assign(assert, methods);
    return assert;
  }

  const assert = build(false);
  assert.strict = build(true);
  assert.strict.strict = assert.strict;
  return assert;
})
