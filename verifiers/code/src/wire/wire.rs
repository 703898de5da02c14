// rewardbox's wire for Rust test programs: the values a test passes to the function under test
// and the value it returns, crossing between the trusted test program and the live candidate
// (each in a sandbox of its own, one's standard output the other's standard input).
//
// Every type crosses as itself: integers of each width in decimal, floats as their bit patterns
// (-0.0, NaN and the infinities arrive exactly), `char` as its code point, strings with their
// length, collections with their size, tuples and options element by element. A message is
// framed: it starts with the byte 0x1e and ends with a newline; bytes outside a frame (the
// candidate's own prints) are skipped.
#[allow(dead_code, unused_imports, clippy::all)]
mod rewardbox_wire {
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
    use std::hash::Hash;
    use std::io::{Read, Write};

    /// The most elements one collection may claim: a larger count is a malformed message.
    const MAX_COUNT: usize = 1 << 26;

    /// A message being written.
    pub struct Out(Vec<u8>);

    impl Out {
        fn token(&mut self, token: &str) {
            self.0.extend_from_slice(token.as_bytes());
            self.0.push(b' ');
        }
    }

    /// A message being read from standard input.
    pub struct In {
        input: std::io::Bytes<std::io::Stdin>,
    }

    impl In {
        fn new() -> In {
            In { input: std::io::stdin().bytes() }
        }
        fn next(&mut self) -> Option<u8> {
            self.input.next().and_then(Result::ok)
        }
        /// Skips to the start of the next frame; false at the end of input.
        fn frame(&mut self) -> bool {
            loop {
                match self.next() {
                    None => return false,
                    Some(0x1e) => return true,
                    Some(_) => {}
                }
            }
        }
        fn token(&mut self) -> String {
            let mut token = Vec::new();
            let mut byte = self.next();
            while matches!(byte, Some(b' ' | b'\n')) {
                byte = self.next();
            }
            while let Some(b) = byte {
                if b == b' ' || b == b'\n' {
                    break;
                }
                token.push(b);
                byte = self.next();
            }
            String::from_utf8_lossy(&token).into_owned()
        }
        /// Ends the program: the other side sent something that is not a message of the wire.
        pub fn malformed(&mut self, what: &str) -> ! {
            eprintln!("\u{1e}rb-wire malformed {what}");
            std::process::exit(3)
        }
        fn parse<T: std::str::FromStr>(&mut self, what: &str) -> T {
            let token = self.token();
            token.parse().unwrap_or_else(|_| self.malformed(what))
        }
        fn count(&mut self) -> usize {
            let n: usize = self.parse("count");
            if n > MAX_COUNT {
                self.malformed("count");
            }
            n
        }
    }

    /// A value that can be sent.
    pub trait Put {
        fn put(&self, out: &mut Out);
    }

    /// A value that can be received.
    pub trait Take: Sized {
        fn take(input: &mut In) -> Self;
    }

    macro_rules! numbers {
        ($($t:ty),*) => {$(
            impl Put for $t {
                fn put(&self, out: &mut Out) { out.token(&self.to_string()) }
            }
            impl Take for $t {
                fn take(input: &mut In) -> Self { input.parse("integer") }
            }
        )*};
    }
    numbers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

    impl Put for bool {
        fn put(&self, out: &mut Out) {
            out.token(if *self { "1" } else { "0" })
        }
    }
    impl Take for bool {
        fn take(input: &mut In) -> Self {
            input.parse::<u8>("bool") != 0
        }
    }
    impl Put for char {
        fn put(&self, out: &mut Out) {
            (*self as u32).put(out)
        }
    }
    impl Take for char {
        fn take(input: &mut In) -> Self {
            let code = u32::take(input);
            char::from_u32(code).unwrap_or_else(|| input.malformed("char"))
        }
    }
    impl Put for f32 {
        fn put(&self, out: &mut Out) {
            self.to_bits().put(out)
        }
    }
    impl Take for f32 {
        fn take(input: &mut In) -> Self {
            f32::from_bits(u32::take(input))
        }
    }
    impl Put for f64 {
        fn put(&self, out: &mut Out) {
            self.to_bits().put(out)
        }
    }
    impl Take for f64 {
        fn take(input: &mut In) -> Self {
            f64::from_bits(u64::take(input))
        }
    }
    impl Put for () {
        fn put(&self, _: &mut Out) {}
    }
    impl Take for () {
        fn take(_: &mut In) -> Self {}
    }

    impl Put for str {
        fn put(&self, out: &mut Out) {
            out.0.extend_from_slice(format!("{}:", self.len()).as_bytes());
            out.0.extend_from_slice(self.as_bytes());
            out.0.push(b' ');
        }
    }
    impl Put for String {
        fn put(&self, out: &mut Out) {
            self.as_str().put(out)
        }
    }
    impl Take for String {
        fn take(input: &mut In) -> Self {
            let mut length = Vec::new();
            let mut byte = input.next();
            while matches!(byte, Some(b' ' | b'\n')) {
                byte = input.next();
            }
            while let Some(b @ b'0'..=b'9') = byte {
                length.push(b);
                byte = input.next();
            }
            if byte != Some(b':') || length.is_empty() || length.len() > 9 {
                input.malformed("string");
            }
            let n: usize = String::from_utf8_lossy(&length).parse().unwrap_or(usize::MAX);
            if n > MAX_COUNT {
                input.malformed("string");
            }
            let mut bytes = Vec::with_capacity(n);
            for _ in 0..n {
                match input.next() {
                    Some(b) => bytes.push(b),
                    None => input.malformed("string"),
                }
            }
            String::from_utf8(bytes).unwrap_or_else(|_| input.malformed("string"))
        }
    }
    /// A received `&str` lives for the rest of the program, as a literal does.
    impl Take for &'static str {
        fn take(input: &mut In) -> Self {
            Box::leak(String::take(input).into_boxed_str())
        }
    }

    impl<T: Put + ?Sized> Put for &T {
        fn put(&self, out: &mut Out) {
            (**self).put(out)
        }
    }
    impl<T: Put + ?Sized> Put for &mut T {
        fn put(&self, out: &mut Out) {
            (**self).put(out)
        }
    }
    impl<T: Put + ?Sized> Put for Box<T> {
        fn put(&self, out: &mut Out) {
            (**self).put(out)
        }
    }
    impl<T: Take> Take for Box<T> {
        fn take(input: &mut In) -> Self {
            Box::new(T::take(input))
        }
    }

    impl<T: Put> Put for [T] {
        fn put(&self, out: &mut Out) {
            out.token(&self.len().to_string());
            for e in self {
                e.put(out);
            }
        }
    }
    impl<T: Put> Put for Vec<T> {
        fn put(&self, out: &mut Out) {
            self.as_slice().put(out)
        }
    }
    impl<T: Take> Take for Vec<T> {
        fn take(input: &mut In) -> Self {
            let n = input.count();
            (0..n).map(|_| T::take(input)).collect()
        }
    }
    impl<T: Put, const N: usize> Put for [T; N] {
        fn put(&self, out: &mut Out) {
            self.as_slice().put(out)
        }
    }
    impl<T: Take, const N: usize> Take for [T; N] {
        fn take(input: &mut In) -> Self {
            let v = Vec::<T>::take(input);
            v.try_into().unwrap_or_else(|_| input.malformed("array"))
        }
    }

    macro_rules! sequence {
        ($c:ident, $($bound:tt)*) => {
            impl<T: Put> Put for $c<T> {
                fn put(&self, out: &mut Out) {
                    out.token(&self.len().to_string());
                    for e in self.iter() {
                        e.put(out);
                    }
                }
            }
            impl<T: Take + $($bound)*> Take for $c<T> {
                fn take(input: &mut In) -> Self {
                    let n = input.count();
                    (0..n).map(|_| T::take(input)).collect()
                }
            }
        };
    }
    sequence!(VecDeque, Sized);
    sequence!(HashSet, Eq + Hash);
    sequence!(BTreeSet, Ord);
    impl<K: Put, V: Put> Put for HashMap<K, V> {
        fn put(&self, out: &mut Out) {
            out.token(&self.len().to_string());
            for (k, v) in self {
                k.put(out);
                v.put(out);
            }
        }
    }
    impl<K: Take + Eq + Hash, V: Take> Take for HashMap<K, V> {
        fn take(input: &mut In) -> Self {
            let n = input.count();
            (0..n).map(|_| (K::take(input), V::take(input))).collect()
        }
    }
    impl<K: Put, V: Put> Put for BTreeMap<K, V> {
        fn put(&self, out: &mut Out) {
            out.token(&self.len().to_string());
            for (k, v) in self {
                k.put(out);
                v.put(out);
            }
        }
    }
    impl<K: Take + Ord, V: Take> Take for BTreeMap<K, V> {
        fn take(input: &mut In) -> Self {
            let n = input.count();
            (0..n).map(|_| (K::take(input), V::take(input))).collect()
        }
    }

    impl<T: Put> Put for Option<T> {
        fn put(&self, out: &mut Out) {
            match self {
                None => out.token("0"),
                Some(v) => {
                    out.token("1");
                    v.put(out);
                }
            }
        }
    }
    impl<T: Take> Take for Option<T> {
        fn take(input: &mut In) -> Self {
            if input.parse::<u8>("option") == 0 {
                None
            } else {
                Some(T::take(input))
            }
        }
    }

    macro_rules! tuples {
        ($(($($t:ident $i:tt),+))*) => {$(
            impl<$($t: Put),+> Put for ($($t,)+) {
                fn put(&self, out: &mut Out) { $(self.$i.put(out);)+ }
            }
            impl<$($t: Take),+> Take for ($($t,)+) {
                fn take(input: &mut In) -> Self { ($($t::take(input),)+) }
            }
        )*};
    }
    tuples! {
        (A 0)
        (A 0, B 1)
        (A 0, B 1, C 2)
        (A 0, B 1, C 2, D 3)
        (A 0, B 1, C 2, D 3, E 4)
        (A 0, B 1, C 2, D 3, E 4, F 5)
        (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
        (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
        (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8)
        (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9)
        (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10)
        (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11)
    }

    fn send(out: Out) {
        let mut frame = Vec::with_capacity(out.0.len() + 2);
        frame.push(0x1e);
        frame.extend_from_slice(&out.0);
        frame.push(b'\n');
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(&frame);
        let _ = stdout.flush();
    }

    /// The trusted side: sends a call of function `function` whose arguments `arguments` writes,
    /// and returns the candidate's answer. A candidate that ended during the call ends the test
    /// program.
    pub fn call<R: Take>(function: u32, arguments: impl FnOnce(&mut Out)) -> R {
        exchange("C", function, arguments).0
    }

    /// [`call`] of a function that takes arguments by `&mut`: the candidate answers with their
    /// values after the call, after its result. Returns the result and the answer's input, from
    /// which the caller then takes each changed argument into the test code's variable, as
    /// natively the function changes it.
    pub fn call_changing<R: Take>(function: u32, arguments: impl FnOnce(&mut Out)) -> (R, In) {
        exchange("M", function, arguments)
    }

    /// A call (`C`), or one asking for the changed arguments too (`M`), and its result.
    fn exchange<R: Take>(kind: &str, function: u32, arguments: impl FnOnce(&mut Out)) -> (R, In) {
        let mut out = Out(Vec::new());
        out.token(kind);
        out.token(&function.to_string());
        arguments(&mut out);
        send(out);
        let mut input = In::new();
        if !input.frame() {
            eprintln!("\u{1e}rb-wire ended");
            std::process::exit(3);
        }
        if input.token() != "R" {
            input.malformed("answer");
        }
        (R::take(&mut input), input)
    }

    /// The candidate's side: answers calls with `answer`, given the function's wire number and
    /// whether the caller asks for the arguments taken by `&mut` (put after the result), until
    /// the test program ends.
    pub fn serve(mut answer: impl FnMut(u32, bool, &mut In, &mut Out)) {
        let mut input = In::new();
        while input.frame() {
            let changed = match input.token().as_str() {
                "C" => false,
                "M" => true,
                _ => input.malformed("call"),
            };
            let function: u32 = input.parse("call");
            let mut out = Out(Vec::new());
            out.token("R");
            answer(function, changed, &mut input, &mut out);
            send(out);
        }
    }

    /// The trusted side: reports a test function's state (`start`, `pass`) on stderr.
    pub fn case(id: &str, state: &str) {
        eprintln!("\u{1e}rb-case {id} {state}");
    }

    /// The trusted side's assert in the `main` form: records each assert line's first pass and
    /// first failure on stderr (the verifier reads them as cases) and goes on, so that every
    /// assert is a case.
    pub fn check(ok: bool, shown: String, line: u32) {
        use std::sync::Mutex;
        static SEEN: Mutex<Vec<(u32, bool)>> = Mutex::new(Vec::new());
        let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
        if seen.contains(&(line, ok)) {
            return;
        }
        seen.push((line, ok));
        let mut shown: String = shown
            .chars()
            .map(|c| if matches!(c, '\n' | '\r' | '\u{1e}') { ' ' } else { c })
            .collect();
        if shown.len() > 300 {
            let cut = (0..=300).rev().find(|&i| shown.is_char_boundary(i)).unwrap_or(0);
            shown.truncate(cut);
            shown.push_str("...");
        }
        let state = if ok { "pass" } else { "fail" };
        eprintln!("\u{1e}rb-case line\u{1f}{line} {state} {shown}");
    }
}
