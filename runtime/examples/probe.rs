use rewardbox::ComponentCache;
use rewardbox::engine::{EpochTicker, build_engine_with_fuel};
use rewardbox::limits::Limits;
use rewardbox::runner::Runners;
use std::time::Instant;

fn faults() -> (u64, u64) {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap();
    let f: Vec<&str> = s.rsplit(')').next().unwrap().split_whitespace().collect();
    (f[7].parse().unwrap(), f[9].parse().unwrap()) // minflt, majflt
}

fn main() {
    let threads: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(1);
    let src = std::env::args().nth(2).unwrap_or("print(1)".into());
    let cache = ComponentCache::in_dir("/tmp/probe-cache");
    let limits = Limits {
        fuel: u64::MAX / 4,
        wall_ms: 600_000,
        ..Limits::default()
    };
    let engine = build_engine_with_fuel(threads, true).unwrap();
    let _t = EpochTicker::start(&engine);
    let runners = Runners::new(engine.clone(), cache, Limits::default()).unwrap();
    let py = runners.get("python").unwrap();
    for i in 0..50 {
        py.run(&engine, &src, "", &limits, i);
    }
    let n = 2000;
    let f0 = faults();
    let t = Instant::now();
    std::thread::scope(|s| {
        for k in 0..threads {
            let (py, engine, src) = (&py, &engine, &src);
            s.spawn(move || {
                for i in 0..n / threads {
                    py.run(engine, src, "", &limits, (k * n + i) as u64);
                }
            });
        }
    });
    let el = t.elapsed();
    let f1 = faults();
    println!(
        "threads {threads}: {:.0} runs/s, {:.1} us/run, minflt/run {:.1}",
        n as f64 / el.as_secs_f64(),
        el.as_micros() as f64 / n as f64,
        (f1.0 - f0.0) as f64 / n as f64
    );
}
