use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let r: f64 = s.trim().parse().unwrap();
    println!("{:.9}", std::f64::consts::PI * r * r);
}
