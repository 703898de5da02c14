//! `call` tests for C++, Rust and Go candidates: arguments read from the task's JSON by the
//! types of the entry point's declaration, sent to the candidate's program over the typed wire,
//! and its answers compared on the verifier's side by the declared return type.
//!
//! Each language gets the same kitchen-sink function (integers of 64 bits signed and unsigned,
//! floats with -0.0, NaN and the infinities, strings holding newlines, the wire's frame byte and
//! non-ASCII text, vectors, maps, optionals, tuples or multiple results, sets compared without
//! order), a right and a wrong program; then what a candidate can do wrong during a call (exit,
//! throw, loop, panic on overflow, print, return another type) and what a task can get wrong
//! (each reported as `invalid_task` naming its field).

use crate::common;

use rewardbox::CaseStatus;
use serde_json::{Value, json};

use common::{call_task as task, score_tasks as score};

fn statuses(result: &rewardbox::CompletionResult) -> Vec<CaseStatus> {
    result.cases.iter().map(|c| c.status).collect()
}

/// The kitchen-sink cases, the same in every language: the function returns the sum of `xs`,
/// `-x`, `s + "!"`, `xs` reversed, `m` with `m[s]` incremented, `c`, `u / 2` and `!flag`.
fn describe_cases() -> Value {
    json!([
        {"args": [[1, 2, 3], 1.5, "a\nb", {"a\nb": 1}, "z", 18446744073709551615u64, true],
         "expected": [6, -1.5, "a\nb!", [3, 2, 1], {"a\nb": 2}, "z", 9223372036854775807u64, false]},
        {"args": [[], {"$f": "nan"}, "", {}, null, 0, false],
         "expected": [0, {"$f": "nan"}, "!", [], {"": 1}, null, 0, true]},
        {"args": [[2147483647, 1, -9007199254740993i64], {"$f": "inf"}, "h\u{e9}llo\u{1e} \u{4e2d}", {"k": -5}, "q", 3, true],
         "expected": [-9007197107257345i64, {"$f": "-inf"}, "h\u{e9}llo\u{1e} \u{4e2d}!", [-9007199254740993i64, 1, 2147483647],
                      {"k": -5, "h\u{e9}llo\u{1e} \u{4e2d}": 1}, "q", 1, false]},
        {"args": [[5], -0.0, "x", {"x": 41}, "y", 8, false],
         "expected": [5, 0.0, "x!", [5], {"x": 42}, "y", 4, true]},
    ])
}

const CPP_DESCRIBE_DECLARATION: &str = "#include <bits/stdc++.h>\nusing namespace std;\ntypedef long long ll;\ntuple<ll, double, string, vector<ll>, map<string, int>, optional<char>, unsigned long long, bool> describe(const vector<ll>& xs, double x, string s, map<string, int> m, optional<char> c, unsigned long long u, bool flag) {\n";

const CPP_DESCRIBE: &str = r#"#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
tuple<ll, double, string, vector<ll>, map<string, int>, optional<char>, unsigned long long, bool> describe(const vector<ll>& xs, double x, string s, map<string, int> m, optional<char> c, unsigned long long u, bool flag) {
    ll sum = 0;
    for (ll v : xs) sum += v;
    m[s] += 1;
    printf("the candidate prints as it likes\n");
    return {sum, -x, s + "!", vector<ll>(xs.rbegin(), xs.rend()), m, c, u / 2, !flag};
}
int main() { puts("a main of its own is not in the way"); }
"#;

const RUST_DESCRIBE_DECLARATION: &str = "use std::collections::HashMap;\n\nfn describe(xs: &[i64], x: f64, s: &str, mut m: HashMap<String, i32>, c: Option<char>, u: u64, flag: bool) -> (i64, f64, String, Vec<i64>, HashMap<String, i32>, Option<char>, u64, bool) {\n";

const RUST_DESCRIBE: &str = r#"use std::collections::HashMap;

fn describe(xs: &[i64], x: f64, s: &str, mut m: HashMap<String, i32>, c: Option<char>, u: u64, flag: bool) -> (i64, f64, String, Vec<i64>, HashMap<String, i32>, Option<char>, u64, bool) {
    *m.entry(s.to_string()).or_insert(0) += 1;
    println!("the candidate prints as it likes");
    let reversed: Vec<i64> = xs.iter().rev().copied().collect();
    (xs.iter().sum(), -x, format!("{s}!"), reversed, m, c, u / 2, !flag)
}

fn main() {
    println!("{:?}", describe(&[1], 0.5, "a", HashMap::new(), None, 2, true));
}
"#;

const GO_DESCRIBE_DECLARATION: &str = "package main\n\nfunc Describe(xs []int, x float64, s string, m map[string]int, c *rune, u uint64, flag bool) (int, float64, string, []int, map[string]int, *rune, uint64, bool) {\n";

const GO_DESCRIBE: &str = r#"package main

import "fmt"

func main() {
	fmt.Println(Describe([]int{1}, 0.5, "a", map[string]int{}, nil, 2, true))
}

func Describe(xs []int, x float64, s string, m map[string]int, c *rune, u uint64, flag bool) (int, float64, string, []int, map[string]int, *rune, uint64, bool) {
	sum := 0
	reversed := []int{}
	for i := len(xs) - 1; i >= 0; i-- {
		sum += xs[i]
		reversed = append(reversed, xs[i])
	}
	m[s]++
	fmt.Println("the candidate prints as it likes")
	return sum, -x, s + "!", reversed, m, c, u / 2, !flag
}
"#;

fn wrong_program(right: &str) -> String {
    right.replace("!flag", "flag")
}

#[test]
fn every_type_crosses_and_is_compared_as_declared_in_each_language() {
    let cpp_wrong = wrong_program(CPP_DESCRIBE);
    let rust_wrong = wrong_program(RUST_DESCRIBE);
    let go_wrong = wrong_program(GO_DESCRIBE);
    let results = score(&[
        task(
            "cpp",
            CPP_DESCRIBE_DECLARATION,
            "describe",
            describe_cases(),
            &[CPP_DESCRIBE, &cpp_wrong],
        ),
        task(
            "rust",
            RUST_DESCRIBE_DECLARATION,
            "describe",
            describe_cases(),
            &[RUST_DESCRIBE, &rust_wrong],
        ),
        task(
            "go",
            GO_DESCRIBE_DECLARATION,
            "Describe",
            describe_cases(),
            &[GO_DESCRIBE, &go_wrong],
        ),
    ]);
    for result in &results {
        let id = result.id.as_deref().unwrap_or("?");
        assert_eq!(result.results.len(), 2, "{id}: {result:?}");
        let right = &result.results[0];
        assert_eq!(right.score, 1.0, "{id}: {:?}", right.cases);
        assert_eq!(right.cases.len(), 4, "{id}");
        let wrong = &result.results[1];
        assert_eq!(wrong.score, 0.0, "{id}: {:?}", wrong.cases);
        assert!(
            wrong.cases.iter().all(|c| c.status == CaseStatus::Wrong),
            "{id}: {:?}",
            wrong.cases
        );
        assert!(
            wrong.cases[0]
                .detail
                .contains("returned (6, -1.5, \"a\\nb!\"")
                && wrong.cases[0].detail.contains("expected (6, -1.5"),
            "{id}: {}",
            wrong.cases[0].detail
        );
    }
}

/// A language's dynamic values, each sent to an echoing candidate and back.
struct DynamicEcho<'a> {
    language: &'a str,
    declaration: &'a str,
    entry: &'a str,
    values: Vec<Value>,
    /// Returns its argument.
    echo: String,
    /// Returns some values as another type: the calls of `retyped` fail, each detail saying so.
    retyped: String,
    retyped_calls: Vec<(usize, &'a str)>,
    /// Returns a value of a type typed calls do not read, which every detail names.
    untyped: String,
    untyped_name: &'a str,
    /// A `$type` that cannot cross, and the name the task error gives.
    bad_type: Value,
    bad_name: &'a str,
}

/// Every value crosses as itself; the retyped ones fail where retyped, naming the held type; an
/// unread type is a wrong answer naming it; a bad `$type` is the task's fault, named.
fn check_dynamic_echo(d: &DynamicEcho) {
    let cases: Vec<Value> = d
        .values
        .iter()
        .map(|v| json!({"args": [v], "expected": v}))
        .collect();
    let results = score(&[task(
        d.language,
        d.declaration,
        d.entry,
        Value::Array(cases),
        &[&d.echo, &d.retyped, &d.untyped],
    )]);
    let result = &results[0];
    assert_eq!(result.status, None, "{:?}", result.detail);
    let right = &result.results[0];
    assert!(right.passed, "{:#?}", right.cases);
    assert_eq!(right.cases.len(), d.values.len());
    let wrong = &result.results[1];
    let failed: Vec<usize> = (0..d.values.len())
        .filter(|&i| wrong.cases[i].status != CaseStatus::Passed)
        .collect();
    let expected: Vec<usize> = d.retyped_calls.iter().map(|(i, _)| *i).collect();
    assert_eq!(failed, expected, "{:#?}", wrong.cases);
    for (i, shown) in &d.retyped_calls {
        assert!(
            wrong.cases[*i].detail.contains(shown),
            "{}",
            wrong.cases[*i].detail
        );
    }
    let odd = &result.results[2];
    assert!(
        odd.cases
            .iter()
            .all(|c| c.status == CaseStatus::Wrong && c.detail.contains(d.untyped_name)),
        "{:#?}",
        odd.cases
    );
    let bad = task(
        d.language,
        d.declaration,
        d.entry,
        json!([{"args": [d.bad_type], "expected": null}]),
        &[&d.echo],
    );
    let detail = common::invalid_detail(&score(&[bad])[0]);
    assert!(
        detail.contains("tests.call.cases[0].args[0]") && detail.contains(d.bad_name),
        "{detail}"
    );
}

#[test]
fn go_interface_values_cross_with_the_type_they_hold() {
    // Each value in an `interface{}`: JSON's own forms with the types Go gives its literals, and
    // `$type` for the others (HumanEval-X's Go/22, 92, 95, 112, 125, 136 use these).
    let values = [
        json!(1),
        json!(2.5),
        json!(6.0),
        json!("s"),
        json!(true),
        json!(null),
        json!([1, "a", null, []]),
        json!({"k": 1.5}),
        json!({"$type": "rune", "value": "c"}),
        json!({"$type": "int64", "value": -3}),
        json!({"$type": "uint8", "value": 255}),
        json!({"$type": "float32", "value": 0.5}),
        json!({"$type": "uint64", "value": 18446744073709551615u64}),
        json!({"$type": "[]string", "value": ["a", "b"]}),
        json!({"$type": "[]int", "value": []}),
        json!({"$type": "[2]interface{}", "value": [null, 1]}),
        json!({"$type": "map[interface{}]interface{}", "value": [[1, "a"], ["b", 2.5]]}),
        json!({"$type": "map[string]int", "value": {"x": 1}}),
        json!({"$type": "[][2]int", "value": [[1, 2]]}),
    ];
    let declaration = "package main\n\nfunc Echo(v interface{}) interface{} {\n";
    check_dynamic_echo(&DynamicEcho {
        language: "go",
        declaration,
        entry: "Echo",
        values: values.to_vec(),
        echo: format!("{declaration}\treturn v\n}}\n"),
        // An int comes back as an int64, a float64 as a float32.
        retyped: format!(
            "{declaration}\tswitch x := v.(type) {{\n\tcase int:\n\t\treturn int64(x)\n\tcase float64:\n\t\treturn float32(x)\n\t}}\n\treturn v\n}}\n"
        ),
        retyped_calls: vec![
            (0, "returned int64(1), expected 1"),
            (1, "returned float32(2.5), expected 2.5"),
            (2, "returned float32(6.0), expected 6.0"),
        ],
        untyped: format!("{declaration}\treturn complex(1, 2)\n}}\n"),
        untyped_name: "complex128",
        bad_type: json!({"$type": "complex128", "value": 1}),
        bad_name: "complex128",
    });
}

/// C++'s dynamic values (`std::any`, `boost::any`): each crosses with the type it holds, every
/// type of the wire's `DynamicTypes`, both ways.
#[test]
fn cpp_dynamic_values_cross_with_the_type_they_hold() {
    // JSON's own forms with the types C++ gives its literals, and `$type` for the others.
    let values = [
        json!(1),
        json!(2147483648i64),
        json!(2.5),
        json!("s"),
        json!(true),
        json!(null),
        json!([1, "a", null, []]),
        json!({"k": 1.5}),
        json!({"$type": "char", "value": "c"}),
        json!({"$type": "const char*", "value": "lit"}),
        json!({"$type": "float", "value": 0.5}),
        json!({"$type": "long double", "value": -0.0}),
        json!({"$type": "unsigned char", "value": 255}),
        json!({"$type": "unsigned long long", "value": 18446744073709551615u64}),
        json!({"$type": "vector<bool>", "value": [true, false]}),
        json!({"$type": "std::vector<std::string>", "value": ["a", "b"]}),
        json!({"$type": "list<any>", "value": [1, {"$type": "short", "value": -2}]}),
        json!({"$type": "map<int, int>", "value": [[1, 2], [3, 4]]}),
        json!({"$type": "pair<any, any>", "value": [{"$f": "nan"}, "x"]}),
    ];
    let declaration = "#include <any>\n#include <set>\n#include <string>\n#include <vector>\nusing namespace std;\nany echo(any v) {\n";
    check_dynamic_echo(&DynamicEcho {
        language: "cpp",
        declaration,
        entry: "echo",
        values: values.to_vec(),
        echo: format!("{declaration}    return v;\n}}\n"),
        // An int comes back as a long long, a float as a double.
        retyped: format!(
            "{declaration}    if (v.type() == typeid(int)) return (long long)any_cast<int>(v);\n    if (v.type() == typeid(float)) return (double)any_cast<float>(v);\n    return v;\n}}\n"
        ),
        retyped_calls: vec![
            (0, "returned long long(1), expected 1"),
            (10, "returned 0.5, expected float(0.5)"),
        ],
        // A value the wire does not carry.
        untyped: format!("{declaration}    return set<int>{{1}};\n}}\n"),
        untyped_name: "std::set<int",
        bad_type: json!({"$type": "set<int>", "value": [1]}),
        bad_name: "set<int>",
    });
}

/// HumanEval-X's CPP/22 (`vector<int> filter_integers(list_any values)`, a `std::list` of
/// `boost::any`) as call tests: its test's literals as cases, the canonical solution passing,
/// `return {}` and a solution that keeps characters too failing.
#[test]
fn humaneval_x_cpp_22_takes_call_tests() {
    let declaration = "#include<stdio.h>\n#include<math.h>\n#include<vector>\n#include<string>\n#include<boost/any.hpp>\n#include<list>\ntypedef std::list<boost::any> list_any;\nusing namespace std;\n#include<algorithm>\n#include<stdlib.h>\nvector<int> filter_integers(list_any values){\n";
    let char_of = |c: &str| json!({"$type": "char", "value": c});
    // `filter_integers({})`, `({4, {}, 23.2, 9, string("adasd")})`, `({3, 'c', 3, 3, 'a', 'b'})`.
    let cases = json!([
        {"args": [[]], "expected": []},
        {"args": [[4, null, 23.2, 9, "adasd"]], "expected": [4, 9]},
        {"args": [[3, char_of("c"), 3, 3, char_of("a"), char_of("b")]], "expected": [3, 3, 3]},
    ]);
    let canonical = format!(
        "{declaration}    list_any::iterator it;\n    boost::any anyone;\n    vector<int> out;\n    for (it=values.begin();it!=values.end();it++)\n    {{\n         anyone=*it;\n        if( anyone.type() == typeid(int) )\n           out.push_back(boost::any_cast<int>(*it));\n    }}\n    return out;\n}}\n"
    );
    let default = format!("{declaration}    return {{}};\n}}\n");
    let with_chars = format!(
        "{declaration}    vector<int> out;\n    for (auto& v : values) {{\n        if (v.type() == typeid(int)) out.push_back(boost::any_cast<int>(v));\n        else if (v.type() == typeid(char)) out.push_back(boost::any_cast<char>(v));\n    }}\n    return out;\n}}\n"
    );
    let result = &score(&[task(
        "cpp",
        declaration,
        "filter_integers",
        cases,
        &[&canonical, &default, &with_chars],
    )])[0];
    assert_eq!(result.status, None, "{:?}", result.detail);
    use CaseStatus::{Passed, Wrong};
    assert_eq!(
        statuses(&result.results[0]),
        [Passed; 3],
        "{}",
        result.results[0].detail
    );
    assert_eq!(statuses(&result.results[1]), [Passed, Wrong, Wrong]);
    assert_eq!(statuses(&result.results[2]), [Passed, Passed, Wrong]);
    assert!(
        result.results[2].cases[2]
            .detail
            .contains(r#"filter_integers([3, char("c"), 3, 3, char("a"), char("b")]) returned [3, 99, 3, 3, 97, 98]"#),
        "{}",
        result.results[2].cases[2].detail
    );
}

/// Structs the declaration defines (C++, Rust and Go) cross field by field, nested and in
/// containers; a C++ struct with constructors and methods too (they are not fields).
#[test]
fn structs_cross_as_their_fields() {
    let declaration = "#include <bits/stdc++.h>\nusing namespace std;\nstruct Point {\n    long long x, y;\n    Point() : x(0), y(0) {}\n    Point(long long a, long long b) : x(a), y(b) {}\n    Point moved(const Point& d) const { return Point(x + d.x, y + d.y); }\n};\nstruct Segment { Point a; Point b; string label; };\nvector<Point> endpoints(const vector<Segment>& segments, Point shift) {\n";
    let rust_declaration = "#[derive(Debug, Clone, Copy, PartialEq)]\npub struct Point {\n    pub x: i64,\n    pub y: i64,\n}\npub struct Segment { a: Point, b: Point, #[allow(dead_code)] label: String }\nfn endpoints(segments: Vec<Segment>, shift: Point) -> Vec<Point> {\n";
    let cases = json!([
        {"args": [[{"a": {"x": 1, "y": 2}, "b": [3, 4], "label": "s"}], {"x": 10, "y": -1}],
         "expected": [{"x": 11, "y": 1}, {"x": 13, "y": 3}]},
        {"args": [[], [0, 0]], "expected": []},
        {"args": [[{"a": [0, 0], "b": [-9223372036854775807i64, 5], "label": "\u{1e}\n"}], {"x": -1, "y": 0}],
         "expected": [[-1, 0], {"y": 5, "x": -9223372036854775808i64}]},
    ]);
    let right = format!(
        "{declaration}    vector<Point> out;\n    for (auto& s : segments) {{ out.push_back(s.a.moved(shift)); out.push_back(s.b.moved(shift)); }}\n    return out;\n}}\n"
    );
    // Shifts x only.
    let wrong = format!(
        "{declaration}    vector<Point> out;\n    for (auto& s : segments) {{ out.push_back(Point(s.a.x + shift.x, s.a.y)); out.push_back(Point(s.b.x + shift.x, s.b.y)); }}\n    return out;\n}}\n"
    );
    let rust_right = format!(
        "{rust_declaration}    segments.iter().flat_map(|s| [s.a, s.b]).map(|p| Point {{ x: p.x + shift.x, y: p.y + shift.y }}).collect()\n}}\n"
    );
    let rust_wrong = format!(
        "{rust_declaration}    segments.iter().flat_map(|s| [s.a, s.b]).map(|p| Point {{ x: p.x + shift.x, y: p.y }}).collect()\n}}\n"
    );
    let results = score(&[
        task(
            "cpp",
            declaration,
            "endpoints",
            cases.clone(),
            &[&right, &wrong],
        ),
        task(
            "rust",
            rust_declaration,
            "endpoints",
            cases,
            &[&rust_right, &rust_wrong],
        ),
    ]);
    for result in &results {
        assert_eq!(result.status, None, "{:?}", result.detail);
        use CaseStatus::{Passed, Wrong};
        assert_eq!(
            statuses(&result.results[0]),
            [Passed; 3],
            "{}",
            result.results[0].detail
        );
        assert_eq!(statuses(&result.results[1]), [Wrong, Passed, Passed]);
        let detail = &result.results[1].cases[0].detail;
        assert!(
            detail.contains(r#"endpoints([Segment{a: Point{x: 1, y: 2}, b: Point{x: 3, y: 4}, label: "s"}], Point{x: 10, y: -1}) returned [Point{x: 11, y: 2}, Point{x: 13, y: 4}], expected [Point{x: 11, y: 1}"#),
            "{detail}"
        );
    }
    // Go: the same problem, its fields exported (capitalised), as Go's wire reads only those.
    let go_declaration = "package main\n\ntype Point struct {\n\tX, Y int64\n}\n\ntype Segment struct {\n\tA, B  Point\n\tLabel string `json:\"label\"`\n}\n\nfunc Endpoints(segments []Segment, shift Point) []Point {\n";
    let go_cases = json!([
        {"args": [[{"A": {"X": 1, "Y": 2}, "B": [3, 4], "Label": "s"}], {"X": 10, "Y": -1}],
         "expected": [{"X": 11, "Y": 1}, {"X": 13, "Y": 3}]},
        {"args": [[], [0, 0]], "expected": []},
    ]);
    let go_program = |shift_y: &str| {
        format!(
            "{go_declaration}\tvar out []Point\n\tfor _, s := range segments {{\n\t\tfor _, p := range []Point{{s.A, s.B}} {{\n\t\t\tout = append(out, Point{{p.X + shift.X, p.Y{shift_y}}})\n\t\t}}\n\t}}\n\treturn out\n}}\n"
        )
    };
    let result = &score(&[task(
        "go",
        go_declaration,
        "Endpoints",
        go_cases,
        &[&go_program(" + shift.Y"), &go_program("")],
    )])[0];
    assert_eq!(result.status, None, "{:?}", result.detail);
    use CaseStatus::{Passed, Wrong};
    assert_eq!(
        statuses(&result.results[0]),
        [Passed; 2],
        "{}",
        result.results[0].detail
    );
    assert_eq!(statuses(&result.results[1]), [Wrong, Passed]);
    let detail = &result.results[1].cases[0].detail;
    assert!(
        detail.contains(r#"Endpoints([Segment{A: Point{X: 1, Y: 2}, B: Point{X: 3, Y: 4}, Label: "s"}], Point{X: 10, Y: -1}) returned [Point{X: 11, Y: 2}"#),
        "{detail}"
    );
    // A case that does not fill a struct is the task's fault, naming the field.
    for (case, why) in [
        (
            json!({"args": [[], {"x": 1}], "expected": []}),
            "has no `y` (a field of `Point`)",
        ),
        (
            json!({"args": [[], {"x": 1, "y": 2, "z": 3}], "expected": []}),
            "`Point` has no field `z`",
        ),
        (
            json!({"args": [[], {"x": 1, "y": "2"}], "expected": []}),
            "`Point.y`",
        ),
    ] {
        let bad = task("cpp", declaration, "endpoints", json!([case]), &[&right]);
        let detail = common::invalid_detail(&score(&[bad])[0]);
        assert!(
            detail.contains("tests.call.cases[0].args[1]") && detail.contains(why),
            "{detail}"
        );
    }
}

#[test]
fn sets_and_maps_compare_without_order_and_floats_by_value() {
    let cpp = task(
        "cpp",
        "#include <set>\n#include <vector>\nusing namespace std;\nset<int> uniq(vector<int> xs) {\n",
        "uniq",
        json!([
            {"args": [[3, 1, 3, 2]], "expected": [2, 3, 1]},
            {"args": [[]], "expected": {"$s": []}},
            {"args": [[7, 7]], "expected": [7, 7]},
        ]),
        &[
            "#include <set>\n#include <vector>\nusing namespace std;\nset<int> uniq(vector<int> xs) { return set<int>(xs.begin(), xs.end()); }\n",
        ],
    );
    let mut tolerant = task(
        "rust",
        "fn third(x: f64) -> f64 {\n",
        "third",
        json!([{"args": [1.0], "expected": 0.3333333}, {"args": [0.0], "expected": -0.0}]),
        &["fn third(x: f64) -> f64 { x / 3.0 }\n"],
    );
    tolerant["tests"]["float_tolerance"] = json!(1e-6);
    let results = score(&[cpp, tolerant]);
    assert_eq!(
        statuses(&results[0].results[0]),
        [CaseStatus::Passed, CaseStatus::Passed, CaseStatus::Wrong],
        "{:?}",
        results[0].results[0].cases
    );
    assert_eq!(
        results[1].results[0].score, 1.0,
        "{:?}",
        results[1].results[0].cases
    );
}

#[test]
fn a_candidate_that_fails_one_call_fails_that_call_only() {
    let declaration = "#include <cstdlib>\n#include <stdexcept>\nint f(int x) {\n";
    let cases = json!([
        {"args": [1], "expected": 2}, {"args": [2], "expected": 4}, {"args": [3], "expected": 6},
        {"args": [4], "expected": 8},
    ]);
    let exits = "#include <cstdlib>\nint f(int x) { if (x == 2) exit(0); return 2 * x; }\n";
    let throws = "#include <stdexcept>\nint f(int x) { if (x == 3) throw std::invalid_argument(\"three\"); return 2 * x; }\n";
    let loops = "int f(int x) { volatile int spin = 0; while (x == 1) spin++; return 2 * x; }\n";
    let crashes = "int f(int x) { if (x == 4) { int* p = nullptr; return *p; } return 2 * x; }\n";
    let forges = "#include <cstdio>\nint f(int x) { printf(\"\\x1eR 999 \\n\"); return 2 * x; }\n";
    let other_type = "double f(int x) { return 2.0 * x; }\n";
    let does_not_compile = "int f(int x) { return y; }\n";
    let mut t = task(
        "cpp",
        declaration,
        "f",
        cases,
        &[
            exits,
            throws,
            loops,
            crashes,
            forges,
            other_type,
            does_not_compile,
        ],
    );
    t["candidate_limits"] = json!({"fuel": 1_000_000_000u64});
    let results = score(&[t]);
    let r = &results[0].results;
    use CaseStatus::*;
    assert_eq!(
        statuses(&r[0]),
        [Passed, ExitedNonzero, Passed, Passed],
        "{:?}",
        r[0].cases
    );
    assert_eq!(
        statuses(&r[1]),
        [Passed, Passed, ExitedNonzero, Passed],
        "{:?}",
        r[1].cases
    );
    assert!(
        r[1].cases[2].detail.contains("threw: three"),
        "{:?}",
        r[1].cases
    );
    assert_eq!(
        statuses(&r[2]),
        [FuelExhausted, Passed, Passed, Passed],
        "{:?}",
        r[2].cases
    );
    assert_eq!(
        statuses(&r[3]),
        [Passed, Passed, Passed, Crashed],
        "{:?}",
        r[3].cases
    );
    // Forged frames are the candidate's own answers: they gain it nothing.
    assert_eq!(r[4].score, 0.0, "{:?}", r[4].cases);
    assert_eq!(
        statuses(&r[5]),
        [Wrong, Wrong, Wrong, Wrong],
        "{:?}",
        r[5].cases
    );
    assert!(
        r[5].cases[0]
            .detail
            .contains("not a value of the declared type")
    );
    assert_eq!(statuses(&r[6]), [CompileError; 4], "{:?}", r[6].cases);
}

#[test]
fn rust_overflow_panics_as_under_cargo_test_unless_release_semantics_are_asked() {
    let declaration = "fn add(a: i32, b: i32) -> i32 {\n";
    let cases = json!([
        {"args": [2147483647, 1], "expected": -2147483648},
        {"args": [2, 3], "expected": 5},
    ]);
    let program = "fn add(a: i32, b: i32) -> i32 { a + b }\n";
    let results = score(&[
        task("rust", declaration, "add", cases.clone(), &[program]),
        task("rust-release", declaration, "add", cases, &[program]),
    ]);
    let debug = &results[0].results[0];
    assert_eq!(
        statuses(debug),
        [CaseStatus::Crashed, CaseStatus::Passed],
        "{:?}",
        debug.cases
    );
    assert!(
        debug.cases[0]
            .detail
            .contains("add(2147483647, 1): the program ended during the call (exit code 101)"),
        "{:?}",
        debug.cases
    );
    assert_eq!(
        results[1].results[0].score, 1.0,
        "{:?}",
        results[1].results[0].cases
    );
}

#[test]
fn a_task_the_declaration_cannot_type_is_invalid_and_names_the_field() {
    let int_f = "int f(int x) {\n";
    let table: Vec<(Value, &str)> = vec![
        (
            task(
                "cpp",
                int_f,
                "f",
                json!([{"args": ["one"], "expected": 1}]),
                &["int f(int x) { return x; }"],
            ),
            "tests.call.cases[0].args[0]",
        ),
        (
            task(
                "cpp",
                int_f,
                "f",
                json!([{"args": [1, 2], "expected": 1}]),
                &["int f(int x) { return x; }"],
            ),
            "tests.call.cases[0].args",
        ),
        (
            task(
                "cpp",
                int_f,
                "f",
                json!([{"args": [1], "expected": 3000000000u64}]),
                &["int f(int x) { return x; }"],
            ),
            "tests.call.cases[0].expected",
        ),
        (
            task(
                "cpp",
                // A struct with an array member: no plain struct.
                "struct P { int x[3]; };\nint f(P p) {\n",
                "f",
                json!([{"args": [{}], "expected": 1}]),
                &["int f(P p) { return 1; }"],
            ),
            "cannot cross",
        ),
        (
            task(
                "go",
                "package main\n\nfunc F(x chan int) int {\n",
                "F",
                json!([{"args": [1], "expected": 1}]),
                &["package main\nfunc F(x chan int) int { return 1 }\n"],
            ),
            "cannot cross",
        ),
        (
            task(
                "cpp",
                "int g(int x) {\n",
                "f",
                json!([{"args": [1], "expected": 1}]),
                &["int f(int x) { return x; }"],
            ),
            "does not define `f`",
        ),
        (
            json!({"id": "no-declaration", "verifier": "code", "language": "rust",
                   "tests": {"call": {"entry_point": "f", "cases": [{"args": [1], "expected": 1}]}},
                   "completions": ["fn f(x: i32) -> i32 { x }"]}),
            "tests.declaration",
        ),
        (
            task(
                "c",
                "int f(int* xs) {\n",
                "f",
                json!([{"args": [[1]], "expected": 1}]),
                &["int f(int* xs) { return xs[0]; }"],
            ),
            "`int* nums, int numsSize`",
        ),
        (
            task(
                "c",
                "int f(char c) {\n",
                "f",
                json!([{"args": ["ab"], "expected": 1}]),
                &["int f(char c) { return c; }"],
            ),
            "tests.call.cases[0].args[0]",
        ),
    ];
    let tasks: Vec<Value> = table.iter().map(|(t, _)| t.clone()).collect();
    let results = score(&tasks);
    for ((_, field), result) in table.iter().zip(&results) {
        let detail = common::invalid_detail(result);
        assert!(detail.contains(field), "{field}: {detail}");
    }
}

/// A huge completion that is no program (the audit's `huge` attack: 1.1 MB of words) is the
/// candidate's compile error, in every compiled language, for call tests and test code alike:
/// never a verifier that ran out of fuel reading it (a masked result the policy would learn
/// nothing from). Go's program text was blanked character by character, 4 times.
#[test]
fn a_huge_completion_is_a_compile_error_not_a_verifier_failure() {
    let huge = "the answer is unknown ".repeat(50_000);
    let go_asserts = json!({
        "id": "go-asserts", "verifier": "code", "language": "go", "extract": "whole",
        "tests": {"asserts": "package main\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fail()\n\t}\n}\n",
                  "declaration": "package main\n\nfunc Add(a int, b int) int {\n"},
        "completions": [huge.clone()],
    });
    let results = score(&[
        task(
            "go",
            "package main\n\nfunc Add(a int, b int) int {\n",
            "Add",
            json!([{"args": [1, 2], "expected": 3}]),
            &[&huge],
        ),
        task(
            "cpp",
            "int add(int a, int b) {\n",
            "add",
            json!([{"args": [1, 2], "expected": 3}]),
            &[&huge],
        ),
        task(
            "rust",
            "fn add(a: i32, b: i32) -> i32 {\n",
            "add",
            json!([{"args": [1, 2], "expected": 3}]),
            &[&huge],
        ),
        go_asserts,
    ]);
    for result in &results {
        let r = &result.results[0];
        assert_eq!(
            r.status,
            rewardbox::Status::Ok,
            "{:?}: {}",
            result.id,
            r.detail
        );
        assert!(!r.mask, "{:?}", result.id);
        assert_eq!(
            statuses(r),
            [CaseStatus::CompileError],
            "{:?}: {:?}",
            result.id,
            r.cases
        );
    }
}

/// Python call tests with values JSON cannot carry (value JSON's tags: tuples, sets, frozensets,
/// dicts with any keys, NaN and the infinities, bytes) are compared with Python's own `==`: a
/// tuple is not a list, a set equals a set in any order. Plain JSON call tests keep JSON's
/// comparison (a tuple returned equals the list expected).
#[test]
fn python_call_values_beyond_json_are_compared_by_python() {
    let python = |cases: Value, programs: &[&str]| {
        json!({
            "id": "py", "verifier": "code",
            "tests": {"call": {"entry_point": "f", "cases": cases}},
            "completions": programs.iter().map(|p| format!("```python\n{p}\n```")).collect::<Vec<_>>(),
        })
    };
    let tuples = json!([
        {"args": [{"$t": [1, 2]}], "expected": {"$t": [2, 1]}},
        {"args": [[3]], "expected": {"$t": [3]}},
    ]);
    let sets = json!([
        {"args": [[3, 1, 3]], "expected": {"$s": [1, 3]}},
        {"args": [[]], "expected": {"$s": []}},
    ]);
    let keyed = json!([
        {"args": [{"$d": [[{"$t": [1, 2]}, "a"]]}], "expected": {"$fs": [{"$t": [1, 2]}]}},
    ]);
    let floats_and_bytes = json!([
        {"args": [{"$f": "nan"}, {"$b": "AAE="}], "expected": {"$t": [true, {"$b": "AQA="}]}},
        {"args": [{"$f": "-inf"}, {"$b": ""}], "expected": {"$t": [false, {"$b": ""}]}},
    ]);
    let results = score(&[
        python(
            tuples,
            &[
                "def f(xs):\n    return tuple(reversed(xs))",
                "def f(xs):\n    return list(reversed(xs))",
            ],
        ),
        python(
            sets,
            &[
                "def f(xs):\n    return set(xs)",
                "def f(xs):\n    return sorted(set(xs))",
            ],
        ),
        python(keyed, &["def f(d):\n    return frozenset(d)"]),
        python(
            floats_and_bytes,
            &["def f(x, b):\n    return (x != x, b[::-1])"],
        ),
        python(
            json!([{"args": [[1, 2]], "expected": [2, 1]}]),
            &["def f(xs):\n    return tuple(reversed(xs))"],
        ),
        python(
            json!([{"args": [{"$f": "nan!"}], "expected": 1}]),
            &["def f(x):\n    return 1"],
        ),
    ]);
    let scores = |i: usize| -> Vec<f64> { results[i].results.iter().map(|r| r.score).collect() };
    assert_eq!(scores(0), [1.0, 0.0], "{:?}", results[0]);
    assert!(
        results[0].results[1].cases[0].detail.contains("[2, 1]"),
        "{:?}",
        results[0].results[1].cases
    );
    assert_eq!(scores(1), [1.0, 0.0], "{:?}", results[1]);
    assert_eq!(scores(2), [1.0], "{:?}", results[2]);
    assert_eq!(scores(3), [1.0], "{:?}", results[3]);
    assert_eq!(
        scores(4),
        [1.0],
        "plain JSON keeps JSON's comparison: {:?}",
        results[4]
    );
    assert_eq!(
        results[5].status,
        Some(rewardbox::Status::InvalidTask),
        "{:?}",
        results[5]
    );
    assert!(
        results[5]
            .detail
            .as_deref()
            .unwrap_or("")
            .contains("tests.call.cases[0]")
    );
}

/// `"record": true`: no expected values; each call that returns passes with the value as a task
/// writes it (read back as the same value: the recorded values, made expected, pass the same
/// program and fail another), a call that throws is not recorded, and a language without typed
/// calls is refused naming the field.
#[test]
fn recorded_calls_give_the_values_a_task_writes() {
    let declaration = "#include <string>\n#include <tuple>\n#include <vector>\nusing namespace std;\ntuple<vector<int>, string, double> split(int n) {\n";
    let program = format!(
        "{declaration}    if (n < 0) throw n;\n    vector<int> v;\n    for (int i = 0; i < n; i++) v.push_back(i * i);\n    return {{v, string(n, 'x'), n / 4.0}};\n}}\n"
    );
    let args = [json!([3]), json!([0]), json!([-1])];
    let mut recording = task(
        "cpp",
        declaration,
        "split",
        args.iter().map(|a| json!({"args": a})).collect(),
        &[&program],
    );
    recording["tests"]["call"]["record"] = json!(true);
    let recorded = &score(&[recording])[0].results[0];
    let details: Vec<(CaseStatus, &str)> = recorded
        .cases
        .iter()
        .map(|c| (c.status, c.detail.as_str()))
        .collect();
    assert_eq!(
        details[0],
        (CaseStatus::Passed, r#"{"$t":[[0,1,4],"xxx",0.75]}"#)
    );
    assert_eq!(details[1], (CaseStatus::Passed, r#"{"$t":[[],"",0.0]}"#));
    assert_ne!(details[2].0, CaseStatus::Passed, "{:?}", details[2]);
    // The recorded values as expected ones: the program passes, a program off by one does not.
    let cases: Vec<Value> = args[..2]
        .iter()
        .zip(&recorded.cases)
        .map(|(a, c)| json!({"args": a, "expected": serde_json::from_str::<Value>(&c.detail).unwrap()}))
        .collect();
    let wrong = program.replace("i * i", "i * i + (i == 2)");
    let judged = &score(&[task(
        "cpp",
        declaration,
        "split",
        Value::Array(cases),
        &[&program, &wrong],
    )])[0];
    assert!(judged.results[0].passed, "{:#?}", judged.results[0].cases);
    assert!(!judged.results[1].passed);
    let python = json!({"id": "py", "verifier": "code", "language": "python",
        "tests": {"call": {"entry_point": "f", "record": true, "cases": [{"args": [1]}]}},
        "completions": ["def f(x):\n    return x\n"]});
    let detail = common::invalid_detail(&score(&[python])[0]);
    assert!(detail.contains("tests.call.record"), "{detail}");
    // Also where the arguments hold tagged values (which Python call tests otherwise read as
    // asserts).
    let tagged = json!({"id": "py", "verifier": "code", "language": "python",
        "tests": {"call": {"entry_point": "f", "record": true, "cases": [{"args": [{"$t": [1, 2]}]}]}},
        "completions": ["def f(x):\n    return x\n"]});
    let detail = common::invalid_detail(&score(&[tagged])[0]);
    assert!(detail.contains("tests.call.record"), "{detail}");
}
