// rewardbox's JavaScript runner: what a Node.js program expects of its surroundings, on top of
// its natives (__rb_write, __rb_stdin, __rb_stdin_bytes, __rb_exit, __rb_sleep, __rb_now,
// __rb_source; __rb_digest for src/node/crypto.js, __rb_utf8_decode and __rb_utf8_encode for
// src/node/buffer.js, __rb_utf16 for regular expressions' split). Defined before the
// candidate's program runs.
(function () {
  "use strict";
  const write = __rb_write, readStdin = __rb_stdin, exit = __rb_exit;
  const sleep = __rb_sleep, clock = __rb_now, source = __rb_source;
  const indirectEval = eval;
  // Kept before the program runs: a program that replaces JSON's functions changes only its own.
  const parse = JSON.parse, stringify = JSON.stringify;
  let stdinText = null;
  const stdin = () => (stdinText === null ? (stdinText = readStdin()) : stdinText);

  function inspect(value, depth, inside) {
    if (typeof value === "string") return inside ? "'" + value.replace(/'/g, "\\'") + "'" : value;
    if (typeof value === "bigint") return value.toString() + "n";
    if (typeof value === "function") return "[Function: " + (value.name || "(anonymous)") + "]";
    if (typeof value === "symbol") return value.toString();
    if (value === null || typeof value !== "object") return String(value);
    if (depth > 2) return Array.isArray(value) ? "[Array]" : "[Object]";
    if (value instanceof Error) return value.stack || String(value);
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      const name = value.constructor && value.constructor.name;
      if (name === "Buffer") {
        const shown = Array.from(value.subarray(0, 50), (b) => (b < 16 ? "0" : "") + b.toString(16));
        return "<Buffer " + shown.join(" ") + (value.length > 50 ? " ... " + (value.length - 50) + " more byte" + (value.length === 51 ? "" : "s") : "") + ">";
      }
      const items = Array.from(value, (v) => inspect(v, depth + 1, true));
      return name + "(" + value.length + ") [" + (items.length ? " " + items.join(", ") + " " : "") + "]";
    }
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      return "[ " + value.map((v) => inspect(v, depth + 1, true)).join(", ") + " ]";
    }
    if (value instanceof Map) {
      const items = [...value].map(([k, v]) => inspect(k, depth + 1, true) + " => " + inspect(v, depth + 1, true));
      return "Map(" + value.size + ") {" + (items.length ? " " + items.join(", ") + " " : "") + "}";
    }
    if (value instanceof Set) {
      const items = [...value].map((v) => inspect(v, depth + 1, true));
      return "Set(" + value.size + ") {" + (items.length ? " " + items.join(", ") + " " : "") + "}";
    }
    const keys = Object.keys(value);
    if (keys.length === 0) return "{}";
    return "{ " + keys.map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : "'" + k + "'") + ": " + inspect(value[k], depth + 1, true)).join(", ") + " }";
  }

  function format(args) {
    if (args.length > 0 && typeof args[0] === "string" && /%[sdifjoO%]/.test(args[0])) {
      let rest = args.slice(1);
      const head = args[0].replace(/%([sdifjoO%])/g, (m, c) => {
        if (c === "%") return "%";
        if (rest.length === 0) return m;
        const v = rest.shift();
        if (c === "d" || c === "i") return String(Math.trunc(Number(v)));
        if (c === "f") return String(Number(v));
        if (c === "j") return JSON.stringify(v);
        return inspect(v, 0, false);
      });
      return [head, ...rest.map((v) => inspect(v, 0, false))].join(" ");
    }
    return args.map((v) => inspect(v, 0, false)).join(" ");
  }

  // structuredClone, as the HTML standard's algorithm copies: cycles and shared references kept,
  // Maps, Sets, Dates, RegExps, errors, ArrayBuffers and typed arrays copied as themselves, an
  // object's own enumerable string keys only (no prototype, no accessors); a function or a
  // symbol cannot be cloned.
  function structuredClone(value) {
    const seen = new Map();
    const fail = (v) => {
      const e = new Error((typeof v === "symbol" ? v.toString() : String(v)) + " could not be cloned.");
      e.name = "DataCloneError";
      e.code = 25;
      return e;
    };
    const copy = (v) => {
      if (typeof v === "function" || typeof v === "symbol") throw fail(v);
      if (v === null || typeof v !== "object") return v;
      if (seen.has(v)) return seen.get(v);
      let out;
      if (Array.isArray(v)) { out = new Array(v.length); seen.set(v, out); for (const k of Object.keys(v)) out[k] = copy(v[k]); return out; }
      if (v instanceof Date) { out = new Date(v.getTime()); seen.set(v, out); return out; }
      if (v instanceof RegExp) { out = new RegExp(v.source, v.flags); seen.set(v, out); return out; }
      if (v instanceof Map) { out = new Map(); seen.set(v, out); for (const [k, x] of v) out.set(copy(k), copy(x)); return out; }
      if (v instanceof Set) { out = new Set(); seen.set(v, out); for (const x of v) out.add(copy(x)); return out; }
      if (v instanceof ArrayBuffer) { out = v.slice(0); seen.set(v, out); return out; }
      if (ArrayBuffer.isView(v)) {
        // A Buffer comes back as the Uint8Array it is, as in Node.
        const Kind = v instanceof DataView ? DataView : v.constructor.name === "Buffer" ? Uint8Array : v.constructor;
        out = new Kind(copy(v.buffer), v.byteOffset, v instanceof DataView ? v.byteLength : v.length);
        seen.set(v, out);
        return out;
      }
      if (v instanceof Error) { out = new (globalThis[v.name] || Error)(v.message); seen.set(v, out); if (v.stack) out.stack = v.stack; return out; }
      if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) throw fail(v === null ? v : "#<" + v.constructor.name + ">");
      out = {};
      seen.set(v, out);
      for (const k of Object.keys(v)) out[k] = copy(v[k]);
      return out;
    };
    if (arguments.length === 0) throw new TypeError("The \"value\" argument must be specified");
    return copy(value);
  }

  globalThis.console = {
    log: (...a) => write(1, format(a) + "\n"),
    info: (...a) => write(1, format(a) + "\n"),
    debug: (...a) => write(1, format(a) + "\n"),
    error: (...a) => write(2, format(a) + "\n"),
    warn: (...a) => write(2, format(a) + "\n"),
    trace: (...a) => write(2, "Trace: " + format(a) + "\n"),
    // As Node: a failed assertion is printed to stderr, and the program goes on.
    assert: (value, ...a) => { if (!value) write(2, "Assertion failed" + (a.length ? ": " + format(a) : "") + "\n"); },
  };

  // Node's EventEmitter (`require('events')`), which process.stdin and readline's interfaces are.
  class EventEmitter {
    constructor() { Object.defineProperty(this, "_events", { value: new Map(), writable: true }); }
    _add(event, fn, once, first) {
      if (typeof fn !== "function") throw new TypeError('The "listener" argument must be of type function. Received ' + inspect(fn, 0, true));
      if (!this._events) Object.defineProperty(this, "_events", { value: new Map(), writable: true });
      const list = this._events.get(event) || [];
      const entry = { fn, once };
      this._events.set(event, first ? [entry, ...list] : [...list, entry]);
      return this;
    }
    on(event, fn) { return this._add(event, fn, false, false); }
    addListener(event, fn) { return this._add(event, fn, false, false); }
    prependListener(event, fn) { return this._add(event, fn, false, true); }
    once(event, fn) { return this._add(event, fn, true, false); }
    prependOnceListener(event, fn) { return this._add(event, fn, true, true); }
    off(event, fn) { return this.removeListener(event, fn); }
    removeListener(event, fn) {
      const list = this._events && this._events.get(event);
      if (!list) return this;
      const at = list.map((e) => e.fn).lastIndexOf(fn);
      if (at !== -1) this._events.set(event, list.filter((_, i) => i !== at));
      return this;
    }
    removeAllListeners(event) {
      if (!this._events) return this;
      if (event === undefined) this._events.clear(); else this._events.delete(event);
      return this;
    }
    emit(event, ...args) {
      const list = this._events && this._events.get(event);
      if (!list || list.length === 0) {
        if (event === "error") throw args[0] instanceof Error ? args[0] : new Error("Unhandled error. (" + inspect(args[0], 0, true) + ")");
        return false;
      }
      for (const entry of list) {
        if (entry.once) this.removeListener(event, entry.fn);
        entry.fn.apply(this, args);
      }
      return true;
    }
    listenerCount(event) { return ((this._events && this._events.get(event)) || []).length; }
    listeners(event) { return ((this._events && this._events.get(event)) || []).map((e) => e.fn); }
    rawListeners(event) { return this.listeners(event); }
    eventNames() { return this._events ? [...this._events.keys()].filter((k) => this._events.get(k).length) : []; }
    setMaxListeners() { return this; }
    getMaxListeners() { return EventEmitter.defaultMaxListeners; }
  }
  EventEmitter.defaultMaxListeners = 10;
  EventEmitter.EventEmitter = EventEmitter;
  EventEmitter.once = (target, event) => new Promise((resolve) => target.once(event, (...args) => resolve(args)));
  const emitter = () => new EventEmitter();

  const processStdin = emitter();
  processStdin.fd = 0;
  processStdin.setEncoding = () => processStdin;
  processStdin.resume = () => processStdin;
  processStdin.pause = () => processStdin;
  processStdin.read = () => stdin();

  const interfaces = [];
  const readline = {
    createInterface() {
      const rl = emitter();
      rl.close = () => { if (!rl.closed) { rl.closed = true; rl.emit("close"); } };
      rl.setPrompt = () => {};
      rl.prompt = () => {};
      rl[Symbol.asyncIterator] = async function* () {
        for (const line of lines()) yield line;
      };
      interfaces.push(rl);
      return rl;
    },
  };

  function lines() {
    const text = stdin();
    if (text === "") return [];
    const all = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
    if (all[all.length - 1] === "") all.pop();
    return all;
  }

  function enoent(path) {
    const e = new Error("ENOENT: no such file or directory, open '" + path + "'");
    e.code = "ENOENT";
    return e;
  }

  const fs = {
    // Standard input only: as text when an encoding is given, else as a Buffer of its bytes,
    // as Node (a fast reader indexes the bytes: `data[i] - 48`).
    readFileSync(path, options) {
      if (path !== 0 && path !== "/dev/stdin") throw enoent(path);
      const encoding = typeof options === "string" ? options
        : options !== null && typeof options === "object" ? options.encoding : undefined;
      const { Buffer, encodingOf } = bufferOf();
      if (encoding !== undefined && encoding !== null && encodingOf(encoding) === "utf8") return stdin();
      const bytes = __rb_stdin_bytes();
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      return encoding === undefined || encoding === null ? buffer : buffer.toString(encoding);
    },
    writeSync(fd, text) { write(fd === 2 ? 2 : 1, String(text)); },
    existsSync() { return false; },
  };

  // Timers on the program's own clock: waiting for the next one is a sleep, which the host
  // charges as the time passing (its clocks advance, its fuel is spent), so a program that waits
  // past its time limit is stopped there, and one that waits less sees the time it waited.
  const timers = new Map();
  const immediates = [];
  let lastId = 0;
  let now = 0;
  class Timeout {
    constructor(fn, args, delay, repeat) {
      this._id = ++lastId;
      this._fn = fn;
      this._args = args;
      this._delay = delay;
      this._repeat = repeat;
      this._due = now + delay;
      this._ref = true;
      timers.set(this._id, this);
    }
    ref() { this._ref = true; return this; }
    unref() { this._ref = false; return this; }
    hasRef() { return this._ref; }
    refresh() { this._due = now + this._delay; return this; }
    [Symbol.toPrimitive]() { return this._id; }
  }
  const delayOf = (ms) => { const n = Number(ms); return n >= 1 && n <= 2147483647 ? Math.trunc(n) : 1; };
  const callable = (fn) => { if (typeof fn !== "function") throw new TypeError('The "callback" argument must be of type function. Received ' + inspect(fn, 0, true)); return fn; };
  globalThis.setTimeout = (fn, ms, ...args) => new Timeout(callable(fn), args, delayOf(ms), false);
  globalThis.setInterval = (fn, ms, ...args) => new Timeout(callable(fn), args, delayOf(ms), true);
  const clear = (timer) => { if (timer !== null && timer !== undefined) timers.delete(typeof timer === "object" ? timer._id : Number(timer)); };
  globalThis.clearTimeout = clear;
  globalThis.clearInterval = clear;
  globalThis.setImmediate = (fn, ...args) => { const entry = { fn: callable(fn), args, cleared: false }; immediates.push(entry); return entry; };
  globalThis.clearImmediate = (entry) => { if (entry) entry.cleared = true; };
  // What `util.promisify` gives for them, as Node's own promisified timers (timers/promises).
  const promisified = Symbol.for("nodejs.util.promisify.custom");
  Object.defineProperty(globalThis.setTimeout, promisified, { value: (ms, value) => new Promise((resolve) => globalThis.setTimeout(resolve, ms, value)), configurable: true, writable: true });
  Object.defineProperty(globalThis.setImmediate, promisified, { value: (value) => new Promise((resolve) => globalThis.setImmediate(resolve, value)), configurable: true, writable: true });
  globalThis.queueMicrotask = globalThis.queueMicrotask || ((fn) => { Promise.resolve().then(fn); });

  // Runs the next immediate, or the next timer due by `horizon` (Infinity: any timer, waiting
  // for it); false when there is none (timers that are all unref'd do not keep a program alive).
  function nextTask(horizon) {
    while (immediates.length) {
      const entry = immediates.shift();
      if (!entry.cleared) { entry.fn(...entry.args); return true; }
    }
    let next = null, referenced = false;
    for (const timer of timers.values()) {
      referenced = referenced || timer._ref;
      if (next === null || timer._due < next._due) next = timer;
    }
    if (next === null || !referenced || next._due > horizon) return false;
    if (next._due > now) { sleep(next._due - now); now = next._due; }
    if (next._repeat) next._due = now + next._delay; else timers.delete(next._id);
    next._fn(...next._args);
    return true;
  }
  globalThis.__rb_next_task = nextTask;

  // process.nextTick's queue: drained before promise jobs, after every task (__rb_ticks).
  const ticks = [];
  globalThis.__rb_ticks = () => {
    if (ticks.length === 0) return false;
    while (ticks.length) ticks.shift()();
    return true;
  };
  globalThis.__rb_ticks_pending = () => ticks.length > 0;

  globalThis.performance = globalThis.performance || { now: () => clock(), timeOrigin: 0 };

  const processObject = globalThis.process = {
    argv: ["node", "main.js"],
    env: {},
    platform: "wasi",
    exitCode: undefined,
    exit(code) { exit(code === undefined ? (processObject.exitCode | 0) : code | 0); },
    stdout: { write(s) { write(1, String(s)); return true; }, isTTY: false },
    stderr: { write(s) { write(2, String(s)); return true; }, isTTY: false },
    stdin: processStdin,
    nextTick(fn, ...args) { ticks.push(() => fn(...args)); },
    hrtime: Object.assign((previous) => {
      const nanos = Math.round(clock() * 1e6);
      let seconds = Math.floor(nanos / 1e9), rest = nanos % 1e9;
      if (previous) { seconds -= previous[0]; rest -= previous[1]; if (rest < 0) { seconds -= 1; rest += 1e9; } }
      return [seconds, rest];
    }, { bigint: () => BigInt(Math.round(clock() * 1e6)) }),
    uptime: () => clock() / 1000,
    memoryUsage: () => ({ heapUsed: 0, rss: 0 }),
  };

  const timersModule = {
    setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval, setImmediate: globalThis.setImmediate,
    clearTimeout: clear, clearInterval: clear, clearImmediate: globalThis.clearImmediate,
  };
  const modules = { fs, readline, process: globalThis.process, timers: timersModule };
  // Node's ERR_INVALID_ARG_TYPE: the argument `name` ("path", or "first argument" said as is)
  // is not `what` (e.g. "of type string"); what it received described as Node describes it.
  function invalidArg(name, value, what) {
    const type = typeof value;
    let received;
    if (value === null || value === undefined) received = String(value);
    else if (type === "function") received = "function " + value.name;
    else if (type === "object") received = "an instance of " + ((value.constructor && value.constructor.name) || "Object");
    else if (type === "string") {
      const shown = value.length > 28 ? value.slice(0, 25) + "..." : value;
      received = "type string (" + (shown.includes("'") ? stringify(shown) : "'" + shown + "'") + ")";
    } else if (type === "number" && value === 0) received = "type number (" + (1 / value < 0 ? "-0" : "0") + ")";
    else received = "type " + type + " (" + String(value) + (type === "bigint" ? "n" : "") + ")";
    const subject = name.endsWith(" argument") ? name : '"' + name + '" argument';
    const e = new TypeError("The " + subject + " must be " + what + ". Received " + received);
    e.code = "ERR_INVALID_ARG_TYPE";
    return e;
  }
  // Modules written in their own files (src/node/), evaluated when first required (all of them
  // before the snapshot runs start from: `__rb_prepare` below).
  let utilParts = null;
  const utilOf = () => utilParts || (utilParts = indirectEval(source("util"))({ inspect, format }));
  let bufferParts = null;
  const bufferOf = () => bufferParts || (bufferParts = indirectEval(source("buffer"))({ invalidArg, utf8Decode: __rb_utf8_decode, utf8Encode: __rb_utf8_encode }));
  const os = {
    EOL: "\n", devNull: "/dev/null", constants: { signals: {}, errno: {} },
    platform: () => "linux", type: () => "Linux", arch: () => "x64", release: () => "6.1.0", version: () => "#1 SMP",
    machine: () => "x86_64", endianness: () => "LE", hostname: () => "localhost", homedir: () => "/", tmpdir: () => "/tmp",
    cpus: () => [], availableParallelism: () => 1, totalmem: () => 268435456, freemem: () => 268435456,
    uptime: () => clock() / 1000, loadavg: () => [0, 0, 0], networkInterfaces: () => ({}),
    userInfo: () => ({ uid: 0, gid: 0, username: "root", homedir: "/", shell: null }),
  };
  modules.os = os;
  modules.events = EventEmitter;
  const lazy = {
    util: () => utilOf().util,
    buffer: () => bufferOf(),
    string_decoder: () => indirectEval(source("string_decoder"))(bufferOf()),
    path: () => indirectEval(source("path"))({ invalidArg }),
    "path/posix": () => requireModule("path"),
    crypto: () => indirectEval(source("crypto"))({ Buffer: bufferOf().Buffer, digest: __rb_digest, invalidArg }),
    assert: () => indirectEval(source("assert"))({ inspect, isDeepEqual: utilOf().isDeepEqual }),
    // npm modules benchmarks' solutions require (src/npm/).
    "js-md5": () => indirectEval(source("js-md5"))({ Buffer: bufferOf().Buffer, digest: __rb_digest }),
    // Published npm packages, unchanged (vendor/npm/), evaluated as Node evaluates a CommonJS file.
    lodash: () => commonJsModule("lodash"),
    "assert/strict": () => modules.assert ? modules.assert.strict : (modules.assert = lazy.assert()).strict,
    "timers/promises": () => ({
      setTimeout: (ms, value) => new Promise((resolve) => globalThis.setTimeout(resolve, ms, value)),
      setImmediate: (value) => new Promise((resolve) => globalThis.setImmediate(resolve, value)),
    }),
  };
  // An ES module's surroundings, as Node's: no `require`, `module` or `exports`; the runner's
  // loader serves its imports of Node's modules from what `require` gives (src/modules.rs).
  globalThis.__rb_as_es_module = function () {
    const load = globalThis.require;
    delete globalThis.require;
    delete globalThis.module;
    delete globalThis.exports;
    globalThis.__rb_import = (name) => {
      const exports = load(name);
      return [exports, exports !== null && typeof exports === "object" || typeof exports === "function" ? Object.keys(exports) : []];
    };
  };
  globalThis.module = { exports: {} };
  globalThis.exports = globalThis.module.exports;
  // A CommonJS file's surroundings, as Node wraps one: its own `exports` and `module`, `require`.
  const commonJsModule = (name) => {
    const module = { exports: {} };
    indirectEval("(function (exports, require, module) {" + source(name) + "\n})")(module.exports, requireModule, module);
    return module.exports;
  };
  // npm packages: not Node's own, so `node:` does not name them.
  const npmPackages = new Set(["js-md5", "lodash"]);
  // Published packages shipped unchanged (vendor/npm/), evaluated when a run first requires one.
  const vendored = new Set(["lodash"]);
  // `require`, kept here for the module loader and the lazy globals: an ES module has none.
  // A test run's trusted program adds the modules its test file imports (src/testing.js): the
  // candidate's module of stubs, `node:test`, `@jest/globals`. Set once, before the program.
  let testModules = null;
  globalThis.__rb_resolve_modules = (resolve) => {
    testModules = resolve;
    delete globalThis.__rb_resolve_modules;
  };
  const requireModule = (name) => {
    if (testModules !== null) {
      const found = testModules(String(name));
      if (found !== undefined) return found;
    }
    const key = String(name).replace(/^node:/, "");
    if (key !== String(name) && npmPackages.has(key)) throw notFound(name);
    if (key in modules) return modules[key];
    if (key in lazy) return (modules[key] = lazy[key]());
    throw notFound(name);
  };
  function notFound(name) {
    const e = new Error("Cannot find module '" + name + "'");
    e.code = "MODULE_NOT_FOUND";
    return e;
  }
  globalThis.require = requireModule;

  // Node's globals made when first used: the byte types of src/node/buffer.js, and Web Crypto's
  // random functions. They stay accessors (a program may assign them): Boa's property cache
  // (0.21 and 0.22) calls the new value as the getter when an accessor becomes a data property.
  const lazyGlobal = (name, make) => {
    let value, made = false;
    Object.defineProperty(globalThis, name, {
      configurable: true,
      enumerable: false,
      get() { if (!made) { value = make(); made = true; } return value; },
      set(v) { value = v; made = true; },
    });
  };
  for (const name of ["Buffer", "TextEncoder", "TextDecoder", "atob", "btoa"]) lazyGlobal(name, () => bufferOf()[name]);
  // Comparing and formatting as Node's ICU does in en-US (src/node/intl.js).
  let intlParts = null;
  const intlOf = () => intlParts || (intlParts = indirectEval(source("intl"))());
  const thisText = (value, method) => {
    if (typeof value === "string") return value;
    if (value === null || value === undefined) throw new TypeError("String.prototype." + method + " called on null or undefined");
    return String(value);
  };
  Object.defineProperty(String.prototype, "localeCompare", {
    value: function localeCompare(that, locales, options) {
      const a = typeof this === "string" ? this : thisText(this, "localeCompare");
      const b = typeof that === "string" ? that : String(that);
      const intl = intlParts || intlOf();
      if (options !== undefined) return intl.compare(a, b, locales, options);
      if (a === b) return 0;
      const x = intl.defaultKeys.get(a) || intl.defaultKey(a), y = intl.defaultKeys.get(b) || intl.defaultKey(b);
      return x < y ? -1 : x > y ? 1 : 0;
    },
    writable: true, configurable: true, enumerable: false,
  });
  Object.defineProperty(Number.prototype, "toLocaleString", {
    value: function toLocaleString(locales, options) { return new (intlOf().NumberFormat)(locales, options).format(Number.prototype.valueOf.call(this)); },
    writable: true, configurable: true, enumerable: false,
  });
  lazyGlobal("Intl", () => ({ Collator: intlOf().Collator, NumberFormat: intlOf().NumberFormat }));
  lazyGlobal("crypto", () => requireModule("crypto").webcrypto);
  globalThis.structuredClone = structuredClone;

  // `split` by a regular expression, as the standard's algorithm answers, with one search per
  // piece: Boa's follows the algorithm literally, a sticky `exec` at every position (a million
  // of them to split a megabyte on /\s+/), each copying a Latin-1 string into UTF-16. The text
  // is copied into UTF-16 once (__rb_utf16) and searched with a global copy of the expression.
  // A subclass of RegExp, or one whose `exec` was replaced, gets Boa's own.
  const NativeRegExp = RegExp, regexpExec = RegExp.prototype.exec, regexpSplit = RegExp.prototype[Symbol.split];
  const toUtf16 = __rb_utf16;
  const advance = (s, i, unicode) => {
    if (!unicode || i + 1 >= s.length) return i + 1;
    const c = s.charCodeAt(i), d = s.charCodeAt(i + 1);
    return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? i + 2 : i + 1;
  };
  const split = {
    [Symbol.split](string, limit) {
      const rx = this;
      if (rx === null || typeof rx !== "object" || Object.getPrototypeOf(rx) !== NativeRegExp.prototype
          || rx.constructor !== NativeRegExp || rx.exec !== regexpExec) {
        return regexpSplit.call(this, string, limit);
      }
      const s = toUtf16(String(string));
      const flags = String(rx.flags);
      const unicode = flags.includes("u") || flags.includes("v");
      const re = new NativeRegExp(rx, flags.replace("y", "").replace("g", "") + "g");
      const lim = limit === undefined ? 4294967295 : limit >>> 0;
      if (lim === 0) return [];
      if (s.length === 0) return regexpExec.call(re, s) === null ? [s] : [];
      const out = [];
      let p = 0, q = 0;
      while (q < s.length) {
        re.lastIndex = q;
        const m = regexpExec.call(re, s);
        if (m === null || m.index >= s.length) break;
        const e = Math.min(re.lastIndex, s.length);
        if (e === p) { q = advance(s, m.index, unicode); continue; }
        out.push(s.slice(p, m.index));
        if (out.length === lim) return out;
        p = e;
        for (let i = 1; i < m.length; i++) {
          out.push(m[i]);
          if (out.length === lim) return out;
        }
        q = p;
      }
      out.push(s.slice(p));
      return out;
    },
  }[Symbol.split];
  Object.defineProperty(RegExp.prototype, Symbol.split, { value: split, writable: true, configurable: true, enumerable: false });
  // Before the snapshot a run starts from (the runner's `prepare-engine`): every module of
  // src/node/ and src/npm/ evaluated once, so that no run parses one (assert.js alone cost a
  // MultiPL-E test more than its program). None reads stdin, clocks or randomness as it loads.
  // The vendored packages (vendor/npm/) are not: with lodash's objects in the snapshot, every run
  // that collects garbage walks them (a program filling an object with 2,000 keys: 17-18 ms a run
  // instead of 8-10); a run that requires lodash evaluates it then (about 0.3 s).
  // The test frameworks of a test file's trusted program (src/testing.js): set up before the
  // file runs, once (the runner calls it only for such a program).
  let testingSetup = null;
  const testingOf = () => testingSetup || (testingSetup = indirectEval(source("testing")));
  globalThis.__rb_test_framework = (config, program, helpers) => {
    delete globalThis.__rb_test_framework;
    return testingOf()(config, program, helpers);
  };
  globalThis.__rb_prepare = () => {
    delete globalThis.__rb_prepare;
    intlOf();
    testingOf();
    for (const name of Object.keys(lazy)) if (!vendored.has(name)) requireModule(name);
  };

  // After the program's own code, as Node's event loop: immediates and timers due at once
  // (one run per call, so that the host runs promise jobs between them), then what the program
  // waits for on stdin, then the timers that need time to pass (__rb_next_task).
  globalThis.__rb_next_due = () => nextTask(now + 1);
  // The end of the event loop: the program's `process.exitCode`, as Node exits with it.
  globalThis.__rb_finish = () => { const code = processObject.exitCode | 0; if (code !== 0) exit(code); };
  globalThis.__rb_stdin_events = function () {
    if (processStdin.listenerCount("data") || processStdin.listenerCount("readable")) {
      const text = stdin();
      if (text !== "") processStdin.emit("data", text);
      processStdin.emit("readable");
    }
    processStdin.emit("end");
    processStdin.emit("close");
    for (const rl of interfaces) {
      if (rl.closed) continue;
      for (const line of lines()) {
        if (rl.closed) break;
        rl.emit("line", line);
      }
      rl.close();
    }
  };

  // Calls `fn` on the JSON argument list `argsJson`; the result as JSON text.
  globalThis.__rb_call = function (fn, argsJson) {
    if (typeof fn !== "function") throw new TypeError("the entry point is not a function");
    const result = fn(...parse(argsJson));
    const text = stringify(result, (k, v) => {
      if (typeof v === "number" && !Number.isFinite(v)) throw new TypeError("not_json: a non-finite number");
      if (typeof v === "bigint") throw new TypeError("not_json: a BigInt");
      return v;
    });
    if (text === undefined) throw new TypeError("not_json: the function returned " + (typeof result));
    return text;
  };
})();
