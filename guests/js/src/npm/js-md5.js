// `require('js-md5')`: MD5 with the API of the npm module js-md5 that benchmarks' solutions use
// (HumanEval-X JavaScript/162): `md5(message)` is the hex digest; `md5.hex`, `md5.array` /
// `md5.digest` (bytes), `md5.arrayBuffer` / `md5.buffer`, `md5.base64`, and `md5.create()` /
// `md5.update(message)` for a hasher fed in parts. A message is a string (hashed as UTF-8), an
// array of bytes, an ArrayBuffer or a typed array. Written for rewardbox from js-md5's
// documentation; evaluated to a function of `Buffer` and the runner's native digest (the one
// `crypto.createHash` uses) that returns the module.
(function (deps) {
  "use strict";
  const { Buffer, digest: native } = deps;

  function bytesOf(message) {
    if (typeof message === "string") return Array.from(Buffer.from(message, "utf8"));
    if (message instanceof ArrayBuffer) return Array.from(new Uint8Array(message));
    if (ArrayBuffer.isView(message)) return Array.from(new Uint8Array(message.buffer, message.byteOffset, message.byteLength));
    if (Array.isArray(message)) return message.map((b) => b & 0xff);
    throw new Error("input is invalid type");
  }

  // The digest's bytes, through the native digest's one-code-unit-per-byte strings.
  function digest(bytes) {
    let binary = "";
    for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return Array.from(native("md5", binary), (c) => c.charCodeAt(0));
  }

  const hex = (bytes) => Buffer.from(bytes).toString("hex");
  const base64 = (bytes) => Buffer.from(bytes).toString("base64");
  const arrayBuffer = (bytes) => new Uint8Array(bytes).buffer;

  function create() {
    const parts = [];
    const hasher = {
      update(message) { for (const b of bytesOf(message)) parts.push(b); return hasher; },
      hex: () => hex(digest(parts)),
      toString: () => hex(digest(parts)),
      array: () => digest(parts),
      digest: () => digest(parts),
      arrayBuffer: () => arrayBuffer(digest(parts)),
      buffer: () => arrayBuffer(digest(parts)),
      base64: () => base64(digest(parts)),
    };
    return hasher;
  }

  const md5 = (message) => hex(digest(bytesOf(message)));
  md5.hex = md5;
  md5.array = (message) => digest(bytesOf(message));
  md5.digest = md5.array;
  md5.arrayBuffer = (message) => arrayBuffer(digest(bytesOf(message)));
  md5.buffer = md5.arrayBuffer;
  md5.base64 = (message) => base64(digest(bytesOf(message)));
  md5.create = create;
  md5.update = (message) => create().update(message);
  md5.md5 = md5;
  return md5;
})
