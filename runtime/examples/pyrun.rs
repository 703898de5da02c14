use rewardbox::ComponentCache;
use rewardbox::engine::{EpochTicker, build_engine_with_fuel};
use rewardbox::limits::Limits;
use rewardbox::runner::Runners;
fn main() {
    let src = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let cache = ComponentCache::in_dir("/tmp/probe-cache");
    let limits = Limits {
        fuel: 10_000_000_000,
        wall_ms: 60_000,
        ..Limits::default()
    };
    let engine = build_engine_with_fuel(1, true).unwrap();
    let _t = EpochTicker::start(&engine);
    let runners = Runners::new(engine.clone(), cache, Limits::default()).unwrap();
    let py = runners.get("python").unwrap();
    let out = py.run(&engine, &src, "", &limits, 0);
    println!(
        "status {:?} exit {:?} fuel {}\n--- stdout\n{}--- stderr\n{}",
        out.status, out.exit_code, out.fuel_used, out.stdout, out.stderr
    );
}
