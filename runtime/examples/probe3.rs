use rewardbox::ComponentCache;
use rewardbox::bindings::types::{PythonMode, Target};
use rewardbox::engine::{EpochTicker, build_engine_with_fuel};
use rewardbox::limits::Limits;
use rewardbox::runner::{CANDIDATE_DEFAULT, Runners};
use std::sync::Arc;
use std::time::Instant;

fn faults() -> u64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap();
    let f: Vec<&str> = s.rsplit(')').next().unwrap().split_whitespace().collect();
    f[7].parse().unwrap()
}

fn measure(name: &str, n: usize, mut f: impl FnMut(usize)) {
    for i in 0..20 {
        f(i);
    }
    let f0 = faults();
    let t = Instant::now();
    for i in 0..n {
        f(i);
    }
    let el = t.elapsed();
    println!(
        "{name:40} {:8.1} us/op  {:6.1} faults/op",
        el.as_micros() as f64 / n as f64,
        (faults() - f0) as f64 / n as f64
    );
}

fn main() {
    let cache = ComponentCache::in_dir("/tmp/probe-cache");
    let engine = build_engine_with_fuel(1, true).unwrap();
    let _t = EpochTicker::start(&engine);
    let runners = Arc::new(Runners::new(engine.clone(), cache, Limits::default()).unwrap());
    let py = runners.python().unwrap();
    let lim = CANDIDATE_DEFAULT;
    measure("run print(1)", 500, |i| {
        py.run(&engine, "print(1)", "", &lim, i as u64);
    });
    let prog = "def add(a, b):\n    return a + b\n";
    measure("open live", 500, |i| {
        py.open_live(&engine, prog, &lim, i as u64).ok().unwrap();
    });
    measure("open live + 10 calls", 500, |i| {
        let mut l = py.open_live(&engine, prog, &lim, i as u64).ok().unwrap();
        for k in 0..10 {
            l.call(
                &Target {
                    handle: None,
                    name: "add".into(),
                },
                &format!("[{k}, 2]"),
                "{\"$d\": []}",
            )
            .unwrap();
        }
    });
    let check =
        "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(2, 2) == 4\n";
    let task = r#"{"entry_point": "add"}"#;
    let prepared = py
        .prepare(&engine, PythonMode::Asserts, check, &Limits::default())
        .unwrap();
    measure("python verify asserts (checker+cand)", 300, |i| {
        let (v, _) = py.verify(
            &runners,
            &engine,
            &prepared,
            task,
            &format!("{prog}\n# {i}"),
            &Limits::default(),
            0,
        );
        assert_eq!(v.unwrap().score, 1.0);
    });
    let (_, fuel) = py.verify(
        &runners,
        &engine,
        &prepared,
        task,
        prog,
        &Limits::default(),
        0,
    );
    println!("asserts checker fuel {fuel}");
    let l = py.open_live(&engine, prog, &lim, 0).ok().unwrap();
    println!("candidate open fuel {}", l.fuel_used());
    let vsrc = "def verify(task, completion):\n    return 1.0\n";
    let prepared = py
        .prepare(&engine, PythonMode::Verifier, vsrc, &Limits::default())
        .unwrap();
    let (_, fuel) = py.verify(
        &runners,
        &engine,
        &prepared,
        "{}",
        "x",
        &Limits::default(),
        0,
    );
    println!("trivial verifier fuel {fuel}");
    let out = py.run(&engine, "print(1)", "", &lim, 0);
    println!("print(1) fuel {}", out.fuel_used);
    measure("python verify trivial (no candidate)", 300, |i| {
        let (v, _) = py.verify(
            &runners,
            &engine,
            &prepared,
            "{}",
            &format!("{i}"),
            &Limits::default(),
            0,
        );
        assert_eq!(v.unwrap().score, 1.0);
    });
}

pub fn scan_slots() {
    use std::io::{Read, Seek, SeekFrom};
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    let mut pm = std::fs::File::open("/proc/self/pagemap").unwrap();
    for line in maps.lines().filter(|l| l.contains("wasm-memory-image")) {
        let range = line.split_whitespace().next().unwrap();
        let (a, b) = range.split_once('-').unwrap();
        let (a, b) = (
            u64::from_str_radix(a, 16).unwrap(),
            u64::from_str_radix(b, 16).unwrap(),
        );
        let pages = ((b - a) / 4096) as usize;
        if pages < 1000 {
            continue;
        }
        let mut buf = vec![0u8; pages * 8];
        pm.seek(SeekFrom::Start(a / 4096 * 8)).unwrap();
        pm.read_exact(&mut buf).unwrap();
        let (mut private, mut regions, mut prev) = (0, 0, false);
        for i in 0..pages {
            let e = u64::from_le_bytes(buf[i * 8..i * 8 + 8].try_into().unwrap());
            let present = e >> 63 & 1 == 1;
            let file = e >> 61 & 1 == 1;
            let p = present && !file;
            if p {
                private += 1;
                if !prev {
                    regions += 1;
                }
            }
            prev = p;
        }
        println!("  image mapping {range}: {pages} pages, {private} private, {regions} regions");
        if regions > 40 {
            let mut runs = Vec::new();
            let mut start = None;
            for i in 0..=pages {
                let p = i < pages && {
                    let e = u64::from_le_bytes(buf[i * 8..i * 8 + 8].try_into().unwrap());
                    e >> 63 & 1 == 1 && e >> 61 & 1 == 0
                };
                match (p, start) {
                    (true, None) => start = Some(i),
                    (false, Some(s0)) => {
                        runs.push((s0, i - s0));
                        start = None;
                    }
                    _ => {}
                }
            }
            println!("    runs (start,len): {:?}", runs);
        }
    }
}
