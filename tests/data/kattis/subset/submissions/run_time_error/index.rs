use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let n = v[0] as usize;
    // Reads one weight past the end.
    let w = &v[2..];
    println!("{}", w[n]);
}
