//! [`Value`]: one of Python's built-in values, as value JSON carries it.

/// An `int` of any size: its sign and decimal digits, normalised (no leading zeros; zero is not
/// negative), so that two equal integers have equal representations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Int {
    negative: bool,
    digits: String,
}

impl Int {
    /// The integer written `text` (an optional `-`, then ASCII digits), or `None` when `text` is
    /// not one.
    pub fn parse(text: &str) -> Option<Int> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = digits.trim_start_matches('0');
        let digits = if digits.is_empty() { "0" } else { digits };
        Some(Int {
            negative: negative && digits != "0",
            digits: digits.to_string(),
        })
    }

    /// `0` or `1`, the integer a `bool` stands for.
    pub fn from_bool(value: bool) -> Int {
        Int {
            negative: false,
            digits: if value { "1" } else { "0" }.to_string(),
        }
    }

    /// The exact integer `value` is, when it is a finite float with no fractional part.
    pub fn from_integral_float(value: f64) -> Option<Int> {
        if !value.is_finite() || value.fract() != 0.0 {
            return None;
        }
        // Formatting a float with no decimals is exact in Rust: every digit of an integral f64.
        Int::parse(&format!("{value:.0}"))
    }

    /// Whether it is zero.
    pub fn is_zero(&self) -> bool {
        self.digits == "0"
    }

    /// How many decimal digits it has.
    pub fn digit_count(&self) -> usize {
        self.digits.len()
    }

    /// Its decimal form, as Python's `repr` writes it.
    pub fn decimal(&self) -> String {
        if self.negative {
            format!("-{}", self.digits)
        } else {
            self.digits.clone()
        }
    }
}

/// One of Python's built-in values, as the checking sandbox would hold it after decoding value
/// JSON: only exact built-in types, and handles to objects that stayed in the candidate.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `None`.
    None,
    /// `True` or `False`.
    Bool(bool),
    /// An `int`.
    Int(Int),
    /// A `float`, finite or not.
    Float(f64),
    /// A `complex`: its real and imaginary parts.
    Complex(f64, f64),
    /// A `str`: always valid Unicode here (a string with a lone surrogate is not read).
    Str(String),
    /// A `bytes`.
    Bytes(Vec<u8>),
    /// A `list`.
    List(Vec<Value>),
    /// A `tuple`.
    Tuple(Vec<Value>),
    /// A `set` (`frozen`: a `frozenset`): its distinct elements, in the order they were read.
    Set {
        /// Whether it is a `frozenset`.
        frozen: bool,
        /// Its elements, no two equal.
        items: Vec<Value>,
    },
    /// A `dict`: its entries in order, no two keys equal.
    Dict(Vec<(Value, Value)>),
    /// An object that stayed in the candidate: equal only to itself, and never to anything
    /// decoded apart from it.
    Handle {
        /// The candidate's number for it.
        id: i64,
        /// The name of its class.
        type_name: String,
    },
}

impl Value {
    /// Python's `bool(value)`, or `None` for a handle (its `__bool__` would run in the
    /// candidate).
    pub fn truth(&self) -> Option<bool> {
        Some(match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => !i.is_zero(),
            Value::Float(f) => *f != 0.0,
            Value::Complex(re, im) => *re != 0.0 || *im != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Bytes(b) => !b.is_empty(),
            Value::List(items) | Value::Tuple(items) => !items.is_empty(),
            Value::Set { items, .. } => !items.is_empty(),
            Value::Dict(entries) => !entries.is_empty(),
            Value::Handle { .. } => return None,
        })
    }

    /// Whether the checking sandbox's `value is True` holds.
    pub fn is_true(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    /// Whether the checking sandbox's `value is False` holds.
    pub fn is_false(&self) -> bool {
        matches!(self, Value::Bool(false))
    }

    /// Whether the checking sandbox's `value is None` holds.
    pub fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }
}
