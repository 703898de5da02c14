// `require('crypto')` and the global `crypto`: `createHash` (md5, sha1, sha224, sha256, sha384,
// sha512: computed natively by `__rb_digest`), and random bytes, integers and UUIDs from the
// runner's random source. No keys, ciphers or HMAC. Written for rewardbox from Node's
// documentation; evaluated to a function of `Buffer`, the native digest and `invalidArg`.
(function (deps) {
  "use strict";
  const { Buffer, digest, invalidArg } = deps;
  const binary = (bytes) => {
    let out = "";
    for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
    return out;
  };
  class Hash {
    constructor(algorithm) {
      if (digest(algorithm, "") === undefined) throw new Error("Digest method not supported");
      this.algorithm = algorithm;
      this.parts = [];
      this.done = false;
    }
    update(data, encoding) {
      if (this.done) {
        const e = new Error("Digest already called");
        e.code = "ERR_CRYPTO_HASH_FINALIZED";
        throw e;
      }
      if (typeof data === "string") this.parts.push(binary(Buffer.from(data, encoding)));
      else if (ArrayBuffer.isView(data)) this.parts.push(binary(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
      else throw invalidArg("data", data, "of type string or an instance of Buffer, TypedArray, or DataView");
      return this;
    }
    digest(encoding) {
      if (this.done) {
        const e = new Error("Digest already called");
        e.code = "ERR_CRYPTO_HASH_FINALIZED";
        throw e;
      }
      this.done = true;
      const out = Buffer.from(digest(this.algorithm, this.parts.join("")), "latin1");
      return encoding === undefined || encoding === "buffer" ? out : out.toString(encoding);
    }
    copy() {
      const copy = new Hash(this.algorithm);
      copy.parts = this.parts.slice();
      return copy;
    }
  }
  const byte = () => Math.floor(Math.random() * 256);
  function getRandomValues(array) {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i++) bytes[i] = byte();
    return array;
  }
  function randomUUID() {
    const b = getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const hex = Buffer.from(b).toString("hex");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }
  function randomInt(min, max, callback) {
    if (max === undefined || typeof max === "function") { callback = max; max = min; min = 0; }
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min) {
      const e = new RangeError('The value of "max" is out of range. It must be greater than the value of "min" (' + min + "). Received " + max);
      e.code = "ERR_OUT_OF_RANGE";
      throw e;
    }
    const n = min + Math.floor(Math.random() * (max - min));
    if (typeof callback === "function") { globalThis.setImmediate(callback, null, n); return undefined; }
    return n;
  }
  const randomBytes = (size) => getRandomValues(Buffer.alloc(size));
  const webcrypto = { getRandomValues, randomUUID };
  return {
    createHash: (algorithm) => new Hash(algorithm),
    getHashes: () => ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"],
    hash: (algorithm, data, encoding = "hex") => new Hash(algorithm).update(data).digest(encoding),
    Hash,
    randomBytes,
    randomInt,
    randomUUID,
    getRandomValues,
    webcrypto,
  };
})
