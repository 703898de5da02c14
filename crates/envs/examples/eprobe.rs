use rewardbox::ComponentCache;
use rewardbox::host::HostContext;
use rewardbox_envs::{EnvOptions, Environments};
fn main() {
    let mut o = EnvOptions::new("/work/main/tests/data/codegym");
    o.cache = ComponentCache::in_dir("/tmp/probe-cache");
    let envs = Environments::new(o).unwrap();
    let runners = envs.runners();
    let py = runners.python().unwrap();
    let src = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    std::fs::create_dir_all("/tmp/ws").unwrap();
    std::fs::write(
        "/tmp/ws/evens.py",
        "def sum_evens(xs):\n    return sum(x for x in xs if x % 2 == 1)\n",
    )
    .unwrap();
    let m = [rewardbox::sandbox::Mount {
        host: std::path::Path::new("/tmp/ws"),
        guest: "/workspace",
        writable: false,
    }];
    let out = py.run_with(
        runners.engine(),
        &src,
        "",
        &rewardbox::Limits::default(),
        0,
        HostContext::new(runners.clone(), 0),
        &m,
    );
    println!(
        "{:?} {:?}\n{}\n{}",
        out.status, out.exit_code, out.stdout, out.stderr
    );
}
