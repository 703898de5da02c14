// Standard input through `fs.readFileSync` with an encoding in its options: text in that encoding.
const text = require("fs").readFileSync("/dev/stdin", { encoding: "latin1" });
console.log(typeof text, JSON.stringify(text), text.length, Array.from(text, (c) => c.charCodeAt(0)).join(" "));
