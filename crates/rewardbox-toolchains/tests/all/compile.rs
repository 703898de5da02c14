//! The confined compilers: programs in C, C++ and Rust become components; compile errors carry the
//! compiler's message; the compiler reads nothing outside its toolchain; programs are cached.

use rewardbox_toolchains::CompileLimits;
use rewardbox_toolchains::{CompileError, Language, Toolchains};
use std::path::PathBuf;

/// The workspace's test cache (shared with the runtime's tests): zig's C and C++ libraries take
/// a minute or more to build the first time.
fn shared_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")
}

fn cache_dir(name: &str) -> PathBuf {
    let base = shared_cache();
    let dir = base.join(format!("toolchains-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn toolchains(name: &str) -> (Toolchains, PathBuf) {
    let dir = cache_dir(name);
    let shared_zig = shared_cache();
    std::fs::create_dir_all(&dir).unwrap();
    // One zig library cache for every test, the programs cache per test.
    let _ = std::os::unix::fs::symlink(shared_zig.join("zig"), dir.join("zig"));
    std::fs::create_dir_all(shared_zig.join("zig")).unwrap();
    (Toolchains::new(Some(&dir), CompileLimits::default()), dir)
}

fn is_component(wasm: &[u8]) -> bool {
    // A component's preamble: magic, then version 0x0d with layer 1.
    wasm.len() > 8 && &wasm[..4] == b"\0asm" && wasm[4..8] == [0x0d, 0x00, 0x01, 0x00]
}

#[test]
fn each_language_compiles_to_a_component() {
    let (toolchains, dir) = toolchains("hello");
    let programs = [
        (
            Language::C,
            "#include <stdio.h>\nint main(void){puts(\"hello\");return 0;}\n",
        ),
        (
            Language::Cpp,
            "#include <bits/stdc++.h>\nint main(){std::cout<<\"hello\\n\";}\n",
        ),
        (Language::Rust, "fn main(){ println!(\"hello\"); }\n"),
    ];
    for (language, source) in programs {
        let compiled = toolchains
            .compile(language, source)
            .unwrap_or_else(|e| panic!("{language:?}: {e}"));
        assert!(is_component(&compiled.component), "{language:?}");
        let again = toolchains.compile(language, source).unwrap();
        assert_eq!(again.key, compiled.key);
    }
    // A second process (a fresh Toolchains) loads them from the disk cache.
    let fresh = Toolchains::new(Some(&dir), CompileLimits::default());
    let stored = std::fs::read_dir(dir.join("programs")).unwrap().count();
    assert_eq!(stored, 3);
    let (language, source) = programs[2];
    assert!(fresh.compile(language, source).is_ok());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_compile_error_is_the_programs_with_the_compilers_message() {
    let (toolchains, dir) = toolchains("errors");
    let table = [
        (
            Language::C,
            "int main(void){ return x; }\n",
            "main.c:1:24: error: use of undeclared identifier 'x'",
        ),
        (
            Language::Cpp,
            "int main(){ std::vector<int> v; }\n",
            "main.cpp:1:13: error",
        ),
        (
            Language::Rust,
            "fn main(){ let x: u32 = \"no\"; }\n",
            "error[E0308]: mismatched types",
        ),
        // A libstdc++-only header names itself.
        (
            Language::Cpp,
            "#include <ext/pb_ds/assoc_container.hpp>\nint main(){}\n",
            "'ext/pb_ds/assoc_container.hpp' file not found",
        ),
        // An error inside the standard library's headers (zig's install, the cached shim).
        (
            Language::Cpp,
            "#include <bits/stdc++.h>\nstruct P { int a; };\nint main(){ std::vector<P> v(2); std::sort(v.begin(), v.end()); }\n",
            "<toolchain>/",
        ),
        // And inside Rust's own library sources.
        (
            Language::Rust,
            "fn main(){ let v: Vec<u8> = Vec::new(); let s: &str = std::str::from_utf8(v); }\n",
            "error[E0308]",
        ),
    ];
    for (language, source, expected) in table {
        match toolchains.compile(language, source) {
            Err(CompileError::Program(message)) => {
                assert!(message.contains(expected), "{language:?}: {message}");
                assert!(!message.contains("rewardbox-compile-"), "{message}");
                // No host path: not the cache, not the toolchain's installation.
                assert!(!message.contains(&*dir.to_string_lossy()), "{message}");
                assert!(!message.contains("/site-packages/"), "{message}");
                assert!(!message.contains("/.rustup/"), "{message}");
            }
            other => panic!("{language:?}: {other:?}"),
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_compiler_reads_no_host_file() {
    let (toolchains, dir) = toolchains("host-files");
    let secret = std::env::temp_dir().join(format!("rewardbox-secret-{}", std::process::id()));
    std::fs::write(&secret, "SECRET-CONTENT-41\n").unwrap();
    let secret = secret.display().to_string();
    let table = [
        (
            Language::C,
            "#include \"/etc/passwd\"\nint main(void){return 0;}\n".to_string(),
        ),
        (
            Language::C,
            format!("#include \"{secret}\"\nint main(void){{return 0;}}\n"),
        ),
        (
            Language::C,
            "#include \"/dev/zero\"\nint main(void){return 0;}\n".to_string(),
        ),
        (
            Language::Cpp,
            "#include \"../../../../../../etc/passwd\"\nint main(){}\n".to_string(),
        ),
        (
            Language::C,
            format!(
                "static const char s[] = {{\n#embed \"{secret}\"\n}};\nint main(void){{return s[0];}}\n"
            ),
        ),
        (
            Language::Rust,
            "fn main(){ print!(\"{}\", include_str!(\"/etc/passwd\")); }\n".to_string(),
        ),
        (
            Language::Rust,
            format!("fn main(){{ print!(\"{{}}\", include_str!(\"{secret}\")); }}\n"),
        ),
        (
            Language::Rust,
            "#[path = \"/etc/passwd\"] mod m;\nfn main(){}\n".to_string(),
        ),
    ];
    for (language, source) in &table {
        match toolchains.compile(*language, source) {
            Err(CompileError::Program(message)) => {
                assert!(!message.contains("root:"), "{message}");
                assert!(!message.contains("SECRET-CONTENT"), "{message}");
                // clang and rustc say a refused file is not there, as they say of a missing one
                // (whether a host file exists is not the program's to learn); clang's `#embed`
                // fails without saying.
                assert!(
                    !message.to_lowercase().contains("permission denied"),
                    "{language:?} {source}: {message}"
                );
                if !source.contains("#embed") {
                    assert!(
                        message.contains("file not found")
                            || message.contains("No such file or directory"),
                        "{language:?} {source}: {message}"
                    );
                }
            }
            other => panic!("{language:?} {source}: {other:?}"),
        }
    }
    std::fs::remove_file(&secret).ok();
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_compile_that_runs_too_long_is_stopped() {
    let dir = cache_dir("slow");
    std::fs::create_dir_all(&dir).unwrap();
    let shared = dir.parent().unwrap().join("zig");
    std::fs::create_dir_all(&shared).unwrap();
    let _ = std::os::unix::fs::symlink(&shared, dir.join("zig"));
    // A small CPU budget and a wall-clock net far above it: however busy the machine (the
    // other tests of this binary compile at the same time), only CPU used counts.
    let limits = CompileLimits {
        cpu: std::time::Duration::from_secs(2),
        wall: std::time::Duration::from_secs(600),
        ..CompileLimits::default()
    };
    let toolchains = Toolchains::new(Some(&dir), limits);
    // 27 million distinct template instantiations, none deeper than clang's limit of 1024: no
    // compiler finishes it in seconds.
    let bomb = "template<int N, int M, int K> struct G { static const unsigned long v = G<N-1, M, K>::v + G<N, M-1, K>::v + G<N, M, K-1>::v; };\n\
                template<int M, int K> struct G<0, M, K> { static const unsigned long v = 1; };\n\
                template<int N, int K> struct G<N, 0, K> { static const unsigned long v = 1; };\n\
                template<int N, int M> struct G<N, M, 0> { static const unsigned long v = 1; };\n\
                template<int M> struct G<0, M, 0> { static const unsigned long v = 1; };\n\
                template<int N> struct G<N, 0, 0> { static const unsigned long v = 1; };\n\
                template<int K> struct G<0, 0, K> { static const unsigned long v = 1; };\n\
                template<> struct G<0, 0, 0> { static const unsigned long v = 1; };\n\
                int main(){ return (int)(G<300, 300, 300>::v & 1); }\n";
    // zig's C++ library is built on first use, under its own far larger budget.
    match toolchains.compile(Language::Cpp, bomb) {
        Err(CompileError::Program(message)) => {
            assert!(message.contains("2 s of CPU"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Copies zig's library cache (not this project's headers or precompiled headers) from `from`.
fn copy_zig_libraries(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("rewardbox-") || name == "tmp" {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            copy_zig_libraries(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Damages the precompiled header `pch`, then checks that `toolchains` compiles the C++ `program`
/// all the same and drops it.
fn compiles_past_a_damaged(pch: &std::path::Path, toolchains: &Toolchains, program: &str) {
    std::fs::write(pch, b"not a precompiled header").unwrap();
    let compiled = toolchains.compile(Language::Cpp, program);
    assert!(
        compiled.is_ok(),
        "{:?}",
        compiled.err().map(|e| e.to_string())
    );
    assert!(
        std::fs::read(pch).map_or(true, |b| b != b"not a precompiled header"),
        "the damaged precompiled header is still there"
    );
}

/// What clang remembers of the precompiled `bits/stdc++.h` is the host's business: a cache whose
/// header was touched (copied, restored, written again by a racing process) or whose precompiled
/// header is damaged still compiles every C++ program, never a compile error blamed on it.
#[test]
fn a_touched_header_or_damaged_precompiled_header_is_not_the_programs_fault() {
    // zig's C++ library, built once in the shared cache, copied into a private one.
    let (shared, shared_dir) = toolchains("pch-warm");
    let hello = "#include <bits/stdc++.h>\nint main(){std::cout<<\"hello\\n\";}\n";
    shared.compile(Language::Cpp, hello).unwrap();
    std::fs::remove_dir_all(shared_dir).ok();
    let dir = cache_dir("pch-private");
    copy_zig_libraries(&shared_cache().join("zig"), &dir.join("zig"));
    let program = |n: usize| {
        format!(
            "#include <bits/stdc++.h>\nint main(){{std::vector<int> v({n});std::cout<<v.size()<<\"\\n\";}}\n"
        )
    };
    let zig = dir.join("zig");
    let find = |prefix: &str| -> Vec<PathBuf> {
        std::fs::read_dir(&zig)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
            .collect()
    };
    let fresh = || Toolchains::new(Some(&dir), CompileLimits::default());
    fresh().compile(Language::Cpp, &program(1)).unwrap();
    let pch = find("rewardbox-stdc++-");
    assert_eq!(pch.len(), 1, "{pch:?}");
    let include = find("rewardbox-include-");
    let header = include[0].join("bits/stdc++.h");

    // The header's mtime changes: the precompiled header still serves.
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
    std::fs::File::options()
        .write(true)
        .open(&header)
        .unwrap()
        .set_modified(past)
        .unwrap();
    let compiled = fresh().compile(Language::Cpp, &program(2));
    assert!(
        compiled.is_ok(),
        "{:?}",
        compiled.err().map(|e| e.to_string())
    );

    // The precompiled header is damaged: the program compiles without it, and it is dropped.
    compiles_past_a_damaged(&pch[0], &fresh(), &program(3));
    // The next compile builds it again.
    fresh().compile(Language::Cpp, &program(4)).unwrap();
    assert!(pch[0].is_file());

    // The whole cache is moved (the precompiled header names paths that are gone): every
    // program still compiles, and a sound compile error is still the program's.
    let moved = cache_dir("pch-moved");
    std::fs::rename(&dir, &moved).unwrap();
    let in_moved = Toolchains::new(Some(&moved), CompileLimits::default());
    for n in 5..7 {
        let compiled = in_moved.compile(Language::Cpp, &program(n));
        assert!(
            compiled.is_ok(),
            "{:?}",
            compiled.err().map(|e| e.to_string())
        );
    }
    match in_moved.compile(
        Language::Cpp,
        "#include <bits/stdc++.h>\nint main(){ undefined_name(); }\n",
    ) {
        Err(CompileError::Program(message)) => {
            assert!(message.contains("undefined_name"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(moved).ok();
}

#[test]
fn boosts_headers_are_on_the_cpp_include_path_and_nothing_else_of_it_is() {
    let (toolchains, _dir) = toolchains("boost");
    assert!(
        rewardbox_toolchains::Boost::locate().is_some(),
        "Boost's headers: run scripts/setup.sh (it installs boost-headers into .venv)"
    );
    let uses_any = "#include <boost/any.hpp>\n#include <string>\nint main(){ boost::any a = std::string(\"x\"); return boost::any_cast<std::string>(a).size() == 1 ? 0 : 1; }\n";
    let compiled = toolchains.compile(Language::Cpp, uses_any);
    assert!(compiled.is_ok(), "{:?}", compiled.err());
    // A header Boost does not have is the program's error, named; its host path is not shown.
    let missing = "#include <boost/no_such_library.hpp>\nint main(){}\n";
    match toolchains.compile(Language::Cpp, missing) {
        Err(CompileError::Program(message)) => {
            assert!(
                message.contains("'boost/no_such_library.hpp' file not found"),
                "{message}"
            );
            assert!(!message.contains(".venv"), "{message}");
        }
        other => panic!("{:?}", other.map(|c| c.key)),
    }
    // A C program does not get Boost's directory.
    let c = "#include <boost/config.hpp>\nint main(void){return 0;}\n";
    assert!(matches!(
        toolchains.compile(Language::C, c),
        Err(CompileError::Program(_))
    ));
}

/// A C++ program's preamble (the system headers it includes first) is precompiled once two
/// programs began with it. A program compiled with it is the same component, and fails with the
/// same message, as without it; a damaged one is the host's fault, never the program's; a
/// preamble naming a header that does not exist is the program's compile error, every time.
#[test]
fn a_preamble_used_twice_is_precompiled_and_changes_nothing() {
    let preamble = "#include <cstdio>\n#include <bitset>\n#include <deque>\n";
    let (toolchains, dir) = toolchains("preamble");
    let preambles = dir.join("zig/rewardbox-preambles");
    // This preamble's precompiled headers in the shared cache (an earlier run's too).
    let ours = || -> Vec<PathBuf> {
        std::fs::read_dir(&preambles)
            .map(|entries| {
                entries
                    .map(|e| e.unwrap().path())
                    .filter(|p| p.extension().is_some_and(|e| e == "h"))
                    .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t == preamble))
                    .map(|p| p.with_extension("pch"))
                    .filter(|p| p.is_file())
                    .collect()
            })
            .unwrap_or_default()
    };
    for pch in ours() {
        std::fs::remove_file(pch).unwrap();
    }
    let program = |n: usize| {
        format!(
            "// program {n}\n{preamble}int main(){{std::bitset<8> b({n}); std::deque<int> d(b.count()); std::printf(\"%zu\\n\", d.size());}}\n"
        )
    };
    let without = toolchains.compile(Language::Cpp, &program(1)).unwrap();
    assert!(ours().is_empty(), "precompiled on its first use");
    toolchains.compile(Language::Cpp, &program(2)).unwrap();
    assert_eq!(ours().len(), 1, "not precompiled on its second use");

    // Another process's programs cache, the same zig cache: the header serves at once.
    let fresh = |name: &str| toolchains_named(name);
    let with = fresh("preamble-again")
        .compile(Language::Cpp, &program(1))
        .unwrap();
    assert_eq!(
        with.component, without.component,
        "the precompiled preamble changed the program"
    );
    let failing = format!("{preamble}int main(){{ std::deque<int> d; undefined_name(d); }}\n");
    let message = |toolchains: Toolchains| match toolchains.compile(Language::Cpp, &failing) {
        Err(CompileError::Program(message)) => message,
        other => panic!("{other:?}"),
    };
    let with_header = message(fresh("preamble-error-with"));
    for pch in ours() {
        std::fs::remove_file(pch).unwrap();
    }
    let without_header = message(fresh("preamble-error-without"));
    assert!(
        without_header.contains("undefined_name"),
        "{without_header}"
    );
    assert_eq!(with_header, without_header);

    // Damaged: the program compiles without it, and it is dropped.
    let again = fresh("preamble-damaged");
    again.compile(Language::Cpp, &program(3)).unwrap();
    again.compile(Language::Cpp, &program(4)).unwrap();
    let pch = ours();
    assert_eq!(pch.len(), 1);
    compiles_past_a_damaged(&pch[0], &fresh("preamble-damaged-2"), &program(5));

    // A header that does not exist: the program's error, the second time as the first.
    for n in 0..2 {
        let source =
            format!("#include <conio.h>\n#include <cstdio>\nint main(){{ return {n}; }}\n");
        match toolchains.compile(Language::Cpp, &source) {
            Err(CompileError::Program(message)) => {
                assert!(message.contains("conio.h"), "{message}")
            }
            other => panic!("{other:?}"),
        }
    }
    for name in [
        "preamble",
        "preamble-again",
        "preamble-error-with",
        "preamble-error-without",
        "preamble-damaged",
        "preamble-damaged-2",
    ] {
        std::fs::remove_dir_all(cache_dir(name)).ok();
    }
}

/// [`toolchains`]'s compilers alone: a fresh process's view of the same caches.
fn toolchains_named(name: &str) -> Toolchains {
    toolchains(name).0
}

/// A program is known by its source (the compile cache) and by what it compiled to: sources that
/// differ only in a comment are the same component, so its native code is made once; a
/// different constant is another.
#[test]
fn sources_that_compile_alike_are_one_component() {
    let (toolchains, dir) = toolchains("content");
    let program = |comment: &str, answer: u32| {
        format!(
            "// {comment}\n#include <stdio.h>\nint main(void){{printf(\"%d\\n\", {answer});return 0;}}\n"
        )
    };
    let first = toolchains
        .compile(Language::C, &program("one", 42))
        .unwrap();
    let commented = toolchains
        .compile(Language::C, &program("two", 42))
        .unwrap();
    let other = toolchains
        .compile(Language::C, &program("one", 43))
        .unwrap();
    assert_ne!(first.key, commented.key);
    assert_eq!(first.content, commented.content);
    assert_eq!(first.component, commented.component);
    assert_ne!(first.content, other.content);
    // Loaded from the disk cache, it is still known by its content.
    let fresh = Toolchains::new(Some(&dir), CompileLimits::default());
    assert_eq!(
        fresh
            .compile(Language::C, &program("two", 42))
            .unwrap()
            .content,
        first.content
    );
    std::fs::remove_dir_all(dir).ok();
}

/// C and C++ are compiled through zig's driver's two steps run directly (clang, then wasm-ld),
/// read once per command line: they build what the driver builds, the same component byte for
/// byte and the same compile errors, through every path a program takes (C's undeclared
/// functions compiled again, `bits/stdc++.h`, a precompiled preamble, exceptions). Steps that
/// name a file gone from zig's cache are dropped and the driver builds the program.
#[test]
fn zigs_steps_run_directly_build_what_its_driver_builds() {
    let (direct, dir) = toolchains("steps");
    let driver = toolchains_named("steps-driver").through_zig_driver();
    let preamble = "#include <cstdio>\n#include <valarray>\n#include <complex>\n";
    let preamble_program = |n: usize| {
        format!(
            "// {n}\n{preamble}int main(){{std::valarray<int> v({n}, 3); std::complex<double> c(v.sum(), 1); std::printf(\"%.1f\\n\", std::abs(c));}}\n"
        )
    };
    let table: Vec<(Language, String)> = [
        (
            Language::C,
            "#include <stdio.h>\n#include <math.h>\nint main(void){printf(\"%.3f\\n\", sqrt(2.0));return 0;}\n",
        ),
        (
            Language::C,
            "int main(void){ char *p = malloc(4); printf(\"%d\\n\", p != 0); return 0; }\n",
        ),
        (
            Language::Cpp,
            "#include <bits/stdc++.h>\nint main(){std::vector<int> v{3,1,2}; std::sort(v.begin(), v.end()); std::cout<<v[0]<<std::endl;}\n",
        ),
        (
            Language::Cpp,
            "#include <iostream>\n#include <stdexcept>\nint main(){ try { throw std::runtime_error(\"x\"); } catch (const std::exception &e) { std::cout << e.what() << std::endl; } }\n",
        ),
        (Language::C, "int main(void){ return x; }\n"),
        (
            Language::Cpp,
            "#include <bits/stdc++.h>\nint main(){ std::vector<int> v; v.push(1); }\n",
        ),
    ]
    .into_iter()
    .map(|(language, source)| (language, source.to_string()))
    .chain((1..=3).map(|n| (Language::Cpp, preamble_program(n))))
    .collect();
    for (language, source) in &table {
        match (
            direct.compile(*language, source),
            driver.compile(*language, source),
        ) {
            (Ok(direct), Ok(driven)) => {
                assert_eq!(direct.component, driven.component, "{source}")
            }
            (Err(CompileError::Program(direct)), Err(CompileError::Program(driven))) => {
                assert_eq!(direct, driven, "{source}")
            }
            (direct, driven) => panic!("{source}: {direct:?} against {driven:?}"),
        }
    }
    // A file outside the compiler's reach, embedded or looked for: the program's error either
    // way (the words differ: clang says nothing, and the driver names its own failure).
    let outside = std::env::temp_dir().join(format!("rewardbox-outside-{}", std::process::id()));
    std::fs::write(&outside, "OUTSIDE\n").unwrap();
    for source in [
        format!(
            "static const char s[] = {{\n#embed \"{}\"\n}};\nint main(void){{return s[0];}}\n",
            outside.display()
        ),
        "static const char s[] = {\n#embed \"/nonexistent/rewardbox\"\n};\nint main(void){return s[0];}\n"
            .to_string(),
    ] {
        for toolchains in [&direct, &driver] {
            assert!(
                matches!(
                    toolchains.compile(Language::C, &source),
                    Err(CompileError::Program(_))
                ),
                "{source}"
            );
        }
    }
    std::fs::remove_file(&outside).ok();
    // A link error is the program's either way, naming the symbol.
    let undefined = "int twice(int);\nint main(void){ return twice(2); }\n";
    for toolchains in [&direct, &driver] {
        match toolchains.compile(Language::C, undefined) {
            Err(CompileError::Program(message)) => {
                assert!(message.contains("undefined symbol: twice"), "{message}")
            }
            other => panic!("{other:?}"),
        }
    }

    // The steps were run: they are stored for C's command line in this cache.
    let steps_dir = dir.join("zig/rewardbox-steps");
    let of_c = || -> Vec<PathBuf> {
        std::fs::read_dir(&steps_dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                // Steps are per command line: this test's cache directory is in it.
                std::fs::read_to_string(p).is_ok_and(|text| {
                    text.contains(&*dir.to_string_lossy()) && text.starts_with("clang main.c ")
                })
            })
            .collect()
    };
    let stored = of_c();
    assert_eq!(stored.len(), 1, "no steps stored for C");
    // A library they name gone: the driver builds the program, the steps are dropped.
    let text = std::fs::read_to_string(&stored[0]).unwrap();
    let library = text
        .lines()
        .nth(1)
        .unwrap()
        .split(' ')
        .find(|word| word.ends_with("/libc.a"))
        .unwrap()
        .to_string();
    std::fs::write(&stored[0], text.replace(&library, "/nonexistent/libc.a")).unwrap();
    let program = "#include <stdio.h>\nint main(void){puts(\"again\");return 0;}\n";
    // Another process, the same caches.
    let again = Toolchains::new(Some(&dir), CompileLimits::default()).compile(Language::C, program);
    assert_eq!(
        again.unwrap().component,
        driver.compile(Language::C, program).unwrap().component
    );
    assert!(
        of_c().iter().all(|p| !std::fs::read_to_string(p)
            .unwrap()
            .contains("/nonexistent/")),
        "the steps naming a missing library were kept"
    );
    for name in ["steps", "steps-driver"] {
        std::fs::remove_dir_all(cache_dir(name)).ok();
    }
}

/// A program whose interface an earlier program had is made a component in that program's shell:
/// byte for byte the component the encoder makes of it. Programs in C, C++, Rust and Go (two
/// interfaces in C and Rust: the second reads the clock or the arguments), compiled through the
/// encoder every time and through the shells, in turn.
#[test]
fn a_component_made_in_a_shell_is_the_encoders_byte_for_byte() {
    let nonce = std::process::id();
    let c = |n: u32| {
        format!(
            "#include <stdio.h>\n/* {nonce} {n} */\nint main(void){{long long a,b;\
             if(scanf(\"%lld %lld\",&a,&b)!=2)return 1;printf(\"%lld\\n\",a+b+{n});return 0;}}\n"
        )
    };
    let c_clock = |n: u32| {
        format!(
            "#include <stdio.h>\n#include <time.h>\nint main(void){{printf(\"%d %ld\\n\",{n},\
             (long)clock());return 0;}}\n"
        )
    };
    let cpp = |n: u32| {
        format!(
            "#include <bits/stdc++.h>\n// {nonce}\nint main(){{long long a,b;std::cin>>a>>b;\
             try{{if(a<0)throw std::runtime_error(\"neg\");}}catch(...){{return 2;}}\
             std::cout<<a+b+{n}<<\"\\n\";}}\n"
        )
    };
    let rust = |n: u32| {
        format!(
            "// {nonce}\nfn main(){{let mut s=String::new();std::io::stdin().read_line(&mut s)\
             .unwrap();let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();\
             println!(\"{{}}\",v[0]+v[1]+{n});}}\n"
        )
    };
    let rust_args =
        |n: u32| format!("fn main(){{println!(\"{{}} {n}\", std::env::args().count());}}\n");
    let go = |n: u32| {
        format!(
            "package main\n\nimport \"fmt\"\n\nfunc main() {{\n\tvar a int\n\tfmt.Scan(&a)\n\t\
             if a == {nonce}{n} {{\n\t\treturn\n\t}}\n\tfmt.Println(a)\n}}\n"
        )
    };
    let programs: Vec<(Language, String)> = vec![
        (Language::C, c(1)),
        (Language::C, c(2)),
        (Language::C, c_clock(3)),
        (Language::C, c(4)),
        (Language::C, c_clock(5)),
        (Language::Cpp, cpp(1)),
        (Language::Cpp, cpp(2)),
        (Language::Rust, rust(1)),
        (Language::Rust, rust_args(2)),
        (Language::Rust, rust(3)),
        (Language::Go, go(1)),
        (Language::Go, go(2)),
    ];
    let (encoder, encoder_dir) = toolchains("shells-encoder");
    let encoder = encoder.through_component_encoder();
    let (shells, shells_dir) = toolchains("shells");
    for (language, source) in &programs {
        let expected = encoder
            .compile(*language, source)
            .unwrap_or_else(|e| panic!("{language:?}: {e}\n{source}"));
        let made = shells
            .compile(*language, source)
            .unwrap_or_else(|e| panic!("{language:?}: {e}\n{source}"));
        assert!(
            made.component == expected.component,
            "{language:?}: the shell's component differs from the encoder's for\n{source}"
        );
    }
    // One shell per interface: C 3 of 5 (two interfaces), C++ 1 of 2, Rust 1 of 3 (two), Go 1 of 2
    // (the encoder renames its imports: the shell's imports are taken for the same imports).
    assert_eq!(shells.components_from_shells(), 3 + 1 + 1 + 1);
    assert_eq!(encoder.components_from_shells(), 0);
    std::fs::remove_dir_all(encoder_dir).ok();
    std::fs::remove_dir_all(shells_dir).ok();
}
