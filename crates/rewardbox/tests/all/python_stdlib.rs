//! CPython's standard library in the sandbox: every module of `sys.stdlib_module_names` imports,
//! except those named below with the reason they cannot; and the modules a program uses behave
//! as native `python3` on the same program.

use crate::common;

use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox::candidates::Runtime;
use std::collections::BTreeSet;
use std::process::Command;

/// The modules that cannot be imported in the sandbox, each with its reason. A module leaves
/// this table when it starts to import (the walk below fails until it is taken out).
const EXCLUDED: &[(&str, &str)] = &[
    // C extensions that the WASI build of CPython (componentize-py's) does not contain.
    (
        "_bz2",
        "C extension over libbz2, not in the WASI CPython build",
    ),
    ("bz2", "needs _bz2"),
    (
        "_lzma",
        "C extension over liblzma, not in the WASI CPython build",
    ),
    ("lzma", "needs _lzma"),
    (
        "_zstd",
        "C extension over libzstd, not in the WASI CPython build",
    ),
    (
        "_ctypes",
        "calls native code through libffi: no such thing in wasm",
    ),
    ("ctypes", "needs _ctypes"),
    (
        "_hashlib",
        "OpenSSL's hashes; hashlib serves md5/sha*/blake2/sha3 without it",
    ),
    ("_ssl", "OpenSSL and sockets"),
    ("ssl", "needs _ssl"),
    ("_uuid", "libuuid; uuid works without it"),
    ("_dbm", "C extension over ndbm; dbm.dumb works without it"),
    ("_gdbm", "C extension over gdbm; dbm.dumb works without it"),
    // A terminal.
    ("_curses", "a terminal"),
    ("_curses_panel", "a terminal"),
    ("curses", "a terminal (_curses)"),
    ("readline", "a terminal"),
    ("termios", "a terminal"),
    ("tty", "a terminal (termios)"),
    ("pty", "a terminal (termios)"),
    // Processes and threads of the host.
    ("_posixsubprocess", "starts processes"),
    ("_multiprocessing", "processes and semaphores"),
    ("_posixshmem", "shared memory between processes"),
    ("_interpreters", "sub-interpreters run on threads"),
    ("_interpchannels", "sub-interpreters run on threads"),
    ("_interpqueues", "sub-interpreters run on threads"),
    ("_remote_debugging", "reads other processes' memory"),
    // POSIX services WASI does not have.
    ("fcntl", "file locks and descriptor control: not in WASI"),
    ("grp", "the system's group database: not in WASI"),
    ("pwd", "the system's user database: not in WASI"),
    ("resource", "process resource limits: not in WASI"),
    ("syslog", "the system log: not in WASI"),
    ("mmap", "memory-mapped files: not in WASI"),
    // Other platforms.
    ("_overlapped", "Windows"),
    ("_winapi", "Windows"),
    ("_wmi", "Windows"),
    ("msvcrt", "Windows"),
    ("nt", "Windows"),
    ("winreg", "Windows"),
    ("winsound", "Windows"),
    ("_scproxy", "macOS"),
    // Tk, and what is built on it or installs software.
    ("_tkinter", "Tk, a GUI"),
    ("tkinter", "Tk, a GUI (_tkinter)"),
    ("turtle", "Tk, a GUI (tkinter)"),
    ("turtledemo", "demos of turtle, a GUI: not shipped"),
    ("idlelib", "the IDLE editor, a GUI: not shipped"),
    (
        "ensurepip",
        "installs pip by running it in a subprocess: not shipped",
    ),
];

/// Imports every module of the standard library and prints, last, a JSON object of those that
/// failed (name -> error).
const WALK: &str = r#"
import importlib, json, sys
failed = {}
for name in sorted(sys.stdlib_module_names):
    try:
        importlib.import_module(name)
    except BaseException as e:
        failed[name] = f"{type(e).__name__}: {e}"
print("\nFAILED " + json.dumps(failed, sort_keys=True))
"#;

#[test]
fn every_standard_library_module_imports_unless_excluded_with_a_reason() {
    let scorer = common::scorer();
    let python = scorer.runners().python().expect("the Python runtime");
    let run = python.run(scorer.engine(), WALK, "", &CANDIDATE_DEFAULT, 0);
    assert_eq!(run.exit_code, Some(0), "{}", run.stderr);
    let json = run
        .stdout
        .rsplit_once("\nFAILED ")
        .map(|(_, json)| json.trim())
        .unwrap_or_else(|| panic!("no report in {}", run.stdout));
    let failed: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(json).expect("the walk's report is JSON");
    let excluded: BTreeSet<&str> = EXCLUDED.iter().map(|(name, _)| *name).collect();
    let unexpected: Vec<String> = failed
        .iter()
        .filter(|(name, _)| !excluded.contains(name.as_str()))
        .map(|(name, error)| format!("{name}: {error}"))
        .collect();
    let importable: Vec<&&str> = excluded
        .iter()
        .filter(|name| !failed.contains_key(**name))
        .collect();
    assert!(
        unexpected.is_empty(),
        "standard-library modules that a program cannot import in the sandbox:\n{}",
        unexpected.join("\n")
    );
    assert!(
        importable.is_empty(),
        "modules listed as excluded import now; take them out of EXCLUDED: {importable:?}"
    );
}

/// Uses modules that are not preloaded (parsed dates, configuration, mail, archives, TOML,
/// command lines, pickles, HTTP types, MIME types, SQL, pure-Python decimal, XML, ...), printing
/// only what is the same on every CPython from 3.11 on.
const USES: &str = r#"
import datetime, time
print(datetime.datetime.strptime("2024-03-05 14:07", "%Y-%m-%d %H:%M").isoformat())
print(time.strptime("05 Mar 2024", "%d %b %Y")[:3])

import configparser
config = configparser.ConfigParser()
config.read_string("[server]\nport = 8080\nname = box\n")
print(config.getint("server", "port"), config["server"]["name"])

import email, email.utils
from email.message import EmailMessage
message = email.message_from_string("From: Ann <ann@example.org>\nSubject: hi\n\nbody text\n")
print(message["Subject"], email.utils.parseaddr(message["From"]), message.get_payload().strip())
composed = EmailMessage()
composed["To"] = "bob@example.org"
composed.set_content("hello")
print(composed["To"], composed.get_content_type())

import io, tarfile, zipfile
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("a.txt", "alpha" * 100)
with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as archive:
    print(archive.namelist(), len(archive.read("a.txt")))
buffer = io.BytesIO()
with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
    data = b"beta"
    info = tarfile.TarInfo("b.txt")
    info.size = len(data)
    archive.addfile(info, io.BytesIO(data))
with tarfile.open(fileobj=io.BytesIO(buffer.getvalue()), mode="r:gz") as archive:
    print(archive.getnames(), archive.extractfile("b.txt").read())

import tomllib
print(tomllib.loads('title = "x"\n[owner]\nids = [1, 2]\n'))

import timeit, tracemalloc, platform
print(timeit.timeit("1 + 1", number=100) >= 0.0)
tracemalloc.start()
kept = [bytes(1000) for _ in range(10)]
print(tracemalloc.get_traced_memory()[0] >= 10000)
tracemalloc.stop()
print(isinstance(platform.python_version(), str))

import getopt, optparse
print(getopt.getopt(["-a", "-b", "x", "rest"], "ab:"))
parser = optparse.OptionParser()
parser.add_option("-n", type="int", dest="n")
options, rest = parser.parse_args(["-n", "3", "tail"])
print(options.n, rest)

import pickle, pickletools
blob = pickletools.optimize(pickle.dumps({"k": [1, 2]}, protocol=2))
print(pickle.loads(blob))

import http, http.cookies, mimetypes
print(http.HTTPStatus(404).phrase)
cookie = http.cookies.SimpleCookie()
cookie.load("session=abc; theme=dark")
print(sorted((k, v.value) for k, v in cookie.items()))
print(mimetypes.guess_type("index.html"), mimetypes.guess_extension("application/json"))

import sqlite3
db = sqlite3.connect(":memory:")
db.execute("create table t (x integer)")
db.executemany("insert into t values (?)", [(3,), (1,), (2,)])
print(db.execute("select group_concat(x) from (select x from t order by x)").fetchone())

import _pydecimal, stringprep, symtable, quopri, plistlib
print(_pydecimal.Decimal("1.1") + _pydecimal.Decimal("2.2"))
print(stringprep.in_table_c12(" "), stringprep.in_table_b1("\u00ad"))
print([c.get_name() for c in symtable.symtable("def f(x):\n    return x\n", "<s>", "exec").get_children() if not c.get_name().startswith("__")])
print(quopri.encodestring(b"caf\xc3\xa9"))
print(plistlib.loads(plistlib.dumps({"a": [1, True]})))

import xml.dom.minidom, wave
print(xml.dom.minidom.parseString("<a><b>t</b></a>").documentElement.firstChild.toxml())
buffer = io.BytesIO()
with wave.open(buffer, "wb") as w:
    w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000); w.writeframes(b"\x00\x01" * 10)
with wave.open(io.BytesIO(buffer.getvalue())) as w:
    print(w.getnframes(), w.getframerate())

import textwrap, fileinput, filecmp, netrc, shelve, cProfile, pstats, trace, pydoc
print("imported")
"#;

#[test]
fn standard_library_modules_behave_as_native_python() {
    let native = Command::new("python3")
        .args(["-c", USES])
        .output()
        .expect("native python3 runs (the test compares with it)");
    assert!(
        native.status.success(),
        "native python3 failed on the program: {}",
        String::from_utf8_lossy(&native.stderr)
    );
    let scorer = common::scorer();
    let python = scorer.runners().python().expect("the Python runtime");
    let run = python.run(scorer.engine(), USES, "", &CANDIDATE_DEFAULT, 0);
    assert_eq!(run.exit_code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, String::from_utf8_lossy(&native.stdout));
}
