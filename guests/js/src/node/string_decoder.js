// `require('string_decoder')`: a StringDecoder keeps the bytes of a character split between
// writes until the rest arrives, as Node's does: UTF-8 sequences, UTF-16LE code units and
// surrogate pairs, base64's groups of three bytes; other encodings decode each write whole.
// Written for rewardbox from Node's documentation; evaluated to a function of the buffer module.
(function (deps) {
  "use strict";
  const { Buffer, utf8Decode, partial, encodingOf } = deps;
  // How many bytes at the end of `bytes` wait for the next write, by encoding (UTF-16LE's are
  // `held16`'s).
  const held = {
    utf8(bytes) {
      for (let back = 1; back <= 3 && back <= bytes.length; back++) {
        if (partial(bytes, bytes.length - back, bytes.length)) return back;
      }
      return 0;
    },
    base64: (bytes) => bytes.length % 3,
    base64url: (bytes) => bytes.length % 3,
  };
  // UTF-16LE, as Node's decoder: a write's odd last byte, else its last unit when that is a high
  // surrogate, waits; the next write completes it and it is given as it is (a high surrogate
  // completed from an odd byte is not held again).
  const held16 = (bytes) => {
    if (bytes.length % 2 === 1) return 1;
    const last = bytes.length >= 2 ? bytes[bytes.length - 2] | (bytes[bytes.length - 1] << 8) : 0;
    return last >= 0xd800 && last <= 0xdbff ? 2 : 0;
  };
  const decode = (bytes, encoding) =>
    encoding === "utf8" ? utf8Decode(bytes, 0, bytes.length) : Buffer.from(bytes).toString(encoding);
  // A write of `bytes` to `decoder` in UTF-16LE.
  function write16(decoder, bytes) {
    let out = "";
    if (decoder.pending.length) {
      const take = Math.min(decoder.missing, bytes.length);
      decoder.pending = decoder.pending.concat(bytes.slice(0, take));
      decoder.missing -= take;
      bytes = bytes.slice(take);
      if (decoder.missing > 0) return "";
      out = decode(decoder.pending, "utf16le");
      decoder.pending = [];
    }
    decoder.missing = held16(bytes);
    decoder.pending = bytes.slice(bytes.length - decoder.missing);
    return out + decode(bytes.slice(0, bytes.length - decoder.missing), "utf16le");
  }
  class StringDecoder {
    constructor(encoding) {
      this.encoding = encodingOf(encoding === "" ? undefined : encoding);
      this.pending = [];
      this.missing = 0;
    }
    write(chunk) {
      if (typeof chunk === "string") return chunk;
      if (this.encoding === "utf16le") return write16(this, Array.from(chunk));
      const keep = held[this.encoding];
      if (!keep) return Buffer.from(chunk).toString(this.encoding);
      const bytes = this.pending.concat(Array.from(chunk));
      const kept = keep(bytes);
      this.pending = bytes.slice(bytes.length - kept);
      return decode(bytes.slice(0, bytes.length - kept), this.encoding);
    }
    end(chunk) {
      let out = chunk === undefined ? "" : this.write(chunk);
      const rest = this.pending;
      this.pending = [];
      this.missing = 0;
      if (rest.length === 0) return out;
      // What never completed: U+FFFD for UTF-8, the whole units of UTF-16LE (a lone high
      // surrogate as is), base64's last group padded.
      if (this.encoding === "utf8") return out + "\ufffd";
      if (this.encoding === "utf16le") return out + decode(rest.slice(0, rest.length - (rest.length % 2)), "utf16le");
      return out + decode(rest, this.encoding);
    }
  }
  return { StringDecoder };
})
