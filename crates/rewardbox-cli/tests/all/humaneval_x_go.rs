//! HumanEval-X's Go problems (`tests/data/humaneval-x/humaneval_go.jsonl.gz`, as the benchmark
//! ships them) graded by their own test code, as written, in a trusted program calling the live
//! candidate: on a selection of problems (every twentieth, the property checks that draw random
//! inputs, values of `interface{}`, the MD5 solution; a Go program takes seconds from source to
//! a running instance, so not all 164), every canonical solution passes, every
//! `return <zero value>` fails, and each verdict is the one CodeGeeX's harness gets on the same
//! program (its concatenation of `test_setup`, the imports the completion uses, the prompt,
//! completion and test, run by `go test` natively with the real testify: Debian's
//! `golang-github-stretchr-testify-dev`, which `scripts/test.sh` installs).
//!
//! Then what the harness cannot promise: every Go value crosses as itself, each assertion is a
//! case, and a candidate cannot end the test run as passed.

use crate::common;
use crate::humaneval_x_data;

use humaneval_x_data::{
    DEBIAN_GOPATH, go_default_completion, go_test_natively, own_task, problems, rows, score,
};
use rewardbox::CaseStatus;
use serde_json::Value;
use std::path::Path;

/// The packages CodeGeeX's harness imports into a Go program when the completion names them
/// (`IMPORT_HELPER["go"]`).
const IMPORT_HELPER: &[&str] = &[
    "math",
    "strings",
    "fmt",
    "strconv",
    "time",
    "bytes",
    "regexp",
    "sort",
    "math/rand",
    "crypto/md5",
];

/// CodeGeeX's Go program (`process_humaneval_test`): `test_setup`, an import of each helper
/// package the completion names that `test_setup` does not (a text search, as there), the
/// prompt without its imports, the completion and the test.
fn codegeex_program(row: &Value, completion: &str) -> String {
    let field = |name: &str| row[name].as_str().unwrap();
    let prompt = field("prompt").replace(field("import"), "");
    let setup = field("test_setup");
    let others: Vec<String> = IMPORT_HELPER
        .iter()
        .filter(|pkg| !setup.contains(*pkg))
        .filter(|pkg| completion.contains(&format!("{}.", pkg.rsplit('/').next().unwrap())))
        .map(|pkg| format!("\"{pkg}\"\n"))
        .collect();
    let imports = if others.is_empty() {
        String::new()
    } else {
        format!("import (\n{})\n", others.join("    "))
    };
    format!("{setup}\n{imports}{prompt}{completion}\n{}", field("test"))
}

/// Whether `go test` passes `program` natively (as `main_test.go`), with testify from Debian's
/// package.
fn passes_under_go_test(program: &str, dir: &Path) -> bool {
    assert!(
        Path::new(DEBIAN_GOPATH)
            .join("src/github.com/stretchr/testify/assert")
            .is_dir(),
        "the native comparison needs testify: run scripts/test.sh (it installs Debian's \
         golang-github-stretchr-testify-dev) or apt-get install it"
    );
    go_test_natively(program, dir, &common::test_cache_dir().join("native-go"))
        .status
        .success()
}

#[test]
fn go_canonical_solutions_pass_and_defaults_fail_as_with_go_test() {
    let all = problems("go");
    let raw = rows("go");
    assert_eq!(all.len(), 164);
    // Go/32 (FindZero on random polynomials), 38 (decode random strings) and 53 (random sums)
    // draw random inputs; 22 and 137 pass values of `interface{}`; 162 uses crypto/md5.
    let mut picked: Vec<usize> = (0..164)
        .step_by(20)
        .chain([22, 32, 38, 50, 53, 137, 162])
        .collect();
    picked.sort_unstable();
    picked.dedup();
    let completions: Vec<[String; 2]> = picked
        .iter()
        .map(|&i| {
            [
                all[i].canonical_solution.clone(),
                go_default_completion(raw[i]["declaration"].as_str().unwrap()),
            ]
        })
        .collect();
    let tasks: Vec<Value> = picked
        .iter()
        .zip(&completions)
        .map(|(&i, [canonical, default])| all[i].task(&[canonical, default]))
        .collect();
    let results = score(&common::scorer(), &tasks);
    let native: Vec<[bool; 2]> = std::thread::scope(|scope| {
        let jobs: Vec<_> = picked
            .iter()
            .zip(&completions)
            .map(|(&i, pair)| {
                let row = &raw[i];
                scope.spawn(move || {
                    let dir = tempfile::tempdir().unwrap();
                    pair.clone()
                        .map(|c| passes_under_go_test(&codegeex_program(row, &c), dir.path()))
                })
            })
            .collect();
        jobs.into_iter().map(|j| j.join().unwrap()).collect()
    });
    let mut failures = Vec::new();
    for ((&i, result), native) in picked.iter().zip(&results).zip(&native) {
        let problem = &all[i];
        if result.status.is_some() {
            failures.push(format!(
                "{}: not scored: {:?}",
                problem.task_id, result.detail
            ));
            continue;
        }
        for (which, ours) in result.results.iter().enumerate() {
            if ours.passed != native[which] || ours.passed != (which == 0) {
                failures.push(format!(
                    "{} {}: ours {} ({}), native {}",
                    problem.task_id,
                    ["canonical", "default"][which],
                    ours.passed,
                    ours.detail,
                    native[which]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn failed_cases(result: &rewardbox::CompletionResult) -> String {
    result
        .cases
        .iter()
        .filter(|c| c.status != CaseStatus::Passed)
        .map(|c| format!("{}: {}", c.id, c.detail))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn go_values_of_every_type_cross_exactly() {
    let declaration = "type Point struct {\n\tX, Y int\n\tName string\n}\n\nfunc Echo(i8 int8, u64 uint64, f float64, g float32, s string, r rune, empty []int, none []int, m map[string][]float64, nilMap map[int]bool, a [2]string, p *Point, anys []interface{}, c complex128) (int8, uint64, float64, float32, string, rune, []int, []int, map[string][]float64, map[int]bool, [2]string, *Point, []interface{}, complex128) {\n";
    let test = r#"package main

import (
    "math"
    "testing"
    "github.com/stretchr/testify/assert"
)

func TestEcho(t *testing.T) {
    assert := assert.New(t)
    negZero := math.Copysign(0, -1)
    m := map[string][]float64{"a b\x1e\n": {1.5, math.Inf(-1)}, "": nil}
    p := &Point{X: -1, Y: 2, Name: "é😀"}
    anys := []interface{}{1, int64(2), 2.5, "s", nil, []interface{}{true}, map[interface{}]interface{}{}, 'c'}
    i8, u64, f, g, s, r, empty, none, m2, nilMap, a, p2, anys2, c := Echo(math.MinInt8, math.MaxUint64, negZero, float32(math.NaN()), "x\x00y", 'ß', []int{}, nil, m, nil, [2]string{"l", "r"}, p, anys, complex(1, -0.5))
    assert.Equal(int8(math.MinInt8), i8)
    assert.Equal(uint64(math.MaxUint64), u64)
    assert.True(f == 0 && math.Signbit(f))
    assert.True(math.IsNaN(float64(g)))
    assert.Equal("x\x00y", s)
    assert.Equal('ß', r)
    assert.Equal([]int{}, empty)
    assert.Nil(none)
    assert.Equal(m, m2)
    assert.Nil(nilMap)
    assert.Equal([2]string{"l", "r"}, a)
    assert.Equal(p, p2)
    assert.Equal(anys, anys2)
    assert.Equal(complex(1, -0.5), c)
}
"#;
    let echo = format!(
        "{declaration}\treturn i8, u64, f, g, s, r, empty, none, m, nilMap, a, p, anys, c\n}}\n"
    );
    let results = score(
        &common::scorer(),
        &[own_task("go", declaration, test, &[&echo])],
    );
    assert!(results[0].status.is_none(), "{:?}", results[0].detail);
    let result = &results[0].results[0];
    assert!(result.passed, "{}", failed_cases(result));
    assert_eq!(result.cases.len(), 14);
    // Each assertion reported its own result (not "not reached").
    assert!(
        result.cases.iter().all(|c| c.detail.ends_with(" holds")),
        "{:?}",
        result.cases
    );
    // The same test code holds under `go test` with the function in the same program.
    let dir = tempfile::tempdir().unwrap();
    let native = test.replacen("func TestEcho", &format!("{echo}\nfunc TestEcho"), 1);
    assert!(passes_under_go_test(&native, dir.path()));
}

#[test]
fn arguments_the_caller_shares_come_back_changed() {
    // Natively a function sorts its slice argument's elements, fills its map and sets what its
    // pointer points to, and the caller sees it: so does the test code here. An array is a
    // copy, natively and here. The wrong program sorts a copy of the slice.
    let declaration =
        "func Arrange(nums []int, seen map[string]int, total *int, fixed [2]int) int {\n";
    let test = "package main\n\nimport (\n    \"testing\"\n    \"github.com/stretchr/testify/assert\"\n)\n\nfunc TestArrange(t *testing.T) {\n    nums := []int{5, 1, 4, 2}\n    seen := map[string]int{\"old\": 1}\n    total := 0\n    fixed := [2]int{7, 8}\n    assert.Equal(t, 2, Arrange(nums, seen, &total, fixed))\n    assert.Equal(t, []int{1, 2, 4, 5}, nums)\n    assert.Equal(t, map[string]int{\"calls\": 1}, seen)\n    assert.Equal(t, 12, total)\n    assert.Equal(t, [2]int{7, 8}, fixed)\n    Arrange(nums[2:], seen, &total, fixed)\n    assert.Equal(t, []int{1, 2, 4, 5}, nums)\n    assert.Equal(t, 21, total)\n}\n";
    let program = |sorted: &str| {
        format!(
            "func Arrange(nums []int, seen map[string]int, total *int, fixed [2]int) int {{\n\t{sorted}\n\tfor i := 1; i < len(s); i++ {{\n\t\tfor j := i; j > 0 && s[j] < s[j-1]; j-- {{\n\t\t\ts[j], s[j-1] = s[j-1], s[j]\n\t\t}}\n\t}}\n\tdelete(seen, \"old\")\n\tseen[\"calls\"]++\n\tfixed[0] = 0\n\tsmall := 0\n\tfor _, x := range s {{\n\t\t*total += x\n\t\tif x < 3 {{\n\t\t\tsmall++\n\t\t}}\n\t}}\n\treturn small\n}}\n"
        )
    };
    let right = program("s := nums");
    let wrong = program("s := append([]int(nil), nums...)");
    let results = score(
        &common::scorer(),
        &[own_task("go", declaration, test, &[&right, &wrong])],
    );
    assert!(results[0].status.is_none(), "{:?}", results[0].detail);
    let r = &results[0].results;
    assert!(r[0].passed, "{}", failed_cases(&r[0]));
    assert!(!r[1].passed);
    assert_eq!(
        failed_cases(&r[1]).lines().count(),
        3,
        "only the slice's two checks and the total summed from its second half fail: {}",
        failed_cases(&r[1])
    );
    let dir = tempfile::tempdir().unwrap();
    for (program, expected) in [(&right, true), (&wrong, false)] {
        let native = test.replacen(
            "func TestArrange",
            &format!("{program}\nfunc TestArrange"),
            1,
        );
        assert_eq!(passes_under_go_test(&native, dir.path()), expected);
    }
}

#[test]
fn each_go_assertion_is_a_case_and_a_candidate_cannot_end_the_run_as_passed() {
    let declaration = "func Twice(x int) int {\n";
    let test = "package main\n\nimport (\n    \"testing\"\n    \"github.com/stretchr/testify/assert\"\n)\n\nfunc TestTwice(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(2, Twice(1))\n    assert.Equal(-6, Twice(-3), \"negative\")\n    assert.Equal(0, Twice(0))\n}\n";
    let programs = [
        "func Twice(x int) int {\n    return 2 * x\n}\n",
        // Wrong on negatives: the failed assertion is reported, the test goes on.
        "func Twice(x int) int {\n    if x < 0 {\n        return x\n    }\n    return 2 * x\n}\n",
        // Exits, successfully, when called.
        "import \"os\"\n\nfunc Twice(x int) int {\n    os.Exit(0)\n    return 0\n}\n",
        // Exits before any call, from init.
        "import \"os\"\n\nfunc init() { os.Exit(0) }\n\nfunc Twice(x int) int {\n    return 2 * x\n}\n",
        // Forges answer frames and the report.
        "import (\n    \"fmt\"\n    \"os\"\n)\n\nfunc Twice(x int) int {\n    fmt.Print(\"\\x1eR i2\\n\")\n    fmt.Fprint(os.Stderr, \"\\x1erb-case line\\x1f11 pass\\n\")\n    return 7\n}\n",
        // Panics.
        "func Twice(x int) int {\n    var m map[int]int\n    m[x] = 1\n    return 0\n}\n",
        // Never returns.
        "func Twice(x int) int {\n    for {\n    }\n}\n",
        // Prints noise, then answers right: passes.
        "import \"fmt\"\n\nfunc Twice(x int) int {\n    fmt.Println(\"debug\", x)\n    return 2 * x\n}\n",
    ];
    let results = score(
        &common::scorer(),
        &[own_task("go", declaration, test, &programs)],
    );
    assert!(results[0].status.is_none(), "{:?}", results[0].detail);
    let r = &results[0].results;
    let passed: Vec<bool> = r.iter().map(|c| c.passed).collect();
    assert_eq!(
        passed,
        [true, false, false, false, false, false, false, true],
        "{:#?}",
        r.iter().map(|c| &c.detail).collect::<Vec<_>>()
    );
    let statuses: Vec<(&str, CaseStatus)> = r[1]
        .cases
        .iter()
        .map(|c| (c.id.as_str(), c.status))
        .collect();
    assert_eq!(
        statuses,
        [
            ("line 10", CaseStatus::Passed),
            ("line 11", CaseStatus::Wrong),
            ("line 12", CaseStatus::Passed),
        ]
    );
    let detail = &r[1].cases[1].detail;
    assert!(
        detail.contains("expected: -6, actual: -3") && detail.contains("negative"),
        "{detail}"
    );
    // The loop runs out of fuel; on a host too busy to give it half its wall-clock net in CPU it
    // is stopped by the net instead, and masked as the host's fault: never passed, never a 0.
    let looping = &r[6];
    match looping.cases.first() {
        Some(case) => assert_eq!(case.status, CaseStatus::FuelExhausted, "{}", case.detail),
        None => assert!(
            looping.mask && looping.detail.contains("the host was too busy"),
            "{looping:?}"
        ),
    }
}
