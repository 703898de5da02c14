//! HumanEval-X's C++ and Rust problems (`tests/data/humaneval-x`, as the benchmark ships them)
//! graded by their own test code, as written, in a trusted program calling the live candidate:
//! on a selection of problems (every tenth, and the property checks that draw random inputs),
//! every canonical solution passes, every `return <default>` fails, and each verdict is the one
//! the native toolchain gives on the same program (CodeGeeX's concatenation of prompt,
//! completion and test, compiled by g++ / `rustc --test` and run).
//!
//! Then what the benchmarks' own harnesses cannot promise: values of every type cross exactly
//! (-0.0, NaN, the infinities, 64-bit and unsigned integers, maps, sets, tuples, optionals), a
//! candidate cannot end the test run as passed (exiting, forging the wire's frames or the
//! report), each assert is a case, and Rust overflows panic as under `cargo test`.

use crate::common;
use crate::humaneval_x_data;

use humaneval_x_data::{case_statuses, go_test_natively, problems, rows, score};
use rewardbox::CaseStatus;

use rewardbox_import::humanevalx::Problem;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

/// Problems that cannot be graded here, each with a word of the reason reported for it: the
/// test calls a function the declaration does not declare, or passes values that are not data
/// (`dyn Any`).
const NOT_GRADABLE_HERE: &[(&str, &str)] = &[("Rust/22", "dyn Any"), ("Rust/137", "entry_point")];

/// Problems whose test code, as the benchmark ships it, checks nothing: every program passes,
/// natively too.
const VACUOUS: &[(&str, &str)] = &[("Rust/32", "the whole test module is commented out")];

/// Every tenth problem, and the ones whose test draws random inputs (a property check), less
/// [`NOT_GRADABLE_HERE`].
fn selection(language: &str, property_checks: &[usize]) -> Vec<(Problem, String)> {
    let all = problems(language);
    assert_eq!(all.len(), 164);
    let mut picked: Vec<usize> = (0..164)
        .step_by(10)
        .chain(property_checks.iter().copied())
        .filter(|&i| {
            !NOT_GRADABLE_HERE
                .iter()
                .any(|(id, _)| *id == all[i].task_id)
        })
        .collect();
    picked.sort_unstable();
    picked.dedup();
    let raw = rows(language);
    picked
        .into_iter()
        .map(|i| (all[i].clone(), raw[i]["test"].as_str().unwrap().to_string()))
        .collect()
}

/// `return <default>` of any return type, closing the function.
fn default_completion(language: &str) -> &'static str {
    match language {
        "cpp" => "    return {};\n}\n",
        _ => "    return Default::default();\n}\n",
    }
}

/// The crates rewardbox links Rust candidates with, built for this machine (CodeGeeX's harness
/// builds its tests with `rand`, `regex` and `md5` as dependencies), once per test process.
fn native_crates() -> &'static rewardbox_toolchains::CrateSet {
    static SET: std::sync::OnceLock<rewardbox_toolchains::CrateSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let run = |args: &[&str]| {
            let out = Command::new("rustc").args(args).output().unwrap();
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        let sysroot = std::path::PathBuf::from(run(&["--print", "sysroot"]));
        let cargo = sysroot.join("bin/cargo");
        let cargo = if cargo.is_file() {
            cargo
        } else {
            "cargo".into()
        };
        rewardbox_toolchains::build_crate_set(
            &cargo,
            &sysroot.join("bin/rustc"),
            &run(&["--version"]),
            None,
            &common::test_cache_dir().join("native-rust-crates"),
        )
        .expect("the Rust crates build for this machine")
    })
}

/// The flags that put Boost's headers (the ones rewardbox's C++ compiles with) on g++'s path.
fn native_boost() -> [String; 2] {
    let boost = rewardbox_toolchains::Boost::locate()
        .expect("Boost's headers: run scripts/setup.sh (it installs boost-headers into .venv)");
    ["-isystem".into(), boost.include.display().to_string()]
}

/// Whether the program the benchmark's harness builds from `problem`, `completion` and `test`
/// passes natively (exit status 0).
fn passes_natively(problem: &Problem, completion: &str, test: &str, dir: &Path) -> bool {
    let program = format!("{}{completion}\n{test}\n", problem.program_prefix);
    let binary = dir.join("main");
    let compiled = match problem.language {
        "cpp" => {
            std::fs::write(dir.join("main.cpp"), &program).unwrap();
            Command::new(std::env::var("REWARDBOX_NATIVE_CXX").unwrap_or_else(|_| "c++".into()))
                .args(["-std=c++17", "-O2", "-w", "main.cpp", "-o", "main"])
                // CodeGeeX's harness links OpenSSL (CPP/162's MD5), and has Boost's headers
                // (CPP/22 and 137): the ones rewardbox compiles with.
                .args(program.contains("openssl/").then_some("-lcrypto"))
                .args(
                    program
                        .contains("boost/")
                        .then(native_boost)
                        .into_iter()
                        .flatten(),
                )
                .current_dir(dir)
                .output()
                .unwrap()
        }
        _ => {
            // CodeGeeX adds an empty `main` and runs `cargo test`: the test harness, overflow
            // checks on.
            std::fs::write(dir.join("main.rs"), format!("fn main(){{}}\n{program}")).unwrap();
            Command::new("rustc")
                .args([
                    "--test",
                    "--edition=2021",
                    "-O",
                    "-Coverflow-checks=on",
                    "-Awarnings",
                    "main.rs",
                    "-o",
                    "main",
                ])
                .args(native_crates().rustc_args())
                .current_dir(dir)
                .output()
                .unwrap()
        }
    };
    if !compiled.status.success() {
        return false;
    }
    Command::new(&binary).output().unwrap().status.success()
}

fn canonical_pass_defaults_fail_as_natively(language: &str, property_checks: &[usize]) {
    let scorer = common::scorer();
    let selected = selection(language, property_checks);
    let tasks: Vec<Value> = selected
        .iter()
        .map(|(p, _)| p.task(&[p.canonical_solution.as_str(), default_completion(language)]))
        .collect();
    let results = score(&scorer, &tasks);
    let mut failures = Vec::new();
    for ((problem, test), result) in selected.iter().zip(&results) {
        if result.status.is_some() {
            failures.push(format!(
                "{}: not scored: {:?}",
                problem.task_id, result.detail
            ));
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let completions = [
            problem.canonical_solution.as_str(),
            default_completion(language),
        ];
        for (which, (completion, ours)) in completions.iter().zip(&result.results).enumerate() {
            let native = passes_natively(problem, completion, test, dir.path());
            let expected = which == 0 || VACUOUS.iter().any(|(id, _)| *id == problem.task_id);
            if ours.passed != native || ours.passed != expected {
                failures.push(format!(
                    "{} {}: ours {} ({}), native {native}",
                    problem.task_id,
                    ["canonical", "default"][which],
                    ours.passed,
                    ours.detail
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cpp_canonical_solutions_pass_and_defaults_fail_as_with_gpp() {
    // CPP/32 (find_zero on random polynomials), CPP/38 and CPP/50 (decode random strings);
    // CPP/162 uses OpenSSL's MD5 (natively: g++ with -lcrypto); CPP/22 and 137 pass values of
    // `boost::any` (natively: g++ with Boost's headers).
    canonical_pass_defaults_fail_as_natively("cpp", &[22, 32, 38, 50, 137, 162]);
}

#[test]
fn rust_canonical_solutions_pass_and_defaults_fail_as_with_cargo_test() {
    // Rust/38, 50 and 53 draw random inputs with `rand` (Rust/32 would, but its test is
    // commented out); Rust/10, 38 and 50's tests call a second function of the candidate's
    // (forwarded); Rust/91's solution uses `regex`, Rust/162's `md5`.
    canonical_pass_defaults_fail_as_natively(
        "rust",
        &[10, 11, 32, 38, 50, 53, 87, 91, 107, 149, 162],
    );
}

#[test]
fn problems_that_cannot_be_graded_here_are_reported_with_the_reason() {
    let scorer = common::scorer();
    let mut all = problems("cpp");
    all.extend(problems("rust"));
    let tasks: Vec<Value> = NOT_GRADABLE_HERE
        .iter()
        .map(|(id, _)| {
            let p = all.iter().find(|p| p.task_id == *id).unwrap();
            p.task(&[p.canonical_solution.as_str()])
        })
        .collect();
    for ((id, why), result) in NOT_GRADABLE_HERE.iter().zip(score(&scorer, &tasks)) {
        assert_eq!(result.status, Some(rewardbox::Status::InvalidTask), "{id}");
        let detail = result.detail.unwrap_or_default();
        assert!(detail.contains(why), "{id}: {detail}");
    }
    // A crate outside the set is a compile error naming it and what rewardbox links.
    let p = all.iter().find(|p| p.task_id == "Rust/0").unwrap();
    let foreign =
        p.task(&["    use serde::Serialize;\n    numbers.len() > threshold as usize\n}\n"]);
    let result = &score(&scorer, &[foreign])[0].results[0];
    assert!(!result.passed);
    assert_eq!(result.cases[0].status, CaseStatus::CompileError);
    let detail = &result.cases[0].detail;
    assert!(
        detail.contains("`serde` is not a library rewardbox provides")
            && detail.contains("rand 0.7"),
        "{detail}"
    );
}

/// A C++ task of our own: `declaration`, `test` and the candidate's `body`.
fn cpp_task(declaration: &str, test: &str, bodies: &[&str]) -> Value {
    json!({
        "id": "own", "verifier": "code", "language": "cpp", "extract": "whole",
        "tests": {"asserts": test, "declaration": declaration},
        "completions": bodies.iter().map(|b| format!("{declaration}{b}")).collect::<Vec<_>>(),
    })
}

#[test]
fn cpp_values_of_every_type_cross_exactly() {
    let declaration = "#include<bits/stdc++.h>\nusing namespace std;\ntuple<double, float, long long, unsigned long long, map<string, vector<int>>, set<char>, optional<pair<int, string>>, bool> echo(double d, float f, long long l, unsigned long long u, map<string, vector<int>> m, set<char> s, optional<pair<int, string>> o, bool b){\n";
    let test = r#"#include<cassert>
int main(){
    auto [d, f, l, u, m, s, o, b] = echo(-0.0, NAN, LLONG_MIN, ULLONG_MAX, {{"a b", {1, -2}}, {"", {}}}, {'x', '\0', 'y'}, make_pair(7, string("z\n\x1e w")), true);
    assert(d == 0.0 && signbit(d));
    assert(isnan(f));
    assert(l == LLONG_MIN);
    assert(u == ULLONG_MAX);
    assert((m == map<string, vector<int>>{{"a b", {1, -2}}, {"", {}}}));
    assert((s == set<char>{'\0', 'x', 'y'}));
    assert(o && o->first == 7 && o->second == "z\n\x1e w");
    assert(b);
    auto [d2, f2, l2, u2, m2, s2, o2, b2] = echo(INFINITY, -INFINITY, 0, 0, {}, {}, nullopt, false);
    assert(isinf(d2) && d2 > 0 && isinf(f2) && f2 < 0 && !o2 && !b2);
}
"#;
    let echo = "    return {d, f, l, u, m, s, o, b};\n}\n";
    let results = score(&common::scorer(), &[cpp_task(declaration, test, &[echo])]);
    let r = &results[0].results[0];
    assert!(r.passed, "{} {:?}", r.detail, r.cases);
    assert_eq!(r.cases.len(), 9, "{:?}", r.cases);
}

#[test]
fn cpp_dynamic_values_cross_with_the_type_they_hold() {
    // std::any and boost::any (HumanEval-X's CPP/22 and 137): each held type arrives as itself
    // (an int stays an int, a char a char, a literal a const char*), an empty one empty,
    // containers of them nested; the candidate answers with each value's type and the value.
    for (any, include) in [("std::any", "<any>"), ("boost::any", "<boost/any.hpp>")] {
        let cast = any.replace("::any", "::any_cast");
        let declaration = format!(
            "#include<bits/stdc++.h>\n#include{include}\nusing namespace std;\nvector<{any}> echo(vector<{any}> values){{\n"
        );
        let test = format!(
            r#"#include<cassert>
int main(){{
    vector<{any}> in = {{1, 'c', 2.5, 2.5f, string("s"), "lit", {any}(), -7LL, 5ul, true, (short)3, vector<{any}>{{1, string("x")}}, vector<int>{{4, 5}}, map<string, {any}>{{{{"k", 2.0}}}}, map<long, long>{{{{1, 2}}}}, make_pair({any}(1), {any}('z'))}};
    auto out = echo(in);
    assert(out.size() == in.size());
    assert(out[0].type() == typeid(int) && {cast}<int>(out[0]) == 1);
    assert(out[1].type() == typeid(char) && {cast}<char>(out[1]) == 'c');
    assert(out[2].type() == typeid(double) && {cast}<double>(out[2]) == 2.5);
    assert(out[3].type() == typeid(float) && {cast}<float>(out[3]) == 2.5f);
    assert(out[4].type() == typeid(string) && {cast}<string>(out[4]) == "s");
    assert(out[5].type() == typeid(const char*) && string({cast}<const char*>(out[5])) == "lit");
    assert(out[6].type() == typeid(void));
    assert(out[7].type() == typeid(long long) && {cast}<long long>(out[7]) == -7);
    assert(out[8].type() == typeid(unsigned long) && {cast}<unsigned long>(out[8]) == 5);
    assert(out[9].type() == typeid(bool) && {cast}<bool>(out[9]));
    assert(out[10].type() == typeid(short) && {cast}<short>(out[10]) == 3);
    auto nested = {cast}<vector<{any}>>(out[11]);
    assert(nested.size() == 2 && {cast}<int>(nested[0]) == 1 && {cast}<string>(nested[1]) == "x");
    assert(({cast}<vector<int>>(out[12]) == vector<int>{{4, 5}}));
    assert({cast}<double>({cast}<map<string, {any}>>(out[13]).at("k")) == 2.0);
    assert(({cast}<map<long, long>>(out[14]) == map<long, long>{{{{1, 2}}}}));
    auto p = {cast}<pair<{any}, {any}>>(out[15]);
    assert({cast}<int>(p.first) == 1 && {cast}<char>(p.second) == 'z');
}}
"#
        );
        // The candidate sees the types too: it answers with what it was given, but an int
        // becomes a long (a wrong type: the test's first check fails).
        let echo = "    return values;\n}\n".to_string();
        let retyped = format!(
            "    for (auto& v : values) if (v.type() == typeid(int)) v = (long){cast}<int>(v);\n    return values;\n}}\n"
        );
        let results = score(
            &common::scorer(),
            &[cpp_task(&declaration, &test, &[&echo, &retyped])],
        );
        assert_eq!(results[0].status, None, "{any}: {:?}", results[0].detail);
        let r = &results[0].results[0];
        assert!(r.passed, "{any}: {} {:?}", r.detail, r.cases);
        assert_eq!(r.cases.len(), 17, "{any}: {:?}", r.cases);
        let wrong = &results[0].results[1];
        assert!(!wrong.passed, "{any}");
        assert_eq!(
            case_statuses(wrong)[..3],
            [
                ("line 5", CaseStatus::Passed),
                ("line 6", CaseStatus::Wrong),
                ("line 7", CaseStatus::Passed)
            ],
            "{any}"
        );
    }
}

#[test]
fn a_dynamic_value_of_a_type_the_wire_does_not_carry_is_the_fault_of_its_sender() {
    let declaration = "#include<bits/stdc++.h>\n#include<boost/any.hpp>\nusing namespace std;\nboost::any pick(boost::any a){\n";
    // The test code's: the task is invalid, and says which type.
    let test = "#include<cassert>\nint main(){\n    assert(boost::any_cast<int>(pick(set<int>{1})) == 1);\n}\n";
    let results = score(
        &common::scorer(),
        &[cpp_task(declaration, test, &["    return a;\n}\n"])],
    );
    assert_eq!(results[0].status, Some(rewardbox::Status::InvalidTask));
    let detail = results[0].detail.clone().unwrap_or_default();
    assert!(
        detail.contains("boost::any holding a value of type `std::set<int"),
        "{detail}"
    );
    // The candidate's: its call fails, and the test with it.
    let test =
        "#include<cassert>\nint main(){\n    assert(boost::any_cast<int>(pick(1)) == 1);\n}\n";
    let results = score(
        &common::scorer(),
        &[cpp_task(
            declaration,
            test,
            &["    return set<int>{1};\n}\n", "    return a;\n}\n"],
        )],
    );
    assert_eq!(results[0].status, None, "{:?}", results[0].detail);
    let odd = &results[0].results[0];
    assert!(!odd.passed);
    assert!(odd.detail.contains("std::set<int"), "{}", odd.detail);
    assert!(
        results[0].results[1].passed,
        "{}",
        results[0].results[1].detail
    );
}

/// Scores `task` (its completions: `right`, then `wrong`, each completing `declaration`) and
/// checks the verdicts against the native toolchain's on the same programs under `test`:
/// `right` passes and `wrong` fails, for us and natively. Returns our result for `wrong`.
fn right_passes_wrong_fails_as_natively(
    language: &'static str,
    task: Value,
    declaration: &str,
    test: &str,
    [right, wrong]: [&str; 2],
) -> rewardbox::CompletionResult {
    let results = score(&common::scorer(), &[task]);
    assert_eq!(results[0].status, None, "{:?}", results[0].detail);
    let problem = Problem {
        task_id: "own".into(),
        language,
        program_prefix: declaration.into(),
        program_suffix: String::new(),
        tests: Value::Null,
        canonical_solution: String::new(),
        time_limit_ms: 0,
    };
    let dir = tempfile::tempdir().unwrap();
    let [ours_right, ours_wrong] = &results[0].results[..] else {
        panic!("two completions scored: {:?}", results[0].results)
    };
    assert!(
        ours_right.passed,
        "{} {:?}",
        ours_right.detail, ours_right.cases
    );
    assert!(passes_natively(&problem, right, test, dir.path()));
    assert!(!ours_wrong.passed, "{}", ours_wrong.detail);
    assert!(!passes_natively(&problem, wrong, test, dir.path()));
    ours_wrong.clone()
}

#[test]
fn structs_cross_in_the_test_codes_own_calls() {
    // LeetCode's and contest problems' value types: the test code builds structs, passes them
    // (nested, in containers, by reference) and compares the structs the candidate returns.
    // `Tally` is the test's own (a field no codec carries): it must not break either program.
    let declaration = "#include<bits/stdc++.h>\nusing namespace std;\nstruct Point {\n    long long x, y;\n    bool operator==(const Point& o) const { return x == o.x && y == o.y; }\n};\nstruct Segment { Point a, b; string label; };\nstruct Tally { atomic<long long> calls; };\nvector<Point> endpoints(const vector<Segment>& segments, Point shift){\n";
    let test = "#include<cassert>\nint main(){\n    vector<Segment> s = {{{1, 2}, {3, 4}, \"s\"}};\n    assert((endpoints(s, {10, -1}) == vector<Point>{{11, 1}, {13, 3}}));\n    assert(endpoints({}, {0, 0}).empty());\n    Segment far{{0, 0}, {LLONG_MIN + 1, 5}, \"\\x1e\\n\"};\n    assert((endpoints({far}, {-1, 0}) == vector<Point>{{-1, 0}, {LLONG_MIN, 5}}));\n    Tally t{}; t.calls++;\n    assert(t.calls == 1);\n}\n";
    let right = "    vector<Point> out;\n    for (auto& s : segments) for (auto p : {s.a, s.b}) out.push_back({p.x + shift.x, p.y + shift.y});\n    return out;\n}\n";
    // Shifts x only.
    let wrong = "    vector<Point> out;\n    for (auto& s : segments) for (auto p : {s.a, s.b}) out.push_back({p.x + shift.x, p.y});\n    return out;\n}\n";
    let wrong = right_passes_wrong_fails_as_natively(
        "cpp",
        cpp_task(declaration, test, &[right, wrong]),
        declaration,
        test,
        [right, wrong],
    );
    use CaseStatus::{Passed, Wrong};
    assert_eq!(
        case_statuses(&wrong),
        [
            ("line 4", Wrong),
            ("line 5", Passed),
            ("line 7", Passed),
            ("line 9", Passed)
        ]
    );

    let declaration = "#[derive(Debug, Clone, Copy, PartialEq)]\npub struct Point {\n    pub x: i64,\n    pub y: i64,\n}\n#[derive(Debug, Clone, PartialEq)]\npub struct Segment { a: Point, b: Point, label: String }\nstruct Tally { calls: std::cell::Cell<u32> }\nfn endpoints(segments: &[Segment], shift: Point) -> Vec<Point> {\n";
    let test = "#[cfg(test)]\nmod tests {\n    use super::*;\n    fn p(x: i64, y: i64) -> Point { Point { x, y } }\n    #[test]\n    fn extremes() {\n        assert!(endpoints(&[], p(0, 0)).is_empty());\n        let far = Segment { a: p(0, 0), b: p(i64::MIN + 1, 5), label: \"\\u{1e}\\n\".into() };\n        assert_eq!(endpoints(&[far], p(-1, 0)), vec![p(-1, 0), p(i64::MIN, 5)]);\n        let t = Tally { calls: std::cell::Cell::new(0) };\n        t.calls.set(t.calls.get() + 1);\n        assert_eq!(t.calls.get(), 1);\n    }\n    #[test]\n    fn shifted() {\n        let s = vec![Segment { a: p(1, 2), b: p(3, 4), label: \"s\".into() }];\n        assert_eq!(endpoints(&s, p(10, -1)), vec![p(11, 1), p(13, 3)]);\n    }\n}\n";
    let right = "    segments.iter().flat_map(|s| [s.a, s.b]).map(|p| Point { x: p.x + shift.x, y: p.y + shift.y }).collect()\n}\n";
    let wrong = "    segments.iter().flat_map(|s| [s.a, s.b]).map(|p| Point { x: p.x + shift.x, y: p.y }).collect()\n}\n";
    let wrong = right_passes_wrong_fails_as_natively(
        "rust",
        rust_task("rust", declaration, test, &[right, wrong]),
        declaration,
        test,
        [right, wrong],
    );
    assert_eq!(
        case_statuses(&wrong),
        // A failed test function ends the run (panic = "abort"): `shifted` is the last.
        [("tests::extremes", Passed), ("tests::shifted", Wrong)]
    );
}

#[test]
fn arguments_taken_by_mutable_reference_come_back_changed() {
    // LeetCode's in-place functions (`void sortColors(vector<int>& nums)`): the test code sees
    // its variables as the function left them, as natively; a by-value or const argument stays
    // the caller's own. The wrong program works on a copy of `nums`.
    let declaration = "#include<bits/stdc++.h>\nusing namespace std;\nint compact(vector<int>& nums, vector<int> scratch, const string& tag, map<string, int>& seen, int val){\n";
    let test = "#include<cassert>\nint main(){\n    vector<int> nums = {3, 2, 2, 3}, scratch = {9, 1};\n    map<string, int> seen;\n    assert(compact(nums, scratch, \"a\", seen, 3) == 2);\n    assert((nums == vector<int>{2, 2}));\n    assert((scratch == vector<int>{9, 1}));\n    assert(seen[\"a\"] == 1);\n    compact(nums, scratch, \"a\", seen, 2);\n    assert(nums.empty() && seen[\"a\"] == 2);\n}\n";
    let right = "    nums.erase(remove(nums.begin(), nums.end(), val), nums.end());\n    sort(scratch.begin(), scratch.end());\n    seen[tag]++;\n    return nums.size();\n}\n";
    let wrong = "    vector<int> kept = nums;\n    kept.erase(remove(kept.begin(), kept.end(), val), kept.end());\n    seen[tag]++;\n    return kept.size();\n}\n";
    let wrong = right_passes_wrong_fails_as_natively(
        "cpp",
        cpp_task(declaration, test, &[right, wrong]),
        declaration,
        test,
        [right, wrong],
    );
    use CaseStatus::{Passed, Wrong};
    assert_eq!(
        case_statuses(&wrong),
        [
            ("line 5", Passed),
            ("line 6", Wrong),
            ("line 7", Passed),
            ("line 8", Passed),
            ("line 10", Wrong)
        ]
    );

    let declaration = "use std::collections::HashMap;\nfn compact(nums: &mut Vec<i32>, scratch: Vec<i32>, window: &mut [i32], seen: &mut HashMap<String, i32>, val: i32) -> usize {\n";
    let test = "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn compacts_in_place() {\n        let (mut nums, scratch, mut window) = (vec![3, 2, 2, 3], vec![9, 1], [1, 2, 3]);\n        let mut seen = HashMap::new();\n        assert_eq!(compact(&mut nums, scratch.clone(), &mut window, &mut seen, 3), 2);\n        assert_eq!((nums.clone(), scratch, window, seen[\"calls\"]), (vec![2, 2], vec![9, 1], [3, 2, 1], 1));\n        compact(&mut nums, vec![], &mut window[1..], &mut seen, 2);\n        assert_eq!((nums, window, seen[\"calls\"]), (vec![], [3, 1, 2], 2));\n    }\n}\n";
    let right = "    let mut scratch = scratch;\n    scratch.sort();\n    nums.retain(|&x| x != val);\n    window.reverse();\n    *seen.entry(\"calls\".to_string()).or_insert(0) += 1;\n    nums.len()\n}\n";
    let wrong = "    let mut kept = nums.clone();\n    kept.retain(|&x| x != val);\n    window.reverse();\n    *seen.entry(\"calls\".to_string()).or_insert(0) += 1;\n    kept.len()\n}\n";
    right_passes_wrong_fails_as_natively(
        "rust",
        rust_task("rust", declaration, test, &[right, wrong]),
        declaration,
        test,
        [right, wrong],
    );
}

#[test]
fn each_cpp_assert_is_a_case_and_a_wrong_one_names_its_line() {
    let declaration = "#include<vector>\nusing namespace std;\nint twice(int x){\n";
    let test = "#include<assert.h>\nint main(){\n    assert(twice(1) == 2);\n    assert(twice(2) == 4);\n    for (int i = 0; i < 5; i++)\n        assert (twice(i) == i + i);\n    assert(twice(-3) == -6);\n}\n";
    let task = cpp_task(
        declaration,
        test,
        &[
            "    return x + x;\n}\n",
            "    return x < 0 ? x : 2 * x;\n}\n",
        ],
    );
    let results = score(&common::scorer(), &[task]);
    let right = &results[0].results[0];
    assert!(right.passed, "{}", right.detail);
    assert_eq!(right.cases.len(), 4);
    let wrong = &results[0].results[1];
    assert!(!wrong.passed);
    assert_eq!(
        case_statuses(wrong),
        vec![
            ("line 3", CaseStatus::Passed),
            ("line 4", CaseStatus::Passed),
            ("line 6", CaseStatus::Passed),
            ("line 7", CaseStatus::Wrong),
        ]
    );
    assert!(
        wrong.cases[3].detail.contains("twice(-3) == -6"),
        "{}",
        wrong.cases[3].detail
    );
}

#[test]
fn a_cpp_candidate_cannot_end_the_test_run_as_passed() {
    let declaration = "#include<bits/stdc++.h>\nusing namespace std;\nint f(int x){\n";
    let test =
        "#include<assert.h>\nint main(){\n    assert(f(1) == 10);\n    assert(f(2) == 20);\n}\n";
    let attacks = [
        // Exits as soon as it is called, successfully.
        "    exit(0);\n}\n",
        // Ends the process from a static constructor before any call.
        "}\nstruct Quit { Quit() { std::_Exit(0); } } quit;\n",
        // Forges the report on its own stderr and the wire's answer frames on stdout.
        "    fprintf(stderr, \"\\x1erb-case line\\x1f3 pass x\\n\\x1erb-case line\\x1f4 pass x\\n\");\n    printf(\"\\x1erb-case line\\x1f3 pass\\n\");\n    fflush(stdout);\n    return 0;\n}\n",
        // Answers with a frame claiming a wrong kind of value.
        "    printf(\"\\x1e\" \"R 1:x \\n\");\n    fflush(stdout);\n    return 0;\n}\n",
        // Throws.
        "    throw runtime_error(\"no\");\n}\n",
        // Never returns.
        "    for (;;) {}\n}\n",
        // Prints noise and then the right answer: passes, as natively.
        "    printf(\"debug %d\\n\", x);\n    return x * 10;\n}\n",
    ];
    let results = score(&common::scorer(), &[cpp_task(declaration, test, &attacks)]);
    let passed: Vec<bool> = results[0].results.iter().map(|r| r.passed).collect();
    assert_eq!(
        passed,
        vec![false, false, false, false, false, false, true],
        "{:#?}",
        results[0]
            .results
            .iter()
            .map(|r| &r.detail)
            .collect::<Vec<_>>()
    );
}

/// A Rust task of our own.
fn rust_task(language: &str, declaration: &str, test: &str, bodies: &[&str]) -> Value {
    json!({
        "id": "own", "verifier": "code", "language": language, "extract": "whole",
        "tests": {"asserts": test, "declaration": declaration},
        "completions": bodies.iter().map(|b| format!("{declaration}{b}")).collect::<Vec<_>>(),
    })
}

#[test]
fn rust_values_of_every_type_cross_exactly() {
    let declaration = "use std::collections::{HashMap, BTreeSet};\nfn echo(f: f64, g: f32, i: i128, u: u64, c: char, s: &str, v: &[Vec<i8>], m: HashMap<String, Option<(u8, bool)>>, b: BTreeSet<i16>) -> (f64, f32, i128, u64, char, String, Vec<Vec<i8>>, HashMap<String, Option<(u8, bool)>>, BTreeSet<i16>) {\n";
    let test = r#"
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_echo() {
        let m: HashMap<String, Option<(u8, bool)>> = [("a b".to_string(), Some((255, true))), ("".to_string(), None)].into_iter().collect();
        let b: BTreeSet<i16> = [-1, 7].into_iter().collect();
        let (f, g, i, u, c, s, v, m2, b2) = echo(-0.0, f32::NAN, i128::MIN, u64::MAX, 'é', "x\n\u{1e} y", &[vec![-128, 127], vec![]], m.clone(), b.clone());
        assert!(f == 0.0 && f.is_sign_negative());
        assert!(g.is_nan());
        assert_eq!((i, u, c, s.as_str()), (i128::MIN, u64::MAX, 'é', "x\n\u{1e} y"));
        assert_eq!(v, vec![vec![-128, 127], vec![]]);
        assert_eq!((m2, b2), (m, b));
        let (inf, ..) = echo(f64::INFINITY, 0.0, 0, 0, 'a', "", &[], HashMap::new(), BTreeSet::new());
        assert_eq!(inf, f64::INFINITY);
    }
}
"#;
    let echo = "    (f, g, i, u, c, s.to_string(), v.to_vec(), m, b)\n}\n";
    let results = score(
        &common::scorer(),
        &[rust_task("rust", declaration, test, &[echo])],
    );
    assert_eq!(results[0].status, None, "{:?}", results[0].detail);
    let r = &results[0].results[0];
    assert!(r.passed, "{} {:?}", r.detail, r.cases);
    assert_eq!(r.cases[0].id, "tests::test_echo");
}

#[test]
fn rust_overflow_panics_as_under_cargo_test_and_wraps_under_release() {
    let declaration = "fn last_index(v: Vec<i32>) -> usize {\n";
    let test = "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn empty() {\n        assert_eq!(last_index(vec![]), usize::MAX);\n    }\n}\n";
    let body = ["    v.len() - 1\n}\n"];
    let checked = score(
        &common::scorer(),
        &[rust_task("rust", declaration, test, &body)],
    );
    let r = &checked[0].results[0];
    assert!(
        !r.passed,
        "an overflow must panic as in cargo test: {}",
        r.detail
    );
    assert!(
        r.detail.contains("the candidate ended during a call"),
        "{}",
        r.detail
    );
    let release = score(
        &common::scorer(),
        &[rust_task("rust-release", declaration, test, &body)],
    );
    let r = &release[0].results[0];
    assert!(r.passed, "release semantics wrap: {}", r.detail);
}

#[test]
fn a_failing_rust_test_names_the_panic_and_an_exiting_candidate_fails() {
    let declaration = "fn add(a: i32, b: i32) -> i32 {\n";
    let test = "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn small() {\n        assert_eq!(add(1, 2), 3);\n    }\n    #[test]\n    fn negative() {\n        assert_eq!(add(-1, -2), -3);\n    }\n}\n";
    let bodies = [
        "    a + b\n}\n",
        "    (a + b).abs()\n}\n",
        "    std::process::exit(0)\n}\n",
    ];
    let results = score(
        &common::scorer(),
        &[rust_task("rust", declaration, test, &bodies)],
    );
    let r = &results[0].results;
    assert!(r[0].passed, "{}", r[0].detail);
    assert_eq!(r[0].cases.len(), 2);
    assert!(!r[1].passed);
    assert_eq!(r[1].cases[0].status, CaseStatus::Passed);
    assert_ne!(r[1].cases[1].status, CaseStatus::Passed);
    assert!(
        r[1].cases[1].detail.contains("left: 3"),
        "{}",
        r[1].cases[1].detail
    );
    assert!(!r[2].passed, "{}", r[2].detail);
}

#[test]
fn a_task_without_a_usable_declaration_is_invalid_and_says_which_field() {
    let scorer = common::scorer();
    let missing = json!({
        "id": "t", "verifier": "code", "language": "cpp",
        "tests": {"asserts": "int main(){}"}, "completions": ["int f(){return 1;}"],
    });
    let result = score(&scorer, &[missing]);
    let detail = format!("{:?}", result[0].detail);
    assert!(detail.contains("tests.declaration"), "{detail}");
    let c_tests = json!({
        "id": "t", "verifier": "code", "language": "c",
        "tests": {"asserts": "int main(){}", "declaration": "int f(){\n"}, "completions": ["int f(){return 1;}"],
    });
    let result = score(&scorer, &[c_tests]);
    assert!(result[0].status.is_some(), "{:?}", result[0].results);
    // `tests.forward` must be a list of signatures, and is Rust's only.
    for (language, forward, field) in [
        ("rust", json!("fn g() -> i32"), "tests.forward"),
        ("rust", json!(["let x = 1;"]), "let x = 1;"),
        ("cpp", json!(["int g()"]), "tests.forward"),
    ] {
        let task = json!({
            "id": "t", "verifier": "code", "language": language, "extract": "whole",
            "tests": {"asserts": "int main(){}", "declaration": "int f(){\n", "forward": forward},
            "completions": ["int f(){return 1;}"],
        });
        let result = &score(&scorer, &[task])[0];
        let detail = format!(
            "{:?} {:?}",
            result.detail,
            result.results.first().map(|r| &r.detail)
        );
        assert_eq!(
            result.status,
            Some(rewardbox::Status::InvalidTask),
            "{language}: {detail}"
        );
        assert!(detail.contains(field), "{language}: {detail}");
    }
}

/// MultiPL-E-format rows of our own (`tests/data/multipl-e/samples.jsonl`: C++, Rust,
/// JavaScript, TypeScript and Go, each with a correct completion and `return <default>`, one Go
/// completion that uses a package it does not import, and one TypeScript completion that
/// declares an enum), imported as `rewardbox import multipl-e` imports them: each verdict is the
/// one the native toolchain gets on the same text (prompt + completion + tests, compiled by
/// g++ -std=c++17 / rustc and run, run by Node — TypeScript by Node's type stripping, where
/// MultiPL-E's harness runs `tsc` first — or by `go test`).
#[test]
fn multipl_e_rows_grade_as_their_harness_grades_them_natively() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/multipl-e/samples.jsonl");
    let rows: Vec<serde_json::Map<String, Value>> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let tasks: Vec<Value> = rows
        .iter()
        .map(|row| {
            let problem = rewardbox_import::multipl_e::problem(row).unwrap();
            let completions = rewardbox_import::multipl_e::completions(row).unwrap();
            let refs: Vec<&str> = completions.iter().map(String::as_str).collect();
            problem.task(&refs)
        })
        .collect();
    let results = score(&common::scorer(), &tasks);
    let mut failures = Vec::new();
    for (row, result) in rows.iter().zip(&results) {
        let name = row["name"].as_str().unwrap();
        if result.status.is_some() {
            failures.push(format!("{name}: not scored: {:?}", result.detail));
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        for (which, (completion, ours)) in row["completions"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&result.results)
            .enumerate()
        {
            let program = format!(
                "{}{}\n{}",
                row["prompt"].as_str().unwrap(),
                completion.as_str().unwrap(),
                row["tests"].as_str().unwrap()
            );
            // MultiPL-E's harness: compiled and run (C++, Rust), or run by Node (JavaScript);
            // passed when it exits 0.
            let native = match row["language"].as_str().unwrap() {
                // MultiPL-E's eval_go: `go test` on the file; passed when it neither fails to
                // build nor prints FAIL.
                "go_test.go" => {
                    let cache = common::test_cache_dir().join("native-go");
                    let out = go_test_natively(&program, dir.path(), &cache);
                    out.status.success() && !String::from_utf8_lossy(&out.stdout).contains("FAIL")
                }
                script @ ("js" | "ts") => {
                    let file = format!("program.{script}");
                    std::fs::write(dir.path().join(&file), &program).unwrap();
                    Command::new(common::node_that_strips_types())
                        .arg(&file)
                        .current_dir(dir.path())
                        .output()
                        .unwrap()
                        .status
                        .success()
                }
                language => Command::new(common::compile_natively(
                    if language == "rs" { "rust" } else { language },
                    &program,
                    dir.path(),
                ))
                .output()
                .unwrap()
                .status
                .success(),
            };
            let expected = row
                .get("expected")
                .map_or(which == 0, |e| e[which].as_bool().unwrap());
            if ours.passed != native || ours.passed != expected {
                failures.push(format!(
                    "{name} ({}) completion {which}: ours {} ({}), native {native}",
                    row["language"], ours.passed, ours.detail
                ));
            }
        }
        // Each assert of the test code is a case, and each row of MultiPL-E's Go table.
        let asserts = row["tests"]
            .as_str()
            .unwrap()
            .lines()
            .filter(|l| l.trim_start().starts_with("assert") || l.contains("actual:"))
            .count();
        assert_eq!(
            result.results[0].cases.len(),
            asserts,
            "{name}: {:?}",
            result.results[0].cases
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A MultiPL-E Rust `main` whose assert fails reports that line and goes on; a candidate that
/// exits or panics cannot end the run as passed.
#[test]
fn a_multipl_e_rust_main_reports_each_assert_and_cannot_be_ended_by_the_candidate() {
    let prompt = "/// Double it.\nfn double(x: isize) -> isize {\n";
    let tests = "}\n\nfn main() {\n    let candidate = double;\n    assert_eq!(candidate(1), 2);\n    assert_eq!(candidate(-3), -6, \"negative\");\n    assert!(candidate(0) == 0);\n}\n";
    let row: serde_json::Map<String, Value> = serde_json::from_value(json!({
        "name": "own_double", "language": "rs", "prompt": prompt, "tests": tests,
    }))
    .unwrap();
    let problem = rewardbox_import::multipl_e::problem(&row).unwrap();
    let task = problem.task(&[
        "    x * 2",
        "    if x < 0 { x } else { x * 2 }",
        "    std::process::exit(0)",
        "    panic!(\"no\")",
    ]);
    let results = score(&common::scorer(), &[task]);
    let r = &results[0].results;
    assert!(r[0].passed, "{}", r[0].detail);
    assert_eq!(
        case_statuses(&r[1]),
        vec![
            ("line 5", CaseStatus::Passed),
            ("line 6", CaseStatus::Wrong),
            ("line 7", CaseStatus::Passed),
        ]
    );
    assert!(
        r[1].cases[1].detail.contains("left: -3"),
        "{}",
        r[1].cases[1].detail
    );
    assert!(
        !r[2].passed && !r[3].passed,
        "{} / {}",
        r[2].detail,
        r[3].detail
    );
}
