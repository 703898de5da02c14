// `require('string_decoder')`: a StringDecoder keeps the bytes of a character split between
// writes until the rest arrives (UTF-8; other encodings decode each write whole). Written for
// rewardbox from Node's documentation; evaluated to a function of the buffer module.
(function (deps) {
  "use strict";
  const { Buffer, utf8Decode, partial } = deps;
  class StringDecoder {
    // No default parameter: Boa 0.21 panics on one in a constructor of eval'd code.
    constructor(encoding) {
      if (encoding === undefined) encoding = "utf8";
      if (!Buffer.isEncoding(encoding)) {
        const e = new TypeError("Unknown encoding: " + encoding);
        e.code = "ERR_UNKNOWN_ENCODING";
        throw e;
      }
      this.encoding = encoding.toLowerCase().replace("-", "");
      this.pending = [];
    }
    write(chunk) {
      if (typeof chunk === "string") return chunk;
      if (this.encoding !== "utf8") return Buffer.from(chunk).toString(this.encoding);
      const bytes = this.pending.concat(Array.from(chunk));
      // Keep an incomplete sequence at the end for the next write.
      let keep = 0;
      for (let back = 1; back <= 3 && back <= bytes.length; back++) {
        if (partial(bytes, bytes.length - back, bytes.length)) { keep = back; break; }
      }
      this.pending = bytes.slice(bytes.length - keep);
      return utf8Decode(bytes, 0, bytes.length - keep);
    }
    end(chunk) {
      let out = chunk === undefined ? "" : this.write(chunk);
      if (this.pending.length) out += "\ufffd";
      this.pending = [];
      return out;
    }
  }
  return { StringDecoder };
})
