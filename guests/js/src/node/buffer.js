// `require('buffer')` and Node's globals around bytes: `Buffer` (a Uint8Array, as Node's),
// `TextEncoder`, `TextDecoder`, `atob` and `btoa`. Encodings: utf8, hex, base64, base64url,
// latin1 (binary), ascii, utf16le (ucs2). Written for rewardbox from Node's documentation;
// evaluated to a function of the prelude's `invalidArg` and the runner's native UTF-8 decoder and
// encoder (src/bytes.rs) that returns the module.
(function (deps) {
  "use strict";
  const { invalidArg } = deps;

  // UTF-8 as Node writes it (a lone surrogate becomes U+FFFD), as a Uint8Array: natively.
  const utf8Bytes = (text) => deps.utf8Encode(text);

  // The bytes a UTF-8 sequence starting at `i` needs (0: not a lead byte), and how many of them
  // are there and valid (stopping at `end`).
  function prefix(bytes, i, end) {
    const b = bytes[i];
    const need = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (need <= 1) return [need, need];
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    let valid = 1;
    while (valid < need && i + valid < end) {
      const c = bytes[i + valid];
      if (c < (valid === 1 ? lo : 0x80) || c > (valid === 1 ? hi : 0xbf)) break;
      valid++;
    }
    return [need, valid];
  }

  // The length of the whole sequence at `i`, or minus the bytes one U+FFFD stands for (the
  // longest valid start of a sequence, at least one byte), as the Encoding standard decodes.
  function sequence(bytes, i, end) {
    const [need, valid] = prefix(bytes, i, end);
    return need > 0 && valid === need ? need : -Math.max(valid, 1);
  }

  // Whether the bytes from `i` to `end` are the valid start of a sequence that needs more.
  function partial(bytes, i, end) {
    const [need, valid] = prefix(bytes, i, end);
    return valid === end - i && valid < need;
  }

  // Text of bytes start..end: natively for a typed array, here for an array of numbers (the
  // bytes string_decoder holds).
  function utf8Decode(bytes, start, end) {
    if (ArrayBuffer.isView(bytes)) return deps.utf8Decode(bytes, start, end);
    let out = "";
    for (let i = start; i < end;) {
      const n = sequence(bytes, i, end);
      if (n < 0) { out += "\ufffd"; i -= n; continue; }
      const b = bytes[i];
      let c = n === 1 ? b : n === 2 ? b & 0x1f : n === 3 ? b & 0x0f : b & 0x07;
      for (let k = 1; k < n; k++) c = (c << 6) | (bytes[i + k] & 63);
      out += String.fromCodePoint(c);
      i += n;
    }
    return out;
  }

  const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  function base64Encode(bytes, start, end, url) {
    const alphabet = url ? BASE64.slice(0, 62) + "-_" : BASE64;
    let out = "";
    for (let i = start; i < end; i += 3) {
      const rest = end - i;
      const n = (bytes[i] << 16) | ((rest > 1 ? bytes[i + 1] : 0) << 8) | (rest > 2 ? bytes[i + 2] : 0);
      out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63];
      out += rest > 1 ? alphabet[(n >> 6) & 63] : url ? "" : "=";
      out += rest > 2 ? alphabet[n & 63] : url ? "" : "=";
    }
    return out;
  }

  // Node's base64 decoder reads both alphabets, skips what is not in them and stops at `=`.
  function base64Decode(text) {
    const out = [];
    let bits = 0, count = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === "=") break;
      let v = BASE64.indexOf(ch);
      if (ch === "-") v = 62;
      if (ch === "_") v = 63;
      if (v < 0) continue;
      bits = (bits << 6) | v;
      count += 6;
      if (count >= 8) { count -= 8; out.push((bits >> count) & 0xff); }
    }
    return out;
  }

  // Node's hex decoder stops at the first pair that is not hex.
  function hexDecode(text) {
    const out = [];
    for (let i = 0; i + 1 < text.length; i += 2) {
      const pair = text.slice(i, i + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(pair)) break;
      out.push(parseInt(pair, 16));
    }
    return out;
  }

  function encodingOf(encoding) {
    if (encoding === undefined || encoding === null) return "utf8";
    switch (String(encoding).toLowerCase()) {
      case "utf8": case "utf-8": return "utf8";
      case "hex": return "hex";
      case "base64": return "base64";
      case "base64url": return "base64url";
      case "latin1": case "binary": return "latin1";
      case "ascii": return "ascii";
      case "utf16le": case "utf-16le": case "ucs2": case "ucs-2": return "utf16le";
    }
    const e = new TypeError("Unknown encoding: " + encoding);
    e.code = "ERR_UNKNOWN_ENCODING";
    throw e;
  }

  function bytesOf(text, encoding) {
    switch (encodingOf(encoding)) {
      case "utf8": return Array.from(utf8Bytes(text));
      case "hex": return hexDecode(text);
      case "base64": case "base64url": return base64Decode(text);
      case "latin1": case "ascii": return Array.from(text, (c) => c.charCodeAt(0) & 0xff);
      case "utf16le": {
        const out = [];
        for (let i = 0; i < text.length; i++) { const c = text.charCodeAt(i); out.push(c & 0xff, c >> 8); }
        return out;
      }
    }
  }

  function textOf(bytes, encoding, start, end) {
    switch (encodingOf(encoding)) {
      case "utf8": return utf8Decode(bytes, start, end);
      case "hex": { let out = ""; for (let i = start; i < end; i++) out += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16); return out; }
      case "base64": return base64Encode(bytes, start, end, false);
      case "base64url": return base64Encode(bytes, start, end, true);
      case "latin1": { let out = ""; for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i]); return out; }
      case "ascii": { let out = ""; for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i] & 0x7f); return out; }
      case "utf16le": { let out = ""; for (let i = start; i + 1 < end; i += 2) out += String.fromCharCode(bytes[i] | (bytes[i + 1] << 8)); return out; }
    }
  }

  const clamp = (n, length, fallback) => {
    if (n === undefined) return fallback;
    n = Math.trunc(Number(n)) || 0;
    return n < 0 ? Math.max(0, length + n) : Math.min(n, length);
  };

  class Buffer extends Uint8Array {
    static from(value, encodingOrOffset, length) {
      if (typeof value === "string") {
        if (encodingOf(encodingOrOffset) === "utf8") return over(utf8Bytes(value));
        return fromBytes(bytesOf(value, encodingOrOffset));
      }
      if (value instanceof ArrayBuffer) {
        const offset = encodingOrOffset === undefined ? 0 : Number(encodingOrOffset);
        return new Buffer(value, offset, length === undefined ? value.byteLength - offset : Number(length));
      }
      if (ArrayBuffer.isView(value) || Array.isArray(value)) return fromBytes(value);
      if (value !== null && typeof value === "object") {
        if (value.type === "Buffer" && Array.isArray(value.data)) return Buffer.from(value.data);
        if (typeof value.length === "number") return Buffer.from(Array.from(value));
      }
      throw invalidArg("first argument", value, "of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object");
    }
    static alloc(size, fill, encoding) {
      const out = new Buffer(size);
      if (fill !== undefined && fill !== 0) out.fill(fill, 0, out.length, encoding);
      return out;
    }
    static allocUnsafe(size) { return new Buffer(size); }
    static allocUnsafeSlow(size) { return new Buffer(size); }
    static isBuffer(value) { return value instanceof Buffer; }
    static isEncoding(encoding) { try { encodingOf(encoding); return typeof encoding === "string"; } catch (e) { return false; } }
    static byteLength(value, encoding) {
      if (typeof value === "string") return encodingOf(encoding) === "utf8" ? utf8Bytes(value).length : bytesOf(value, encoding).length;
      return value.byteLength;
    }
    static concat(list, totalLength) {
      const total = totalLength === undefined ? list.reduce((n, b) => n + b.length, 0) : totalLength;
      const out = Buffer.alloc(total);
      let at = 0;
      for (const b of list) {
        for (let i = 0; i < b.length && at < total; i++) out[at++] = b[i];
      }
      return out;
    }
    static compare(a, b) { return a.compare(b); }
    // Unlike `slice`, a negative start or end counts as 0.
    toString(encoding, start, end) {
      const bound = (n, fallback) => Math.min(this.length, n === undefined ? fallback : Math.max(0, Math.trunc(Number(n)) || 0));
      const from = bound(start, 0), to = bound(end, this.length);
      return from >= to ? "" : textOf(this, encoding, from, to);
    }
    toJSON() { return { type: "Buffer", data: Array.from(this) }; }
    equals(other) { return this.compare(other) === 0; }
    compare(other) {
      const n = Math.min(this.length, other.length);
      for (let i = 0; i < n; i++) if (this[i] !== other[i]) return this[i] < other[i] ? -1 : 1;
      return this.length === other.length ? 0 : this.length < other.length ? -1 : 1;
    }
    // Node's `slice` shares the memory, as `subarray` does.
    slice(start, end) { return this.subarray(start, end); }
    subarray(start, end) {
      const from = clamp(start, this.length, 0), to = Math.max(from, clamp(end, this.length, this.length));
      return new Buffer(this.buffer, this.byteOffset + from, to - from);
    }
    write(text, offset, length, encoding) {
      if (typeof offset === "string") { encoding = offset; offset = 0; length = undefined; }
      else if (typeof length === "string") { encoding = length; length = undefined; }
      const at = offset === undefined ? 0 : offset;
      const bytes = bytesOf(text, encoding);
      const n = Math.min(bytes.length, this.length - at, length === undefined ? Infinity : length);
      for (let i = 0; i < n; i++) this[at + i] = bytes[i];
      return n;
    }
    fill(value, start, end, encoding) {
      if (typeof start === "string") { encoding = start; start = 0; end = this.length; }
      const from = clamp(start, this.length, 0), to = clamp(end, this.length, this.length);
      const bytes = typeof value === "string" ? bytesOf(value, encoding) : ArrayBuffer.isView(value) ? Array.from(value) : [Number(value) & 0xff];
      if (bytes.length === 0) bytes.push(0);
      for (let i = from; i < to; i++) this[i] = bytes[(i - from) % bytes.length];
      return this;
    }
    indexOf(value, byteOffset, encoding) {
      const needle = typeof value === "number" ? [value & 0xff] : typeof value === "string" ? bytesOf(value, encoding) : Array.from(value);
      for (let i = clamp(byteOffset, this.length, 0); i + needle.length <= this.length; i++) {
        let k = 0;
        while (k < needle.length && this[i + k] === needle[k]) k++;
        if (k === needle.length) return i;
      }
      return -1;
    }
    includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; }
    readUInt8(offset = 0) { return this[offset]; }
    readInt8(offset = 0) { return (this[offset] << 24) >> 24; }
    readUInt16LE(offset = 0) { return this[offset] | (this[offset + 1] << 8); }
    readUInt16BE(offset = 0) { return (this[offset] << 8) | this[offset + 1]; }
    readUInt32LE(offset = 0) { return (this[offset] | (this[offset + 1] << 8) | (this[offset + 2] << 16)) + this[offset + 3] * 0x1000000; }
    readUInt32BE(offset = 0) { return this[offset] * 0x1000000 + ((this[offset + 1] << 16) | (this[offset + 2] << 8) | this[offset + 3]); }
    readInt32LE(offset = 0) { return this[offset] | (this[offset + 1] << 8) | (this[offset + 2] << 16) | (this[offset + 3] << 24); }
    readInt32BE(offset = 0) { return (this[offset] << 24) | (this[offset + 1] << 16) | (this[offset + 2] << 8) | this[offset + 3]; }
  }
  // A Buffer over the memory of the Uint8Array `bytes`.
  const over = (bytes) => new Buffer(bytes.buffer, bytes.byteOffset, bytes.length);
  // A new Buffer holding `bytes` (each taken modulo 256, as a Uint8Array stores them).
  function fromBytes(bytes) {
    const out = new Buffer(bytes.length);
    out.set(bytes);
    return out;
  }
  Buffer.poolSize = 8192;
  for (const [alias, name] of [["readUint8", "readUInt8"], ["readUint16LE", "readUInt16LE"], ["readUint16BE", "readUInt16BE"], ["readUint32LE", "readUInt32LE"], ["readUint32BE", "readUInt32BE"]]) {
    Buffer.prototype[alias] = Buffer.prototype[name];
  }

  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(text = "") { return utf8Bytes(String(text)); }
  }

  class TextDecoder {
    constructor(label = "utf-8", options) {
      if (options === undefined || options === null) options = {};
      const name = String(label).trim().toLowerCase();
      if (name !== "utf-8" && name !== "utf8" && name !== "unicode-1-1-utf-8") {
        const e = new RangeError('The "' + label + '" encoding is not supported');
        e.code = "ERR_ENCODING_NOT_SUPPORTED";
        throw e;
      }
      this.fatal = Boolean(options.fatal);
      this.ignoreBOM = Boolean(options.ignoreBOM);
    }
    get encoding() { return "utf-8"; }
    decode(input) {
      if (input === undefined) return "";
      const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
      const text = utf8Decode(bytes, 0, bytes.length);
      return !this.ignoreBOM && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    }
  }

  function invalidCharacter(message) {
    const e = new Error(message);
    e.name = "InvalidCharacterError";
    return e;
  }

  function btoa(text) {
    text = String(text);
    const bytes = [];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 255) throw invalidCharacter("Invalid character");
      bytes.push(c);
    }
    return base64Encode(bytes, 0, bytes.length, false);
  }

  // The HTML standard's forgiving base64: whitespace is dropped, then up to two `=` at the end
  // of a length that is a multiple of 4; what is left must be the alphabet, of a length that
  // is not 1 more than a multiple of 4.
  function atob(text) {
    let clean = String(text).replace(/[\t\n\f\r ]/g, "");
    if (clean.length % 4 === 0) clean = clean.replace(/={1,2}$/, "");
    if (clean.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(clean)) {
      throw invalidCharacter("The string to be decoded is not correctly encoded.");
    }
    return base64Decode(clean).map((b) => String.fromCharCode(b)).join("");
  }

  return { Buffer, TextEncoder, TextDecoder, atob, btoa, constants: { MAX_LENGTH: 2 ** 32 }, kMaxLength: 2 ** 32, utf8Decode, partial, encodingOf };
})
