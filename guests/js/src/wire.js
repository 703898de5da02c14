// rewardbox's wire for JavaScript test code: a benchmark's test code runs in a trusted program
// (`//\x1erewardbox:test`) and calls the function under test in the live candidate's program
// (`//\x1erewardbox:serve`), each in a sandbox of its own, one's standard output the other's
// standard input. Evaluated before either program, so that neither program's changes to
// `JSON`, `Object` or `eval` reach it.
//
// A message is one line: the byte 0x1e, then JSON, then a newline; anything else on a line is
// skipped. A call is `{"f": name, "a": [value...]}`, an answer `{"r": value}` or, when the
// function threw, `{"x": {"name", "message"}}` (with `"m": 1` when the program has no such
// function). The test code's calls ask (`"c": 1`) for the
// arguments the call changed, as natively the caller shares its arrays and objects with the
// function: the answer then holds them by position (`"c": {"0": value}`), and the test code's
// own arguments are changed in place to match. Values are tagged JSON, so that every value of
// the language crosses as itself: numbers (with -0, NaN and the infinities), BigInts,
// `undefined` (and array holes) apart from `null`, strings, arrays, plain objects (keys in their
// order, `__proto__` as a key), Maps, Sets and Dates.
(function () {
  "use strict";
  const send = __rb_send, readLine = __rb_read_line, exit = __rb_exit;
  const parse = JSON.parse, stringify = JSON.stringify, indirectEval = eval;
  const isArray = Array.isArray, keys = Object.keys, defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf, ObjectProto = Object.prototype;
  const MapCtor = Map, SetCtor = Set, DateCtor = Date, ErrorCtor = Error;
  const mapClear = Map.prototype.clear, mapSet = Map.prototype.set;
  const setClear = Set.prototype.clear, setAdd = Set.prototype.add;
  const dateGetTime = Date.prototype.getTime, dateSetTime = Date.prototype.setTime;
  const FRAME = "\x1e";
  // How deep a value may nest before it is taken for a cycle.
  const MAX_DEPTH = 1000;

  class Untyped extends ErrorCtor {}

  function encode(value, depth) {
    if (depth > MAX_DEPTH) throw new Untyped("a value nested deeper than " + MAX_DEPTH + " levels (a cycle?)");
    switch (typeof value) {
      case "undefined": return { u: 0 };
      case "boolean": case "string": return value;
      case "number":
        if (value !== value) return { n: "NaN" };
        if (value === Infinity) return { n: "Infinity" };
        if (value === -Infinity) return { n: "-Infinity" };
        if (value === 0 && 1 / value < 0) return { n: "-0" };
        return value;
      case "bigint": return { b: value.toString() };
      case "function": throw new Untyped("a function (" + (value.name || "anonymous") + ")");
      case "symbol": throw new Untyped("a symbol");
    }
    if (value === null) return null;
    if (isArray(value)) {
      const out = [];
      for (let i = 0; i < value.length; i++) out.push(i in value ? encode(value[i], depth + 1) : { h: 0 });
      return out;
    }
    if (value instanceof MapCtor) {
      const out = [];
      for (const [k, v] of value) out.push([encode(k, depth + 1), encode(v, depth + 1)]);
      return { m: out };
    }
    if (value instanceof SetCtor) {
      const out = [];
      for (const v of value) out.push(encode(v, depth + 1));
      return { s: out };
    }
    if (value instanceof DateCtor) {
      const time = value.getTime();
      return { d: time === time ? time : null };
    }
    if (typeof value.then === "function") throw new Untyped("a Promise (async functions are not called over the wire)");
    const proto = getPrototypeOf(value);
    if (proto !== ObjectProto && proto !== null && !(value instanceof ErrorCtor)) {
      const name = proto.constructor && proto.constructor.name;
      if (name && /Array$|^ArrayBuffer$|^DataView$|^WeakMap$|^WeakSet$|^RegExp$/.test(name)) {
        throw new Untyped("a " + name);
      }
    }
    const out = [];
    for (const key of keys(value)) out.push([key, encode(value[key], depth + 1)]);
    return { o: out };
  }

  class Malformed extends ErrorCtor {}

  function decode(value) {
    if (value === null || typeof value !== "object") {
      if (typeof value === "number" || typeof value === "string" || typeof value === "boolean" || value === null) return value;
      throw new Malformed("value");
    }
    if (isArray(value)) {
      const out = new Array(value.length);
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (item !== null && typeof item === "object" && !isArray(item) && "h" in item) continue;
        out[i] = decode(item);
      }
      return out;
    }
    const tag = keys(value);
    if (tag.length !== 1) throw new Malformed("value");
    const body = value[tag[0]];
    switch (tag[0]) {
      case "u": return undefined;
      case "n":
        if (body === "NaN") return NaN;
        if (body === "Infinity") return Infinity;
        if (body === "-Infinity") return -Infinity;
        if (body === "-0") return -0;
        throw new Malformed("number");
      case "b":
        if (typeof body !== "string" || !/^-?[0-9]+$/.test(body)) throw new Malformed("bigint");
        return BigInt(body);
      case "d": return new DateCtor(body === null ? NaN : Number(body));
      case "o": {
        if (!isArray(body)) throw new Malformed("object");
        const out = {};
        for (const pair of body) {
          if (!isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") throw new Malformed("object");
          defineProperty(out, pair[0], { value: decode(pair[1]), writable: true, enumerable: true, configurable: true });
        }
        return out;
      }
      case "m": {
        if (!isArray(body)) throw new Malformed("map");
        const out = new MapCtor();
        for (const pair of body) {
          if (!isArray(pair) || pair.length !== 2) throw new Malformed("map");
          out.set(decode(pair[0]), decode(pair[1]));
        }
        return out;
      }
      case "s": {
        if (!isArray(body)) throw new Malformed("set");
        const out = new SetCtor();
        for (const item of body) out.add(decode(item));
        return out;
      }
    }
    throw new Malformed("value");
  }

  // One line of text: newlines and the frame byte would end or forge a message.
  const oneLine = (text) => String(text).replace(/[\n\r\x1e]/g, " ");
  const brief = (text) => { const t = oneLine(text); return t.length > 300 ? t.slice(0, 300) + "..." : t; };
  const frame = (message) => FRAME + stringify(message) + "\n";
  const report = (text) => send(2, FRAME + "rb-" + text + "\n");

  // The next message on standard input, or null at its end.
  function receive() {
    for (;;) {
      const line = readLine();
      if (line === null) return null;
      const at = line.indexOf(FRAME);
      if (at >= 0) return line.slice(at + 1);
    }
  }

  // An exception as it crosses: its class name and message.
  function describe(error) {
    if (error !== null && typeof error === "object") {
      let name = "Error";
      try { name = String(error.name); } catch (e) {}
      let message = "";
      try { message = String(error.message); } catch (e) {}
      return { name, message };
    }
    let shown = "";
    try { shown = String(error); } catch (e) {}
    return { name: "", message: shown };
  }

  const BUILTIN_ERRORS = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };

  // The trusted side: an exception the candidate threw, thrown again here as its class.
  function rebuild(thrown) {
    const name = thrown && typeof thrown.name === "string" ? thrown.name : "Error";
    const message = thrown && typeof thrown.message === "string" ? thrown.message : "";
    const Ctor = Object.prototype.hasOwnProperty.call(BUILTIN_ERRORS, name) ? BUILTIN_ERRORS[name] : ErrorCtor;
    const error = new Ctor(message);
    if (name !== "" && Ctor === ErrorCtor && name !== "Error") error.name = name;
    return error;
  }

  // An encoded value as JavaScript writes it (`undefined`, `-0`, `12n`, `Map(1) {...}`), for
  // a failed case's detail.
  function show(value) {
    if (value === null || typeof value !== "object") return stringify(value);
    if (isArray(value)) return "[" + value.map((v) => (v && typeof v === "object" && "h" in v ? "" : show(v))).join(", ") + "]";
    const tag = keys(value)[0], body = value[tag];
    switch (tag) {
      case "u": return "undefined";
      case "n": return String(body);
      case "b": return body + "n";
      case "d": return "Date(" + stringify(body) + ")";
      case "o": return "{" + body.map(([k, v]) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : stringify(k)) + ": " + show(v)).join(", ") + "}";
      case "m": return "Map(" + body.length + ") {" + body.map(([k, v]) => show(k) + " => " + show(v)).join(", ") + "}";
      case "s": return "Set(" + body.length + ") {" + body.map(show).join(", ") + "}";
    }
    return stringify(value);
  }
  const showArgs = (encoded) => brief(encoded.map(show).join(", "));

  let lastCall = "";

  // The trusted side: makes the test code's `target` (an argument of a call) what the candidate
  // left it, `value`, in place, so that the test code's references to it see the change.
  function takeBack(target, value) {
    if (target === null || typeof target !== "object" || value === null || typeof value !== "object") return;
    if (isArray(target) && isArray(value)) {
      target.length = 0;
      for (let i = 0; i < value.length; i++) if (i in value) target[i] = value[i];
      target.length = value.length;
    } else if (target instanceof MapCtor && value instanceof MapCtor) {
      mapClear.call(target);
      value.forEach((v, k) => mapSet.call(target, k, v));
    } else if (target instanceof SetCtor && value instanceof SetCtor) {
      setClear.call(target);
      value.forEach((v) => setAdd.call(target, v));
    } else if (target instanceof DateCtor && value instanceof DateCtor) {
      dateSetTime.call(target, dateGetTime.call(value));
    } else if (!isArray(target) && !isArray(value)) {
      for (const k of keys(target)) delete target[k];
      for (const k of keys(value)) {
        defineProperty(target, k, { value: value[k], writable: true, enumerable: true, configurable: true });
      }
    }
  }

  // The trusted side, under a test framework (src/testing.js): what a call throws once the
  // candidate has ended, rather than ending the test program.
  // And what a call of a function the candidate does not have throws: natively, a module's
  // missing export is `undefined`, and calling it a TypeError.
  let onEnded = null, onMissing = null;
  globalThis.__rb_wire_hooks = (hooks) => {
    onEnded = hooks.ended;
    onMissing = hooks.missing;
    delete globalThis.__rb_wire_hooks;
  };

  // The trusted side: calls `name` in the candidate with `args` and returns its answer.
  globalThis.__rb_remote = function (name, args) {
    let message, encoded;
    try {
      encoded = args.map((a) => encode(a, 0));
      message = frame({ f: name, a: encoded, c: 1 });
    } catch (e) {
      if (!(e instanceof Untyped)) throw e;
      report("wire untyped " + brief(e.message));
      exit(3);
    }
    send(1, message);
    const line = receive();
    if (line === null) {
      report("wire ended");
      // A test framework's run goes on to its other tests; test code ends here.
      if (onEnded !== null) throw onEnded();
      exit(3);
    }
    let reply, result;
    try {
      reply = parse(line);
      if (reply === null || typeof reply !== "object") throw new Malformed("answer");
      if ("x" in reply) {
        lastCall = name + "(" + showArgs(encoded) + ") threw " + brief(describe(reply.x).message);
      } else if ("r" in reply) {
        result = decode(reply.r);
        lastCall = name + "(" + showArgs(encoded) + ") returned " + brief(show(reply.r));
        const changed = reply.c;
        if (changed !== undefined) {
          if (changed === null || typeof changed !== "object") throw new Malformed("answer");
          for (const i of keys(changed)) {
            // A position of the arguments, nothing else (`__proto__` is "in" every array).
            if (!/^(0|[1-9][0-9]*)$/.test(i) || +i >= args.length) throw new Malformed("answer");
            takeBack(args[i], decode(changed[i]));
          }
        }
      } else {
        throw new Malformed("answer");
      }
    } catch (e) {
      report("wire malformed " + (e instanceof Malformed ? e.message : "answer"));
      exit(3);
    }
    if ("x" in reply) throw reply.m === 1 && onMissing !== null ? onMissing(name) : rebuild(reply.x);
    return result;
  };

  const caseLine = (line, passed, detail) =>
    report("case line\x1f" + line + " " + (passed ? "pass" : "fail") + " " + brief(detail));
  const withLastCall = (detail) => detail + (lastCall ? " (last call: " + lastCall + ")" : "");

  // The trusted side: `console.assert(...)` at `line` of the test code. As Node: a failed
  // assertion is printed to stderr and the test goes on.
  globalThis.__rb_soft_case = (line) => function (value, ...rest) {
    caseLine(line, !!value, value ? "" : withLastCall("Assertion failed" + (rest.length ? ": " + rest.map(String).join(" ") : "")));
    return console.assert(value, ...rest);
  };

  // The trusted side: `assert(...)`, `assert.deepEqual(...)` (`owner[key]`, or `owner` itself
  // when `key` is null) at `line`: passes when it returns, fails when it throws.
  globalThis.__rb_case = (line, owner, key) => function (...args) {
    const fn = key === null ? owner : owner[key];
    let result;
    try {
      result = fn.apply(owner, args);
    } catch (e) {
      caseLine(line, false, withLastCall(describe(e).message));
      throw e;
    }
    caseLine(line, true, "");
    return result;
  };

  // The candidate's side: answers calls until the test program ends.
  globalThis.__rb_serve = function () {
    for (;;) {
      const line = receive();
      if (line === null) return;
      let reply, missing = false;
      try {
        const request = parse(line);
        const name = String(request.f);
        if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new TypeError("the test program called " + name + ", which is not a name");
        // A script's global, or a name in an ES module's scope; then what the program exports.
        let fn;
        const scope = globalThis.__rb_module_scope;
        try { fn = typeof scope === "function" ? scope(name) : indirectEval(name); } catch (e) {}
        if (typeof fn !== "function" && typeof module !== "undefined") {
          const exported = module.exports;
          fn = typeof exported === "function" && (exported.name === name || name === "default") ? exported : exported && exported[name];
        }
        if (typeof fn !== "function" && typeof __rb_exports !== "undefined") fn = __rb_exports[name];
        if (typeof fn !== "function") {
          missing = true;
          throw new ReferenceError(name + " is not defined");
        }
        const args = request.a.map(decode);
        const result = fn(...args);
        try {
          reply = { r: encode(result, 0) };
        } catch (e) {
          if (!(e instanceof Untyped)) throw e;
          throw new TypeError(name + " returned " + e.message + ", which is not a value the test code can receive");
        }
        // The arrays and objects the call changed, when the caller asks: natively it shares them.
        if (request.c) {
          const changed = {};
          let any = false;
          for (let i = 0; i < args.length; i++) {
            const a = args[i];
            if (a === null || typeof a !== "object") continue;
            let now;
            try {
              now = encode(a, 0);
            } catch (e) {
              if (!(e instanceof Untyped)) throw e;
              throw new TypeError(name + " left its argument holding " + e.message + ", which is not a value the test code can receive");
            }
            if (stringify(now) !== stringify(request.a[i])) {
              changed[i] = now;
              any = true;
            }
          }
          if (any) reply.c = changed;
        }
      } catch (e) {
        reply = missing ? { x: describe(e), m: 1 } : { x: describe(e) };
      }
      send(1, frame(reply));
    }
  };
})();
