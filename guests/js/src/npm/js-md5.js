// `require('js-md5')`: MD5 (RFC 1321) with the API of the npm module js-md5 that benchmarks'
// solutions use (HumanEval-X JavaScript/162): `md5(message)` is the hex digest; `md5.hex`,
// `md5.array` / `md5.digest` (bytes), `md5.arrayBuffer` / `md5.buffer`, `md5.base64`, and
// `md5.create()` / `md5.update(message)` for a hasher fed in parts. A message is a string
// (hashed as UTF-8), an array of bytes, an ArrayBuffer or a typed array. Written for rewardbox
// from the RFC; evaluated to a function of nothing that returns the module.
(function () {
  "use strict";
  const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
  const K = [];
  for (let i = 0; i < 64; i++) K.push(Math.floor(Math.abs(Math.sin(i + 1)) * 4294967296) | 0);

  function bytesOf(message) {
    if (typeof message === "string") {
      const out = [];
      for (let i = 0; i < message.length; i++) {
        let c = message.charCodeAt(i);
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < message.length) {
          const low = message.charCodeAt(i + 1);
          if (low >= 0xdc00 && low < 0xe000) {
            c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
            i++;
          }
        }
        if (c < 0x80) out.push(c);
        else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
      return out;
    }
    if (message instanceof ArrayBuffer) return Array.from(new Uint8Array(message));
    if (ArrayBuffer.isView(message)) return Array.from(new Uint8Array(message.buffer, message.byteOffset, message.byteLength));
    if (Array.isArray(message)) return message.map((b) => b & 0xff);
    if (message === null || message === undefined) throw new Error("input is invalid type");
    throw new Error("input is invalid type");
  }

  function digest(bytes) {
    const length = bytes.length;
    const padded = bytes.slice();
    padded.push(0x80);
    while (padded.length % 64 !== 56) padded.push(0);
    const bits = length * 8;
    const low = bits >>> 0, high = Math.floor(bits / 4294967296) >>> 0;
    for (let i = 0; i < 4; i++) padded.push((low >>> (8 * i)) & 0xff);
    for (let i = 0; i < 4; i++) padded.push((high >>> (8 * i)) & 0xff);
    let a0 = 0x67452301, b0 = 0xefcdab89 | 0, c0 = 0x98badcfe | 0, d0 = 0x10325476;
    const M = new Array(16);
    for (let block = 0; block < padded.length; block += 64) {
      for (let i = 0; i < 16; i++) {
        const j = block + 4 * i;
        M[i] = padded[j] | (padded[j + 1] << 8) | (padded[j + 2] << 16) | (padded[j + 3] << 24);
      }
      let A = a0, B = b0, C = c0, D = d0;
      for (let i = 0; i < 64; i++) {
        let F, g;
        if (i < 16) { F = (B & C) | (~B & D); g = i; }
        else if (i < 32) { F = (D & B) | (~D & C); g = (5 * i + 1) % 16; }
        else if (i < 48) { F = B ^ C ^ D; g = (3 * i + 5) % 16; }
        else { F = C ^ (B | ~D); g = (7 * i) % 16; }
        const sum = (F + A + K[i] + M[g]) | 0;
        const s = S[(i >> 4) * 4 + (i % 4)];
        A = D; D = C; C = B;
        B = (B + ((sum << s) | (sum >>> (32 - s)))) | 0;
      }
      a0 = (a0 + A) | 0; b0 = (b0 + B) | 0; c0 = (c0 + C) | 0; d0 = (d0 + D) | 0;
    }
    const out = [];
    for (const word of [a0, b0, c0, d0]) for (let i = 0; i < 4; i++) out.push((word >>> (8 * i)) & 0xff);
    return out;
  }

  const hex = (bytes) => bytes.map((b) => (b < 16 ? "0" : "") + b.toString(16)).join("");
  const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  function base64(bytes) {
    let out = "";
    for (let i = 0; i < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
      out += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63];
      out += i + 1 < bytes.length ? BASE64[(n >> 6) & 63] : "=";
      out += i + 2 < bytes.length ? BASE64[n & 63] : "=";
    }
    return out;
  }
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
