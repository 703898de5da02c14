// path (POSIX), os's constants, events' EventEmitter, string_decoder, readline's `once`.
const path = require("path");
const show = (label, value) => console.log(label, JSON.stringify(value));
// Not "/..": Node parses it with an extension "." (its name "."), a quirk not reproduced.
const paths = ["", "/", "a", "a/", "/a/b/c.txt", "a//b/../c/./d", "../x/../../y", "a/..", "//a", "a//b", "./", ".", "..", "a/b/", "/a/b.tar.gz", ".bashrc", "a/.b", "file.", "x/y/..", "//double//slash//"];
for (const p of paths) {
  show(p, [path.normalize(p), path.dirname(p), path.basename(p), path.extname(p), path.isAbsolute(p), path.parse(p)]);
}
show("join", [path.join(), path.join(""), path.join("a", "b"), path.join("/a", "../b", "c/"), path.join("a", "", "b"), path.join("..", "a"), path.join("a", "/b")]);
show("resolve", [path.resolve("/a", "b"), path.resolve("/a", "/b", "c"), path.resolve("/a/b", "../c", "./d"), path.resolve("/x", "")]);
show("relative", [path.relative("/a/b/c", "/a/d"), path.relative("/a", "/a"), path.relative("/a", "/a/b/c"), path.relative("/a/b", "/")]);
show("basename suffix", [path.basename("/a/b.txt", ".txt"), path.basename("b.txt", "b.txt"), path.basename("aaa", "a"), path.basename("aaa/bbb", "bbb"), path.basename("bbb/", "bbb")]);
show("format", [path.format({ dir: "/a", base: "b.txt" }), path.format({ root: "/", name: "n", ext: ".e" }), path.format({ name: "n", ext: "e" })]);
show("constants", [path.sep, path.delimiter, path.posix === path || path.posix.sep === "/"]);
try { path.join("a", 5); } catch (e) { show("bad path", [e.code]); }
const os = require("node:os");
show("os", [os.EOL, os.platform(), os.type(), os.endianness(), typeof os.cpus(), typeof os.totalmem(), typeof os.homedir(), typeof os.tmpdir()]);
const EventEmitter = require("events");
const { EventEmitter: Named } = require("events");
const e = new EventEmitter();
const seen = [];
const on = (x) => seen.push("on " + x);
e.on("x", on);
e.once("x", (x) => seen.push("once " + x));
e.prependListener("x", (x) => seen.push("first " + x));
show("emit", [e.emit("x", 1), e.emit("x", 2), e.listenerCount("x"), e.emit("none"), e.eventNames()]);
e.off("x", on);
e.emit("x", 3);
show("seen", [seen, Named === EventEmitter, e instanceof EventEmitter]);
try { e.emit("error", new Error("boom")); } catch (err) { show("error", [err.message]); }
e.removeAllListeners();
show("cleared", [e.listenerCount("x"), e.eventNames()]);
class Sub extends EventEmitter { constructor() { super(); this.name = "sub"; } }
const sub = new Sub();
sub.on("ping", function () { seen.push(this.name); });
sub.emit("ping");
EventEmitter.once(sub, "later").then(([v]) => show("once promise", [v, seen.slice(-1)]));
sub.emit("later", 42);
const { StringDecoder } = require("string_decoder");
const d = new StringDecoder("utf8");
const euro = Buffer.from("€😀");
show("decoder", [d.write(euro.subarray(0, 1)), d.write(euro.subarray(1, 4)), d.write(euro.subarray(4, 6)), d.end(euro.subarray(6)), new StringDecoder("utf8").end(Buffer.from([0xe2, 0x82])), new StringDecoder("hex").write(Buffer.from("hi"))]);
// Each encoding's decoder fed one byte at a time, and in uneven parts; its name as Node writes it.
const pieces = Buffer.from("h\u00e9\u20ac\ud83d\ude00 x", "utf8");
const wide = Buffer.from("a\ud83d\ude00\u00e9", "utf16le");
for (const encoding of ["utf8", "UTF-8", "utf16le", "ucs-2", "UCS2", "base64", "base64url", "hex", "latin1", "binary", "ascii", undefined, null, ""]) {
  for (const bytes of [pieces, wide, Buffer.from([0xd8, 0x3d, 0x61])]) {
    const one = new StringDecoder(encoding), parts = new StringDecoder(encoding);
    let byByte = "";
    for (const b of bytes) byByte += one.write(Buffer.from([b]));
    byByte += one.end();
    const split = [parts.write(bytes.subarray(0, 3)), parts.write(bytes.subarray(3, 4)), parts.end(bytes.subarray(4))];
    console.log(String(encoding), one.encoding, JSON.stringify(byByte), JSON.stringify(split));
  }
}
for (const bad of ["utf9", "nope"]) {
  try { new StringDecoder(bad); console.log("no error"); } catch (e) { console.log(e.code, e.name, e.message); }
}
const rl = require("readline").createInterface({ input: process.stdin });
rl.once("line", (line) => show("first line", [line]));
let count = 0;
rl.on("line", () => count++);
rl.on("close", () => show("lines", [count]));

// ERR_INVALID_ARG_TYPE, as Node describes what it received.
const received = [undefined, null, 1, 0, -0, NaN, 12n, true, Symbol("s"), "short", "it's", "a".repeat(40), [1], {}, new Map(), function named() {}, () => 1, class K {}];
for (const value of received) {
  for (const call of [() => path.join("a", value), () => Buffer.from(value), () => require("crypto").createHash("md5").update(value)]) {
    try { call(); console.log("no error"); } catch (e) { console.log(e.code, e.name, e.message); }
  }
}
