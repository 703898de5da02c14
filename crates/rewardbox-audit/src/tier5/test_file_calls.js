// Tier 5's differential judge of a JavaScript or TypeScript test file (`tests.jest`,
// `tests.node_test`): the calls the file's tests make of the candidate's functions, recorded by
// running them on the task's solution, and the solution's results on new arguments.
//
// Runs in the JavaScript runner as one plain program: this text, then the solution inside a
// function (its `import`s turned into `require`s and its `export`s into declarations by the
// host), then in "record" mode the test file inside a function whose `require` gives the
// solution's module as the tests import it. Jest's globals and `node:test` are stood in for by
// the little it takes to run the tests: nothing here judges (every `expect` and `assert` passes),
// since only the calls the tests make are wanted. Prints one JSON line per distinct call whose
// arguments and result are plain JSON values: {"function", "args", "result"}, and one per object
// the tests make of one of the module's classes (`new Stack(...)`) with plain arguments, what
// they then did with it while everything they passed was plain: {"class", "args", "steps"}, each
// step {"method", "args"} (a call), {"get"} (a property read) or {"set", "value"}, then a read
// of each value of the object (a getter, a property: not a method) that the spec's `prompt`
// names, which the tests may never read ("record" mode). In "evaluate" mode: {"index",
// "result"} for each of the spec's calls, and {"trace", "results"} for each of its traces (each
// step's result, null when it is not a plain value or differs between two replays on fresh
// objects; none when the replay throws).
//
// Evaluated as `(this)(spec)`; returns { solutionModule, run } for the program's own code.
(function (spec) {
  const realRequire = require;
  const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

  // Whether `value` is a JSON value that reads back as itself.
  function plain(value, depth) {
    if (depth > 24) return false;
    if (value === null || typeof value === "boolean" || typeof value === "string") return true;
    if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!hasOwn(value, i) || !plain(value[i], depth + 1)) return false;
      }
      return true;
    }
    if (typeof value === "object") {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      return Object.keys(value).every((k) => plain(value[k], depth + 1));
    }
    return false;
  }
  const isPlain = (value) => plain(value, 0);
  // A class: its `prototype` is read-only (an ordinary function's is writable); its source
  // text, where the engine shows it, starts with `class`.
  const isClass = (f) => {
    try {
      const prototype = Object.getOwnPropertyDescriptor(f, "prototype");
      if (prototype !== undefined && prototype.writable === false) return true;
      return /^class[\s{]/.test(Function.prototype.toString.call(f));
    } catch (e) {
      return false;
    }
  };

  // ---- The solution's module ---------------------------------------------------------------
  // `solutionModule` is CommonJS's `module`, `esm` what its `export`s named, `scope` looks a
  // name up among its top-level declarations (set once the solution has run).
  const solutionModule = { exports: {} };
  const esm = {};
  let scope = () => undefined;
  function lookup(name) {
    const m = solutionModule.exports;
    if (name === "default") {
      if (typeof m === "function") return m;
      if (hasOwn(esm, "default")) return esm.default;
      return undefined;
    }
    if (m !== null && (typeof m === "object" || typeof m === "function") && m[name] !== undefined) return m[name];
    if (hasOwn(esm, name)) return esm[name];
    return scope(name);
  }

  // ---- Recording ----------------------------------------------------------------------------
  const records = [];
  const recorded = new Set();
  let inside = 0;
  const wrappers = new Map();
  const copy = (value) => JSON.parse(JSON.stringify(value));
  // `f` applied, what it calls in turn not recorded (the tests' own calls are wanted).
  function untraced(f, self, args) {
    inside += 1;
    try {
      return f.apply(self, args);
    } finally {
      inside -= 1;
    }
  }
  // What the tests do with the objects they make of the module's classes.
  const traces = [];
  function recordingClass(name, C) {
    return new Proxy(C, {
      construct(target, args, newTarget) {
        const instance = Reflect.construct(target, args, newTarget);
        if (inside > 0 || !isPlain(args)) return instance;
        const trace = { class: name, args: copy(args), steps: [], open: true, instance };
        traces.push(trace);
        return observed(instance, trace);
      },
    });
  }
  // `instance` as the tests see it: each of their method calls, property reads and writes a step
  // of `trace`, until one passes something that is not plain.
  function observed(instance, trace) {
    const view = new Proxy(instance, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value === "function") {
          if (typeof key !== "string") return value.bind(target);
          return function (...args) {
            const step = inside === 0 && trace.open ? (isPlain(args) ? { method: key, args: copy(args) } : null) : undefined;
            if (step === null) trace.open = false;
            const result = untraced(value, target, args);
            if (step) trace.steps.push(step);
            return result === target ? view : result;
          };
        }
        if (inside === 0 && trace.open && typeof key === "string" && isPlain(value)) trace.steps.push({ get: key });
        return value;
      },
      set(target, key, value) {
        if (inside === 0 && trace.open && typeof key === "string") {
          if (isPlain(value)) trace.steps.push({ set: key, value: copy(value) });
          else trace.open = false;
        }
        return Reflect.set(target, key, value, target);
      },
    });
    return view;
  }
  // Ends `trace` (one still open) with a read of each value of its object that the prompt names
  // as a word, in the order it names them, where the value is plain (a getter's, a property's;
  // never a method's): what the task asks of its objects is judged even where the tests never
  // read it (a `count` beside the `total` they check).
  function readNamedValues(trace) {
    if (!trace.open) return;
    const words = [...new Set(String(spec.prompt || "").match(/[A-Za-z_$][A-Za-z0-9_$]*/g) || [])];
    inside += 1;
    try {
      for (const key of words) {
        if (key.startsWith("_") || !(key in trace.instance)) continue;
        try {
          const value = Reflect.get(trace.instance, key, trace.instance);
          if (typeof value !== "function" && isPlain(value)) trace.steps.push({ get: key });
        } catch (e) {
          // A getter that throws is not read.
        }
      }
    } finally {
      inside -= 1;
    }
  }
  // Each step of `trace` replayed on a fresh object of the solution's class: its results.
  function replay(trace) {
    const C = lookup(trace.class);
    const instance = new C(...copy(trace.args));
    return trace.steps.map((step) => {
      let result;
      if (hasOwn(step, "method")) result = instance[step.method](...copy(step.args));
      else if (hasOwn(step, "get")) result = instance[step.get];
      else instance[step.set] = copy(step.value);
      return isPlain(result) ? copy(result) : null;
    });
  }
  // The module's `f` as the tests see it: a class recording its objects' traces, a function
  // its calls.
  function recording(name, f) {
    if (typeof f !== "function") return f;
    if (!wrappers.has(f)) wrappers.set(f, isClass(f) ? recordingClass(name, f) : recordingFunction(name, f));
    return wrappers.get(f);
  }
  function recordingFunction(name, f) {
    return function (...args) {
      const shown = inside === 0 && isPlain(args) ? JSON.stringify(args) : null;
      const result = untraced(f, this, args);
      if (shown !== null && isPlain(result)) {
        const key = name + "\u0000" + shown;
        if (!recorded.has(key)) {
          recorded.add(key);
          records.push({ function: name, args: JSON.parse(shown), result: copy(result) });
        }
      }
      return result;
    };
  }
  // The module the tests import: each function recording, the module itself callable when it
  // is one (`module.exports = f`, `export default f`).
  const view = new Proxy(function () {}, {
    apply(target, self, args) {
      const f = lookup("default");
      if (typeof f !== "function") throw new TypeError("the module is not a function");
      return recording("default", f).apply(self, args);
    },
    get(target, key) {
      if (key === "__rb_view") return true;
      if (typeof key !== "string" || key === "then") return undefined;
      if (key === "default") {
        const f = lookup("default");
        return f === undefined ? view : recording("default", f);
      }
      const value = lookup(key);
      return typeof value === "function" ? recording(key, value) : value;
    },
    has(target, key) { return typeof key === "string" && lookup(key) !== undefined; },
  });
  // `import x from` of a module: the candidate's default, any other module itself.
  const defaultOf = (m) => (m !== null && m !== undefined && m.__rb_view === true ? m.default : m);

  // ---- What the tests run on ---------------------------------------------------------------
  // Anything: callable, every property of it anything, never a promise.
  const anything = new Proxy(function () {}, {
    get(target, key) {
      if (key === "then") return undefined;
      if (key === Symbol.toPrimitive) return () => 0;
      if (typeof key === "symbol") return undefined;
      return anything;
    },
    apply() { return anything; },
    construct() { return anything; },
  });
  const root = { tests: [], blocks: [], children: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] };
  let current = root;
  const block = () => ({ children: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] });
  function declareBlock(fn) {
    const b = block();
    current.children.push({ block: b });
    const parent = current;
    current = b;
    try { if (typeof fn === "function") fn(contextFor()); } catch (e) { /* a broken describe */ }
    current = parent;
  }
  function declareTest(fn) {
    if (typeof fn === "function") current.children.push({ test: fn });
  }
  // The function among a declaration's arguments (`test(name, fn)`, `test(name, options, fn)`).
  const functionIn = (args) => args.find((a) => typeof a === "function");
  // `test.each` / `describe.each`: a table of rows (arrays spread, anything else one argument)
  // or a tagged template (`a | b` then the values, row by row).
  function eachOf(declare) {
    return (table, ...values) => (name, fn) => {
      let rows = [];
      if (Array.isArray(table) && Array.isArray(table.raw)) {
        const names = String(table[0]).split("|").map((s) => s.trim()).filter(Boolean);
        for (let i = 0; names.length > 0 && i + names.length <= values.length; i += names.length) {
          const row = {};
          names.forEach((n, j) => { row[n] = values[i + j]; });
          rows.push([row]);
        }
      } else if (Array.isArray(table)) {
        rows = table.map((row) => (Array.isArray(row) ? row : [row]));
      }
      for (const row of rows) declare(name, typeof fn === "function" ? (...rest) => fn(...row, ...rest) : fn);
    };
  }
  function withModes(declare, skipped) {
    const f = (...args) => declare(functionIn(args));
    for (const mode of ["only", "concurrent", "failing", "serial"]) f[mode] = f;
    f.each = eachOf((name, fn) => declare(fn));
    f.skip = skipped;
    f.todo = skipped;
    f.skip.each = () => () => {};
    f.only.each = f.each;
    return f;
  }
  const nothing = () => {};
  nothing.each = () => () => {};
  const test = withModes(declareTest, nothing);
  const describe = withModes(declareBlock, nothing);
  const hook = (kind) => (...args) => { const fn = functionIn(args); if (fn) current[kind].push(fn); };
  const expect = anything;
  const jest = new Proxy({}, {
    get(target, key) {
      if (key === "fn") return (impl) => (typeof impl === "function" ? impl : anything);
      if (key === "requireActual") return (name) => requireFor(name);
      return anything;
    },
  });
  // What a node:test function gets: its subtests declared in its block, anything else stood in.
  function contextFor() {
    return new Proxy({}, {
      get(target, key) {
        if (key === "test") return (...args) => { const fn = functionIn(args); return fn ? runOne(fn, []) : undefined; };
        if (key === "then" || typeof key === "symbol") return undefined;
        return anything;
      },
    });
  }
  const jestGlobals = {
    describe, test, it: test, expect, jest,
    beforeAll: hook("beforeAll"), afterAll: hook("afterAll"),
    beforeEach: hook("beforeEach"), afterEach: hook("afterEach"),
    fit: test.only, fdescribe: describe.only, xit: nothing, xtest: nothing, xdescribe: nothing,
  };
  const nodeTest = Object.assign((...args) => declareTest(functionIn(args)), {
    test, it: test, describe, suite: describe,
    before: hook("beforeAll"), after: hook("afterAll"),
    beforeEach: hook("beforeEach"), afterEach: hook("afterEach"),
    mock: anything, snapshot: anything,
  });
  nodeTest.test = nodeTest;
  nodeTest.it = nodeTest;
  nodeTest.only = nodeTest;
  nodeTest.skip = nothing;
  nodeTest.todo = nothing;
  nodeTest.default = nodeTest;
  Object.assign(globalThis, jestGlobals);

  // Whether `specifier` names the candidate's module: its bare name, or a relative path whose
  // last part is its name (with or without an extension).
  function isCandidate(specifier) {
    const text = String(specifier);
    const last = text.split("/").pop().replace(/\.(js|mjs|cjs|ts|mts|cts|jsx|tsx)$/, "");
    return text === spec.module || (/^\.{1,2}\//.test(text) && last === spec.module);
  }
  function requireFor(name) {
    const text = String(name);
    if (isCandidate(text)) return view;
    if (text === "@jest/globals") return jestGlobals;
    if (text === "node:test" || text === "test") return nodeTest;
    if (/^(node:)?assert(\/strict)?$/.test(text)) return anything;
    return realRequire(text);
  }

  // ---- Running the tests ---------------------------------------------------------------------
  async function settle(fn, args) {
    try {
      const value = fn(...args);
      if (value && typeof value.then === "function") await value;
    } catch (e) {
      // Nothing here judges.
    }
  }
  async function runOne(fn, eachHooks) {
    for (const before of eachHooks) await settle(before, [contextFor()]);
    // A Jest test that takes `done`, or a node:test test its context.
    await settle(fn, fn.length > 0 ? [spec.framework === "node" ? contextFor() : nothing] : []);
  }
  async function runBlock(b, beforeEach, afterEach) {
    for (const before of b.beforeAll) await settle(before, []);
    const eachBefore = beforeEach.concat(b.beforeEach);
    const eachAfter = b.afterEach.concat(afterEach);
    for (const child of b.children) {
      if (child.block) {
        await runBlock(child.block, eachBefore, eachAfter);
      } else {
        await runOne(child.test, eachBefore);
        for (const after of eachAfter) await settle(after, []);
      }
    }
    for (const after of b.afterAll) await settle(after, []);
  }
  async function run() {
    if (spec.mode === "evaluate") {
      (spec.traces || []).forEach((trace, index) => {
        try {
          const first = replay(trace);
          const second = replay(trace);
          const results = first.map((r, i) => (JSON.stringify(r) === JSON.stringify(second[i]) ? r : null));
          console.log(JSON.stringify({ trace: index, results }));
        } catch (e) {
          // No results.
        }
      });
      (spec.calls || []).forEach((call, index) => {
        try {
          const f = call.function === "default" ? view : view[call.function];
          const result = f(...call.args);
          if (isPlain(result)) console.log(JSON.stringify({ index, result }));
        } catch (e) {
          // No result.
        }
      });
      return;
    }
    await runBlock(root, [], []);
    for (const record of records) console.log(JSON.stringify(record));
    for (const trace of traces) {
      readNamedValues(trace);
      if (trace.steps.length > 0) console.log(JSON.stringify({ class: trace.class, args: trace.args, steps: trace.steps }));
    }
  }
  return {
    solutionModule,
    esm,
    setScope(look) { scope = look; },
    require: requireFor,
    defaultOf,
    run,
  };
})
