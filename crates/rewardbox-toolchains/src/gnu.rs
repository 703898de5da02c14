//! C and C++ as judges compile them (gcc, g++, libstdc++, glibc), on clang, libc++ and wasi-libc:
//! what a contest program expects of GNU that this toolchain can give it.
//!
//! - **Headers** on the include path before the standard library's: `<bits/stdc++.h>`;
//!   `<algorithm>` with libstdc++'s `std::__gcd` and `std::__lg`; `<bitset>` with libstdc++'s
//!   `_Find_first` and `_Find_next` (libc++'s own header, those two members written into it when
//!   the include directory is made, so that they work on its words).
//! - **C++ exceptions**: programs are compiled for WebAssembly's exception handling (exnref), and
//!   the support archive carries what zig's libc++abi for WASI leaves out: libc++abi's exception
//!   runtime and personality and libunwind's WebAssembly unwinder (compiled from the toolchain's
//!   own sources), and the `__cpp_exception` tag. libc++'s own compiled functions (`std::stoi`,
//!   ...) were built without exceptions: where they would throw, they abort.
//! - **A support archive** linked whole (zig puts libc first, and the first definition wins):
//!   glibc's `random`/`rand` generator and `rand_r`, so
//!   that `srand(seed)` gives the judges' sequence, the handler of `-fsanitize=null`'s checks
//!   (a load or store through a null pointer faults as natively, 139), and (C++) libc++'s file
//!   streams, which zig's WASI build of libc++ leaves out (`<fstream>` is compiled with them
//!   enabled).
//! - **Uninitialised locals** hold a pattern (`-ftrivial-auto-var-init=pattern`), not the zero of
//!   WebAssembly's fresh locals: a program that reads one gets a value it did not set, as it may
//!   natively.
//!
//! What still differs is listed in docs/verifiers/judge-compilers.md.

use crate::language::Language;
use std::path::Path;

/// GCC's `<bits/stdc++.h>` for libc++.
pub const BITS_STDCXX: &str = include_str!("../include/bits/stdc++.h");

/// `<algorithm>` with `std::__gcd` and `std::__lg`.
pub const ALGORITHM: &str = include_str!("../include/algorithm");

/// The names glibc's random number functions are linked under (included first in every C and
/// C++ program, see [`PRELUDE`]).
pub const GLIBC_RANDOM_NAMES: &str = include_str!("../include/rewardbox/glibc_random.h");

/// The overlay header every C and C++ program (and the support archive) is compiled with first.
pub const PRELUDE: &str = "rewardbox/glibc_random.h";

/// `<thread>` with `std::this_thread`'s sleeps and `yield` for single-threaded programs.
pub const THREAD: &str = include_str!("../include/thread");

/// OpenSSL's MD5 interface, header-only (benchmarks compile with `-lcrypto`: HumanEval-X's
/// CPP/162).
pub const OPENSSL_MD5: &str = include_str!("../include/openssl/md5.h");

/// glibc's random number generators (C, linked into C and C++ programs).
pub const GLIBC_RANDOM: &str = include_str!("../support/glibc_random.c");

/// libc++'s file stream instantiations (C++).
pub const FSTREAM: &str = include_str!("../support/fstream.cpp");

/// What a check of `-fsanitize=null` calls: a null pointer faults as natively (C and C++).
pub const NULL_POINTER: &str = include_str!("../support/null_pointer.c");

/// The `__cpp_exception` tag (C++).
pub const CPP_EXCEPTION_TAG: &str = include_str!("../support/cpp_exception.S");

/// What a C++ program is compiled with for exceptions: WebAssembly's exception handling, in its
/// standard form (exnref, which wasmtime implements), not the legacy one.
pub const EXCEPTION_FLAGS: [&str; 4] = [
    "-fwasm-exceptions",
    "-mexception-handling",
    "-mllvm",
    "-wasm-use-legacy-eh=false",
];

/// A source of the support archive.
#[derive(Debug, Clone, Copy)]
pub enum SupportSource {
    /// rewardbox's own: (file name, source).
    Own(&'static str, &'static str),
    /// The toolchain's: a path under its `lib/` (compiled with `defines`).
    Toolchain(&'static str, &'static [&'static str]),
}

/// How libc++abi's and libunwind's sources are compiled for the support archive: as their release
/// builds are (`NDEBUG`: libunwind's debug logging needs the rest of libunwind).
const LIBCXXABI_DEFINES: &[&str] = &[
    "-DNDEBUG",
    "-D_LIBCXXABI_BUILDING_LIBRARY",
    "-D_LIBCXXABI_HAS_NO_THREADS",
    "-D_LIBCPP_BUILDING_LIBRARY",
];
const LIBUNWIND_DEFINES: &[&str] = &["-DNDEBUG", "-D_LIBUNWIND_HIDE_SYMBOLS"];

/// Where the generated members go: right after `bitset`'s own typedef of its base.
const BITSET_ANCHOR: &str = "typedef __bitset<__n_words, _Size> __base;";

/// libstdc++'s `_Find_first` and `_Find_next`, as members of libc++'s `bitset`: word by word over
/// its storage, as libstdc++ scans its own.
const BITSET_MEMBERS: &str = r#"
  // rewardbox: libstdc++'s _Find_first and _Find_next (the first set bit, the first after a
  // position; the size when there is none).
  _LIBCPP_HIDE_FROM_ABI size_t _Find_first() const _NOEXCEPT { return __rb_find_from(0); }
  _LIBCPP_HIDE_FROM_ABI size_t _Find_next(size_t __prev) const _NOEXCEPT {
    return __prev >= _Size ? _Size : __rb_find_from(__prev + 1);
  }

private:
  _LIBCPP_HIDE_FROM_ABI typename __base::__storage_type __rb_word(size_t __w) const _NOEXCEPT {
    if constexpr (__n_words == 1)
      return __base::__first_;
    else
      return __base::__first_[__w];
  }
  _LIBCPP_HIDE_FROM_ABI size_t __rb_find_from(size_t __i) const _NOEXCEPT {
    const size_t __bits = __base::__bits_per_word;
    while (__i < _Size) {
      typename __base::__storage_type __word = __rb_word(__i / __bits) >> (__i % __bits);
      if (__word != 0) {
        size_t __at = __i + static_cast<size_t>(__builtin_ctzll(static_cast<unsigned long long>(__word)));
        return __at < _Size ? __at : _Size;
      }
      __i = (__i / __bits + 1) * __bits;
    }
    return _Size;
  }

public:
"#;

/// libc++'s `<bitset>` (read from the toolchain's installation, `libcxx_include`) with
/// libstdc++'s members written in, or `None` when its layout is not the one they are written for
/// (the header is then left as it is).
pub fn bitset(libcxx_include: &Path) -> Option<String> {
    let original = std::fs::read_to_string(libcxx_include.join("bitset")).ok()?;
    let class = original.find("class bitset : private __bitset<")?;
    let anchor = class + original[class..].find(BITSET_ANCHOR)? + BITSET_ANCHOR.len();
    Some(format!(
        "// rewardbox: libc++'s <bitset> with libstdc++'s _Find_first and _Find_next.\n{}{}{}",
        &original[..anchor],
        BITSET_MEMBERS,
        &original[anchor..]
    ))
}

/// The headers put on the include path before the standard library's (path, content): C++'s,
/// and the prelude every C and C++ program is compiled with ([`PRELUDE`]).
pub fn overlay_headers(libcxx_include: &Path) -> Vec<(&'static str, String)> {
    let mut headers = vec![
        ("bits/stdc++.h", BITS_STDCXX.to_string()),
        ("algorithm", ALGORITHM.to_string()),
        ("thread", THREAD.to_string()),
        (PRELUDE, GLIBC_RANDOM_NAMES.to_string()),
        ("openssl/md5.h", OPENSSL_MD5.to_string()),
    ];
    if let Some(bitset) = bitset(libcxx_include) {
        headers.push(("bitset", bitset));
    }
    headers
}

/// How the support archive is linked, part of a compiled program's cache key.
pub const SUPPORT_LINK: &str = "whole-archive";

/// The sources of the support archive of `language`.
pub fn support_sources(language: Language) -> Vec<SupportSource> {
    match language {
        Language::C => vec![
            SupportSource::Own("glibc_random.c", GLIBC_RANDOM),
            SupportSource::Own("null_pointer.c", NULL_POINTER),
        ],
        // The exception runtime first: linked whole, in this order, its definitions are seen
        // before anything pulls libc++abi's no-exception stubs of the same symbols.
        Language::Cpp => vec![
            SupportSource::Own("cpp_exception.S", CPP_EXCEPTION_TAG),
            SupportSource::Toolchain("libcxxabi/src/cxa_exception.cpp", LIBCXXABI_DEFINES),
            SupportSource::Toolchain("libcxxabi/src/cxa_personality.cpp", LIBCXXABI_DEFINES),
            SupportSource::Toolchain("libunwind/src/Unwind-wasm.c", LIBUNWIND_DEFINES),
            SupportSource::Own("glibc_random.c", GLIBC_RANDOM),
            SupportSource::Own("null_pointer.c", NULL_POINTER),
            SupportSource::Own("fstream.cpp", FSTREAM),
        ],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitset_members_go_after_the_base_typedef() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("bitset"),
            "class __bitset {};\ntemplate <size_t _Size>\nclass bitset : private __bitset<_Size> {\npublic:\n  typedef __bitset<__n_words, _Size> __base;\n  void f();\n};\n",
        )
        .unwrap();
        let patched = bitset(dir.path()).unwrap();
        let members = patched.find("size_t _Find_first()").unwrap();
        assert!(patched.find(BITSET_ANCHOR).unwrap() < members);
        assert!(members < patched.find("void f();").unwrap());
        std::fs::write(dir.path().join("bitset"), "class bitset {};\n").unwrap();
        assert!(bitset(dir.path()).is_none(), "another layout is left alone");
        assert!(bitset(&dir.path().join("missing")).is_none());
    }
}
