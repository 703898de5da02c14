//! `call` tests for C candidates, as C function-level benchmarks write them (LeetCode's C
//! harness conventions: an array is a pointer and its length, a returned array's size comes back
//! through `int* returnSize`, a list of lists' row lengths through `int** returnColumnSizes`).
//!
//! Each problem has a right and a wrong program. Their verdicts, call by call, are the verdicts
//! of the same programs compiled natively by `cc` with a harness of our own that calls them on the
//! same arguments and compares with the same expected values: what passes natively passes here,
//! and what fails natively fails here.

use crate::common;

use rewardbox::CaseStatus;
use serde_json::{Value, json};

/// One C problem: the task's declaration and cases, and a native harness checking the same cases
/// (`static int check(int k)`: 1 when case `k` passes).
struct Problem {
    entry: &'static str,
    declaration: &'static str,
    cases: fn() -> Value,
    harness: &'static str,
    right: &'static str,
    wrong: &'static str,
}

const MIX: Problem = Problem {
    entry: "mix",
    declaration: "unsigned long long mix(unsigned long long u, long long a, short s, unsigned char b) {\n",
    cases: || {
        json!([
            {"args": [18446744073709551615u64, 0, 0, 0], "expected": 9223372036854775807u64},
            {"args": [10, -1, 3, 255], "expected": 262},
            {"args": [0, -9223372036854775807i64, -32768, 7], "expected": 9223372036854743048u64},
        ])
    },
    harness: r#"
static int check(int k) {
    switch (k) {
    case 0: return mix(18446744073709551615ull, 0, 0, 0) == 9223372036854775807ull;
    case 1: return mix(10, -1, 3, 255) == 262;
    default: return mix(0, -9223372036854775807ll, -32768, 7) == 9223372036854743048ull;
    }
}
"#,
    right: "unsigned long long mix(unsigned long long u, long long a, short s, unsigned char b) {\n    return u / 2 + (unsigned long long)a + (unsigned long long)(long long)s + b;\n}\n",
    wrong: "unsigned long long mix(unsigned long long u, long long a, short s, unsigned char b) {\n    return u / 2 + (unsigned long long)a + (unsigned short)s + b;\n}\n",
};

const SHIFT: Problem = Problem {
    entry: "shift",
    declaration: "#include <stdbool.h>\ndouble shift(double x, float f, char c, bool negate) {\n",
    cases: || {
        json!([
            {"args": [{"$f": "nan"}, 0, "a", true], "expected": {"$f": "nan"}},
            {"args": [0.0, 0, "b", true], "expected": -0.0},
            {"args": [{"$f": "inf"}, 1.5, "a", false], "expected": {"$f": "inf"}},
            {"args": [1.0, 0.25, "a", false], "expected": 2.25},
            {"args": [-2.5, 0.1, "z", false], "expected": -2.399999998509884},
        ])
    },
    harness: r#"
#include <math.h>
static int check(int k) {
    switch (k) {
    case 0: return isnan(shift(NAN, 0, 'a', true));
    case 1: return shift(0.0, 0, 'b', true) == 0.0;
    case 2: return shift(INFINITY, 1.5f, 'a', false) == INFINITY;
    case 3: return shift(1.0, 0.25f, 'a', false) == 2.25;
    default: return shift(-2.5, 0.1f, 'z', false) == -2.5 + (double)0.1f;
    }
}
"#,
    right: "#include <stdbool.h>\ndouble shift(double x, float f, char c, bool negate) {\n    if (negate) return -x;\n    return x + f + (c == 'a');\n}\n",
    // Forgets the character's bonus.
    wrong: "#include <stdbool.h>\ndouble shift(double x, float f, char c, bool negate) {\n    if (negate) return -x;\n    return x + f + (c == 97 ? 0 : 0);\n}\n",
};

const TWO_SUM: Problem = Problem {
    entry: "twoSum",
    declaration: "/**\n * Note: The returned array must be malloced, assume caller calls free().\n */\nint* twoSum(int* nums, int numsSize, int target, int* returnSize) {\n",
    cases: || {
        json!([
            {"args": [[2, 7, 11, 15], 9], "expected": [0, 1]},
            {"args": [[2, 5, 4], 6], "expected": [0, 2]},
            {"args": [[3, 3], 6], "expected": [0, 1]},
            {"args": [[1, 2], 7], "expected": []},
        ])
    },
    harness: r#"
#include <stdlib.h>
static int same(int* got, int n, const int* want, int m) {
    if (n != m) return 0;
    for (int i = 0; i < n; i++) if (got[i] != want[i]) return 0;
    return 1;
}
static int check(int k) {
    int size = -1;
    int a[] = {2, 7, 11, 15}, b[] = {2, 5, 4}, c[] = {3, 3}, d[] = {1, 2};
    const int wa[] = {0, 1}, wb[] = {0, 2};
    switch (k) {
    case 0: { int* r = twoSum(a, 4, 9, &size); return same(r, size, wa, 2); }
    case 1: { int* r = twoSum(b, 3, 6, &size); return same(r, size, wb, 2); }
    case 2: { int* r = twoSum(c, 2, 6, &size); return same(r, size, wa, 2); }
    default: { int* r = twoSum(d, 2, 7, &size); return same(r, size, wa, 0); }
    }
}
"#,
    right: "#include <stdlib.h>\nint* twoSum(int* nums, int numsSize, int target, int* returnSize) {\n    for (int i = 0; i < numsSize; i++)\n        for (int j = i + 1; j < numsSize; j++)\n            if (nums[i] + nums[j] == target) {\n                int* r = malloc(2 * sizeof(int));\n                r[0] = i; r[1] = j;\n                *returnSize = 2;\n                return r;\n            }\n    *returnSize = 0;\n    return NULL;\n}\n",
    // Only looks at neighbours.
    wrong: "#include <stdlib.h>\nint* twoSum(int* nums, int numsSize, int target, int* returnSize) {\n    static int r[2];\n    for (int i = 0; i + 1 < numsSize; i++)\n        if (nums[i] + nums[i + 1] == target) {\n            r[0] = i; r[1] = i + 1;\n            *returnSize = 2;\n            return r;\n        }\n    *returnSize = 0;\n    return r;\n}\n",
};

const PREFIX: Problem = Problem {
    entry: "longestCommonPrefix",
    declaration: "char* longestCommonPrefix(char** strs, int strsSize) {\n",
    cases: || {
        json!([
            {"args": [["flower", "flow", "flight"]], "expected": "fl"},
            {"args": [["dog", "racecar", "car"]], "expected": ""},
            {"args": [["h\u{e9}llo", "h\u{e9}lp"]], "expected": "h\u{e9}l"},
            {"args": [["alone"]], "expected": "alone"},
        ])
    },
    harness: r#"
#include <string.h>
static int check(int k) {
    char* a[] = {"flower", "flow", "flight"};
    char* b[] = {"dog", "racecar", "car"};
    char* c[] = {"h\xc3\xa9llo", "h\xc3\xa9lp"};
    char* d[] = {"alone"};
    char* r;
    const char* want;
    switch (k) {
    case 0: r = longestCommonPrefix(a, 3); want = "fl"; break;
    case 1: r = longestCommonPrefix(b, 3); want = ""; break;
    case 2: r = longestCommonPrefix(c, 2); want = "h\xc3\xa9l"; break;
    default: r = longestCommonPrefix(d, 1); want = "alone"; break;
    }
    return r != NULL && strcmp(r, want) == 0;
}
"#,
    right: "#include <stdlib.h>\n#include <string.h>\nchar* longestCommonPrefix(char** strs, int strsSize) {\n    int n = strlen(strs[0]);\n    for (int i = 1; i < strsSize; i++) {\n        int j = 0;\n        while (j < n && strs[i][j] == strs[0][j]) j++;\n        n = j;\n    }\n    char* r = malloc(n + 1);\n    memcpy(r, strs[0], n);\n    r[n] = 0;\n    return r;\n}\n",
    // NULL for no common prefix, and the prefix of the first two only.
    wrong: "#include <stdlib.h>\n#include <string.h>\nchar* longestCommonPrefix(char** strs, int strsSize) {\n    if (strsSize < 2) return strs[0];\n    int j = 0;\n    while (strs[0][j] && strs[0][j] == strs[1][j]) j++;\n    if (j == 0) return NULL;\n    char* r = calloc(j + 1, 1);\n    memcpy(r, strs[0], j);\n    return r;\n}\n",
};

const TRANSPOSE: Problem = Problem {
    entry: "transpose",
    declaration: "int** transpose(int** matrix, int matrixSize, int* matrixColSize, int* returnSize, int** returnColumnSizes) {\n",
    cases: || {
        json!([
            {"args": [[[1, 2, 3], [4, 5, 6]]], "expected": [[1, 4], [2, 5], [3, 6]]},
            {"args": [[[7]]], "expected": [[7]]},
            {"args": [[[1, 2], [3, 4]]], "expected": [[1, 3], [2, 4]]},
        ])
    },
    harness: r#"
static int check(int k) {
    int r0[] = {1, 2, 3}, r1[] = {4, 5, 6}, s0[] = {7}, t0[] = {1, 2}, t1[] = {3, 4};
    int* a[] = {r0, r1};
    int* b[] = {s0};
    int* c[] = {t0, t1};
    int cols3[] = {3, 3}, cols1[] = {1}, cols2[] = {2, 2};
    int size = -1;
    int* columns = 0;
    int** r;
    int rows, width;
    const int* want;
    static const int wa[] = {1, 4, 2, 5, 3, 6}, wb[] = {7}, wc[] = {1, 3, 2, 4};
    switch (k) {
    case 0: r = transpose(a, 2, cols3, &size, &columns); rows = 3; width = 2; want = wa; break;
    case 1: r = transpose(b, 1, cols1, &size, &columns); rows = 1; width = 1; want = wb; break;
    default: r = transpose(c, 2, cols2, &size, &columns); rows = 2; width = 2; want = wc; break;
    }
    if (size != rows) return 0;
    for (int i = 0; i < rows; i++) {
        if (columns[i] != width) return 0;
        for (int j = 0; j < width; j++) if (r[i][j] != want[i * width + j]) return 0;
    }
    return 1;
}
"#,
    right: "#include <stdlib.h>\nint** transpose(int** matrix, int matrixSize, int* matrixColSize, int* returnSize, int** returnColumnSizes) {\n    int rows = matrixColSize[0];\n    int** r = malloc(rows * sizeof(int*));\n    *returnColumnSizes = malloc(rows * sizeof(int));\n    for (int i = 0; i < rows; i++) {\n        r[i] = malloc(matrixSize * sizeof(int));\n        (*returnColumnSizes)[i] = matrixSize;\n        for (int j = 0; j < matrixSize; j++) r[i][j] = matrix[j][i];\n    }\n    *returnSize = rows;\n    return r;\n}\n",
    // The matrix unchanged.
    wrong: "int** transpose(int** matrix, int matrixSize, int* matrixColSize, int* returnSize, int** returnColumnSizes) {\n    *returnSize = matrixSize;\n    *returnColumnSizes = matrixColSize;\n    return matrix;\n}\n",
};

const GROUP: Problem = Problem {
    entry: "groupByLength",
    declaration: "char*** groupByLength(char** words, int wordsSize, int* returnSize, int** returnColumnSizes) {\n",
    cases: || {
        json!([
            {"args": [["ab", "c", "de", "fgh", "i"]], "expected": [["ab", "de"], ["c", "i"], ["fgh"]]},
            {"args": [[]], "expected": []},
            {"args": [["same"]], "expected": [["same"]]},
        ])
    },
    harness: r#"
#include <string.h>
static int check(int k) {
    char* a[] = {"ab", "c", "de", "fgh", "i"};
    char* c[] = {"same"};
    int size = -1;
    int* columns = 0;
    char*** r;
    switch (k) {
    case 0:
        r = groupByLength(a, 5, &size, &columns);
        return size == 3 && columns[0] == 2 && columns[1] == 2 && columns[2] == 1
            && !strcmp(r[0][0], "ab") && !strcmp(r[0][1], "de") && !strcmp(r[1][0], "c")
            && !strcmp(r[1][1], "i") && !strcmp(r[2][0], "fgh");
    case 1:
        r = groupByLength(a, 0, &size, &columns);
        return size == 0;
    default:
        r = groupByLength(c, 1, &size, &columns);
        return size == 1 && columns[0] == 1 && !strcmp(r[0][0], "same");
    }
}
"#,
    // No includes: `malloc` and `strlen` undeclared, as gcc 12 compiles them.
    right: "char*** groupByLength(char** words, int wordsSize, int* returnSize, int** returnColumnSizes) {\n    char*** groups = malloc((wordsSize + 1) * sizeof(char**));\n    int* sizes = malloc((wordsSize + 1) * sizeof(int));\n    long* lengths = malloc((wordsSize + 1) * sizeof(long));\n    int n = 0;\n    for (int i = 0; i < wordsSize; i++) {\n        long len = strlen(words[i]);\n        int g = 0;\n        while (g < n && lengths[g] != len) g++;\n        if (g == n) { groups[n] = malloc(wordsSize * sizeof(char*)); sizes[n] = 0; lengths[n] = len; n++; }\n        groups[g][sizes[g]++] = words[i];\n    }\n    *returnSize = n;\n    *returnColumnSizes = sizes;\n    return groups;\n}\n",
    // One group per word.
    wrong: "#include <stdlib.h>\nchar*** groupByLength(char** words, int wordsSize, int* returnSize, int** returnColumnSizes) {\n    char*** groups = malloc((wordsSize + 1) * sizeof(char**));\n    int* sizes = malloc((wordsSize + 1) * sizeof(int));\n    for (int i = 0; i < wordsSize; i++) { groups[i] = &words[i]; sizes[i] = 1; }\n    *returnSize = wordsSize;\n    *returnColumnSizes = sizes;\n    return groups;\n}\n",
};

const PROBLEMS: &[&Problem] = &[&MIX, &SHIFT, &TWO_SUM, &PREFIX, &TRANSPOSE, &GROUP];

use common::score_tasks as score;

/// A C call task.
fn task(entry: &str, declaration: &str, cases: Value, programs: &[&str]) -> Value {
    common::call_task("c", declaration, entry, cases, programs)
}

/// Which of `problem`'s cases `program` passes, compiled natively with the problem's harness.
fn native_passes(problem: &Problem, program: &str, dir: &std::path::Path) -> Vec<bool> {
    let n = (problem.cases)().as_array().unwrap().len();
    let source = format!(
        "{program}\n#include <stdio.h>\n{}\nint main(void) {{\n    for (int k = 0; k < {n}; k++) printf(\"%d\\n\", check(k));\n    return 0;\n}}\n",
        problem.harness
    );
    let binary = common::compile_natively("c", &source, dir);
    let out = std::process::Command::new(&binary).output().unwrap();
    assert!(
        out.status.success(),
        "{}: the native harness failed",
        problem.entry
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l == "1")
        .collect()
}

#[test]
fn c_calls_get_the_verdicts_native_cc_gives_the_same_programs() {
    let dir = tempfile::tempdir().unwrap();
    let tasks: Vec<Value> = PROBLEMS
        .iter()
        .map(|p| task(p.entry, p.declaration, (p.cases)(), &[p.right, p.wrong]))
        .collect();
    let results = score(&tasks);
    for (problem, result) in PROBLEMS.iter().zip(&results) {
        assert_eq!(result.results.len(), 2, "{}: {result:#?}", problem.entry);
        for (program, completion) in [problem.right, problem.wrong]
            .into_iter()
            .zip(&result.results)
        {
            let native = native_passes(problem, program, dir.path());
            let here: Vec<bool> = completion
                .cases
                .iter()
                .map(|c| c.status == CaseStatus::Passed)
                .collect();
            assert_eq!(here, native, "{}: {completion:#?}", problem.entry);
        }
        let right: Vec<bool> = native_passes(problem, problem.right, dir.path());
        assert!(
            right.iter().all(|&p| p),
            "{}'s right program",
            problem.entry
        );
        let wrong = native_passes(problem, problem.wrong, dir.path());
        assert!(
            wrong.contains(&false) && wrong.contains(&true),
            "{}'s wrong program must fail some cases and pass others: {wrong:?}",
            problem.entry
        );
    }
}

#[test]
fn a_failed_call_says_what_came_back() {
    let results = score(&[
        task(
            PREFIX.entry,
            PREFIX.declaration,
            (PREFIX.cases)(),
            &[PREFIX.wrong],
        ),
        task(
            TWO_SUM.entry,
            TWO_SUM.declaration,
            (TWO_SUM.cases)(),
            &[TWO_SUM.wrong],
        ),
    ]);
    let prefix = &results[0].results[0].cases;
    assert_eq!(prefix[1].status, CaseStatus::Wrong);
    assert!(
        prefix[1]
            .detail
            .contains("returned a null pointer (NULL) where a string was expected"),
        "{prefix:#?}"
    );
    assert_eq!(results[1].results.len(), 1, "{:#?}", results[1]);
    let two_sum = &results[1].results[0].cases;
    assert_eq!(two_sum[1].status, CaseStatus::Wrong);
    assert!(
        two_sum[1]
            .detail
            .contains("twoSum([2, 5, 4], 6) returned [], expected [0, 2]"),
        "{two_sum:#?}"
    );
}

#[test]
fn a_c_program_that_ends_during_a_call_fails_that_call_only() {
    let declaration = "int half(int x) {\n";
    let programs = [
        // exit() on one argument; a read through NULL on another (a crash natively); its own main.
        "#include <stdlib.h>\nint half(int x) {\n    if (x == 3) exit(4);\n    if (x == 5) { int* volatile p = NULL; return *(int*)p; }\n    return x / 2;\n}\nint main(void) { return 9; }\n",
        // Writes a frame of its own first.
        "#include <stdio.h>\nint half(int x) {\n    printf(\"\\x1eR 99 \\n\");\n    return x / 2;\n}\n",
    ];
    let cases = json!([
        {"args": [4], "expected": 2},
        {"args": [3], "expected": 1},
        {"args": [8], "expected": 4},
        {"args": [5], "expected": 2},
        {"args": [-7], "expected": -3},
    ]);
    let results = score(&[task("half", declaration, cases, &programs)]);
    let statuses = |i: usize| -> Vec<CaseStatus> {
        results[0].results[i]
            .cases
            .iter()
            .map(|c| c.status)
            .collect()
    };
    use CaseStatus::*;
    assert_eq!(
        statuses(0),
        [Passed, ExitedNonzero, Passed, Crashed, Passed],
        "{:#?}",
        results[0].results[0]
    );
    assert!(
        results[0].results[0].cases[1]
            .detail
            .contains("half(3): the program ended during the call"),
        "{:#?}",
        results[0].results[0].cases[1]
    );
    assert_eq!(statuses(1), [Wrong; 5], "{:#?}", results[0].results[1]);
}
