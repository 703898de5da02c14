use rewardbox::ComponentCache;
use rewardbox_envs::{EnvOptions, Environments};
use std::time::Instant;
fn faults() -> u64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap();
    let f: Vec<&str> = s.rsplit(')').next().unwrap().split_whitespace().collect();
    f[7].parse().unwrap()
}
fn status(key: &str) -> String {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or("")
        .to_string()
}
fn main() {
    let mut o = EnvOptions::new("/work/main/tests/data/codegym");
    o.cache = ComponentCache::in_dir("/tmp/probe-cache");
    o.max_sessions = 10000;
    let envs = Environments::new(o).unwrap();
    let env_str = "codegym_v1@Toy_1_I__SumListEnv@{\"values\": [1, 2, 3]}";
    for _ in 0..10 {
        envs.start(None, env_str).unwrap().close();
    }
    let n = 300;
    let f0 = faults();
    let t = Instant::now();
    let mut keep = Vec::new();
    for _ in 0..n {
        keep.push(envs.start(None, env_str).unwrap());
    }
    let el = t.elapsed();
    println!(
        "{:.2} ms/start, {:.0} faults/start",
        el.as_secs_f64() * 1e3 / n as f64,
        (faults() - f0) as f64 / n as f64
    );
    println!(
        "{}\n{}\n{}\n{}",
        status("VmRSS"),
        status("RssAnon"),
        status("RssFile"),
        status("RssShmem")
    );
    let (fuel, wall) = keep[0].last_cost();
    println!("last call fuel {fuel} wall {wall}");
}
