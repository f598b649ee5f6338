//! Prints the random program for a seed: `cargo run -p e2e --example gen -- SEED`.

fn main() {
    let seed = match std::env::args().nth(1).map(|s| s.parse::<u64>()) {
        Some(Ok(seed)) => seed,
        _ => {
            eprintln!("usage: gen SEED");
            std::process::exit(2);
        }
    };
    print!("{}", e2e::gen::generate(seed));
}
