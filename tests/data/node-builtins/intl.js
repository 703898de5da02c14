// localeCompare, Intl.Collator, toLocaleString and Intl.NumberFormat in Node's default locale.
const show = (label, value) => console.log(label, JSON.stringify(value));
const words = ["b", "a", "B", "A", "é", "e", "E", "É", "Z", "10", "9", "_", "apple", "Apple", "apples", "app le", "app-le", "co-op", "coop", "Co-op", "résumé", "resume", "Resume", "naïve", "naive", "ñu", "nu", "zebra", "Äpfel", "apfel", "x1", "x10", "x2", "item 2", "item10", "", " ", "a b", "ab", "a\tb", "a.b", "a,b", "hello world", "Hello World", "ß", "ss", "æ", "ae", "straße", "strasse", "$5", "€5", "5", "#1", "@x", "~", "a~", "中文", "日本", "αβ", "яблоко", "Ǆ"];
show("sorted", [...words].sort((a, b) => a.localeCompare(b)));
show("pairs", words.slice(0, 30).map((w, i) => w.localeCompare(words[(i * 7 + 3) % words.length])));
for (const sensitivity of ["base", "accent", "case", "variant"]) {
  show(sensitivity, [["a", "A"], ["a", "á"], ["a", "b"], ["e", "É"], ["resume", "Résumé"]].map(([x, y]) => x.localeCompare(y, undefined, { sensitivity })));
}
const natural = ["file10.txt", "file2.txt", "File1.txt", "file1.txt", "file02.txt", "file 3.txt", "v1.10", "v1.9", "v1.09", "a100b", "a20b", "007", "7", "70"];
show("numeric", [...natural].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })));
show("collator", [...natural].sort(new Intl.Collator(undefined, { numeric: true, sensitivity: "base" }).compare));
show("collator default", [...words].sort(new Intl.Collator().compare).slice(0, 20));
show("ignorePunctuation", ["a-b", "ab", "a b", "a.c"].sort(new Intl.Collator("en", { ignorePunctuation: true }).compare));
show("upper first", ["a", "A", "b", "B"].sort(new Intl.Collator("en", { caseFirst: "upper" }).compare));
show("en-US", ["b", "A", "a"].sort((a, b) => a.localeCompare(b, "en-US")));
const numbers = [0, 1, -1, 12, 999, 1000, 1234.5, 1234567.891, -9876543.21, 0.1, 0.125, 0.0005, 1.005, 2.5, 1e21, 123456789012345680000, 1e-7, -0, NaN, Infinity, -Infinity, 99.9995, 0.9999];
show("toLocaleString", numbers.map((n) => n.toLocaleString()));
show("en-US", numbers.map((n) => n.toLocaleString("en-US")));
show("fraction 2", numbers.map((n) => n.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })));
show("max 0", numbers.map((n) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })));
show("percent", [0, 0.5, 0.123, 1, -0.256, 12.3456].map((n) => n.toLocaleString("en-US", { style: "percent" })));
show("currency", [0, 1, 1234.5, -3.456, 0.005].map((n) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n)));
show("no grouping", [1234567.5, 1000].map((n) => n.toLocaleString("en-US", { useGrouping: false })));
show("integer digits", [5, 12.5].map((n) => n.toLocaleString("en-US", { minimumIntegerDigits: 3 })));
show("format", [new Intl.NumberFormat().format(1234.5678), new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 }).format(2.25), (12345).toLocaleString()]);
// Generated cases (a fixed LCG): strings over letters of both cases, digits, punctuation,
// spaces and accented letters; numbers of every magnitude under each option.
let seed = 12345;
const next = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const alphabet = "aAbBcCeEzZ019 -_.,'!éÉèñÑüÜçøæßœ";
const generated = [];
for (let i = 0; i < 300; i++) {
  let w = "";
  const length = 1 + next(6);
  for (let k = 0; k < length; k++) w += alphabet[next(alphabet.length)];
  generated.push(w);
}
show("generated", [...generated].sort((a, b) => a.localeCompare(b)));
show("generated base", generated.slice(0, 100).map((w, i) => w.localeCompare(generated[299 - i], undefined, { sensitivity: "base" })));
show("generated numeric", [...generated].sort(new Intl.Collator(undefined, { numeric: true }).compare));
const values = [];
for (let i = 0; i < 200; i++) values.push((next(2000000) - 1000000) / Math.pow(10, next(9)));
show("numbers", values.map((n) => n.toLocaleString()));
show("numbers 2", values.map((n) => n.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 4 })));
show("numbers currency", values.map((n) => n.toLocaleString("en-US", { style: "currency", currency: "USD" })));
show("numbers percent", values.map((n) => n.toLocaleString("en-US", { style: "percent", maximumFractionDigits: 2 })));
