use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut out = String::new();
    for x in s.split_whitespace().skip(1) {
        let x: u64 = x.parse().unwrap();
        out.push_str(if x % 2 == 0 { "YES\n" } else { "NO\n" });
    }
    print!("{out}");
}
