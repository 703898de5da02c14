// Standard input through `fs.readFileSync` with no encoding: a Buffer of its bytes, read as the
// fast readers of competitive programming read it, byte by byte (stdin_latin1.js: with one).
// Read once: Node's second read of a pipe finds it empty.
const fs = require("fs");
const show = (label, value) => console.log(label, JSON.stringify(value));

const data = fs.readFileSync(0);
show("buffer", [Buffer.isBuffer(data), data instanceof Uint8Array, data.length, data[0], data[data.length - 1]]);
let pos = 0;
function nextInt() {
  while (pos < data.length && (data[pos] < 48 || data[pos] > 57)) pos++;
  let n = 0;
  while (pos < data.length && data[pos] >= 48 && data[pos] <= 57) n = n * 10 + data[pos++] - 48;
  return n;
}
const count = nextInt(), values = [];
for (let i = 0; i < count; i++) values.push(nextInt());
show("fast reader", [count, values]);
show("as text", [data.toString(), String(data), data + "", data.toString("utf8", 2, 7), data.toString().trim().split("\n")]);
show("encodings", [data.toString("latin1"), data.toString("hex"), data.toString("base64")]);
show("bytes", [Array.from(data.subarray(-8)), data.toString("utf8").length, Buffer.byteLength(data.toString())]);
