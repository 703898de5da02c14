// rewardbox's test frameworks for JavaScript and TypeScript test files (`tests.jest`,
// `tests.node_test`): Jest's globals (`describe`, `test`, `it`, `expect`, hooks, `jest.fn`) and
// Node's `node:test` module, written from their documentation, running a test file in the
// trusted program of a test run. The module the tests import as the candidate
// (`require('./solution')`, `import { f } from '../solution.js'`) is a module of stubs: each call
// runs in the live candidate's sandbox over the wire (wire.js). Each test's verdict is reported
// on stderr as the wire reports (`\x1erb-case <id> <state> <detail>`), never read from any output
// the candidate makes.
//
// Evaluated before the test file, as `(this)(config, program, helpers)`: `config` is the form
// (`framework`: "jest" or "node", `module`: the candidate's module name, `file`: the test file's
// name), `program` the test file's JavaScript (to find the names it imports), `helpers` the
// runner's (`require`, `send`, `remote`, `resolveModules`, `wireHooks`).
(function (config, program, helpers) {
  "use strict";
  const { send, remote, remoteStatic, remoteExports, isRemote } = helpers;
  const requireNode = helpers.require;
  const { inspect } = requireNode("util");
  const assertModule = requireNode("assert");
  const ObjectIs = Object.is, keysOf = Object.keys, hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const toStringTag = (v) => Object.prototype.toString.call(v);
  const isArray = Array.isArray;
  const getPrototypeOf = Object.getPrototypeOf;
  const PromiseCtor = Promise, ErrorCtor = Error, MapCtor = Map, SetCtor = Set;
  const setTimer = globalThis.setTimeout;

  // ---- Reporting --------------------------------------------------------------------------
  const oneLine = (text) => String(text).replace(/[\n\r\x1e\x1f]+/g, " ").trim();
  const brief = (text) => { const t = oneLine(text); return t.length > 400 ? t.slice(0, 400) + "..." : t; };
  const report = (text) => send(2, "\x1erb-" + text + "\n");
  const caseId = (path) => path.map(oneLine).join(" \u203a ").replace(/ /g, "\x1f");
  const reportCase = (path, state, detail) => report("case " + caseId(path) + " " + state + " " + brief(detail || ""));

  // The candidate ended during a call: the wire throws this, and every later call throws it too.
  class CandidateEnded extends ErrorCtor {
    constructor() { super("the candidate ended during a call"); this.name = "CandidateEnded"; }
  }
  helpers.wireHooks({
    ended: () => new CandidateEnded(),
    missing: (name) => new TypeError(name + " is not a function"),
    // The candidate's objects are of its classes as the tests import them (`instanceof Stack`).
    classOf: (name) => stub(name),
    // The tests import the candidate's module: only what it exports is there.
    exportsOnly: true,
  });

  // ---- The candidate's module --------------------------------------------------------------
  const show = (value) => { try { return inspect(value, { depth: 4, breakLength: Infinity }); } catch (e) { return String(value); } };
  const candidateName = String(config.module || "solution");
  // Whether `specifier` names the candidate's module: a relative path whose last part is its
  // name (with or without an extension), or its bare name.
  function isCandidate(specifier) {
    const text = String(specifier);
    const last = text.split("/").pop().replace(/\.(js|mjs|cjs|ts|mts|cts|jsx|tsx)$/, "");
    if (text === candidateName) return true;
    return /^\.{1,2}\//.test(text) && last === candidateName;
  }
  // The names an ES module test file imports from the candidate's module, which its module
  // must export (its namespace is fixed before the file runs).
  const imported = new Set();
  const importPattern = /\b(?:import|export)\s+(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*(["'])([^"'\n]+)\2/g;
  for (let m; (m = importPattern.exec(program)) !== null;) {
    if (!isCandidate(m[3])) continue;
    for (const part of m[1].split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0].trim();
      if (/^[A-Za-z_$][\w$]*$/.test(name) && name !== "default") imported.add(name);
    }
  }
  // Whether an ES module test file imports the candidate's default export.
  const importsDefault = [...program.matchAll(/\bimport\s+(?!type\b)[\w$]+\s*(?:,\s*(?:\{[^}]*\}|\*\s*as\s+[\w$]+)\s*)?from\s*(["'])([^"'\n]+)\1/g)]
    .some((m) => isCandidate(m[2]));
  let called = false, answered = false;
  // What `request` of the candidate answers: the first such request reported as the file
  // calling the candidate, the first answer (a value or what it threw, not its end) as its
  // answering, which decide whose fault a file that fails to load is.
  const asking = (request) => {
    if (!called) { called = true; report("framework called"); }
    let result;
    try {
      result = request();
    } catch (e) {
      if (!answered && !(e instanceof CandidateEnded)) { answered = true; report("framework answered"); }
      throw e;
    }
    if (!answered) { answered = true; report("framework answered"); }
    return result;
  };
  // Calls the candidate's `name` (or makes its object: `new Stack()`, when `isNew`).
  const call = (name, args, isNew) => asking(() => remote(name, args, isNew));
  // The candidate's function or class `name`: calling it calls the candidate's, `new` makes an
  // object in the candidate's sandbox (used through a proxy: src/wire.js), and a static member
  // (`Stack.of`) is read there. Its own `prototype` is what the candidate's objects of that class
  // inherit from here.
  const stubs = new MapCtor();
  function stub(name) {
    if (!stubs.has(name)) {
      const f = function (...args) {
        return call(name, args, new.target !== undefined);
      };
      Object.defineProperty(f, "name", { value: name });
      stubs.set(name, new Proxy(f, {
        get(target, key) {
          if (typeof key !== "string" || key in target) return target[key];
          return asking(() => remoteStatic(name, key));
        },
      }));
    }
    return stubs.get(name);
  }
  // The name of the class the module exports as a whole (`export default class Stack`), once
  // asked: whose stand-in's `prototype` its objects inherit from.
  let defaultName = null;
  const defaultPrototype = () => {
    if (defaultName === null) {
      const name = asking(() => remoteStatic("default", "name"));
      defaultName = typeof name === "string" && name !== "" ? name : "default";
    }
    return stub(defaultName).prototype;
  };
  // Calling the module itself calls what it exports as a whole (`module.exports = f`,
  // `export default f`); any property is a function of the candidate's, called by name.
  let candidateModule = null;
  // Its target is a bound function: one that `new` reaches (the construct trap) with no
  // `prototype` of its own, which the keys the module lists would have to include.
  candidateModule = new Proxy(function () {}.bind(null), {
    get(target, key) {
      if (typeof key !== "string" || key === "then" || key === "__esModule") return undefined;
      if (key === "default") return candidateModule;
      if (key === "prototype") return defaultPrototype();
      return stub(key);
    },
    has(target, key) { return typeof key === "string"; },
    ownKeys() { return [...imported]; },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === "string" && imported.has(key)) {
        return { value: stub(key), writable: true, enumerable: true, configurable: true };
      }
      return undefined;
    },
    apply(target, self, args) { return call("default", args); },
    construct(target, args) { return call("default", args, true); },
    set() { return false; },
    defineProperty() { return false; },
    deleteProperty() { return false; },
  });

  // ---- Test tree ---------------------------------------------------------------------------
  // A block (`describe`, a file) holds tests and blocks in the order they were declared, and its
  // hooks. A test holds its function and how it is marked.
  const newBlock = (name, parent, mode) => ({
    kind: "block", name, parent, mode, children: [],
    beforeAll: [], afterAll: [], beforeEach: [], afterEach: [],
    path: parent ? parent.path.concat([name]) : [],
    error: null,
  });
  const root = newBlock("", null, "");
  let current = root;
  let hasOnly = false;
  let scheduled = false;
  let collecting = true;

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    const broke = (e) => report("framework broke " + brief(e && e.stack || e));
    setTimer(() => {
      try {
        const ran = drive(runFile());
        if (isThenable(ran)) ran.then(undefined, broke);
      } catch (e) {
        broke(e);
      }
    }, 0);
  }

  const modeOf = (parent, mode) => (parent.mode === "skip" || parent.mode === "todo" ? "skip" : mode);

  function addTest(name, fn, mode, extra) {
    if (!collecting) throw new ErrorCtor("Cannot add a test after tests have started running. Tests must be defined synchronously.");
    if (mode === "only") hasOnly = true;
    const test = Object.assign({ kind: "test", name: formatTitle(name), fn, parent: current, mode: modeOf(current, mode) }, extra || {});
    test.path = current.path.concat([test.name]);
    current.children.push(test);
    schedule();
    return test;
  }

  function addBlock(name, fn, mode) {
    if (mode === "only") hasOnly = true;
    const block = newBlock(formatTitle(name), current, modeOf(current, mode));
    current.children.push(block);
    schedule();
    const saved = current;
    current = block;
    try {
      const result = typeof fn === "function" ? fn() : undefined;
      if (result && typeof result.then === "function" && config.framework === "jest") {
        throw new ErrorCtor("Returning a Promise from \"describe\" is not supported. Tests must be defined synchronously.");
      }
    } catch (e) {
      if (config.framework === "jest") throw e;
      block.error = e;
    } finally {
      current = saved;
    }
    return block;
  }

  function formatTitle(name) {
    if (typeof name === "function") return name.name || "";
    if (typeof name === "string") return name;
    return String(name);
  }

  // ---- Running -----------------------------------------------------------------------------
  // Whether a block has a test marked `only` within it (Jest: then only such tests run).
  function holdsOnly(node) {
    if (node.mode === "only") return true;
    return node.kind === "block" && node.children.some(holdsOnly);
  }

  // Runs `fn` with `args` and waits for it: a returned promise, or a `done` callback when the
  // function declares one more parameter than it is given.
  function invoke(fn, self, args, withDone) {
    if (withDone && fn.length > args.length) {
      return new PromiseCtor((resolve, reject) => {
        let finished = false;
        const done = (error) => {
          if (finished) return;
          finished = true;
          if (error !== undefined && error !== null && error !== false) reject(error instanceof ErrorCtor ? error : new ErrorCtor("Failed: " + show(error)));
          else resolve();
        };
        done.fail = (error) => done(error === undefined ? new ErrorCtor("Failed") : error);
        try {
          const result = fn.apply(self, args.concat([done]));
          if (result && typeof result.then === "function" && config.framework === "jest") {
            reject(new ErrorCtor("Test functions cannot both take a 'done' callback and return something. Either use a 'done' callback, or return a promise."));
          }
        } catch (e) {
          finished = true;
          reject(e);
        }
      });
    }
    // A function that returns at once returns at once here too (a throw is thrown): only a
    // returned promise is waited for.
    const result = fn.apply(self, args);
    return isThenable(result) ? result : undefined;
  }

  const isThenable = (value) =>
    value !== null && (typeof value === "object" || typeof value === "function") && typeof value.then === "function";

  // Runs the generator `steps`, each of whose yielded values is a step's result: a promise is
  // waited for (its value or error sent back in), anything else is sent back at once. Returns
  // what the generator returns, or a promise of it once a step was asynchronous: tests that
  // never wait run without a promise job between them.
  function drive(steps) {
    const resume = (method, value) => {
      for (;;) {
        const next = steps[method](value);
        if (next.done) return next.value;
        if (isThenable(next.value)) {
          return PromiseCtor.resolve(next.value).then((v) => resume("next", v), (e) => resume("throw", e));
        }
        method = "next";
        value = next.value;
      }
    };
    return resume("next", undefined);
  }

  const describeError = (e) => {
    if (e instanceof CandidateEnded) return e.message;
    if (e !== null && typeof e === "object") {
      let name = "Error", message = "";
      try { name = String(e.name); } catch (x) {}
      try { message = String(e.message); } catch (x) {}
      return (name && name !== "Error" ? name + ": " : "") + message;
    }
    return "thrown: " + show(e);
  };

  // The first error of a test decides it; a CandidateEnded error among them makes it `ended`.
  function verdict(path, errors, passDetail) {
    if (errors.length === 0) return reportCase(path, "pass", passDetail || "");
    const ended = errors.find((e) => e instanceof CandidateEnded);
    if (ended) return reportCase(path, "ended", describeError(ended));
    reportCase(path, "fail", describeError(errors[0]));
  }

  // ---- Jest --------------------------------------------------------------------------------
  let assertionCalls = 0;
  let expectedAssertions = null;
  let expectedSome = false;

  function* runJestBlock(block, inherited) {
    const skipAll = (node) => {
      if (node.kind === "test") return reportCase(node.path, "skip", node.mode === "todo" ? "todo" : "skipped");
      node.children.forEach(skipAll);
    };
    const runnable = (node) => {
      if (node.mode === "skip" || node.mode === "todo") return false;
      if (hasOnly && !holdsOnly(node) && !inOnly(node)) return false;
      return node.kind === "test" || node.children.some(runnable);
    };
    if (!block.children.some(runnable)) {
      block.children.forEach(skipAll);
      return;
    }
    const failures = [];
    for (const hook of block.beforeAll) {
      try { yield invoke(hook.fn, undefined, [], true); } catch (e) { failures.push(e); break; }
    }
    for (const child of block.children) {
      if (!runnable(child)) { skipAll(child); continue; }
      if (child.kind === "block") yield* runJestBlock(child, failures.length ? failures : inherited);
      else yield* runJestTest(child, failures.length ? failures : inherited);
    }
    for (const hook of block.afterAll) {
      try { yield invoke(hook.fn, undefined, [], true); } catch (e) { /* Jest reports it against the file, not a test */ }
    }
  }

  // Whether `node` lies inside a block marked `only`.
  function inOnly(node) {
    for (let at = node.parent; at; at = at.parent) if (at.mode === "only") return true;
    return false;
  }

  function eachHooks(test, kind) {
    const chain = [];
    for (let block = test.parent; block; block = block.parent) chain.unshift(block);
    const hooks = [];
    for (const block of chain) hooks.push(...block[kind]);
    return kind === "afterEach" ? hooks.reverse() : hooks;
  }

  function* runJestTest(test, inherited) {
    report("case-start " + caseId(test.path));
    if (inherited && inherited.length) return verdict(test.path, [inherited[0]]);
    const errors = [];
    assertionCalls = 0;
    expectedAssertions = null;
    expectedSome = false;
    let beforeFailed = false;
    for (const hook of eachHooks(test, "beforeEach")) {
      try { yield invoke(hook.fn, undefined, [], true); } catch (e) { errors.push(e); beforeFailed = true; break; }
    }
    if (!beforeFailed) {
      try { yield invoke(test.fn, undefined, [], true); } catch (e) { errors.push(e); }
      if (errors.length === 0) {
        if (expectedAssertions !== null && assertionCalls !== expectedAssertions) {
          errors.push(new ErrorCtor("expect.assertions(" + expectedAssertions + "): expected " + expectedAssertions + " assertion" + (expectedAssertions === 1 ? "" : "s") + " to be called but received " + assertionCalls + " assertion call" + (assertionCalls === 1 ? "" : "s") + "."));
        } else if (expectedSome && assertionCalls === 0) {
          errors.push(new ErrorCtor("expect.hasAssertions(): expected at least one assertion to be called but received none."));
        }
      }
    }
    for (const hook of eachHooks(test, "afterEach")) {
      try { yield invoke(hook.fn, undefined, [], true); } catch (e) { errors.push(e); }
    }
    if (test.failing) {
      // `test.failing`: passes when the test fails, fails when it passes.
      if (errors.some((e) => e instanceof CandidateEnded)) return verdict(test.path, errors);
      return errors.length ? reportCase(test.path, "pass", "failed, as test.failing expects") : reportCase(test.path, "fail", "Failing test passed even though it was supposed to fail. Remove `.failing` to remove error.");
    }
    verdict(test.path, errors);
  }

  // `printf`-style titles of `.each` rows, as Jest formats them.
  function formatEach(title, row, index) {
    if (!isArray(row)) {
      // An object row: `$key` and `$key.path` name its values.
      let text = String(title).replace(/\$([A-Za-z_$][\w$]*(?:\.[\w$]+)*)/g, (all, path) => {
        let value = row;
        for (const part of path.split(".")) value = value === null || value === undefined ? undefined : value[part];
        return inspect(value, { depth: 1, breakLength: Infinity });
      });
      return text.replace(/\$#/g, String(index)).replace(/%#/g, String(index)).replace(/%\$/g, String(index + 1));
    }
    let at = 0;
    let text = String(title).replace(/%([sdifjopP#$%])/g, (all, kind) => {
      if (kind === "%") return "%";
      if (kind === "#") return String(index);
      if (kind === "$") return String(index + 1);
      if (at >= row.length) return all;
      const value = row[at++];
      switch (kind) {
        case "s": return typeof value === "string" ? value : inspect(value, { depth: 1, breakLength: Infinity });
        case "d": case "i": {
          if (typeof value === "bigint") return value.toString() + "n";
          const n = Number(value);
          return kind === "i" ? String(Number.isNaN(n) ? NaN : Math.trunc(n)) : String(n);
        }
        case "f": return String(Number(value));
        case "j": try { return JSON.stringify(value); } catch (e) { return "[Circular]"; }
        case "o": case "O": case "p": return inspect(value, { depth: 1, breakLength: Infinity });
      }
      return all;
    });
    return text;
  }

  // Tagged-template tables: the first row names the columns, each later row is an object.
  function tableRows(args) {
    const [first, ...values] = args;
    if (isArray(first) && isArray(first.raw)) {
      const headings = first.join("").trim().split(/\s*\|\s*/);
      const rows = [];
      for (let i = 0; i < values.length; i += headings.length) {
        const row = {};
        headings.forEach((h, j) => { row[h] = values[i + j]; });
        rows.push(row);
      }
      return rows;
    }
    if (!isArray(first)) throw new ErrorCtor("`.each` must be called with an Array or Tagged Template Literal.");
    return first.map((row) => (isArray(row) || (row !== null && typeof row === "object") ? row : [row]));
  }

  function eachOf(add) {
    return (...table) => {
      const rows = tableRows(table);
      return (title, fn, timeout) => {
        rows.forEach((row, index) => {
          const args = isArray(row) ? row : [row];
          // The row's function takes Jest's `done` when it declares more parameters than the
          // row has values.
          const bound = function (...done) { return fn.apply(this, args.concat(done)); };
          Object.defineProperty(bound, "length", { value: Math.max(0, fn.length - args.length) });
          add(formatEach(title, row, index), bound, timeout, args);
        });
      };
    };
  }

  function jestTestFunction(mode) {
    return (name, fn) => {
      if (mode === "todo") {
        if (fn !== undefined) throw new ErrorCtor("Todo must be called with only a description.");
        return void addTest(name, null, "todo");
      }
      if (typeof fn !== "function") {
        throw new ErrorCtor("Missing second argument. It must be a callback function.");
      }
      addTest(name, fn, mode);
    };
  }

  function makeTest() {
    const test = jestTestFunction("");
    test.only = jestTestFunction("only");
    test.skip = jestTestFunction("skip");
    test.todo = jestTestFunction("todo");
    test.concurrent = test;
    test.failing = (name, fn) => { addTest(name, fn, "", { failing: true }); };
    test.failing.each = eachOf((name, fn) => addTest(name, fn, "", { failing: true }));
    // `.each` rows' functions take the row's values; the wrapper's length says whether it
    // also takes Jest's `done`.
    const eachAdd = (mode) => eachOf((name, fn) => { addTest(name, fn, mode); });
    test.each = eachAdd("");
    test.only.each = eachAdd("only");
    test.skip.each = eachAdd("skip");
    test.concurrent.each = test.each;
    return test;
  }

  function makeDescribe() {
    const describe = (name, fn) => { addBlock(name, fn, ""); };
    describe.only = (name, fn) => { addBlock(name, fn, "only"); };
    describe.skip = (name, fn) => { addBlock(name, fn, "skip"); };
    describe.each = eachOf((name, fn) => addBlock(name, fn, ""));
    describe.only.each = eachOf((name, fn) => addBlock(name, fn, "only"));
    describe.skip.each = eachOf((name, fn) => addBlock(name, fn, "skip"));
    return describe;
  }

  const hook = (kind) => (fn) => {
    if (typeof fn !== "function") throw new ErrorCtor("Invalid first argument. It must be a callback function.");
    current[kind].push({ fn });
  };

  // ---- expect --------------------------------------------------------------------------------
  const ASYMMETRIC = Symbol("rewardbox.asymmetricMatcher");
  class Asymmetric {
    constructor(name, sample, inverse, match) {
      this[ASYMMETRIC] = true;
      this.name = name; this.sample = sample; this.inverse = inverse; this.match = match;
    }
    asymmetricMatch(other) { const r = this.match(other); return this.inverse ? !r : r; }
    toString() { return (this.inverse ? "Not" : "") + this.name; }
    toAsymmetricMatcher() { return this.toString() + "<" + show(this.sample) + ">"; }
  }
  // The candidate's objects and functions never match asymmetrically: that would let it decide
  // a comparison (an object whose `asymmetricMatch` says yes to everything).
  const isAsymmetric = (v) => v !== null && typeof v === "object" && !isRemote(v) &&
    (v[ASYMMETRIC] === true || (typeof v.asymmetricMatch === "function" && !isRemote(v.asymmetricMatch)));

  // Jest's recursive equality: `strict` is toStrictEqual's (types, `undefined` properties,
  // sparseness).
  function equals(a, b, strict, seenA, seenB) {
    if (isAsymmetric(a) && !isAsymmetric(b)) return !!a.asymmetricMatch(b);
    if (isAsymmetric(b) && !isAsymmetric(a)) return !!b.asymmetricMatch(a);
    if (a instanceof ErrorCtor && b instanceof ErrorCtor) return a.message == b.message; // eslint-disable-line eqeqeq
    if (ObjectIs(a, b)) return true;
    const tagA = toStringTag(a);
    if (tagA !== toStringTag(b)) return false;
    switch (tagA) {
      case "[object Boolean]": case "[object String]": case "[object Number]":
        if (typeof a !== typeof b) return false;
        if (typeof a !== "object") return ObjectIs(a, b);
        return ObjectIs(a.valueOf(), b.valueOf());
      case "[object Date]": return +a === +b;
      case "[object RegExp]": return a.source === b.source && a.flags === b.flags;
    }
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    seenA = seenA || []; seenB = seenB || [];
    for (let i = seenA.length - 1; i >= 0; i--) if (seenA[i] === a) return seenB[i] === b;
    seenA.push(a); seenB.push(b);
    try {
      if (strict && a.constructor !== b.constructor) return false;
      if (tagA === "[object Array]") {
        if (a.length !== b.length) return false;
        if (strict) for (let i = 0; i < a.length; i++) if ((i in a) !== (i in b)) return false;
      }
      if (a instanceof MapCtor || a instanceof SetCtor) {
        if (a.constructor !== b.constructor || a.size !== b.size) return false;
        if (a instanceof SetCtor) {
          for (const v of a) {
            if (b.has(v)) continue;
            let found = false;
            for (const w of b) if (equals(v, w, strict, seenA, seenB)) { found = true; break; }
            if (!found) return false;
          }
          return true;
        }
        for (const [k, v] of a) {
          if (b.has(k) && equals(v, b.get(k), strict, seenA, seenB)) continue;
          let found = false;
          for (const [k2, v2] of b) if (equals(k, k2, strict, seenA, seenB) && equals(v, v2, strict, seenA, seenB)) { found = true; break; }
          if (!found) return false;
        }
        return true;
      }
      if (tagA !== "[object Array]" && typeof a[Symbol.iterator] === "function" && typeof b[Symbol.iterator] === "function" && !(typeof a === "string")) {
        if (a.constructor !== b.constructor) return false;
        const x = Array.from(a), y = Array.from(b);
        if (x.length !== y.length) return false;
        for (let i = 0; i < x.length; i++) if (!equals(x[i], y[i], strict, seenA, seenB)) return false;
        return true;
      }
      const own = (o) => {
        const names = keysOf(o).filter((k) => strict || o[k] !== undefined);
        for (const s of Object.getOwnPropertySymbols(o)) if (Object.getOwnPropertyDescriptor(o, s).enumerable) names.push(s);
        return names;
      };
      const ka = own(a), kb = own(b);
      if (ka.length !== kb.length) return false;
      for (const k of ka) {
        if (!(strict ? hasOwn(b, k) : hasOwn(b, k) && b[k] !== undefined || (typeof k === "symbol" && hasOwn(b, k)))) return false;
        if (!equals(a[k], b[k], strict, seenA, seenB)) return false;
      }
      return true;
    } finally {
      seenA.pop(); seenB.pop();
    }
  }

  // toMatchObject's subset equality: every property of `expected` equal in `received`.
  function subset(received, expected, seen) {
    if (isAsymmetric(expected)) return !!expected.asymmetricMatch(received);
    if (typeof expected !== "object" || expected === null || expected instanceof Date || expected instanceof RegExp) {
      return equals(received, expected, false);
    }
    if (typeof received !== "object" || received === null) return false;
    if (isArray(expected)) {
      if (!isArray(received) || received.length !== expected.length) return false;
      return expected.every((v, i) => subset(received[i], v, seen));
    }
    if (expected instanceof MapCtor || expected instanceof SetCtor) return equals(received, expected, false);
    seen = seen || new SetCtor();
    if (seen.has(expected)) return true;
    seen.add(expected);
    return keysOf(expected).every((k) => received !== null && k in Object(received) && subset(received[k], expected[k], seen));
  }

  class JestAssertionError extends ErrorCtor {
    constructor(message) { super(message); this.name = "Error"; }
  }

  function matcherError(text) { return new JestAssertionError("expect(received)." + text); }

  const typeName = (v) => (v === null ? "null" : typeof v);
  function requireNumber(value, who, matcher) {
    if (typeof value !== "number" && typeof value !== "bigint") {
      throw matcherError(matcher + "\n\nMatcher error: " + who + " value must be a number or bigint\n" + who + " has type: " + typeName(value));
    }
  }

  // A matcher's outcome: `pass`, and the message shown when the expectation (with or without
  // `.not`) does not hold.
  const matchers = {
    toBe(received, expected) {
      return { pass: ObjectIs(received, expected), message: () => "Expected: " + show(expected) + "\nReceived: " + show(received) };
    },
    toEqual(received, expected) {
      return { pass: equals(received, expected, false), message: () => "Expected: " + show(expected) + "\nReceived: " + show(received) };
    },
    toStrictEqual(received, expected) {
      return { pass: equals(received, expected, true), message: () => "Expected: " + show(expected) + "\nReceived: " + show(received) };
    },
    toBeCloseTo(received, expected, precision) {
      const digits = precision === undefined ? 2 : precision;
      requireNumber(received, "received", "toBeCloseTo");
      requireNumber(expected, "expected", "toBeCloseTo");
      let pass;
      if (received === Infinity && expected === Infinity || received === -Infinity && expected === -Infinity) pass = true;
      else pass = Math.abs(expected - received) < Math.pow(10, -digits) / 2;
      return { pass, message: () => "Expected: " + show(expected) + " (precision " + digits + ")\nReceived: " + show(received) };
    },
    toBeDefined(received) { return { pass: received !== undefined, message: () => "Received: " + show(received) }; },
    toBeUndefined(received) { return { pass: received === undefined, message: () => "Received: " + show(received) }; },
    toBeNull(received) { return { pass: received === null, message: () => "Received: " + show(received) }; },
    toBeNaN(received) { return { pass: typeof received === "number" && Number.isNaN(received), message: () => "Received: " + show(received) }; },
    toBeTruthy(received) { return { pass: !!received, message: () => "Received: " + show(received) }; },
    toBeFalsy(received) { return { pass: !received, message: () => "Received: " + show(received) }; },
    toBeGreaterThan(received, expected) { return compare(received, expected, "toBeGreaterThan", ">", (a, b) => a > b); },
    toBeGreaterThanOrEqual(received, expected) { return compare(received, expected, "toBeGreaterThanOrEqual", ">=", (a, b) => a >= b); },
    toBeLessThan(received, expected) { return compare(received, expected, "toBeLessThan", "<", (a, b) => a < b); },
    toBeLessThanOrEqual(received, expected) { return compare(received, expected, "toBeLessThanOrEqual", "<=", (a, b) => a <= b); },
    toBeInstanceOf(received, expected) {
      if (typeof expected !== "function") throw matcherError("toBeInstanceOf(expected)\n\nMatcher error: expected value must be a function");
      return { pass: received instanceof expected, message: () => "Expected constructor: " + (expected.name || "anonymous") + "\nReceived value: " + show(received) };
    },
    toContain(received, expected) {
      if (received === null || received === undefined) throw matcherError("toContain(expected)\n\nMatcher error: received value must not be null nor undefined");
      let pass;
      if (typeof received === "string") {
        if (typeof expected !== "string") throw matcherError("toContain(expected)\n\nMatcher error: expected value must be a string if received value is a string");
        pass = received.includes(expected);
      } else if (typeof received[Symbol.iterator] === "function") {
        pass = Array.from(received).some((item) => item === expected);
      } else {
        throw matcherError("toContain(expected)\n\nMatcher error: received value must not be null nor undefined");
      }
      return { pass, message: () => "Expected value: " + show(expected) + "\nReceived: " + show(received) };
    },
    toContainEqual(received, expected) {
      if (received === null || received === undefined || typeof received[Symbol.iterator] !== "function") {
        throw matcherError("toContainEqual(expected)\n\nMatcher error: received value must not be null nor undefined");
      }
      return { pass: Array.from(received).some((item) => equals(item, expected, false)), message: () => "Expected value: " + show(expected) + "\nReceived: " + show(received) };
    },
    toHaveLength(received, expected) {
      if (received === null || received === undefined || typeof received.length !== "number") {
        throw matcherError("toHaveLength(expected)\n\nMatcher error: received value must have a length property whose value must be a number");
      }
      return { pass: received.length === expected, message: () => "Expected length: " + show(expected) + "\nReceived length: " + received.length };
    },
    toHaveProperty(received, path, ...value) {
      if (received === null || received === undefined) throw matcherError("toHaveProperty(path)\n\nMatcher error: received value must not be null nor undefined");
      const parts = isArray(path) ? path.map(String) : String(path).replace(/\[(\w+)\]/g, ".$1").split(".").filter((p, i, all) => p !== "" || all.length === 1);
      let at = received, found = true;
      for (const part of parts) {
        if (at !== null && at !== undefined && (typeof at === "object" || typeof at === "function" ? part in at : part in Object(at))) at = at[part];
        else { found = false; break; }
      }
      const pass = found && (value.length === 0 || equals(at, value[0], false));
      return { pass, message: () => "Expected path: " + show(path) + (value.length ? "\nExpected value: " + show(value[0]) : "") + "\nReceived: " + show(received) };
    },
    toMatch(received, expected) {
      if (typeof received !== "string") throw matcherError("toMatch(expected)\n\nMatcher error: received value must be a string");
      const pass = typeof expected === "string" ? received.includes(expected) : new RegExp(expected).test(received);
      return { pass, message: () => "Expected pattern: " + show(expected) + "\nReceived string: " + show(received) };
    },
    toMatchObject(received, expected) {
      if (typeof received !== "object" || received === null) throw matcherError("toMatchObject(expected)\n\nMatcher error: received value must be a non-null object");
      if (typeof expected !== "object" || expected === null) throw matcherError("toMatchObject(expected)\n\nMatcher error: expected value must be a non-null object");
      return { pass: subset(received, expected), message: () => "Expected: " + show(expected) + "\nReceived: " + show(received) };
    },
    toThrow(received, expected, fromPromise) {
      let thrown = null;
      if (fromPromise) thrown = { value: received };
      else {
        if (typeof received !== "function") throw matcherError("toThrow()\n\nMatcher error: received value must be a function");
        try { received(); } catch (e) { if (e instanceof CandidateEnded) throw e; thrown = { value: e }; }
      }
      const message = thrown && thrown.value !== null && typeof thrown.value === "object" ? String(thrown.value.message) : thrown ? String(thrown.value) : "";
      let pass;
      if (!thrown) pass = false;
      else if (expected === undefined) pass = true;
      else if (typeof expected === "function") pass = thrown.value instanceof expected;
      else if (typeof expected === "string") pass = message.includes(expected);
      else if (expected instanceof RegExp) pass = expected.test(message);
      else if (isAsymmetric(expected)) pass = !!expected.asymmetricMatch(thrown.value);
      else if (expected !== null && typeof expected === "object") pass = message === String(expected.message);
      else throw matcherError("toThrow(expected)\n\nMatcher error: expected value must be a string or regular expression or class or error");
      return { pass, message: () => (thrown ? "Thrown: " + show(thrown.value) : "Received function did not throw") + (expected !== undefined ? "\nExpected: " + show(expected) : "") };
    },
  };
  matchers.toThrowError = matchers.toThrow;
  // Snapshots: a test file ships without its snapshot file, and Jest in CI mode (as graders run
  // it) fails a snapshot it has not got rather than writing it.
  const noSnapshot = () => {
    throw new JestAssertionError("New snapshot was not written: there is no snapshot file (Jest in CI mode fails such a test too)");
  };
  matchers.toMatchSnapshot = noSnapshot;
  matchers.toMatchInlineSnapshot = noSnapshot;
  matchers.toThrowErrorMatchingSnapshot = noSnapshot;
  matchers.toThrowErrorMatchingInlineSnapshot = noSnapshot;

  function compare(received, expected, name, op, test) {
    requireNumber(received, "received", name);
    requireNumber(expected, "expected", name);
    return { pass: test(received, expected), message: () => "Expected: " + op + " " + show(expected) + "\nReceived:" + " ".repeat(op.length + 1) + show(received) };
  }

  // Mock functions' matchers.
  const isMock = (f) => typeof f === "function" && f._isMockFunction === true;
  function requireMock(received, name) {
    if (!isMock(received)) throw matcherError(name + "()\n\nMatcher error: received value must be a mock or spy function");
  }
  Object.assign(matchers, {
    toHaveBeenCalled(received) {
      requireMock(received, "toHaveBeenCalled");
      return { pass: received.mock.calls.length > 0, message: () => "Number of calls: " + received.mock.calls.length };
    },
    toHaveBeenCalledTimes(received, n) {
      requireMock(received, "toHaveBeenCalledTimes");
      return { pass: received.mock.calls.length === n, message: () => "Expected number of calls: " + n + "\nReceived number of calls: " + received.mock.calls.length };
    },
    toHaveBeenCalledWith(received, ...args) {
      requireMock(received, "toHaveBeenCalledWith");
      return { pass: received.mock.calls.some((c) => equals(c, args, false)), message: () => "Expected: " + args.map(show).join(", ") + "\nReceived calls: " + show(received.mock.calls) };
    },
    toHaveBeenLastCalledWith(received, ...args) {
      requireMock(received, "toHaveBeenLastCalledWith");
      const calls = received.mock.calls;
      return { pass: calls.length > 0 && equals(calls[calls.length - 1], args, false), message: () => "Expected: " + args.map(show).join(", ") + "\nReceived calls: " + show(calls) };
    },
    toHaveBeenNthCalledWith(received, n, ...args) {
      requireMock(received, "toHaveBeenNthCalledWith");
      const calls = received.mock.calls;
      return { pass: n >= 1 && calls.length >= n && equals(calls[n - 1], args, false), message: () => "n: " + n + "\nExpected: " + args.map(show).join(", ") + "\nReceived calls: " + show(calls) };
    },
    toHaveReturned(received) {
      requireMock(received, "toHaveReturned");
      return { pass: received.mock.results.some((r) => r.type === "return"), message: () => "Received results: " + show(received.mock.results) };
    },
    toHaveReturnedTimes(received, n) {
      requireMock(received, "toHaveReturnedTimes");
      const count = received.mock.results.filter((r) => r.type === "return").length;
      return { pass: count === n, message: () => "Expected number of returns: " + n + "\nReceived number of returns: " + count };
    },
    toHaveReturnedWith(received, value) {
      requireMock(received, "toHaveReturnedWith");
      return { pass: received.mock.results.some((r) => r.type === "return" && equals(r.value, value, false)), message: () => "Expected: " + show(value) + "\nReceived results: " + show(received.mock.results) };
    },
    toHaveLastReturnedWith(received, value) {
      requireMock(received, "toHaveLastReturnedWith");
      const results = received.mock.results;
      const last = results[results.length - 1];
      return { pass: !!last && last.type === "return" && equals(last.value, value, false), message: () => "Expected: " + show(value) + "\nReceived results: " + show(results) };
    },
    toHaveNthReturnedWith(received, n, value) {
      requireMock(received, "toHaveNthReturnedWith");
      const result = received.mock.results[n - 1];
      return { pass: !!result && result.type === "return" && equals(result.value, value, false), message: () => "n: " + n + "\nExpected: " + show(value) + "\nReceived results: " + show(received.mock.results) };
    },
  });
  // The older names Jest 29 still has.
  Object.assign(matchers, {
    toBeCalled: matchers.toHaveBeenCalled,
    toBeCalledTimes: matchers.toHaveBeenCalledTimes,
    toBeCalledWith: matchers.toHaveBeenCalledWith,
    lastCalledWith: matchers.toHaveBeenLastCalledWith,
    nthCalledWith: matchers.toHaveBeenNthCalledWith,
    toReturn: matchers.toHaveReturned,
    toReturnTimes: matchers.toHaveReturnedTimes,
    toReturnWith: matchers.toHaveReturnedWith,
    lastReturnedWith: matchers.toHaveLastReturnedWith,
    nthReturnedWith: matchers.toHaveNthReturnedWith,
  });

  // The matcher objects `expect(value)` returns share one prototype per way of asking (`.not`,
  // `.resolves`, `.rejects`), made when first needed (and again after `expect.extend`): each
  // matcher runs on the object's received value.
  const RECEIVED = Symbol("received");
  const prototypes = new MapCtor();
  function runMatcher(received, name, args, inverse, promise) {
    assertionCalls++;
    const check = (value, fromPromise) => {
      const result = name === "toThrow" || name === "toThrowError"
        ? matchers[name](value, args[0], fromPromise)
        : matchers[name](value, ...args);
      if (!!result.pass === inverse) {
        throw new JestAssertionError("expect(received)." + (promise ? promise + "." : "") + (inverse ? "not." : "") + name + "(" + (args.length ? "expected" : "") + ")\n\n" + result.message());
      }
    };
    if (promise) {
      if (received === null || (typeof received !== "object" && typeof received !== "function") || typeof received.then !== "function") {
        throw matcherError(promise + "." + name + "()\n\nMatcher error: received value must be a promise");
      }
      return PromiseCtor.resolve(received).then(
        (value) => {
          if (promise === "rejects") throw new JestAssertionError("expect(received).rejects." + name + "()\n\nReceived promise resolved instead of rejected\nResolved to value: " + show(value));
          check(value, false);
        },
        (reason) => {
          if (reason instanceof CandidateEnded) throw reason;
          if (promise === "resolves") throw new JestAssertionError("expect(received).resolves." + name + "()\n\nReceived promise rejected instead of resolved\nRejected to value: " + show(reason));
          check(reason, true);
        });
    }
    check(received, false);
    return undefined;
  }
  function prototypeFor(inverse, promise) {
    const key = (inverse ? "not" : "") + ":" + (promise || "");
    let proto = prototypes.get(key);
    if (proto === undefined) {
      proto = {};
      for (const name of keysOf(matchers)) {
        proto[name] = function (...args) { return runMatcher(this[RECEIVED], name, args, inverse, promise); };
      }
      prototypes.set(key, proto);
    }
    return proto;
  }
  function matcherObject(received, inverse, promise) {
    const out = Object.create(prototypeFor(inverse, promise));
    out[RECEIVED] = received;
    return out;
  }
  function expect(received, ...extra) {
    if (extra.length) throw new ErrorCtor("Expect takes at most one argument.");
    const base = matcherObject(received, false, null);
    base.not = matcherObject(received, true, null);
    base.resolves = matcherObject(received, false, "resolves");
    base.resolves.not = matcherObject(received, true, "resolves");
    base.rejects = matcherObject(received, false, "rejects");
    base.rejects.not = matcherObject(received, true, "rejects");
    return base;
  }
  const asymmetric = (inverse) => ({
    anything: () => new Asymmetric("Anything", undefined, inverse, (v) => v !== null && v !== undefined),
    any: (Ctor) => {
      if (Ctor === undefined) throw new TypeError("any() expects to be passed a constructor function. Please pass one or use anything() to match any object.");
      return new Asymmetric("Any", Ctor, inverse, (v) => {
        if (Ctor === String) return typeof v === "string" || v instanceof String;
        if (Ctor === Number) return typeof v === "number" || v instanceof Number;
        if (Ctor === Boolean) return typeof v === "boolean" || v instanceof Boolean;
        if (Ctor === BigInt) return typeof v === "bigint" || v instanceof BigInt;
        if (Ctor === Symbol) return typeof v === "symbol";
        if (Ctor === Function) return typeof v === "function";
        if (Ctor === Object) return typeof v === "object" && v !== null;
        return v instanceof Ctor;
      });
    },
    arrayContaining: (sample) => new Asymmetric("ArrayContaining", sample, inverse, (v) => {
      if (!isArray(sample)) throw new ErrorCtor("You must provide an array to ArrayContaining, not '" + typeof sample + "'.");
      return sample.length === 0 || isArray(v) && sample.every((s) => v.some((x) => equals(s, x, false)));
    }),
    objectContaining: (sample) => new Asymmetric("ObjectContaining", sample, inverse, (v) => {
      if (typeof sample !== "object" || sample === null) throw new ErrorCtor("You must provide an object to ObjectContaining, not '" + typeof sample + "'.");
      if (v === null || v === undefined) return false;
      return keysOf(sample).every((k) => k in Object(v) && equals(v[k], sample[k], false));
    }),
    stringContaining: (sample) => new Asymmetric("StringContaining", sample, inverse, (v) => typeof v === "string" && v.includes(sample)),
    stringMatching: (sample) => new Asymmetric("StringMatching", sample, inverse, (v) => typeof v === "string" && new RegExp(sample).test(v)),
    closeTo: (sample, precision) => new Asymmetric("CloseTo", sample, inverse, (v) => {
      const digits = precision === undefined ? 2 : precision;
      if (typeof v !== "number") return false;
      if (v === Infinity && sample === Infinity || v === -Infinity && sample === -Infinity) return true;
      return Math.abs(sample - v) < Math.pow(10, -digits) / 2;
    }),
  });
  Object.assign(expect, asymmetric(false));
  expect.not = asymmetric(true);
  expect.assertions = (n) => { expectedAssertions = n; };
  expect.hasAssertions = () => { expectedSome = true; };
  expect.extend = (more) => {
    prototypes.clear();
    for (const name of keysOf(more)) {
      const fn = more[name];
      matchers[name] = (received, ...args) => {
        const result = fn.call({ equals: (a, b) => equals(a, b, false), isNot: false, utils: { printReceived: show, printExpected: show } }, received, ...args);
        return { pass: !!result.pass, message: () => (typeof result.message === "function" ? result.message() : String(result.message || "")) };
      };
    }
  };

  // jest.fn, jest.spyOn: mock functions recording their calls.
  function mockFunction(implementation) {
    let impl = implementation, onces = [];
    const mock = function (...args) {
      mock.mock.calls.push(args);
      mock.mock.instances.push(this);
      mock.mock.contexts.push(this);
      const chosen = onces.length ? onces.shift() : impl;
      try {
        const value = chosen ? chosen.apply(this, args) : undefined;
        mock.mock.results.push({ type: "return", value });
        mock.mock.lastCall = args;
        return value;
      } catch (e) {
        mock.mock.results.push({ type: "throw", value: e });
        mock.mock.lastCall = args;
        throw e;
      }
    };
    mock._isMockFunction = true;
    mock.mock = { calls: [], instances: [], contexts: [], results: [], lastCall: undefined };
    mock.getMockName = () => "jest.fn()";
    mock.mockImplementation = (f) => { impl = f; return mock; };
    mock.mockImplementationOnce = (f) => { onces.push(f); return mock; };
    mock.mockReturnValue = (v) => mock.mockImplementation(() => v);
    mock.mockReturnValueOnce = (v) => mock.mockImplementationOnce(() => v);
    mock.mockResolvedValue = (v) => mock.mockImplementation(() => PromiseCtor.resolve(v));
    mock.mockResolvedValueOnce = (v) => mock.mockImplementationOnce(() => PromiseCtor.resolve(v));
    mock.mockRejectedValue = (v) => mock.mockImplementation(() => PromiseCtor.reject(v));
    mock.mockRejectedValueOnce = (v) => mock.mockImplementationOnce(() => PromiseCtor.reject(v));
    mock.mockReturnThis = () => mock.mockImplementation(function () { return this; });
    mock.mockClear = () => { mock.mock = { calls: [], instances: [], contexts: [], results: [], lastCall: undefined }; return mock; };
    mock.mockReset = () => { mock.mockClear(); impl = undefined; onces = []; return mock; };
    mock.mockRestore = () => { mock.mockReset(); if (mock._restore) mock._restore(); };
    mock.mockName = () => mock;
    return mock;
  }
  const spies = [];
  const jest = {
    fn: (impl) => mockFunction(impl),
    spyOn(object, method) {
      const original = object[method];
      if (typeof original !== "function") throw new ErrorCtor("Cannot spy the " + String(method) + " property because it is not a function; " + typeName(original) + " given instead");
      const spy = mockFunction(function (...args) { return original.apply(this, args); });
      spy._restore = () => { object[method] = original; };
      object[method] = spy;
      spies.push(spy);
      return spy;
    },
    isMockFunction: isMock,
    clearAllMocks() { return jest; },
    resetAllMocks() { return jest; },
    restoreAllMocks() { spies.splice(0).forEach((s) => s._restore()); return jest; },
    setTimeout() { return jest; },
    useFakeTimers() { throw new ErrorCtor("jest.useFakeTimers is not available in rewardbox's test runner"); },
    useRealTimers() { return jest; },
  };

  // ---- node:test -----------------------------------------------------------------------------
  // A test or suite of node:test runs when its parent does, in order; a suite's function runs
  // when it is declared (collecting its tests), a test's function when it runs.
  const nodeHook = (kind) => (fn) => {
    if (typeof fn !== "function") throw new TypeError('The "fn" argument must be of type function.');
    (nodeCurrent || root)[kind].push({ fn });
  };
  let nodeCurrent = null; // the suite being declared, or the test running (for its subtests)

  function nodeArgs(name, options, fn) {
    if (typeof name === "function") { fn = name; options = {}; name = fn.name || "<anonymous>"; }
    else if (typeof options === "function") { fn = options; options = {}; }
    if (name === undefined || name === null) name = fn && fn.name || "<anonymous>";
    options = options || {};
    return { name: String(name), options, fn };
  }

  const nodeMark = (options) => {
    if (options.skip) return { mode: "skip", note: typeof options.skip === "string" ? options.skip : "" };
    if (options.todo) return { mode: "todo", note: typeof options.todo === "string" ? options.todo : "" };
    return { mode: "", note: "" };
  };

  function nodeTest(name, options, fn, forced) {
    const args = nodeArgs(name, options, fn);
    const parent = nodeCurrent || root;
    const mark = forced ? { mode: forced, note: "" } : nodeMark(args.options);
    if (parent.running) {
      // A subtest (`t.test`) runs now, and its promise settles when it ends.
      const test = { kind: "test", name: args.name, fn: args.fn, parent, mode: mark.mode, note: mark.note, children: [], beforeEach: [], afterEach: [] };
      test.path = parent.path.concat([args.name]);
      parent.children.push(test);
      try {
        return PromiseCtor.resolve(drive(runNodeTest(test)));
      } catch (e) {
        return PromiseCtor.reject(e);
      }
    }
    const test = { kind: "test", name: args.name, fn: args.fn, parent, mode: mark.mode, note: mark.note, children: [], beforeEach: [], afterEach: [] };
    test.path = parent.path.concat([args.name]);
    parent.children.push(test);
    schedule();
    return PromiseCtor.resolve();
  }

  function nodeSuite(name, options, fn, forced) {
    const args = nodeArgs(name, options, fn);
    const parent = nodeCurrent || root;
    const mark = forced ? { mode: forced, note: "" } : nodeMark(args.options);
    const suite = newBlock(args.name, parent, mark.mode);
    suite.note = mark.note;
    parent.children.push(suite);
    schedule();
    const saved = nodeCurrent;
    nodeCurrent = suite;
    try {
      if (typeof args.fn === "function") {
        const result = args.fn.call(undefined, { name: args.name, signal: undefined });
        if (result && typeof result.then === "function") suite.pending = result;
      }
    } catch (e) {
      suite.error = e;
    } finally {
      nodeCurrent = saved;
    }
    return PromiseCtor.resolve();
  }

  // The `t` a node:test function gets.
  function nodeContext(test) {
    const context = {
      name: test.name,
      fullName: test.path.join(" > "),
      signal: undefined,
      skip(message) { test.skipped = message === undefined ? true : String(message); },
      todo(message) { test.todoed = message === undefined ? true : String(message); },
      diagnostic() {},
      plan(count) { test.plan = count; },
      runOnly() {},
      test: (name, options, fn) => {
        const saved = nodeCurrent;
        nodeCurrent = test;
        try { return nodeTest(name, options, fn); } finally { nodeCurrent = saved; }
      },
      before: (fn) => { test.beforeAll = (test.beforeAll || []).concat([{ fn }]); },
      after: (fn) => { test.afterAll = (test.afterAll || []).concat([{ fn }]); },
      beforeEach: (fn) => { test.beforeEach.push({ fn }); },
      afterEach: (fn) => { test.afterEach.push({ fn }); },
      mock: nodeMock,
    };
    // `t.assert`: the assert module's functions, each counted for `t.plan`.
    const counted = {};
    for (const key of keysOf(assertModule)) {
      const fn = assertModule[key];
      if (typeof fn === "function") counted[key] = (...args) => { test.asserts = (test.asserts || 0) + 1; return fn(...args); };
    }
    context.assert = counted;
    return context;
  }

  const nodeMock = {
    fn(original, implementation) {
      const m = mockFunction(implementation || original);
      const calls = [];
      const wrapped = function (...args) {
        let result, error, threw = false;
        try { result = m.apply(this, args); } catch (e) { error = e; threw = true; }
        calls.push({ arguments: args, result, error, this: this });
        if (threw) throw error;
        return result;
      };
      wrapped.mock = { calls, callCount: () => calls.length, mockImplementation: (f) => m.mockImplementation(f), resetCalls: () => { calls.length = 0; } };
      return wrapped;
    },
    method(object, name, implementation) {
      const original = object[name];
      const wrapped = nodeMock.fn(original, implementation);
      object[name] = wrapped;
      wrapped.mock.restore = () => { object[name] = original; };
      return wrapped;
    },
    reset() {},
    restoreAll() {},
  };

  const subtestsFailed = (n) => n + " subtest" + (n === 1 ? "" : "s") + " failed";

  // Runs a node:test test (and the subtests it starts): its verdict, true when it passed.
  function* runNodeTest(test) {
    if (test.mode === "skip") { reportCase(test.path, "skip", "skipped" + (test.note ? ": " + test.note : "")); return true; }
    report("case-start " + caseId(test.path));
    const errors = [];
    const chain = [];
    for (let at = test.parent; at; at = at.parent) chain.unshift(at);
    for (const block of chain) {
      for (const hook of block.beforeEach || []) {
        try { yield invoke(hook.fn, undefined, [nodeContext(test)], false); } catch (e) { errors.push(e); }
      }
    }
    test.running = true;
    if (errors.length === 0 && typeof test.fn === "function") {
      const context = nodeContext(test);
      try {
        if (test.fn.length >= 2) {
          yield new PromiseCtor((resolve, reject) => {
            const result = test.fn.call(context, context, (error) => (error ? reject(error) : resolve()));
            if (result && typeof result.then === "function") result.then(() => reject(new ErrorCtor("passed a callback but also returned a Promise")), reject);
          });
        } else {
          yield test.fn.call(context, context);
        }
      } catch (e) { errors.push(e); }
      for (const hook of test.afterAll || []) {
        try { yield invoke(hook.fn, undefined, [context], false); } catch (e) { errors.push(e); }
      }
    }
    test.running = false;
    for (const block of chain.slice().reverse()) {
      for (const hook of block.afterEach || []) {
        try { yield invoke(hook.fn, undefined, [nodeContext(test)], false); } catch (e) { errors.push(e); }
      }
    }
    const failedSubtests = test.children.filter((c) => c.failed && !c.todoFailure).length;
    if (errors.length === 0 && test.plan !== undefined && (test.asserts || 0) + test.children.length !== test.plan) {
      errors.push(new ErrorCtor("plan expected " + test.plan + " assertions but received " + ((test.asserts || 0) + test.children.length)));
    }
    if (errors.length === 0 && failedSubtests) errors.push(new ErrorCtor(subtestsFailed(failedSubtests)));
    const todo = test.mode === "todo" || test.todoed;
    if (errors.length && !errors.some((e) => e instanceof CandidateEnded) && todo) {
      test.failed = true;
      test.todoFailure = true;
      reportCase(test.path, "skip", "todo, failed: " + describeError(errors[0]));
      return true;
    }
    test.failed = errors.length > 0;
    if (!test.failed && test.skipped) reportCase(test.path, "skip", "skipped" + (test.skipped !== true ? ": " + test.skipped : ""));
    else if (!test.failed && todo) reportCase(test.path, "skip", "todo");
    else verdict(test.path, errors);
    return !test.failed;
  }

  // Runs a suite: its tests and suites in order, between its `before` and `after` hooks. A
  // suite is a case of its own only when it fails by itself (its function or a hook threw).
  function* runNodeSuite(suite) {
    if (suite.pending) { try { yield suite.pending; } catch (e) { suite.error = suite.error || e; } }
    const skipAll = (node) => {
      if (node.kind === "test") reportCase(node.path, "skip", "skipped");
      else node.children.forEach(skipAll);
    };
    if (suite.mode === "skip") { suite.children.forEach(skipAll); return true; }
    let own = suite.error;
    if (!own) {
      for (const hook of suite.beforeAll) {
        try { yield invoke(hook.fn, undefined, [{ name: suite.name }], false); } catch (e) { own = e; break; }
      }
    }
    let failed = 0;
    if (own) {
      // Its tests never ran: node:test cancels them.
      const cancel = (node) => {
        if (node.kind === "test") reportCase(node.path, own instanceof CandidateEnded ? "ended" : "fail", "test did not finish before its parent and was cancelled");
        else node.children.forEach(cancel);
      };
      suite.children.forEach(cancel);
    } else {
      for (const child of suite.children) {
        const ok = child.kind === "block" ? (yield* runNodeSuite(child)) : (yield* runNodeTest(child));
        if (!ok) failed++;
      }
      for (const hook of suite.afterAll) {
        try { yield invoke(hook.fn, undefined, [{ name: suite.name }], false); } catch (e) { own = own || e; }
      }
    }
    if (own && suite !== root) verdict(suite.path, [own]);
    else if (own && suite === root) verdict([config.file || "test file"], [own]);
    return !own && failed === 0;
  }

  function makeNodeTest() {
    const test = (name, options, fn) => nodeTest(name, options, fn);
    test.skip = (name, options, fn) => nodeTest(name, options, fn, "skip");
    test.todo = (name, options, fn) => nodeTest(name, options, fn, "todo");
    test.only = (name, options, fn) => nodeTest(name, options, fn);
    const suite = (name, options, fn) => nodeSuite(name, options, fn);
    suite.skip = (name, options, fn) => nodeSuite(name, options, fn, "skip");
    suite.todo = (name, options, fn) => nodeSuite(name, options, fn, "todo");
    suite.only = (name, options, fn) => nodeSuite(name, options, fn);
    Object.assign(test, {
      test, it: test, describe: suite, suite,
      before: nodeHook("beforeAll"), after: nodeHook("afterAll"),
      beforeEach: nodeHook("beforeEach"), afterEach: nodeHook("afterEach"),
      mock: nodeMock, run() { throw new ErrorCtor("run() is not available in a test file here"); },
    });
    return test;
  }

  // ---- The file ------------------------------------------------------------------------------
  function* runFile() {
    collecting = config.framework !== "jest";
    const plan = (node) => {
      if (node.kind === "test") report("case-planned " + caseId(node.path));
      else node.children.forEach(plan);
    };
    plan(root);
    report("framework loaded");
    if (config.framework === "jest") {
      yield* runJestBlock(root, null);
    } else {
      yield* runNodeSuite(root);
    }
    report("framework finished");
  }

  const jestGlobals = {
    describe: makeDescribe(), test: makeTest(), expect, jest,
    beforeAll: hook("beforeAll"), afterAll: hook("afterAll"), beforeEach: hook("beforeEach"), afterEach: hook("afterEach"),
  };
  jestGlobals.it = jestGlobals.test;
  jestGlobals.fit = jestGlobals.test.only;
  jestGlobals.xit = jestGlobals.test.skip;
  jestGlobals.xtest = jestGlobals.test.skip;
  jestGlobals.fdescribe = jestGlobals.describe.only;
  jestGlobals.xdescribe = jestGlobals.describe.skip;
  const nodeTestModule = makeNodeTest();

  // Under `node --test`, an ES module that imports a name the candidate's module does not
  // export fails to load, before its tests (a SyntaxError, the candidate's fault).
  let importsChecked = config.framework !== "node" || (imported.size === 0 && !importsDefault);
  const checkImports = (specifier) => {
    if (importsChecked) return;
    importsChecked = true;
    const names = asking(remoteExports);
    const wanted = [...imported].concat(importsDefault ? ["default"] : []);
    const missing = wanted.find((name) => !isArray(names) || names.indexOf(name) < 0);
    if (missing !== undefined) {
      throw new SyntaxError("The requested module '" + specifier + "' does not provide an export named '" + missing + "'");
    }
  };

  helpers.resolveModules((specifier) => {
    const name = String(specifier);
    if (isCandidate(name)) {
      checkImports(name);
      return candidateModule;
    }
    if (config.framework === "jest" && name === "@jest/globals") return jestGlobals;
    if (name === "node:test") return nodeTestModule;
    return undefined;
  });
  // The tests run once the file's top level has: a file that declares none is reported so.
  schedule();
  if (config.framework === "jest") {
    for (const key of keysOf(jestGlobals)) {
      Object.defineProperty(globalThis, key, { value: jestGlobals[key], writable: true, configurable: true, enumerable: false });
    }
  }
})
