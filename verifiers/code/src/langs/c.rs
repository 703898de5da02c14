//! C candidates' typed call tests: the entry point's C signature read as call values, and the
//! candidate's server generated for it around [`WIRE`] (C has no templates to do it as C++'s
//! wire does).
//!
//! A C function takes an array as a pointer and a length, and returns one through a size it
//! writes, as LeetCode's C harness calls it (the convention C function-level benchmarks use):
//! - `T* a, int n` (or `T a[], int n`) is one argument, a list; `char** a, int n` a list of
//!   strings; `T** a, int n, int* cols` a list of lists (rows of the lengths in `cols`);
//! - `char* s` alone is a string (NUL-terminated);
//! - a function returning `T*` writes its length through a last parameter `int* returnSize`; one
//!   returning `T**` also writes each row's length through `int** returnColumnSizes`; a `char*`
//!   returned without a size is a string.
//!
//! Every other parameter is a scalar (integers of each width, `float`, `double`, `bool`, `char`).

use crate::langs::cpp::{find_signature, named_declarators, return_type};
use crate::langs::types::{self, Ty};

/// The wire's C side, placed after the candidate's program.
pub const WIRE: &str = include_str!("../wire/wire.h");

/// A C type as a declaration writes it: its base type and pointer depth.
#[derive(Debug, Clone, PartialEq)]
struct CType {
    /// The type as written, arrays made pointers (`const char *`), for casts.
    written: String,
    /// The base type's words without qualifiers (`unsigned long`).
    base: String,
    /// The base type as a call's value, when it is a scalar.
    scalar: Option<Ty>,
    /// Pointer depth (`[]` counts as one).
    stars: usize,
}

impl CType {
    fn read(text: &str, aliases: &[(String, String)]) -> CType {
        let stars = text.matches(['*', '[']).count();
        let mut written = String::new();
        let mut in_brackets = false;
        for c in text.chars() {
            match c {
                '[' => {
                    in_brackets = true;
                    written.push('*');
                }
                ']' => in_brackets = false,
                _ if in_brackets => {}
                _ => written.push(c),
            }
        }
        let base = text
            .split(['*', '['])
            .next()
            .unwrap_or("")
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    *w,
                    "const" | "volatile" | "restrict" | "__restrict" | "register"
                )
            })
            .collect::<Vec<_>>()
            .join(" ");
        // C's own name of `bool` (which `<stdbool.h>` makes a macro for).
        let scalar = types::cpp(&base.replace("_Bool", "bool"), aliases)
            .ok()
            .filter(|ty| {
                matches!(
                    ty,
                    Ty::Bool | Ty::Int { .. } | Ty::Char | Ty::Float { .. } | Ty::Unit
                )
            });
        CType {
            written: written.trim().to_string(),
            base,
            scalar,
            stars,
        }
    }

    /// An integer passed by value: an array's length.
    fn is_length(&self) -> bool {
        self.stars == 0 && matches!(self.scalar, Some(Ty::Int { .. }))
    }

    /// A pointer to integers: the lengths of a list of lists' rows, or a returned size.
    fn is_lengths(&self, depth: usize) -> bool {
        self.stars == depth && matches!(self.scalar, Some(Ty::Int { .. }))
    }

    fn is_char(&self) -> bool {
        self.scalar == Some(Ty::Char) && self.base == "char"
    }

    /// What this type holds under `depth` of its pointers: a scalar, or (one pointer left on a
    /// `char`) a string.
    fn element(&self, depth: usize, what: &str) -> Result<Element, String> {
        match (self.stars.checked_sub(depth), &self.scalar) {
            (Some(0), Some(ty)) if *ty != Ty::Unit => Ok(Element::Scalar {
                c: self.base.clone(),
                ty: ty.clone(),
            }),
            (Some(1), _) if self.is_char() => Ok(Element::Str),
            _ => Err(format!(
                "{what} `{}` cannot cross as a call's value (C calls carry integers, float, \
                 double, bool, char, strings as char*, and arrays as a pointer and its length: \
                 `int* nums, int numsSize`, `char** words, int wordsSize`, `int** grid, int \
                 gridSize, int* gridColSize`)",
                self.written
            )),
        }
    }
}

/// What each element of a value is.
#[derive(Debug, Clone, PartialEq)]
enum Element {
    /// A scalar of C type `c`.
    Scalar { c: String, ty: Ty },
    /// A NUL-terminated string.
    Str,
}

impl Element {
    fn ty(&self) -> Ty {
        match self {
            Element::Scalar { ty, .. } => ty.clone(),
            Element::Str => Ty::Str,
        }
    }

    /// The C type of a variable holding one.
    fn c(&self) -> &str {
        match self {
            Element::Scalar { c, .. } => c,
            Element::Str => "char*",
        }
    }

    /// A C expression reading one from the wire.
    fn read(&self) -> String {
        match self {
            Element::Str => "rewardbox_wire_str()".into(),
            Element::Scalar { c, ty } => {
                let raw = match ty {
                    Ty::Bool => "rewardbox_wire_int() != 0",
                    Ty::Int { signed: false, .. } => "rewardbox_wire_uint()",
                    Ty::Float { bits: 32 } => "rewardbox_wire_f32()",
                    Ty::Float { .. } => "rewardbox_wire_f64()",
                    _ => "rewardbox_wire_int()",
                };
                format!("({c})({raw})")
            }
        }
    }

    /// A C statement writing `expr`, one of these, to the answer.
    fn put(&self, expr: &str) -> String {
        match self {
            Element::Str => format!("rewardbox_wire_put_str({expr});"),
            Element::Scalar { ty, .. } => match ty {
                Ty::Bool => format!("rewardbox_wire_put_int(({expr}) ? 1 : 0);"),
                Ty::Int { signed: false, .. } => {
                    format!("rewardbox_wire_put_uint((unsigned long long)({expr}));")
                }
                Ty::Char => format!("rewardbox_wire_put_int((long long)(signed char)({expr}));"),
                Ty::Float { bits: 32 } => format!("rewardbox_wire_put_f32((float)({expr}));"),
                Ty::Float { .. } => format!("rewardbox_wire_put_f64((double)({expr}));"),
                _ => format!("rewardbox_wire_put_int((long long)({expr}));"),
            },
        }
    }
}

/// How a value is laid out in C.
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    /// One element: a scalar or a string.
    One(Element),
    /// A pointer and a length.
    List(Element),
    /// A pointer to rows, their count and each one's length.
    Rows(Element),
}

impl Shape {
    fn ty(&self) -> Ty {
        match self {
            Shape::One(e) => e.ty(),
            Shape::List(e) => Ty::Seq(Box::new(e.ty())),
            Shape::Rows(e) => Ty::Seq(Box::new(Ty::Seq(Box::new(e.ty())))),
        }
    }
}

/// One argument of a call, and the C parameters it fills (one to three, in order).
#[derive(Debug, Clone, PartialEq)]
struct Argument {
    shape: Shape,
    parameters: Vec<CType>,
}

/// What the entry point returns.
#[derive(Debug, Clone, PartialEq)]
enum Returns {
    Nothing,
    /// A value of this shape; a list's or rows' sizes come through the last parameters (of
    /// these types: `int*`, then for rows `int**`).
    Value {
        shape: Shape,
        sizes: Vec<CType>,
    },
}

/// The entry point's C signature, read as call values.
#[derive(Debug, Clone, PartialEq)]
pub struct CallPlan {
    entry: String,
    arguments: Vec<Argument>,
    returns: Returns,
    written_return: String,
}

impl CallPlan {
    /// Reads `entry`'s signature in `declaration` (the task's, ending with its opening brace).
    pub fn read(declaration: &str, entry: &str) -> Result<CallPlan, String> {
        let signature = find_signature(declaration, entry)?;
        let aliases = types::cpp_aliases(signature.prefix);
        let mut parameters = named_declarators(signature.parameters)?
            .into_iter()
            .map(|d| {
                let (declarator, brackets) = (d.text, d.after_name);
                if brackets.matches('[').count() > 1 {
                    // `int m[][3]` is a pointer to arrays of 3, not to pointers.
                    return Err(format!(
                        "the parameter `{declarator}` is an array of arrays, which a call cannot \
                         fill; declare it as rows and their lengths (`int** m, int mSize, int* \
                         mColSize`)"
                    ));
                }
                Ok(CType::read(
                    &format!("{}{brackets}", d.before_name),
                    &aliases,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let written_return = return_type(signature.text, entry);
        let returned = CType::read(&written_return, &aliases);
        let returns = Self::returns(&returned, &mut parameters)?;
        let arguments = Self::arguments(&parameters)?;
        Ok(CallPlan {
            entry: entry.to_string(),
            arguments,
            returns,
            written_return,
        })
    }

    /// The result's shape; its size parameters are taken off the end of `parameters`.
    fn returns(returned: &CType, parameters: &mut Vec<CType>) -> Result<Returns, String> {
        if returned.stars == 0 {
            return match &returned.scalar {
                Some(Ty::Unit) => Ok(Returns::Nothing),
                _ => Ok(Returns::Value {
                    shape: Shape::One(returned.element(0, "the return type")?),
                    sizes: Vec::new(),
                }),
            };
        }
        let n = parameters.len();
        let rows = returned.stars >= 2
            && n >= 2
            && parameters[n - 1].is_lengths(2)
            && parameters[n - 2].is_lengths(1);
        if rows {
            let sizes = parameters.split_off(n - 2);
            return Ok(Returns::Value {
                shape: Shape::Rows(returned.element(2, "the return type")?),
                sizes,
            });
        }
        if n >= 1 && parameters[n - 1].is_lengths(1) {
            let sizes = parameters.split_off(n - 1);
            return Ok(Returns::Value {
                shape: Shape::List(returned.element(1, "the return type")?),
                sizes,
            });
        }
        if returned.stars == 1 && returned.is_char() {
            return Ok(Returns::Value {
                shape: Shape::One(Element::Str),
                sizes: Vec::new(),
            });
        }
        Err(format!(
            "the return type `{}` is a pointer with no size: a function returning an array \
             writes its length through a last parameter `int* returnSize` (and a list of lists \
             each row's through `int** returnColumnSizes`)",
            returned.written
        ))
    }

    /// The call's arguments, each filling one to three of `parameters`.
    fn arguments(parameters: &[CType]) -> Result<Vec<Argument>, String> {
        let mut arguments = Vec::new();
        let mut i = 0;
        while i < parameters.len() {
            let p = &parameters[i];
            let length = |k: usize| parameters.get(i + k).is_some_and(CType::is_length);
            let lengths = |k: usize| parameters.get(i + k).is_some_and(|c| c.is_lengths(1));
            let (shape, taken) = if p.stars == 0 {
                (Shape::One(p.element(0, "the parameter")?), 1)
            } else if p.stars >= 2 && length(1) && lengths(2) {
                (Shape::Rows(p.element(2, "the parameter")?), 3)
            } else if length(1) {
                (Shape::List(p.element(1, "the parameter")?), 2)
            } else if p.stars == 1 && p.is_char() {
                (Shape::One(Element::Str), 1)
            } else {
                return Err(format!(
                    "the parameter `{}` is a pointer with no length after it: a call passes an \
                     array as a pointer and its length (`int* nums, int numsSize`), a list of \
                     lists with each row's length too (`int** grid, int gridSize, int* \
                     gridColSize`)",
                    p.written
                ));
            };
            arguments.push(Argument {
                shape,
                parameters: parameters[i..i + taken].to_vec(),
            });
            i += taken;
        }
        Ok(arguments)
    }

    /// The types of the call's arguments, as the verifier writes them.
    pub fn parameter_types(&self) -> Vec<Ty> {
        self.arguments.iter().map(|a| a.shape.ty()).collect()
    }

    /// The result's type (`Ty::Unit` for `void`).
    pub fn result_type(&self) -> Ty {
        match &self.returns {
            Returns::Nothing => Ty::Unit,
            Returns::Value { shape, .. } => shape.ty(),
        }
    }

    /// The C function answering one call: reads the arguments, calls the entry point, writes
    /// its result.
    fn answer_function(&self) -> String {
        let mut body = String::new();
        let mut call = Vec::new();
        for (k, argument) in self.arguments.iter().enumerate() {
            let cast = |j: usize| argument.parameters[j].written.clone();
            match &argument.shape {
                Shape::One(element) => {
                    body += &format!("    {} rb_a{k} = {};\n", element.c(), element.read());
                    call.push(format!("({}) rb_a{k}", cast(0)));
                }
                Shape::List(element) => {
                    body += &format!(
                        "    long long rb_n{k} = rewardbox_wire_count();\n    {c}* rb_a{k} = ({c}*) rewardbox_wire_alloc(rb_n{k}, sizeof(*rb_a{k}));\n    for (long long rb_i = 0; rb_i < rb_n{k}; rb_i++) rb_a{k}[rb_i] = {read};\n",
                        c = element.c(),
                        read = element.read(),
                    );
                    call.push(format!("({}) rb_a{k}", cast(0)));
                    call.push(format!("({}) rb_n{k}", cast(1)));
                }
                Shape::Rows(element) => {
                    let length = &argument.parameters[2].base;
                    body += &format!(
                        "    long long rb_n{k} = rewardbox_wire_count();\n    {c}** rb_a{k} = ({c}**) rewardbox_wire_alloc(rb_n{k}, sizeof(*rb_a{k}));\n    {length}* rb_c{k} = ({length}*) rewardbox_wire_alloc(rb_n{k}, sizeof(*rb_c{k}));\n    for (long long rb_i = 0; rb_i < rb_n{k}; rb_i++) {{\n        long long rb_m = rewardbox_wire_count();\n        rb_c{k}[rb_i] = ({length}) rb_m;\n        rb_a{k}[rb_i] = ({c}*) rewardbox_wire_alloc(rb_m, sizeof(**rb_a{k}));\n        for (long long rb_j = 0; rb_j < rb_m; rb_j++) rb_a{k}[rb_i][rb_j] = {read};\n    }}\n",
                        c = element.c(),
                        read = element.read(),
                    );
                    call.push(format!("({}) rb_a{k}", cast(0)));
                    call.push(format!("({}) rb_n{k}", cast(1)));
                    call.push(format!("({}) rb_c{k}", cast(2)));
                }
            }
        }
        let mut put = String::new();
        match &self.returns {
            Returns::Nothing => {
                body += &format!("    {}({});\n", self.entry, call.join(", "));
            }
            Returns::Value { shape, sizes } => {
                if let Some(size) = sizes.first() {
                    body += &format!("    {} rb_size = 0;\n", size.base);
                    call.push("&rb_size".into());
                }
                if let Some(columns) = sizes.get(1) {
                    body += &format!("    {}* rb_columns = 0;\n", columns.base);
                    call.push("&rb_columns".into());
                }
                body += &format!(
                    "    {} rb_r = {}({});\n",
                    self.written_return,
                    self.entry,
                    call.join(", ")
                );
                put = match shape {
                    Shape::One(element) => format!("    {}\n", element.put("rb_r")),
                    Shape::List(element) => format!(
                        "    if (rewardbox_wire_array_ok(rb_r, (long long) rb_size)) {{\n        rewardbox_wire_put_count((long long) rb_size);\n        for (long long rb_i = 0; rb_i < (long long) rb_size; rb_i++) {}\n    }}\n",
                        element.put("rb_r[rb_i]")
                    ),
                    Shape::Rows(element) => format!(
                        "    if (rewardbox_wire_array_ok(rb_r, (long long) rb_size) && rewardbox_wire_array_ok(rb_columns, (long long) rb_size)) {{\n        rewardbox_wire_put_count((long long) rb_size);\n        for (long long rb_i = 0; rb_i < (long long) rb_size; rb_i++) {{\n            if (!rewardbox_wire_array_ok(rb_r[rb_i], (long long) rb_columns[rb_i])) break;\n            rewardbox_wire_put_count((long long) rb_columns[rb_i]);\n            for (long long rb_j = 0; rb_j < (long long) rb_columns[rb_i]; rb_j++) {}\n        }}\n    }}\n",
                        element.put("rb_r[rb_i][rb_j]")
                    ),
                };
            }
        }
        format!(
            "static void rewardbox_answer(void) {{\n{body}    rewardbox_wire_begin();\n{put}    rewardbox_wire_send();\n}}\n"
        )
    }
}

/// The candidate's program: its source (a `main` of its own renamed out of the way), then the
/// wire and a `main` answering calls of the entry point as `plan` reads them. The arguments a
/// call allocates are not freed: the candidate may keep or return them, as LeetCode's harness
/// lets it.
pub fn candidate_program(program: &str, plan: &CallPlan) -> String {
    format!(
        "#define main rewardbox_candidate_main\n#line 1 \"solution\"\n{program}\n#undef main\n#line 1 \"rewardbox-serve\"\n{WIRE}\n{}\nsigned main(void) {{\n    while (rewardbox_wire_frame()) {{\n        rewardbox_wire_expect_call();\n        rewardbox_answer();\n    }}\n    return 0;\n}}\n",
        plan.answer_function()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(bits: u8) -> Ty {
        Ty::Int { signed: true, bits }
    }

    fn seq(ty: Ty) -> Ty {
        Ty::Seq(Box::new(ty))
    }

    #[test]
    fn declarations_as_c_benchmarks_write_them_type_their_calls() {
        let table: &[(&str, &str, Vec<Ty>, Ty)] = &[
            (
                "int add(int a, int b) {",
                "add",
                vec![int(32), int(32)],
                int(32),
            ),
            (
                "int* twoSum(int* nums, int numsSize, int target, int* returnSize) {",
                "twoSum",
                vec![seq(int(32)), int(32)],
                seq(int(32)),
            ),
            (
                "#include <stdbool.h>\nbool isPalindrome(const char *s) {",
                "isPalindrome",
                vec![Ty::Str],
                Ty::Bool,
            ),
            (
                "char* longestCommonPrefix(char** strs, int strsSize) {",
                "longestCommonPrefix",
                vec![seq(Ty::Str)],
                Ty::Str,
            ),
            (
                "int** transpose(int** matrix, int matrixSize, int* matrixColSize, int* returnSize, int** returnColumnSizes) {",
                "transpose",
                vec![seq(seq(int(32)))],
                seq(seq(int(32))),
            ),
            (
                "char*** groupAnagrams(char** strs, int strsSize, int* returnSize, int** returnColumnSizes) {",
                "groupAnagrams",
                vec![seq(Ty::Str)],
                seq(seq(Ty::Str)),
            ),
            (
                "void reverseString(char* s, int sSize) {",
                "reverseString",
                vec![seq(Ty::Char)],
                Ty::Unit,
            ),
            (
                "typedef long long ll;\nstatic double mean(const ll xs[], size_t n) {",
                "mean",
                vec![seq(int(64))],
                Ty::Float { bits: 64 },
            ),
            (
                "_Bool f(unsigned char c, float x, char k) {",
                "f",
                vec![
                    Ty::Int {
                        signed: false,
                        bits: 8,
                    },
                    Ty::Float { bits: 32 },
                    Ty::Char,
                ],
                Ty::Bool,
            ),
            (
                "bool isValidSudoku(char** board, int boardSize, int* boardColSize) {",
                "isValidSudoku",
                vec![seq(seq(Ty::Char))],
                Ty::Bool,
            ),
            ("int f(void) {", "f", vec![], int(32)),
        ];
        for (declaration, entry, parameters, result) in table {
            let plan =
                CallPlan::read(declaration, entry).unwrap_or_else(|e| panic!("{declaration}: {e}"));
            assert_eq!(&plan.parameter_types(), parameters, "{declaration}");
            assert_eq!(&plan.result_type(), result, "{declaration}");
        }
    }

    #[test]
    fn pointers_a_call_cannot_fill_are_errors_saying_how_to_declare_them() {
        let table: &[(&str, &str)] = &[
            ("int sum(int* xs) {", "`int*` is a pointer with no length"),
            ("int* f(int n) {", "`int*` is a pointer with no size"),
            ("struct P f(int n) {", "`struct P`"),
            ("int f(struct P* p, int n) {", "`struct P*`"),
            ("int f(int*** p, int n) {", "`int***`"),
            ("int f(void* p, int n) {", "`void*`"),
            (
                "int f(int m[][3], int n) {",
                "`int m[][3]` is an array of arrays",
            ),
        ];
        for (declaration, expected) in table {
            let entry = "f";
            let declaration = declaration.replace("sum", "f");
            let err = CallPlan::read(&declaration, entry).unwrap_err();
            assert!(err.contains(expected), "{declaration}: {err}");
        }
    }

    #[test]
    fn the_server_casts_each_argument_to_its_declared_type_and_passes_the_sizes() {
        let plan = CallPlan::read(
            "int** f(const char** words, int n, int* returnSize, int** returnColumnSizes) {",
            "f",
        )
        .unwrap();
        let program = candidate_program("int main() { return 1; }", &plan);
        assert!(
            program.contains("rb_r = f((const char**) rb_a0, (int) rb_n0, &rb_size, &rb_columns);"),
            "{program}"
        );
        assert!(program.contains("#define main rewardbox_candidate_main\n"));
        assert!(program.contains("signed main(void)"));
    }
}
