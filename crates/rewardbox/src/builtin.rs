//! The built-in verifiers: their names, what they check, and their components (built and
//! embedded by `rewardbox-builtins`).

/// A built-in verifier: the name a task gives in `"verifier"`, and its component.
#[derive(Debug, Clone, Copy)]
pub struct Builtin {
    /// The name a task uses.
    pub name: &'static str,
    /// What it checks, for `rewardbox verifiers` and docs/verifiers/builtin.md.
    pub summary: &'static str,
    /// The component's bytes.
    pub wasm: &'static [u8],
    /// Which component it is (several names share one component).
    pub component: &'static str,
}

use rewardbox_builtins::{
    VERIFIER_CODE as CODE_WASM, VERIFIER_MATCH as MATCH_WASM, VERIFIER_MATH as MATH_WASM,
};

/// Every built-in verifier.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "exact",
        summary: "the completion equals \"reference\" after trimming",
        wasm: MATCH_WASM,
        component: "match",
    },
    Builtin {
        name: "normalized",
        summary: "equal after folding case, white space, surrounding punctuation and NFKC forms",
        wasm: MATCH_WASM,
        component: "match",
    },
    Builtin {
        name: "numeric",
        summary: "the completion's final number is within \"tolerance\" of \"reference\"",
        wasm: MATCH_WASM,
        component: "match",
    },
    Builtin {
        name: "regex",
        summary: "the completion matches \"pattern\" (whole, or anywhere with \"search\": true)",
        wasm: MATCH_WASM,
        component: "match",
    },
    Builtin {
        name: "choice",
        summary: "the multiple-choice letter the completion names equals \"reference\"",
        wasm: MATCH_WASM,
        component: "match",
    },
    Builtin {
        name: "math",
        summary: "the final answer is mathematically equivalent to \"reference\" (LaTeX or plain)",
        wasm: MATH_WASM,
        component: "math",
    },
    Builtin {
        name: "code",
        summary: "the completion's program passes \"tests\" (stdio, calls, or asserts), run in sandboxed CPython",
        wasm: CODE_WASM,
        component: "code",
    },
];

/// The built-in verifier called `name`.
pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// The built-in names, comma-separated, for error messages.
pub fn names() -> String {
    BUILTINS
        .iter()
        .map(|b| b.name)
        .collect::<Vec<_>>()
        .join(", ")
}
