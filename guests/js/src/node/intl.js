// `String.prototype.localeCompare`, `Intl.Collator`, `Number.prototype.toLocaleString` and
// `Intl.NumberFormat` as Node (built with ICU) answers them in its default locale, en-US: Boa is
// built without ICU, where `localeCompare` compared UTF-16 code units ('B' before 'a') and
// `toLocaleString` printed no grouping. Written for rewardbox: the collation is the Unicode
// Collation Algorithm's three levels (letters, then accents, then case, lowercase first), with
// the root order of ASCII and of the combining accents as Node sorts them (measured with Node
// 24, see the tables); other characters follow by script and code point. Evaluated to a
// function of nothing that returns { compare, Collator, NumberFormat }.
(function () {
  "use strict";
  // ASCII in the root collation's order; characters in one group differ only in case.
  const ASCII_ORDER = [" ", "_", "-", ",", ";", ":", "!", "?", ".", "'", "\"", "(", ")", "[", "]", "{", "}", "@", "*", "/", "\\", "&", "#", "%", "`", "^", "+", "<", "=", ">", "|", "~", "$", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
  // Combining accents (U+0300-U+036F) by secondary weight, as Node orders "e" + accent.
  const ACCENT_ORDER = "34f 332 313 343 314 301 341 300 340 306 302 30c 30a 342 308 344 30b 303 307 338 327 328 304 30d 30e 312 315 31a 33d 33e 33f 346 34a 34b 34c 350 351 352 357 35b 35d 35e 316 317 318 319 31c 31d 31e 31f 320 329 32a 32b 32c 32f 333 33a 33b 33c 347 348 349 34d 34e 353 354 355 356 359 35a 35c 35f 362 336 337 335 305 309 30f 310 311 31b 321 322 323 324 325 326 32d 32e 330 331 334 339 345 358 360 361 363 368 369 364 36a 365 36b 366 36c 36d 367 36e 36f".split(" ");
  // Letters that sort as others plus an accent, or as two letters.
  const EXPANSIONS = { "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o\u0338", "đ": "d\u0335", "ł": "l\u0337", "ı": "i" };
  const WHITESPACE = "\t\n\u000b\f\r";
  const primary = new Map();
  // Primary weights: whitespace controls, then ASCII punctuation and symbols (other
  // punctuation and symbols just before `~`, currency just after `$`), digits, letters a-z,
  // then other letters by code point.
  let weight = 10;
  for (const c of WHITESPACE) primary.set(c, weight++);
  for (const c of ASCII_ORDER) {
    if (c === "~") weight += 0x20000;
    if (c === "0") weight += 0x20000;
    primary.set(c, weight++);
  }
  const TILDE = primary.get("~"), DOLLAR = primary.get("$"), ZERO = primary.get("0");
  for (let c = 97; c <= 122; c++) primary.set(String.fromCharCode(c), weight++);
  const LETTERS = weight;
  const accents = new Map(ACCENT_ORDER.map((hex, i) => [String.fromCharCode(parseInt(hex, 16)), i + 1]));

  function primaryOf(c) {
    const known = primary.get(c);
    if (known !== undefined) return known;
    const code = c.codePointAt(0);
    if (/\p{Sc}/u.test(c)) return DOLLAR + 1 + code;
    if (/[\p{P}\p{S}\p{Z}]/u.test(c)) return TILDE - 0x20000 + code;
    if (/\p{N}/u.test(c)) return ZERO + 10 + code;
    return LETTERS + code;
  }

  // `value` kept in `cache` under `key`; a cache past 100,000 entries starts again.
  const remember = (cache, key, value) => {
    if (cache.size > 100000) cache.clear();
    cache.set(key, value);
    return value;
  };

  // The collation elements of a text: primary weights, an accent weight and a case bit each;
  // kept per text, shared by every set of options (`sortKey` keeps its keys per options).
  const keys = new Map();
  function keyOf(text, numeric) {
    const id = (numeric ? "1" : "0") + text;
    const cached = keys.get(id);
    if (cached) return cached;
    const p = [], s = [], t = [];
    // Each character decomposed (compatibility forms too: "ﬁ" is "fi", "Ǆ" is "DŽ"); what a
    // compatibility decomposition or an expansion makes differs from the plain letters at the
    // third level only, after them.
    const chars = [];
    for (const original of text) {
      if (original < "\u0080") { chars.push([original, 0]); continue; }
      const plain = original.normalize("NFD"), compatible = original.normalize("NFKD");
      for (const c of compatible) chars.push([c, compatible !== plain ? 2 : 0]);
    }
    for (let i = 0; i < chars.length; i++) {
      const [c, variant] = chars[i];
      const accent = accents.get(c);
      if (accent !== undefined) {
        if (s.length) s[s.length - 1] = s[s.length - 1] * 128 + accent;
        continue;
      }
      const code = c.codePointAt(0);
      if ((code < 32 && !WHITESPACE.includes(c)) || (code >= 0x7f && code < 0xa0) || code === 0x200b || code === 0xfeff) continue;
      if (numeric && c >= "0" && c <= "9") {
        let j = i;
        while (j < chars.length && chars[j][0] >= "0" && chars[j][0] <= "9") j++;
        const digits = chars.slice(i, j).map(([d]) => d).join("").replace(/^0+(?=\d)/, "");
        p.push(ZERO, digits.length, ...Array.from(digits, (d) => d.charCodeAt(0)));
        s.push(0);
        t.push(0);
        i = j - 1;
        continue;
      }
      const lower = c.toLowerCase();
      const upper = lower !== c ? 1 : 0;
      const expanded = EXPANSIONS[lower];
      if (expanded) {
        for (const e of expanded) {
          const a = accents.get(e);
          if (a !== undefined) { s[s.length - 1] = s[s.length - 1] * 128 + a; continue; }
          p.push(primaryOf(e)); s.push(0); t.push(upper + 2);
        }
        continue;
      }
      p.push(primaryOf(Array.from(lower).length === 1 ? lower : c));
      s.push(0);
      t.push(upper + variant);
    }
    return remember(keys, id, { p, s, t });
  }

  // A text's sort key under the options: its levels' weights as a string whose code-unit order
  // is the collation's (two units of 15 bits each per weight, never 0; levels joined by a 0), so
  // that comparing two texts is one native string comparison, and a text's key is made once.
  const sortKeys = new Map();
  // Printable ASCII's weights as key units, made once: the fast path of `sortKey`.
  const unitsOf = (w) => String.fromCharCode(((w / 32768) & 0x7fff) + 1, (w & 0x7fff) + 1);
  const ASCII_PRIMARY = [], ASCII_TERTIARY = [];
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (c < 32 && !WHITESPACE.includes(ch)) continue;
    ASCII_PRIMARY[c] = unitsOf(primaryOf(ch.toLowerCase()));
    ASCII_TERTIARY[c] = unitsOf(ch.toLowerCase() !== ch ? 1 : 0);
  }
  const NO_ACCENT = unitsOf(0);
  function asciiKey(o, text) {
    let p = "", s = "", t = "";
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      p += ASCII_PRIMARY[c];
      s += NO_ACCENT;
      t += ASCII_TERTIARY[c];
    }
    if (o.sensitivity === "base") return p;
    if (o.sensitivity === "accent") return p + "\u0000" + s;
    if (o.sensitivity === "case") return p + "\u0000" + t;
    return p + "\u0000" + s + "\u0000" + t;
  }
  function sortKey(o, text) {
    const cached = o.keys.get(text);
    if (cached !== undefined) return cached;
    if (!o.numeric && !o.ignorePunctuation && o.caseFirst !== "upper" && /^[\t\n\v\f\r\x20-\x7e]*$/.test(text)) {
      return remember(o.keys, text, asciiKey(o, text));
    }
    let k = keyOf(text, o.numeric);
    if (o.ignorePunctuation) {
      const kept = k.p.map((w, i) => (w >= ZERO || w < 10 ? i : -1)).filter((i) => i >= 0);
      k = { p: kept.map((i) => k.p[i]), s: kept.map((i) => k.s[i]), t: kept.map((i) => k.t[i]) };
    }
    const units = (weights, flip) => {
      let out = "";
      for (const w of weights) out += unitsOf(flip ? 15 - w : w);
      return out;
    };
    let key = units(k.p, false);
    if (o.sensitivity === "accent" || o.sensitivity === "variant") key += "\u0000" + units(k.s, false);
    if (o.sensitivity === "case" || o.sensitivity === "variant") key += "\u0000" + units(k.t, o.caseFirst === "upper");
    return remember(o.keys, text, key);
  }

  function settings(options) {
    options = options === undefined ? {} : Object(options);
    const sensitivity = options.sensitivity === undefined ? "variant" : String(options.sensitivity);
    if (!["base", "accent", "case", "variant"].includes(sensitivity)) {
      throw new RangeError("Value " + sensitivity + " out of range for Intl.Collator options property sensitivity");
    }
    const o = {
      sensitivity,
      numeric: Boolean(options.numeric),
      ignorePunctuation: Boolean(options.ignorePunctuation),
      caseFirst: options.caseFirst === undefined ? "false" : String(options.caseFirst),
    };
    // The keys made under these options, shared by every call that gives the same ones.
    const id = [o.sensitivity, o.numeric, o.ignorePunctuation, o.caseFirst].join(",");
    if (!sortKeys.has(id)) sortKeys.set(id, new Map());
    o.keys = sortKeys.get(id);
    return o;
  }

  function compareWith(o, a, b) {
    a = String(a); b = String(b);
    if (a === b) return 0;
    const x = sortKey(o, a), y = sortKey(o, b);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  class Collator {
    constructor(locales, options) {
      const o = settings(options);
      Object.defineProperty(this, "_o", { value: o });
      Object.defineProperty(this, "compare", { value: (a, b) => compareWith(o, a, b), enumerable: false });
    }
    resolvedOptions() {
      return { locale: "en-US", usage: "sort", sensitivity: this._o.sensitivity, ignorePunctuation: this._o.ignorePunctuation, collation: "default", numeric: this._o.numeric, caseFirst: this._o.caseFirst };
    }
    static supportedLocalesOf(locales) { return [].concat(locales === undefined ? [] : locales).filter((l) => /^en\b/i.test(l)); }
  }

  // A number's shortest decimal digits and exponent: 1.005 is ["1005", 1] (digits, count of
  // integer digits), as ICU rounds the shortest representation, not the binary value.
  function decimal(n) {
    const [mantissa, exp = "0"] = Math.abs(n).toExponential().split("e");
    const digits = mantissa.replace(".", "");
    return [digits, Number(exp) + 1];
  }

  function fixed(n, minFraction, maxFraction) {
    let [digits, point] = decimal(n);
    // Round half away from zero at maxFraction digits after the point.
    const keep = point + maxFraction;
    if (keep < digits.length) {
      if (keep < 0) { digits = "0"; point = 1; }
      else {
        let kept = digits.slice(0, keep).split("").map(Number);
        if (Number(digits[keep]) >= 5) {
          let i = kept.length - 1;
          while (i >= 0 && kept[i] === 9) { kept[i] = 0; i--; }
          if (i >= 0) kept[i]++; else { kept.unshift(1); point++; }
        }
        digits = kept.join("") || "0";
        if (keep === 0 && digits === "0") point = 1;
      }
    }
    let integer = point <= 0 ? "0" : digits.slice(0, point).padEnd(point, "0");
    let fraction = point <= 0 ? "0".repeat(-point) + digits : digits.slice(point);
    fraction = fraction.slice(0, maxFraction).replace(/0+$/, "");
    if (fraction.length < minFraction) fraction = fraction.padEnd(minFraction, "0");
    integer = integer.replace(/^0+(?=\d)/, "");
    return [integer, fraction];
  }

  const CURRENCIES = { USD: ["$", 2], EUR: ["€", 2], GBP: ["£", 2], JPY: ["¥", 0], INR: ["₹", 2], CNY: ["CN¥", 2] };

  class NumberFormat {
    constructor(locales, options) {
      options = options === undefined ? {} : Object(options);
      const style = options.style === undefined ? "decimal" : String(options.style);
      if (!["decimal", "percent", "currency"].includes(style)) throw new RangeError("Value " + style + " out of range for Intl.NumberFormat options property style");
      let currency = null;
      if (style === "currency") {
        if (options.currency === undefined) throw new TypeError("Currency code is required with currency style.");
        currency = String(options.currency).toUpperCase();
      }
      const places = currency ? (CURRENCIES[currency] || [currency + "\u00a0", 2])[1] : 0;
      const minDefault = style === "currency" ? places : 0;
      const maxDefault = style === "currency" ? places : style === "percent" ? 0 : 3;
      const min = options.minimumFractionDigits === undefined ? minDefault : Number(options.minimumFractionDigits);
      let max = options.maximumFractionDigits === undefined ? Math.max(min, maxDefault) : Number(options.maximumFractionDigits);
      if (!(min >= 0 && min <= 100) || !(max >= 0 && max <= 100)) throw new RangeError("maximumFractionDigits value is out of range.");
      if (max < min) {
        if (options.maximumFractionDigits !== undefined) throw new RangeError("maximumFractionDigits value is out of range.");
        max = min;
      }
      const o = {
        style, currency, min, max,
        minInteger: options.minimumIntegerDigits === undefined ? 1 : Number(options.minimumIntegerDigits),
        grouping: options.useGrouping === undefined ? true : options.useGrouping !== false && options.useGrouping !== "false",
      };
      Object.defineProperty(this, "_o", { value: o });
      Object.defineProperty(this, "format", { value: (n) => formatWith(o, n), enumerable: false });
    }
    resolvedOptions() {
      const o = this._o;
      return { locale: "en-US", numberingSystem: "latn", style: o.style, ...(o.currency ? { currency: o.currency, currencyDisplay: "symbol" } : {}), minimumIntegerDigits: o.minInteger, minimumFractionDigits: o.min, maximumFractionDigits: o.max, useGrouping: o.grouping ? "auto" : false };
    }
    static supportedLocalesOf(locales) { return Collator.supportedLocalesOf(locales); }
  }

  function formatWith(o, value) {
    let n = typeof value === "bigint" ? Number(value) : Number(value);
    if (Number.isNaN(n)) return "NaN";
    if (o.style === "percent") n *= 100;
    const negative = n < 0 || Object.is(n, -0);
    let body;
    if (!Number.isFinite(n)) body = "∞";
    else {
      let [integer, fraction] = fixed(n, o.min, o.max);
      integer = integer.padStart(o.minInteger, "0");
      if (o.grouping) integer = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
      body = integer + (fraction ? "." + fraction : "");
    }
    const sign = negative ? "-" : "";
    if (o.style === "percent") return sign + body + "%";
    if (o.style === "currency") return sign + (CURRENCIES[o.currency] || [o.currency + "\u00a0"])[0] + body;
    return sign + body;
  }

  const DEFAULT = settings(undefined);
  const compare = (a, b, locales, options) => compareWith(options === undefined ? DEFAULT : settings(options), a, b);
  // The default options' keys and key maker, for `localeCompare`'s path without options (one
  // map lookup per text: calls are what costs most in the interpreter).
  return { compare, Collator, NumberFormat, defaultKeys: DEFAULT.keys, defaultKey: (text) => sortKey(DEFAULT, text) };
})
