//! The stripper on one construct at a time. What Node does with the same programs is proven in
//! the runtime's tests (`crates/rewardbox/tests/all/typescript_node.rs`, the JavaScript runner beside native Node).

use super::*;

/// `text` with each run of spaces made one, and the spaces at line ends dropped.
fn squeezed(text: &str) -> String {
    text.lines()
        .map(|line| {
            line.split(' ')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Strips `source`, checks that every line break stayed where it was, and squeezes the result.
fn stripped(source: &str) -> String {
    let out = strip(source)
        .unwrap_or_else(|e| panic!("{source:?} was refused:\n{e}"))
        .code;
    assert_eq!(out.len(), source.len(), "{source:?} → {out:?}");
    let breaks = |s: &str| s.match_indices('\n').map(|(i, _)| i).collect::<Vec<_>>();
    assert_eq!(breaks(&out), breaks(source), "{source:?} → {out:?}");
    squeezed(&out)
}

#[test]
fn types_are_blanked_where_they_stand() {
    let table = [
        ("let x: number = 1;", "let x = 1;"),
        (
            "function f(a: number, b?: string): boolean { return !b }",
            "function f(a , b ) { return !b }",
        ),
        ("const g = <T,>(a: T): T => a;", "const g = (a ) => a;"),
        (
            "const h = async (a: number): Promise<number> => a;",
            "const h = async (a ) => a;",
        ),
        (
            "f<number>(1); new Map<string, number[]>();",
            "f (1); new Map ();",
        ),
        ("let y = x as unknown as string;", "let y = x ;"),
        ("let z = [1] as const;", "let z = [1] ;"),
        ("let w = v satisfies number;", "let w = v ;"),
        ("let n = m!.length + k!;", "let n = m .length + k ;"),
        ("let d!: number;", "let d ;"),
        (
            "function t(this: Window, a: number) {}",
            "function t( a ) {}",
        ),
        ("function u(this: Window) {}", "function u( ) {}"),
        ("try {} catch (e: unknown) {}", "try {} catch (e ) {}"),
        (
            "for (const [k, v]: [string, number] of []) {}",
            "for (const [k, v] of []) {}",
        ),
        (
            "const o = { m<T>(a: T): T { return a } };",
            "const o = { m (a ) { return a } };",
        ),
        (
            "function* gen(): Generator<number> { yield 1 }",
            "function* gen() { yield 1 }",
        ),
        (
            "let fn: (a: number) => void = () => {};",
            "let fn = () => {};",
        ),
        ("let i = f<string>;", "let i = f ;"),
    ];
    for (source, expected) in table {
        assert_eq!(stripped(source), expected, "{source}");
    }
}

#[test]
fn type_only_declarations_become_empty_statements() {
    let table = [
        ("type T = number;\nlet a = 1;", ";\nlet a = 1;"),
        ("interface I { a: number }\nlet a = 1;", ";\nlet a = 1;"),
        ("let a = 1\ntype T = number\n(f)(a)", "let a = 1\n;\n(f)(a)"),
        ("declare const c: number;", ";"),
        ("declare function d(a: number): void;", ";"),
        ("declare class C { m(): void }", ";"),
        ("declare enum E { A }", ";"),
        ("declare namespace N { const a: number }", ";"),
        ("declare global { interface W {} }", ";"),
        ("declare module 'm' { export const a: number }", ";"),
        ("namespace N { export type A = number; }", ";"),
        (
            "function o(a: number): number;\nfunction o(a: any) { return a }",
            ";\nfunction o(a ) { return a }",
        ),
        ("export type { A } from './a';", ";"),
        ("export interface I {}", ";"),
        ("export declare const e: number;", ";"),
        ("import type { A } from './a';", ";"),
        (
            "import { type A, B } from './a';",
            "import { B } from './a';",
        ),
        ("export { type A, B };", "export { B };"),
        ("export default interface I {}", ";"),
        ("import type X = require('x');", ";"),
    ];
    for (source, expected) in table {
        assert_eq!(stripped(source), expected, "{source}");
    }
}

#[test]
fn classes_keep_what_javascript_has() {
    let table = [
        (
            "abstract class A<T> extends B<T> implements I, J<T> { abstract m(): void; private static readonly z?: number = 3; }",
            "class A extends B { ; static z = 3; }",
        ),
        (
            "class C { declare y: string; [k: string]: any; x!: number; public get v(): number { return 1 } }",
            "class C { ; ; x ; get v() { return 1 } }",
        ),
        (
            "class D { m(a: number): void;\nm(a: any) {}\nprotected override n?(): void {} }",
            "class D { ;\nm(a ) {}\nn () {} }",
        ),
        (
            "class E { constructor(a: number) {} }",
            "class E { constructor(a ) {} }",
        ),
        (
            "class F { readonly = 1; private = 2 }",
            "class F { readonly = 1; private = 2 }",
        ),
        ("export abstract class G {}", "export class G {}"),
        ("const H = class<T> implements I {};", "const H = class {};"),
    ];
    for (source, expected) in table {
        assert_eq!(stripped(source), expected, "{source}");
    }
}

/// A return type that spans lines takes the `)` with it, or `=>` would start a line.
#[test]
fn an_arrow_keeps_its_arrow_on_the_line_of_its_parenthesis() {
    let out = strip("const f = (a: number):\n  number => a + 1")
        .unwrap()
        .code;
    assert_eq!(squeezed(&out), "const f = (a\n) => a + 1");
    let out = strip("const g = (a: number): number => a").unwrap().code;
    assert_eq!(squeezed(&out), "const g = (a ) => a");
}

#[test]
fn what_needs_generated_code_is_refused_as_node_refuses_it() {
    let table = [
        (
            "enum E { A }",
            "TypeScript enum is not supported in strip-only mode",
            1,
            1,
        ),
        (
            "const enum E { A }",
            "TypeScript enum is not supported in strip-only mode",
            1,
            1,
        ),
        (
            "let a = 1;\nexport enum E { A }",
            "TypeScript enum is not supported in strip-only mode",
            2,
            8,
        ),
        (
            "function f() {\n  enum E { A }\n}",
            "TypeScript enum is not supported in strip-only mode",
            2,
            3,
        ),
        (
            "namespace N { export const a = 1 }",
            "TypeScript namespace declaration is not supported in strip-only mode",
            1,
            1,
        ),
        (
            "module M {}",
            "`module` keyword is not supported. Use `namespace` instead.",
            1,
            1,
        ),
        (
            "class A { constructor(public x: number) {} }",
            "TypeScript parameter property is not supported in strip-only mode",
            1,
            23,
        ),
        (
            "import fs = require('fs');",
            "TypeScript import equals declaration is not supported in strip-only mode",
            1,
            1,
        ),
        (
            "const x = 1;\nexport = x;",
            "TypeScript export assignment is not supported in strip-only mode",
            2,
            1,
        ),
        (
            "let v = <number>w;",
            declarations::ANGLE_BRACKET_ASSERTION,
            1,
            9,
        ),
    ];
    for (source, message, line, column) in table {
        let error = strip(source).expect_err(source);
        assert_eq!(error.code, UNSUPPORTED, "{source}");
        assert_eq!(error.message, message, "{source}");
        assert_eq!((error.line, error.column), (line, column), "{source}");
    }
}

#[test]
fn a_program_that_does_not_parse_says_where() {
    let error = strip("let a = 1;\nlet x: number = ;\n").unwrap_err();
    assert_eq!(error.code, INVALID);
    assert_eq!(error.line, 2);
    assert_eq!(error.source_line, "let x: number = ;");
    let shown = error.to_string();
    assert!(
        shown.starts_with("program.ts:2\nlet x: number = ;\n"),
        "{shown}"
    );
    assert!(
        shown.contains("SyntaxError [ERR_INVALID_TYPESCRIPT_SYNTAX]: "),
        "{shown}"
    );
}

/// JavaScript is TypeScript: a program without types comes out as it went in, whatever it
/// holds (regular expressions, templates, `<` comparisons, a top-level `return` as CommonJS
/// allows, text that is not ASCII).
#[test]
fn plain_javascript_is_unchanged() {
    let programs = [
        "const re = /a<b>c/g; console.log(`x ${1 < 2} y`, 1 < 2 > 0);",
        "if (process.argv.length > 9) return;\nconsole.log('héllo wörld ✓')",
        "class A { static #p = 1; get x() { return A.#p } }",
        "const { a, b: [c] } = { a: 1, b: [2] }; label: for (;;) { break label }",
    ];
    for program in programs {
        assert_eq!(strip(program).unwrap().code, program);
    }
}

/// Types written with characters beyond ASCII blank to one space a byte: the output is still
/// text, the same length in bytes.
#[test]
fn types_beyond_ascii_blank_whole() {
    let source = "let s: 'é' | \"✓\" = 'é';\nconst f = (a: number):\n  Ñ => a";
    let out = strip(source).unwrap().code;
    assert_eq!(out.len(), source.len());
    assert_eq!(squeezed(&out), "let s = 'é';\nconst f = (a\n) => a");
}

/// Node's module detection: a file that imports or exports is an ES module, any other is
/// CommonJS (its `require`, a top-level `return`), for TypeScript and JavaScript alike.
#[test]
fn es_modules_are_told_from_commonjs_as_node_tells_them() {
    let table = [
        ("import * as fs from 'fs';\nconsole.log(1)", true),
        ("import { readFileSync } from 'node:fs';", true),
        ("export const a = 1;", true),
        ("export {};", true),
        ("console.log(import.meta.url)", true),
        ("const fs = require('fs');\nif (!fs) return;", false),
        ("const s = 'import x from \"y\"'; // export", false),
        ("const m = import('fs');", false),
    ];
    for (source, module) in table {
        assert_eq!(is_es_module(source), module, "{source}");
        assert_eq!(strip(source).unwrap().es_module, module, "{source}");
    }
    // Node decides on what remains: a type-only import leaves CommonJS; a top-level `await`
    // parses only as a module.
    assert!(
        !strip("import type { A } from './a';\nlet a: A;")
            .unwrap()
            .es_module
    );
    assert!(
        strip("await Promise.resolve(1 as number);")
            .unwrap()
            .es_module
    );
    assert!(is_es_module("await Promise.resolve(1);"));
    assert!(!is_es_module("async function f() { await 1 }"));
}
