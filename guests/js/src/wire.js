// rewardbox's wire for JavaScript test code: a benchmark's test code runs in a trusted program
// (`//\x1erewardbox:test`) and calls the functions and classes under test in the live
// candidate's program (`//\x1erewardbox:serve`), each in a sandbox of its own, one's standard
// output the other's standard input. Evaluated before either program, so that neither program's
// changes to `JSON`, `Object` or `eval` reach it.
//
// A message is one line: the byte 0x1e, then JSON, then a newline; anything else on a line is
// skipped. A request names an operation `o` on a target: `f`, a name the candidate's program
// defines or exports (the test code's side only asks these), or `h`, an object the receiver
// handed over before (`"e": 1` with a name: only what the program exports):
//   `{"o": "call", "f"|"h", "k"?: method, "a": [value...], "c": 1}` calls it (or its method
//   `k`), `"new"` makes an object of it; `"get"`, `"set"` (with `"v"`), `"has"`, `"own"` (an own
//   property: `[enumerable, value]` or null), `"keys"` (its own enumerable keys), `"delete"` a
//   property `k` (`"@@iterator"` is `Symbol.iterator`); `"items"` iterates it to an array.
// An answer is `{"r": value}`, `{"fn": 1}` for a property that is a function (a method the asker
// calls on the object), or, when it threw, `{"x": {"name", "message", "t"?: class names}}` (with
// `"m": 1` when the program has no such name). A call asks (`"c": 1`) for the arguments it
// changed, as natively the caller shares its arrays and objects with the function: the answer
// then holds them by position (`"c": {"0": value}`), changed in place on the caller's side.
//
// While it waits for its answer, either side answers the other's requests: the candidate calls
// back a function the test code passed it, which may call the candidate again.
//
// Values are tagged JSON, so that every value of the language crosses as itself: numbers (with
// -0, NaN and the infinities), BigInts, `undefined` (and array holes) apart from `null`,
// strings, arrays, plain objects (keys in their order, `__proto__` as a key), Maps, Sets and
// Dates. What cannot be copied stays where it is and crosses as a handle, `{"p": {"i": id, "f":
// 1 for a function, "t": its classes' names}}`, used on the other side through a Proxy that asks
// for everything: a function either side passes (a callback, a function a function returns) and
// an object of the candidate's own classes (`new Stack()`). A handle coming back is `{"y": id}`,
// the receiver's own object. The test code's objects are copied, never handed over: the
// candidate can hold the test code's functions, never its data.
(function () {
  "use strict";
  const send = __rb_send, readLine = __rb_read_line, exit = __rb_exit;
  const parse = JSON.parse, stringify = JSON.stringify, indirectEval = eval;
  const isArray = Array.isArray, keys = Object.keys, defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf, setPrototypeOf = Object.setPrototypeOf, create = Object.create;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor, arrayFrom = Array.from;
  const ObjectCtor = Object, ObjectProto = Object.prototype, hasOwn = (o, k) => ObjectProto.hasOwnProperty.call(o, k);
  const MapCtor = Map, SetCtor = Set, DateCtor = Date, ErrorCtor = Error, ProxyCtor = Proxy;
  const WeakMapCtor = WeakMap, SymbolIterator = Symbol.iterator;
  const mapClear = Map.prototype.clear, mapSet = Map.prototype.set, mapGet = Map.prototype.get, mapHas = Map.prototype.has;
  const setClear = Set.prototype.clear, setAdd = Set.prototype.add;
  const weakGet = WeakMap.prototype.get, weakSet = WeakMap.prototype.set, weakHas = WeakMap.prototype.has;
  const dateGetTime = Date.prototype.getTime, dateSetTime = Date.prototype.setTime;
  const apply = Reflect.apply, construct = Reflect.construct;
  const FRAME = "\x1e";
  // How deep a value may nest before it is taken for a cycle.
  const MAX_DEPTH = 1000;
  const BUILTIN_ERRORS = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };

  class Untyped extends ErrorCtor {}
  class Malformed extends ErrorCtor {}

  // Whether this side is the candidate's: its objects of its own classes cross as handles (the
  // test code's are copied).
  let serving = false;
  // Whether the values sent now are copies only (no handle): the answer to a call from a peer
  // that holds none, the code verifier's calls of typed values (`{"f", "a"}`, no operation).
  let copying = false;

  // ---- Handles ------------------------------------------------------------------------------
  // What this side handed over, by id, and the id of each; the other side's, as proxies.
  const held = [], heldId = new MapCtor();
  const proxies = new MapCtor(), proxyId = new WeakMapCtor();

  function handOver(value, isFunction, classes) {
    let id = mapGet.call(heldId, value);
    if (id === undefined) {
      id = held.length;
      held.push(value);
      mapSet.call(heldId, value, id);
    }
    if (!isFunction) return { p: { i: id, f: 0, t: classes } };
    let length = 0;
    try { length = value.length; } catch (e) {}
    return { p: { i: id, f: 1, t: classes, l: typeof length === "number" && length >= 0 && length % 1 === 0 ? length : 0 } };
  }

  // The names of the classes an object is of, its own first, down to (and with) a built-in
  // error's; none for a plain object.
  function classNames(value) {
    const names = [];
    for (let proto = getPrototypeOf(value); proto !== null && proto !== ObjectProto && names.length < 32; proto = getPrototypeOf(proto)) {
      let name = "";
      try {
        const ctor = hasOwn(proto, "constructor") ? proto.constructor : undefined;
        if (typeof ctor === "function" && typeof ctor.name === "string") name = ctor.name;
      } catch (e) {}
      names.push(name);
      if (hasOwn(BUILTIN_ERRORS, name) && proto === BUILTIN_ERRORS[name].prototype) break;
    }
    return names;
  }

  // The test code's side: the function standing for the candidate's class `name` (its module's
  // stub, under a test framework), whose `prototype` its objects' proxies inherit from.
  let classOf = null;
  const standIns = new MapCtor();
  function standIn(name) {
    if (classOf !== null) {
      const found = classOf(name);
      if (typeof found === "function") return found;
    }
    if (!mapHas.call(standIns, name)) {
      const f = function () { throw new TypeError("rewardbox: " + name + " is the candidate's class"); };
      defineProperty(f, "name", { value: name });
      mapSet.call(standIns, name, f);
    }
    return mapGet.call(standIns, name);
  }
  // The prototype for an object of `classes` (own first), each class's stand-in linked to its
  // base's, a built-in error class's own prototype at the end.
  function prototypeOf(classes) {
    if (!isArray(classes) || classes.length === 0) return ObjectProto;
    let below = ObjectProto;
    for (let i = classes.length - 1; i >= 0; i--) {
      const name = String(classes[i]);
      if (hasOwn(BUILTIN_ERRORS, name)) { below = BUILTIN_ERRORS[name].prototype; continue; }
      const proto = standIn(name).prototype;
      if (proto === null || (typeof proto !== "object" && typeof proto !== "function")) continue;
      if (getPrototypeOf(proto) !== below) {
        try { setPrototypeOf(proto, below); } catch (e) {}
      }
      below = proto;
    }
    return below;
  }

  const keyOf = (key) => (key === "@@iterator" ? SymbolIterator : String(key));

  // The other side's object `id`: a Proxy that asks it for every property, call and `new`.
  function proxyFor(id, isFunction, classes, length) {
    const known = mapGet.call(proxies, id);
    if (known !== undefined) return known;
    const methods = new MapCtor();
    const ask = (request) => { request.h = id; return exchange(request); };
    const method = (key) => {
      if (!mapHas.call(methods, key)) {
        const m = function (...args) { return invoke({ h: id, k: key }, args, false, key); };
        defineProperty(m, "name", { value: key === "@@iterator" ? "[Symbol.iterator]" : key });
        mapSet.call(methods, key, m);
      }
      return mapGet.call(methods, key);
    };
    const own = isArray(classes) && classes.length && !isFunction ? classes : null;
    const target = isFunction
      ? function () {}
      : create(own ? prototypeOf(own) : ObjectProto);
    if (isFunction) {
      defineProperty(target, "name", { value: isArray(classes) && typeof classes[0] === "string" ? classes[0] : "" });
      defineProperty(target, "length", { value: length });
    }
    const handler = {
      get(t, key) {
        if (typeof key === "symbol") {
          if (key !== SymbolIterator) return undefined;
          const reply = ask({ o: "get", k: "@@iterator" });
          if (!reply.fn) return undefined;
          return function () { return arrayFrom(answer(ask({ o: "items" }), [], "[Symbol.iterator]"))[SymbolIterator](); };
        }
        if (key === "constructor" && !isFunction) return own ? standIn(String(own[0])) : ObjectCtor;
        // A function's `call`, `apply`, `bind`, `name`, `length` are this side's, calling it.
        if (key === "then" || (isFunction && key in t)) return t[key];
        const reply = ask({ o: "get", k: key });
        if (reply.fn) return method(key);
        return answer(reply, [], key);
      },
      set(t, key, value) {
        if (typeof key === "symbol") return false;
        answer(ask({ o: "set", k: key, v: encodeArgs([value])[0] }), [], key);
        return true;
      },
      has(t, key) {
        if (typeof key === "symbol") return key === SymbolIterator && !!ask({ o: "get", k: "@@iterator" }).fn;
        return answer(ask({ o: "has", k: key }), [], key) === true;
      },
      ownKeys(t) {
        const names = answer(ask({ o: "keys" }), [], "keys");
        const list = isArray(names) ? names.filter((n) => typeof n === "string") : [];
        // A function's target has its own `prototype`, which its keys must list.
        for (const k of Reflect.ownKeys(t)) {
          const d = getOwnPropertyDescriptor(t, k);
          if (d && !d.configurable && list.indexOf(k) < 0) list.push(k);
        }
        return list;
      },
      getOwnPropertyDescriptor(t, key) {
        const mine = getOwnPropertyDescriptor(t, key);
        if (mine && !mine.configurable) return mine;
        if (typeof key === "symbol") return undefined;
        const found = answer(ask({ o: "own", k: key }), [], key);
        if (!isArray(found)) return undefined;
        return { value: found[1], writable: true, enumerable: !!found[0], configurable: true };
      },
      deleteProperty(t, key) {
        if (typeof key === "symbol") return true;
        return answer(ask({ o: "delete", k: key }), [], key) === true;
      },
      defineProperty() { return false; },
      setPrototypeOf() { return false; },
      apply(t, self, args) { return invoke({ h: id }, args, false, t.name); },
      construct(t, args) { return invoke({ h: id }, args, true, t.name); },
    };
    const proxy = new ProxyCtor(target, handler);
    mapSet.call(proxies, id, proxy);
    weakSet.call(proxyId, proxy, id);
    return proxy;
  }

  // ---- Values -------------------------------------------------------------------------------
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
      case "function":
        if (copying) throw new Untyped("a function (" + (value.name || "anonymous") + ")");
        if (weakHas.call(proxyId, value)) return { y: weakGet.call(proxyId, value) };
        return handOver(value, true, [typeof value.name === "string" ? value.name : ""]);
      case "symbol": throw new Untyped("a symbol");
    }
    if (value === null) return null;
    if (weakHas.call(proxyId, value)) return { y: weakGet.call(proxyId, value) };
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
      // The candidate's object of its own class stays with it.
      if (serving && !copying) return handOver(value, false, classNames(value));
    }
    const out = [];
    for (const key of keys(value)) {
      const item = value[key];
      // The candidate's object with methods (`{ count: 0, inc() { return ++this.count; } }`)
      // is behaviour, not data: it stays with it, its methods called on it.
      if (serving && !copying && typeof item === "function" && !weakHas.call(proxyId, item)) return handOver(value, false, []);
      out.push([key, encode(item, depth + 1)]);
    }
    return { o: out };
  }

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
      case "p": {
        if (body === null || typeof body !== "object" || typeof body.i !== "number" || !(body.i >= 0) || body.i % 1 !== 0) throw new Malformed("handle");
        const classes = isArray(body.t) ? body.t.filter((n) => typeof n === "string").slice(0, 32) : [];
        const length = typeof body.l === "number" && body.l >= 0 && body.l <= 1000 && body.l % 1 === 0 ? body.l : 0;
        return proxyFor(body.i, body.f === 1, classes, length);
      }
      case "y": {
        if (typeof body !== "number" || !(body >= 0) || body % 1 !== 0 || body >= held.length) throw new Malformed("handle");
        return held[body];
      }
    }
    throw new Malformed("value");
  }
  const encodeArgs = (args) => {
    try {
      return args.map((a) => encode(a, 0));
    } catch (e) {
      if (!(e instanceof Untyped)) throw e;
      untyped(e);
    }
  };
  // A value this side cannot hand over: the test code's is the task's fault (reported, the run
  // ends); the candidate's throws in the candidate.
  function untyped(e) {
    if (serving) throw new TypeError("a value that cannot reach the test code: " + e.message);
    report("wire untyped " + brief(e.message));
    exit(3);
  }

  // ---- Messages -----------------------------------------------------------------------------
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

  // An exception as it crosses: its class name and message (and, from the candidate, the names
  // of its classes, so that the test code's `toThrow(StackEmpty)` sees the candidate's class).
  function describe(error) {
    if (error !== null && typeof error === "object") {
      let name = "Error";
      try { name = String(error.name); } catch (e) {}
      let message = "";
      try { message = String(error.message); } catch (e) {}
      const thrown = { name, message };
      if (serving) {
        try {
          const classes = classNames(error);
          if (classes.length && !hasOwn(BUILTIN_ERRORS, classes[0])) thrown.t = classes;
          // Its own fields (`code`, `shortBy`), which tests check.
          const fields = [];
          for (const key of keys(error)) {
            if (key !== "name" && key !== "message" && key !== "stack") fields.push([key, encode(error[key], 0)]);
          }
          if (fields.length) thrown.o = fields;
        } catch (e) {}
      }
      return thrown;
    }
    let shown = "";
    try { shown = String(error); } catch (e) {}
    return { name: "", message: shown };
  }

  // An exception the other side threw, thrown again here as its class, with its own fields.
  function rebuild(thrown) {
    const name = thrown && typeof thrown.name === "string" ? thrown.name : "Error";
    const message = thrown && typeof thrown.message === "string" ? thrown.message : "";
    let error;
    if (!serving && thrown && isArray(thrown.t) && thrown.t.length && hasOwn(BUILTIN_ERRORS, String(thrown.t[thrown.t.length - 1]))) {
      error = new ErrorCtor(message);
      setPrototypeOf(error, prototypeOf(thrown.t.filter((n) => typeof n === "string").slice(0, 32)));
      if (error.name !== name) defineProperty(error, "name", { value: name, writable: true, enumerable: false, configurable: true });
    } else {
      const Ctor = hasOwn(BUILTIN_ERRORS, name) ? BUILTIN_ERRORS[name] : ErrorCtor;
      error = new Ctor(message);
      if (name !== "" && Ctor === ErrorCtor && name !== "Error") error.name = name;
    }
    if (!serving && thrown && isArray(thrown.o)) {
      for (const pair of thrown.o) {
        if (!isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") throw new Malformed("exception");
        defineProperty(error, pair[0], { value: decode(pair[1]), writable: true, enumerable: true, configurable: true });
      }
    }
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
      case "p": return body && body.f ? "[Function " + String((body.t || [""])[0] || "anonymous") + "]" : String((body && body.t || [])[0] || "Object") + " {...}";
      case "y": return "[handed back]";
    }
    return stringify(value);
  }
  const showArgs = (encoded) => brief(encoded.map(show).join(", "));

  let lastCall = "";

  // Makes the caller's `target` (an argument of a call) what the callee left it, `value`, in
  // place, so that the caller's references to it see the change.
  function takeBack(target, value) {
    if (target === null || typeof target !== "object" || value === null || typeof value !== "object") return;
    if (weakHas.call(proxyId, target)) return;
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

  // Under a test framework (src/testing.js), the test code's side: what a call throws once the
  // candidate has ended, rather than ending the test program; what a call of a function the
  // candidate does not have throws (natively, a module's missing export is `undefined`, and
  // calling it a TypeError); and the stand-in of the candidate's class of a name.
  let onEnded = null, onMissing = null, exportsOnly = false;
  globalThis.__rb_wire_hooks = (hooks) => {
    onEnded = hooks.ended;
    onMissing = hooks.missing;
    classOf = typeof hooks.classOf === "function" ? hooks.classOf : null;
    exportsOnly = hooks.exportsOnly === true;
    delete globalThis.__rb_wire_hooks;
  };

  // Sends `request` and returns its answer, answering the other side's requests meanwhile.
  function exchange(request) {
    send(1, frame(request));
    for (;;) {
      const line = receive();
      if (line === null) {
        // The test code ended while the candidate waited on a function it passed: the run is
        // over.
        if (serving) exit(0);
        report("wire ended");
        // A test framework's run goes on to its other tests; test code ends here.
        if (onEnded !== null) throw onEnded();
        exit(3);
      }
      let message;
      try {
        message = parse(line);
        if (message === null || typeof message !== "object" || isArray(message)) throw new Malformed("answer");
      } catch (e) {
        if (serving) throw e;
        report("wire malformed answer");
        exit(3);
      }
      if (!("o" in message)) return message;
      send(1, frame(serveRequest(message)));
    }
  }

  // The answer `reply` to a request about `name`, as this side's value (or its exception
  // thrown); the arguments `args` the other side changed are changed here. `encoded` (the
  // arguments as sent) when the request was a call, for a failed case's detail.
  function answer(reply, args, name, encoded) {
    let result;
    try {
      if ("x" in reply) {
        if (encoded) lastCall = name + "(" + showArgs(encoded) + ") threw " + brief(describe(reply.x).message);
      } else if ("r" in reply) {
        result = decode(reply.r);
        if (encoded) lastCall = name + "(" + showArgs(encoded) + ") returned " + brief(show(reply.r));
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
      if (serving) throw e;
      report("wire malformed " + (e instanceof Malformed ? e.message : "answer"));
      exit(3);
    }
    if ("x" in reply) throw reply.m === 1 && onMissing !== null ? onMissing(name) : rebuild(reply.x);
    return result;
  }

  // The candidate's side: what its program defines or exports as `name`, a function (or
  // class), or undefined. A script's global, or a name in an ES module's scope; then what the
  // program exports.
  // With `exportsOnly` (a test file imports the candidate's module), only what it exports, as
  // natively: a class it defines and does not export is not there.
  function topLevel(name, exportsOnly) {
    let fn;
    const scope = globalThis.__rb_module_scope;
    if (!exportsOnly) {
      try { fn = typeof scope === "function" ? scope(name) : indirectEval(name); } catch (e) {}
    }
    if (typeof fn !== "function" && typeof module !== "undefined") {
      const exported = module.exports;
      const whole = typeof exported === "function" && (name === "default" || (!exportsOnly && exported.name === name));
      try { fn = whole ? exported : exported && exported[name]; } catch (e) {}
    }
    if (typeof fn !== "function" && typeof __rb_exports !== "undefined") fn = __rb_exports[name];
    return typeof fn === "function" ? fn : undefined;
  }

  // A value this side sends back for `what`: one it cannot hand over is its program's error.
  function result(value, what) {
    try {
      return encode(value, 0);
    } catch (e) {
      if (!(e instanceof Untyped)) throw e;
      throw new TypeError(what + " returned " + e.message + ", which is not a value the test code can receive");
    }
  }

  // Whether `sent` (an argument as it crossed) is data the callee could change in place.
  const copied = (sent) => isArray(sent) || (sent !== null && typeof sent === "object" && ("o" in sent || "m" in sent || "s" in sent || "d" in sent));

  // The candidate's side: the names its module exports, as an ES module that imports it sees
  // them: an ES module's (with `default` when it has one), or a CommonJS module's keys and
  // `default` (the module itself).
  function exportedNames() {
    if (typeof __rb_exports !== "undefined") return keys(__rb_exports);
    if (typeof module === "undefined") return [];
    const exported = module.exports;
    const names = exported !== null && (typeof exported === "object" || typeof exported === "function") ? keys(exported) : [];
    names.push("default");
    return names;
  }

  // The answer to the other side's `request`.
  function serveRequest(request) {
    let missing = false;
    if (request.o === "exports" && serving) {
      try { return { r: result(exportedNames(), "the module") }; } catch (e) { return { x: describe(e) }; }
    }
    try {
      let target, what;
      if (hasOwn(request, "h")) {
        const id = request.h;
        if (typeof id !== "number" || !(id >= 0) || id % 1 !== 0 || id >= held.length) throw new TypeError("no object " + stringify(id) + " was handed over");
        target = held[id];
        what = "the object";
      } else {
        // Only the test code asks for the candidate's names.
        const name = String(request.f);
        if (!serving || !/^[A-Za-z_$][\w$]*$/.test(name)) throw new TypeError("the test program called " + name + ", which is not a name");
        target = topLevel(name, request.e === 1);
        if (target === undefined) {
          missing = true;
          throw new ReferenceError(name + " is not defined");
        }
        what = name;
      }
      const hasKey = hasOwn(request, "k");
      const key = hasKey ? keyOf(request.k) : undefined;
      const shown = hasKey ? String(request.k) : what;
      // The test code's functions the candidate holds are called, and their properties read
      // (never called, set or deleted): nothing else of the test program is reached.
      if (!serving && !((request.o === "call" || request.o === "new") && !hasKey) && request.o !== "get" && request.o !== "has" && request.o !== "keys") {
        throw new TypeError("the test code's function " + what + " can only be called and read");
      }
      switch (request.o) {
        case "call": case "new": {
          const sent = isArray(request.a) ? request.a : [];
          const args = sent.map(decode);
          const fn = hasKey ? target[key] : target;
          if (typeof fn !== "function") throw new TypeError(shown + " is not a function");
          const value = request.o === "new" ? construct(fn, args) : apply(fn, hasKey ? target : undefined, args);
          const reply = { r: result(value, shown) };
          // The arrays and objects the call changed, when the caller asks: natively it shares
          // them.
          if (request.c) {
            const changed = {};
            let any = false;
            for (let i = 0; i < args.length; i++) {
              if (!copied(sent[i])) continue;
              let now;
              try {
                now = encode(args[i], 0);
              } catch (e) {
                if (!(e instanceof Untyped)) throw e;
                throw new TypeError(shown + " left its argument holding " + e.message + ", which is not a value the test code can receive");
              }
              if (stringify(now) !== stringify(sent[i])) {
                changed[i] = now;
                any = true;
              }
            }
            if (any) reply.c = changed;
          }
          return reply;
        }
        case "get": {
          const value = target[key];
          return typeof value === "function" ? { fn: 1 } : { r: result(value, shown) };
        }
        case "set":
          target[key] = decode(request.v);
          return { r: { u: 0 } };
        case "has": return { r: key in target };
        case "own": {
          const d = getOwnPropertyDescriptor(target, key);
          return { r: d === undefined ? null : [!!d.enumerable, result(target[key], shown)] };
        }
        case "keys": return { r: keys(target) };
        case "delete": return { r: Reflect.deleteProperty(target, key) };
        case "items": return { r: result(arrayFrom(target), shown) };
      }
      throw new TypeError("no operation " + stringify(request.o));
    } catch (e) {
      return missing ? { x: describe(e), m: 1 } : { x: describe(e) };
    }
  }

  // Calls (or, with `isNew`, makes an object of) what `target` names on the other side (`h`, an
  // object it handed over, or `f`, a name of the candidate's; `k`, a method of it) with `args`:
  // its answer here. `label` names the call in a failed case's detail.
  function invoke(target, args, isNew, label) {
    const encoded = encodeArgs(args);
    const request = { o: isNew ? "new" : "call", a: encoded, c: 1 };
    for (const key of keys(target)) request[key] = target[key];
    return answer(exchange(request), args, label, encoded);
  }

  // A request about a name of the candidate's: under a test framework, of what it exports.
  const named = (request) => {
    if (exportsOnly) request.e = 1;
    return request;
  };

  // The test code's side: calls (or, with `isNew`, makes an object of) `name` in the candidate
  // with `args` and returns its answer.
  globalThis.__rb_remote = (name, args, isNew) => invoke(named({ f: name }), args, isNew, name);

  // The test code's side: the names the candidate's module exports.
  globalThis.__rb_exported = () => answer(exchange({ o: "exports" }), [], "exports");

  // Whether `value` is the other side's (a proxy of its object or function): the test
  // frameworks never let one decide a comparison (`asymmetricMatch`).
  globalThis.__rb_is_remote = (value) => value !== null && (typeof value === "object" || typeof value === "function") && weakHas.call(proxyId, value);

  // The test code's side: the static member `key` of the candidate's `name` (`Stack.of`): its
  // value, or a function calling it.
  const statics = new MapCtor();
  globalThis.__rb_static = function (name, key) {
    const reply = exchange(named({ o: "get", f: name, k: key }));
    if (!reply.fn) return answer(reply, [], name + "." + key);
    const id = name + "." + key;
    if (!mapHas.call(statics, id)) {
      const m = function (...args) { return invoke(named({ f: name, k: key }), args, new.target !== undefined, id); };
      defineProperty(m, "name", { value: key });
      mapSet.call(statics, id, m);
    }
    return mapGet.call(statics, id);
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

  // The candidate's side: answers the test code's requests until the test program ends. A
  // request with no operation is a call whose answer is copied.
  globalThis.__rb_serve = function () {
    serving = true;
    for (;;) {
      const line = receive();
      if (line === null) return;
      let request = null;
      try { request = parse(line); } catch (e) {}
      let reply;
      if (request === null || typeof request !== "object" || isArray(request)) {
        reply = { x: { name: "TypeError", message: "a request that is not a message" } };
      } else if (!hasOwn(request, "o")) {
        copying = true;
        try {
          request.o = "call";
          delete request.h;
          reply = serveRequest(request);
        } finally {
          copying = false;
        }
      } else {
        reply = serveRequest(request);
      }
      send(1, frame(reply));
    }
  };
})();
