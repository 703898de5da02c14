// TextEncoder, TextDecoder, atob, btoa and structuredClone: Node's globals.
const show = (label, value) => console.log(label, JSON.stringify(value));
const enc = new TextEncoder();
show("encode", [enc.encoding, [...enc.encode("é😀")], enc.encode().length, enc.encode("abc") instanceof Uint8Array]);
const dec = new TextDecoder();
show("decode", [dec.encoding, dec.decode(new Uint8Array([0xef, 0xbb, 0xbf, 104, 105])), dec.decode(new Uint8Array([0xff, 104])), dec.decode(), new TextDecoder("UTF-8").decode(enc.encode("ok").buffer)]);
show("decode keeps BOM", [new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 104])).length]);
show("base64", [btoa("hello"), btoa(""), btoa("\u00ff\u00fe"), atob("aGVsbG8="), atob(" aGVs bG8= "), atob("aGVsbG8"), atob("").length]);
for (const bad of ["a", "a===", "*abc"]) {
  try { atob(bad); show("atob", [bad, "decoded"]); } catch (e) { show("atob", [bad, e.name]); }
}
try { btoa("€"); } catch (e) { show("btoa", [e.name]); }
const original = { n: 1, s: "x", list: [1, [2, 3]], date: new Date(0), map: new Map([["k", { deep: true }]]), set: new Set([1, 2]), re: /a+b/gi, nested: { a: { b: null, u: undefined } } };
original.self = original;
const copy = structuredClone(original);
show("clone", [copy !== original, copy.self === copy, copy.list[1] !== original.list[1], copy.date instanceof Date && copy.date.getTime(), copy.map.get("k"), [...copy.set], String(copy.re), copy.nested, "u" in copy.nested.a]);
const shared = { x: 1 };
const pair = structuredClone([shared, shared]);
show("shared", [pair[0] === pair[1], pair[0] !== shared]);
const bytes = structuredClone(new Uint8Array([1, 2, 3]));
show("typed", [bytes instanceof Uint8Array, [...bytes], structuredClone(Buffer.from("ab")) instanceof Buffer, structuredClone(new Float32Array([1.5]))[0]]);
class Point { constructor() { this.x = 1; } get y() { return 2; } }
const p = structuredClone(new Point());
show("class instance", [p instanceof Point, p.x, p.y, Object.keys(p)]);
for (const bad of [() => 1, Symbol("s"), { f() {} }]) {
  try { structuredClone(bad); show("clone", ["cloned"]); } catch (e) { show("clone fails", [e.name]); }
}
show("primitives", [structuredClone(5), structuredClone("s"), structuredClone(null), structuredClone(undefined) === undefined, Object.is(structuredClone(-0), -0), structuredClone(10n).toString()]);
