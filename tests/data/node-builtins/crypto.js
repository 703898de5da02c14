// crypto: createHash over every algorithm and input kind, and the shape of random values.
const crypto = require("crypto");
const inputs = ["", "abc", "Hello world", "含最大值 😀", "a".repeat(55), "b".repeat(64), "c".repeat(1000)];
for (const algorithm of ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "SHA256"]) {
  for (const input of inputs) {
    const h = crypto.createHash(algorithm).update(input);
    console.log(algorithm, input.length, h.digest("hex"));
  }
  console.log(algorithm, "base64", crypto.createHash(algorithm).update("x").digest("base64"));
  console.log(algorithm, "bytes", crypto.createHash(algorithm).update("x").digest().length);
}
console.log(crypto.createHash("sha256").update("Hello ").update("world").digest("hex"));
console.log(crypto.createHash("md5").update("48656c6c6f", "hex").digest("hex"), crypto.createHash("md5").update("Hello").digest("hex"));
console.log(crypto.createHash("md5").update(Buffer.from([0, 255])).update(new Uint8Array([7])).digest("hex"));
console.log(crypto.createHash("sha1").update("é", "latin1").digest("hex"), crypto.createHash("sha1").update("é").digest("hex"));
console.log(crypto.hash("sha1", "abc"), crypto.hash("md5", "abc", "base64"));
try { crypto.createHash("nope"); } catch (e) { console.log("unsupported:", e.message); }
const done = crypto.createHash("md5");
done.digest("hex");
try { done.digest("hex"); } catch (e) { console.log("twice:", e.code); }
try { crypto.createHash("md5").update(5); } catch (e) { console.log("bad data:", e.code); }
const copied = crypto.createHash("sha256").update("ab");
console.log(copied.copy().update("c").digest("hex") === crypto.createHash("sha256").update("abc").digest("hex"));
const uuid = crypto.randomUUID();
console.log(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid), typeof globalThis.crypto.randomUUID());
let inRange = true;
for (let i = 0; i < 200; i++) { const n = crypto.randomInt(3, 9); inRange = inRange && Number.isInteger(n) && n >= 3 && n < 9; }
for (let i = 0; i < 50; i++) { const n = crypto.randomInt(4); inRange = inRange && n >= 0 && n < 4; }
console.log("randomInt in range", inRange);
try { crypto.randomInt(5, 5); } catch (e) { console.log("randomInt:", e.code); }
const rb = crypto.randomBytes(12);
console.log(Buffer.isBuffer(rb), rb.length, rb.toString("hex").length);
const arr = globalThis.crypto.getRandomValues(new Uint32Array(4));
console.log(arr instanceof Uint32Array, arr.length);
console.log(crypto.getHashes().includes("sha256"), crypto.getHashes().includes("md5"));
