// String.prototype.split by a regular expression: empty matches, captures, limits, flags,
// surrogate pairs, lookarounds, and expressions programs subclass or change.
const texts = ["", " ", "a", "ab", "a b  c", "  lead and trail  ", "1,2;;3 ,4", "a\nb\r\nc\n", "x😀y😀", "aXbxc", "café crème", "a1b22c333"];
const expressions = [/\s+/, /\s*/, / /, /,|;/, /(,)|(;)/, /x*/, /x*/i, /(?:)/, /(?:)/u, /\b/, /(?=[A-Z])/, /(?<=a)/, /(\d)(\d)?/, /$/, /^/m, /\n|\r\n/, /[😀]/u, /./su, /(a)|b/g, /\s+/y];
for (const text of texts) {
  const row = [];
  for (const re of expressions) row.push(JSON.stringify(text.split(re)));
  console.log(JSON.stringify(text), row.join(" "));
}
for (const limit of [undefined, 0, 1, 2, 3, -1, 2 ** 32 + 1, "2", NaN]) {
  console.log("limit", String(limit), JSON.stringify("a,b,,c,d".split(/(,)/, limit)), JSON.stringify("a b c".split(/\s*/, limit)));
}
const sticky = /b/y; sticky.lastIndex = 3;
console.log(JSON.stringify("abcabc".split(sticky)), sticky.lastIndex);
class Splitter extends RegExp {}
console.log(JSON.stringify("a-b_c".split(new Splitter("[-_]"))));
const changed = /-/; let calls = 0; const exec = RegExp.prototype.exec;
changed.exec = function (s) { calls++; return exec.call(this, s); };
console.log(JSON.stringify("a-b-c".split(changed)), calls > 0);
console.log(JSON.stringify(RegExp.prototype[Symbol.split].call(/-/, "x-y", 5)), RegExp.prototype[Symbol.split].name, RegExp.prototype[Symbol.split].length);
const long = Array.from({ length: 2000 }, (_, i) => String(i * 37 % 1009)).join(" ");
console.log(long.split(/\s+/).length, "1 2\t3\n4".split(/[\t\n ]/).join("|"));
