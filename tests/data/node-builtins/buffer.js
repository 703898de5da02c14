// Buffer: encodings both ways, views, comparison, reading and what console.log shows.
const show = (label, value) => console.log(label, JSON.stringify(value));
const texts = ["", "abc", "héllo wörld", "含最大值", "😀 x", "\ud800 lone", "a\u0000b"];
for (const t of texts) {
  const b = Buffer.from(t);
  show("utf8", [b.length, Buffer.byteLength(t), b.toString(), b.toString("hex"), b.toString("base64"), b.toString("base64url"), b.toString("latin1"), b.toString("ascii")]);
  show("utf16le", [Buffer.from(t, "utf16le").toString("hex"), Buffer.from(t, "ucs2").toString("utf16le")]);
}
show("hex in", [Buffer.from("48656c6c6f", "hex").toString(), Buffer.from("4865zz6c", "hex").length, Buffer.from("abc", "hex").length]);
show("base64 in", [Buffer.from("SGVsbG8gd29ybGQ=", "base64").toString(), Buffer.from("SGVsbG8gd29ybGQ", "base64").toString(), Buffer.from("SGV s\nbG8=", "base64").toString(), Buffer.from("-_-_", "base64url").toString("hex")]);
show("latin1 in", [Buffer.from("ÿé", "latin1").toString("hex"), Buffer.from("ÿé", "binary").length]);
show("bad utf8", [Buffer.from([0xff, 0x61, 0xc3, 0xe2, 0x82, 0x41, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98]).toString()]);
show("ranges", [Buffer.from("hello world").toString("utf8", 6), Buffer.from("hello").toString("utf8", 1, 3), Buffer.from("hello").toString(undefined, -2)]);
const a = Buffer.alloc(5), f = Buffer.alloc(7, "ab"), z = Buffer.alloc(3, 7);
show("alloc", [[...a], [...f], [...z], Buffer.alloc(4, "aGk=", "base64").toString()]);
const c = Buffer.concat([Buffer.from("ab"), Buffer.from([99, 100]), new Uint8Array([101])]);
show("concat", [c.toString(), Buffer.concat([Buffer.from("abc"), Buffer.from("def")], 4).toString(), Buffer.concat([]).length]);
show("compare", [Buffer.compare(Buffer.from("a"), Buffer.from("b")), Buffer.from("b").compare(Buffer.from("a")), Buffer.from("ab").compare(Buffer.from("a")), Buffer.from("x").equals(Buffer.from("x")), Buffer.from("x").equals(Buffer.from("y"))]);
const s = Buffer.from("abcdef"), v = s.slice(1, 3), w = s.subarray(-2);
v[0] = 90;
show("views", [s.toString(), v.toString(), w.toString(), Buffer.isBuffer(v), v instanceof Uint8Array, s.slice(4, 2).length]);
const buf = Buffer.alloc(8);
show("write", [buf.write("hi"), buf.write("xyz", 5), buf.write("ffff", 2, "hex"), buf.toString("hex")]);
show("search", [s.indexOf("c"), s.indexOf(101), s.indexOf(Buffer.from("ef")), s.indexOf("q"), s.includes("de"), s.indexOf("a", 1)]);
const n = Buffer.from([0x01, 0x02, 0x03, 0x04, 0xff, 0xfe, 0x80, 0x00]);
show("read", [n.readUInt8(4), n.readInt8(4), n.readUInt16LE(0), n.readUInt16BE(0), n.readUInt32LE(0), n.readUInt32BE(4), n.readInt32LE(4), n.readInt32BE(4)]);
show("json", [Buffer.from("hi").toJSON(), JSON.stringify(Buffer.from([1, 2])), Buffer.from(JSON.parse(JSON.stringify(Buffer.from("yo")))).toString()]);
show("from", [Buffer.from([256, -1, 3.7]).toString("hex"), Buffer.from(new Uint16Array([1, 258])).toString("hex"), Buffer.from(new Uint8Array([5, 6, 7]).buffer, 1, 1).toString("hex"), Buffer.from(Buffer.from("copy")).toString()]);
show("encodings", [Buffer.isEncoding("UTF-8"), Buffer.isEncoding("hex"), Buffer.isEncoding("nope"), Buffer.isEncoding(1)]);
try { Buffer.from("x", "nope"); } catch (e) { show("unknown encoding", [e.name, e.code, e.message]); }
try { Buffer.from(5); } catch (e) { show("bad from", [e.name, e.code]); }
console.log(Buffer.from("hello"));
console.log(Buffer.alloc(0), Buffer.alloc(51, 1));
console.log(new Uint8Array([1, 2]), new Int32Array(0), [new Float64Array([0.5])]);
console.log(String(Buffer.from("as string")), Buffer.from("x") + "", `${Buffer.from([0x41])}`);
