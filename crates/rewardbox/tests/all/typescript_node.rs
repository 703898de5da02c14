//! The TypeScript runtime against native Node.js (24, which runs a `.ts` file by stripping its
//! types) on the same programs: the same stdout and exit code for programs that use TypeScript's
//! syntax, and the same `SyntaxError` for the syntax Node's strip-only mode refuses. Then
//! TypeScript candidates graded by the `code` verifier: call tests, and a refused candidate
//! failing each case with Node's message.

use crate::common;

use common::node_that_strips_types;
use rewardbox::CaseStatus;
use rewardbox::Task;
use rewardbox::candidates::CANDIDATE_DEFAULT;
use serde_json::json;
use std::process::{Command, Stdio};

/// Programs whose stdout and exit code must be Node's.
const PROGRAMS: &[(&str, &str)] = &[
    (
        "annotations, generics, optional and default parameters",
        "function pick<T, K extends keyof T>(o: T, k: K): T[K] { return o[k]; }\n\
         const twice = <T,>(x: T): [T, T] => [x, x];\n\
         function greet(name?: string, punct: string = '!'): string { return `hi ${name ?? 'you'}${punct}`; }\n\
         let total: number = 0;\n\
         for (let i: number = 0; i < 3; i++) total += i;\n\
         const ys: Array<number> = [3, 1, 2].sort((a: number, b: number): number => a - b);\n\
         console.log(pick({ a: 1, b: 'x' }, 'b'), twice<number>(4), greet(), greet('bo', '?'), total, ys);",
    ),
    (
        "classes with TypeScript's modifiers",
        "interface Shape { area(): number }\n\
         abstract class Base implements Shape {\n\
           protected static count: number = 0;\n\
           declare readonly kind: string;\n\
           private name!: string;\n\
           abstract area(): number;\n\
           describe(this: Base): string { return `${this.constructor.name} ${this.area().toFixed(2)}`; }\n\
         }\n\
         class Square extends Base {\n\
           [key: string]: unknown;\n\
           readonly side: number;\n\
           constructor(side: number) { super(); this.side = side; Base.count++; }\n\
           public override area(): number { return this.side ** 2; }\n\
           scale(k: number): Square;\n\
           scale(k: string): Square;\n\
           scale(k: any): Square { return new Square(this.side * Number(k)); }\n\
           static made(): number { return Base.count; }\n\
           get half(): number { return this.side / 2; }\n\
           m?(): void;\n\
         }\n\
         const s = new Square(3).scale('2');\n\
         console.log(s.describe(), s.half, Square.made(), 'kind' in s, typeof s.m);",
    ),
    (
        "type-only statements between statements (no run-on)",
        "let a = 1\n\
         type T = number\n\
         (console.log)(a)\n\
         interface I { x: T }\n\
         [1, 2].forEach((x) => console.log(x))\n\
         declare const hidden: number\n\
         `tpl`.split('').forEach((c) => console.log(c))",
    ),
    (
        "as, satisfies, non-null, as const, instantiation expressions",
        "const xs = [1, 2, 3] as const;\n\
         const conf = { port: 80 } satisfies { port: number };\n\
         const m = new Map<string, number[]>([['a', [1]]]);\n\
         const first = m.get('a')!.length;\n\
         const parse = JSON.parse as (s: string) => unknown;\n\
         const make = Array<string>;\n\
         const v = (parse('[1]') as number[])[0]!;\n\
         console.log(xs.length, conf.port, first, v, make(2).length, (1 as any) + (2 as unknown as number));",
    ),
    (
        "declarations that are only types",
        "declare function ext(a: number): void;\n\
         declare class Ext { m(): void }\n\
         declare namespace NS { const a: number; }\n\
         declare global { interface Array<T> { extra?: T } }\n\
         declare enum Gone { A }\n\
         namespace OnlyTypes { export type A = number; export interface B {} }\n\
         declare module 'nowhere' { export const x: number; }\n\
         type Fn = (a: number) => void;\n\
         console.log('after the types', typeof NS, typeof Ext);",
    ),
    (
        "an arrow's return type over two lines",
        "const add = (a: number, b: number):\n  number => a + b;\n\
         const pair = async (a: string):\n  Promise<[string, string]> => [a, a];\n\
         pair('p').then((p) => console.log(add(2, 3), p));",
    ),
    (
        "types are not checked, as Node does not check them",
        "const n: number = 'text' as any;\n\
         function f(x: string): number { return x as unknown as number; }\n\
         console.log(typeof n, f('s'), [1, 'a'] as [number, string]);",
    ),
    (
        "stdin, process and exit codes",
        "const input: string = require('fs').readFileSync(0, 'utf8');\n\
         const lines: string[] = input.split('\\n').filter((l: string): boolean => l.length > 0);\n\
         console.log(lines.length);\n\
         process.exitCode = 3 as number;",
    ),
    (
        "an uncaught error in a typed program",
        "function fail(msg: string): never { throw new TypeError(msg); }\n\
         console.log('before');\n\
         fail('typed');",
    ),
    (
        "types in every place a declaration can hold one",
        "const id = <T>(x: T) => x;\n\
         let u: number, w: string = 'q';\n\
         function isStr(x: unknown): x is string { return typeof x === 'string'; }\n\
         function check(x: unknown): asserts x { if (!x) throw new Error('no'); }\n\
         function opts({ a, b }: { a: number; b?: string } = { a: 1 }, ...rest: number[]): string { return `${a}${b ?? '-'}${rest.length}`; }\n\
         const mk = (): { a: number } => ({ a: 1 });\n\
         let C: abstract new () => object;\n\
         let k: keyof { x: 1 } = 'x', tl: `a${string}` = 'ab', q: typeof k = k;\n\
         let cm: /* a comment */ number = 5;\n\
         const aid = async <T,>(x: T): Promise<T> => x;\n\
         check(1);\n\
         console.log(id(3), u, w, isStr('s'), opts(), opts({ a: 2, b: 'z' }, 1, 2), mk().a, k, tl, q, cm, typeof aid);",
    ),
    (
        "classes: iterators, this types, optional calls, non-null targets",
        "class Bag<T> implements Iterable<T> {\n\
           private items: T[] = [];\n\
           public static readonly kind = 'bag' as const;\n\
           protected toString(): string { return `Bag(${this.items.length})`; }\n\
           add(x: T): this { this.items.push(x); return this; }\n\
           *[Symbol.iterator](): Iterator<T> { yield* this.items; }\n\
           m?(): number;\n\
         }\n\
         const bag = new Bag<number>().add(1).add(2);\n\
         const box: { v?: number } = {};\n\
         box!.v = 5;\n\
         console.log([...bag], String(bag), Bag.kind, bag.m?.(), box.v, new Map<string, Bag<number>>().size);",
    ),
    (
        "a < b > (c) is a generic call in TypeScript",
        "const a = (x: number) => x * 10, b = 2, c = 3;\n\
         try { console.log(a < b > (c)); } catch (e) { console.log('threw', (e as Error).name); }",
    ),
    (
        "an ES module: typed imports of Node's modules, no require",
        "import * as readline from 'node:readline';\n\
         import { readFileSync } from 'fs';\n\
         import type { Interface } from 'readline';\n\
         const rl: Interface = readline.createInterface({ input: process.stdin });\n\
         const lines: string[] = [];\n\
         rl.on('line', (l: string) => lines.push(l));\n\
         rl.on('close', (): void => console.log(lines.length, typeof readFileSync, typeof require));",
    ),
    (
        "a type-only import leaves CommonJS",
        "import type { Interface } from 'readline';\nlet i: Interface | undefined;\nconsole.log(typeof require, typeof module, i);",
    ),
    (
        "a top-level await makes a module",
        "const n: number = await Promise.resolve(4 as number);\nconsole.log(n, typeof require);",
    ),
    (
        "JavaScript is TypeScript",
        "const re = /a<b>c/g; console.log('a<b>c'.match(re), 1 < 2, `x${1}y`);",
    ),
];

/// Programs Node refuses (strip-only mode), with the message both must give.
const REFUSED: &[(&str, &str)] = &[
    (
        "enum E { A, B }\nconsole.log(E.B)",
        "TypeScript enum is not supported in strip-only mode",
    ),
    (
        "console.log(1)\nfunction f() {\n  const enum C { X }\n}",
        "TypeScript enum is not supported in strip-only mode",
    ),
    (
        "namespace N { export const a = 1 }\nconsole.log(N.a)",
        "TypeScript namespace declaration is not supported in strip-only mode",
    ),
    (
        "class P { constructor(private x: number) {} }\nconsole.log(1)",
        "TypeScript parameter property is not supported in strip-only mode",
    ),
    (
        "import fs = require('fs');\nconsole.log(1)",
        "TypeScript import equals declaration is not supported in strip-only mode",
    ),
    (
        "const x = 1;\nexport = x;",
        "TypeScript export assignment is not supported in strip-only mode",
    ),
    (
        "let v = <number>(1 as any);\nconsole.log(v)",
        "The angle-bracket syntax for type assertions, `<T>expr`, is not supported in type strip mode.",
    ),
    (
        "module M {}\nconsole.log(1)",
        "`module` keyword is not supported. Use `namespace` instead.",
    ),
];

/// Runs `program` as a `.ts` file under native Node, with nothing on stdin.
fn native(program: &str) -> std::process::Output {
    native_in(tempfile::tempdir().unwrap().path(), program)
}

/// Runs `program` as `dir/program.ts` under native Node, in `dir`, with nothing on stdin.
fn native_in(dir: &std::path::Path, program: &str) -> std::process::Output {
    std::fs::write(dir.join("program.ts"), program).unwrap();
    Command::new(node_that_strips_types())
        .arg("program.ts")
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("native Node.js runs")
}

#[test]
fn programs_observe_what_they_observe_under_node() {
    let scorer = common::scorer();
    let typescript = scorer
        .runners()
        .runtime("typescript")
        .expect("the TypeScript runtime");
    let mut failures = Vec::new();
    for (name, program) in PROGRAMS {
        let node = native(program);
        let ours = typescript.run(scorer.engine(), program, "", &CANDIDATE_DEFAULT, 0);
        failures.extend(common::unlike_node(name, &node, &ours));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn what_node_refuses_is_refused_with_its_message() {
    let scorer = common::scorer();
    let typescript = scorer
        .runners()
        .runtime("typescript")
        .expect("the TypeScript runtime");
    let mut failures = Vec::new();
    for (program, message) in REFUSED {
        let node = native(program);
        let ours = typescript.run(scorer.engine(), program, "", &CANDIDATE_DEFAULT, 0);
        let node_stderr = String::from_utf8_lossy(&node.stderr);
        let said = |stderr: &str| {
            stderr.contains(&format!(
                "SyntaxError [ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX]: {message}"
            ))
        };
        if node.status.code() != Some(1)
            || ours.exit_code != Some(1)
            || !said(&node_stderr)
            || !said(&ours.stderr)
            || !ours.stdout.is_empty()
        {
            failures.push(format!(
                "{program:?}:\n  node: exit {:?}, stderr {node_stderr:?}\n  ours: exit {:?}, stdout {:?}, stderr {:?}",
                node.status.code(),
                ours.exit_code,
                ours.stdout,
                ours.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A program that is not TypeScript fails as under Node (exit 1, `ERR_INVALID_TYPESCRIPT_SYNTAX`),
/// and says on which line.
#[test]
fn a_program_that_does_not_parse_fails_naming_its_line() {
    let scorer = common::scorer();
    let typescript = scorer
        .runners()
        .runtime("typescript")
        .expect("the TypeScript runtime");
    let program = "console.log(1);\nlet x: number = ;\n";
    let node = native(program);
    let ours = typescript.run(scorer.engine(), program, "", &CANDIDATE_DEFAULT, 0);
    assert_eq!(node.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&node.stderr).contains("ERR_INVALID_TYPESCRIPT_SYNTAX"));
    assert_eq!(ours.exit_code, Some(1), "{ours:?}");
    assert!(ours.stdout.is_empty(), "{ours:?}");
    assert!(
        ours.stderr.starts_with("program.ts:2\nlet x: number = ;\n")
            && ours
                .stderr
                .contains("SyntaxError [ERR_INVALID_TYPESCRIPT_SYNTAX]"),
        "{}",
        ours.stderr
    );
}

/// A TypeScript task's call tests: a typed candidate passes, a wrong one fails the cases it gets
/// wrong, and one Node would refuse fails every case with Node's message.
#[test]
fn typescript_call_tests_grade_typed_candidates() {
    let scorer = common::scorer();
    let task = json!({
        "id": "ts-add", "verifier": "code", "language": "ts",
        "tests": {"call": {"entry_point": "add", "cases": [
            {"args": [1, 2], "expected": 3}, {"args": [20, 22], "expected": 42}]}},
        "completions": [
            "```ts\nfunction add(a: number, b: number): number {\n  return (a as number) + b!;\n}\n```",
            "```typescript\nconst add = (a: number, b: number): number => a * b;\n```",
            "```ts\nenum Zero { Z }\nfunction add(a: number, b: number): number { return a + b; }\n```",
            "```ts\nfunction add(a: number, b: number): number { return a + b }\n```",
            // ES modules: exported, or only declared in the module's scope.
            "```ts\nimport * as fs from 'fs';\nexport function add(a: number, b: number): number { return a + b; }\n```",
            "```ts\nimport { readFileSync } from 'fs';\nconst add = (a: number, b: number): number => a + b;\n```",
        ],
    });
    let result = scorer.score_task(&Task::from_value(task).unwrap());
    assert!(result.status.is_none(), "{:?}", result.detail);
    let passed: Vec<bool> = result.results.iter().map(|r| r.passed).collect();
    assert_eq!(
        passed,
        [true, false, false, true, true, true],
        "{:?}",
        result.results
    );
    let wrong: Vec<CaseStatus> = result.results[1].cases.iter().map(|c| c.status).collect();
    assert_eq!(wrong, [CaseStatus::Wrong, CaseStatus::Wrong]);
    for case in &result.results[2].cases {
        assert!(
            case.detail
                .contains("TypeScript enum is not supported in strip-only mode"),
            "{case:?}"
        );
    }
}

/// A TypeScript task's stdio tests: the program reads stdin with its types stripped; a program
/// Node refuses fails each case with Node's message, as the candidate's fault.
#[test]
fn typescript_stdio_tests_grade_programs() {
    let scorer = common::scorer();
    let task = json!({
        "id": "ts-ab", "verifier": "code", "language": "typescript",
        "tests": {"stdio": [{"stdin": "40 2\n", "stdout": "42"}, {"stdin": "-1 1\n", "stdout": "0"}]},
        "completions": [
            "```ts\nconst [a, b]: number[] = (require('fs').readFileSync(0, 'utf8') as string).trim().split(/\\s+/).map(Number);\nconsole.log(a! + b!);\n```",
            "```ts\nclass Sum { constructor(private a: number) {} }\nconsole.log(42);\n```",
        ],
    });
    let result = scorer.score_task(&Task::from_value(task).unwrap());
    assert!(result.status.is_none(), "{:?}", result.detail);
    assert!(result.results[0].passed, "{:?}", result.results[0]);
    assert!(!result.results[1].passed);
    for case in &result.results[1].cases {
        assert_eq!(case.status, CaseStatus::ExitedNonzero, "{case:?}");
        assert!(
            case.detail
                .contains("TypeScript parameter property is not supported in strip-only mode"),
            "{case:?}"
        );
    }
}

/// What a policy might emit is graded as the candidate's: a source nested deeper than the
/// parser's stack, a megabyte of text, a type nested deep in an annotation. Each fails its cases
/// (the stripping runs in the candidate's sandbox, under its limits); none is a masked verifier
/// error, and the host's process goes on.
#[test]
fn hostile_sources_are_the_candidates_fault() {
    let scorer = common::scorer();
    let deep_parens = format!("const x = {}1{};", "(".repeat(200_000), ")".repeat(200_000));
    let deep_type = format!(
        "let t: {}number{} = 1;\nconsole.log(t);",
        "Array<".repeat(50_000),
        ">".repeat(50_000)
    );
    let huge = "let words: string = 'a';\n".to_string() + &"word ".repeat(220_000);
    let unclosed = format!(
        "function add(a: number, b: number): number {{ return a + b; {}",
        "{".repeat(100_000)
    );
    for (name, program) in [
        ("deep parentheses", deep_parens),
        ("a deep type", deep_type),
        ("a megabyte of words", huge),
        ("unclosed braces", unclosed),
    ] {
        let task = json!({
            "id": name, "verifier": "code", "language": "typescript",
            "tests": {"call": {"entry_point": "add", "cases": [{"args": [1, 2], "expected": 3}]}},
            "completions": [format!("```ts\n{program}\n```")],
        });
        let result = scorer.score_task(&Task::from_value(task).unwrap());
        assert!(
            result.status.is_none(),
            "{name}: masked: {:?}",
            result.detail
        );
        let completion = &result.results[0];
        assert!(!completion.passed, "{name}");
        for case in &completion.cases {
            // A stack the parser overflows traps (crashed); text that is not TypeScript is
            // Node's SyntaxError (exit 1).
            assert!(
                matches!(case.status, CaseStatus::Crashed | CaseStatus::ExitedNonzero),
                "{name}: {case:?}"
            );
        }
    }
}

/// SandboxFusion's `test_typescript_lodash_dep` program (a default import of lodash beside
/// `assert`), and a typed use of it, as `program.ts` under native Node beside a
/// `node_modules/lodash` holding the package file the runner ships: the same stdout and exit code.
#[test]
fn lodash_imports_as_under_node() {
    let scorer = common::scorer();
    let typescript = scorer
        .runners()
        .runtime("typescript")
        .expect("the TypeScript runtime");
    let dir = tempfile::tempdir().unwrap();
    common::install_npm_modules(dir.path());
    let mut failures = Vec::new();
    for (name, program) in [
        (
            "SandboxFusion's test_typescript_lodash_dep",
            "import _ from \"lodash\";\nimport assert from \"assert\";\n\nassert(_.isEqual(1, 1));\nconsole.log('done');\n",
        ),
        (
            "typed lodash calls",
            "import _ from 'lodash';\nconst xs: number[] = [3, 1, 2, 3];\nconst byParity: Record<string, number[]> = _.groupBy(xs, (x: number): string => (x % 2 ? 'odd' : 'even'));\nconsole.log(_.sortedUniq(_.sortBy(xs)), JSON.stringify(byParity), _.sumBy(xs, (x: number) => x * 2));\n",
        ),
    ] {
        let native = native_in(dir.path(), program);
        assert!(native.status.success(), "{name} under Node: {native:?}");
        let ours = typescript.run(scorer.engine(), program, "", &CANDIDATE_DEFAULT, 0);
        failures.extend(common::unlike_node(name, &native, &ours));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
