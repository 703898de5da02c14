// rewardbox's JavaScript runner: what a Node.js program expects of its surroundings, on top of
// three natives (__rb_write, __rb_stdin, __rb_exit). Defined before the candidate's program runs.
(function () {
  "use strict";
  const write = __rb_write, readStdin = __rb_stdin, exit = __rb_exit;
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

  globalThis.console = {
    log: (...a) => write(1, format(a) + "\n"),
    info: (...a) => write(1, format(a) + "\n"),
    debug: (...a) => write(1, format(a) + "\n"),
    error: (...a) => write(2, format(a) + "\n"),
    warn: (...a) => write(2, format(a) + "\n"),
    trace: (...a) => write(2, "Trace: " + format(a) + "\n"),
  };

  function emitter() {
    const listeners = {};
    const self = {
      on(event, fn) { (listeners[event] = listeners[event] || []).push(fn); return self; },
      once(event, fn) { return self.on(event, fn); },
      addListener(event, fn) { return self.on(event, fn); },
      emit(event, ...args) { (listeners[event] || []).slice().forEach((fn) => fn(...args)); return true; },
      listenerCount(event) { return (listeners[event] || []).length; },
      removeAllListeners(event) { if (event) delete listeners[event]; return self; },
    };
    return self;
  }

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
    readFileSync(path, options) {
      if (path === 0 || path === "/dev/stdin") return stdin();
      throw enoent(path);
    },
    writeSync(fd, text) { write(fd === 2 ? 2 : 1, String(text)); },
    existsSync() { return false; },
  };

  const timers = [];
  globalThis.setTimeout = (fn, _ms, ...args) => { timers.push(() => fn(...args)); return timers.length; };
  globalThis.setImmediate = (fn, ...args) => { timers.push(() => fn(...args)); return timers.length; };
  globalThis.clearTimeout = () => {};
  globalThis.setInterval = () => 0;
  globalThis.clearInterval = () => {};

  globalThis.process = {
    argv: ["node", "main.js"],
    env: {},
    platform: "wasi",
    exitCode: undefined,
    exit(code) { exit(code === undefined ? (globalThis.process.exitCode | 0) : code | 0); },
    stdout: { write(s) { write(1, String(s)); return true; }, isTTY: false },
    stderr: { write(s) { write(2, String(s)); return true; }, isTTY: false },
    stdin: processStdin,
    nextTick(fn, ...args) { Promise.resolve().then(() => fn(...args)); },
    hrtime: Object.assign(() => [0, 0], { bigint: () => 0n }),
    memoryUsage: () => ({ heapUsed: 0, rss: 0 }),
  };

  const modules = { fs, readline, process: globalThis.process };
  globalThis.module = { exports: {} };
  globalThis.exports = globalThis.module.exports;
  globalThis.require = (name) => {
    const key = String(name).replace(/^node:/, "");
    if (key in modules) return modules[key];
    const e = new Error("Cannot find module '" + name + "'");
    e.code = "MODULE_NOT_FOUND";
    throw e;
  };

  // After the program's own code: timers, then what a Node.js program waits for on stdin.
  globalThis.__rb_after_main = function () {
    while (timers.length) timers.shift()();
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
    while (timers.length) timers.shift()();
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
