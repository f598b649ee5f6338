//! Prints the random program for a seed:
//! `cargo run -p e2e --example gen -- SEED [EXPR_DEPTH STMT_DEPTH FUNCTIONS]`
//! (the optional knobs override `e2e::gen::Config::varied(SEED)`), or
//! `cargo run -p e2e --example gen -- --units SEED` for the same program as two files (each
//! after a `/* ==> name <== */` line).

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--units") {
        args.remove(0);
        let Some(seed) = args.first().and_then(|a| a.parse().ok()) else {
            eprintln!("usage: gen --units SEED");
            std::process::exit(2);
        };
        for (name, text) in e2e::gen::generate_units(seed) {
            println!("/* ==> {name} <== */");
            print!("{text}");
        }
        return;
    }
    let numbers: Option<Vec<u64>> = args.iter().map(|a| a.parse().ok()).collect();
    let Some(numbers) = numbers.filter(|n| !n.is_empty()) else {
        eprintln!("usage: gen SEED [EXPR_DEPTH STMT_DEPTH FUNCTIONS]");
        std::process::exit(2);
    };
    let mut config = e2e::gen::Config::varied(numbers[0]);
    if let Some(&d) = numbers.get(1) {
        config.expr_depth = d as u32;
    }
    if let Some(&d) = numbers.get(2) {
        config.stmt_depth = d as u32;
    }
    if let Some(&n) = numbers.get(3) {
        config.functions = n as usize;
    }
    print!("{}", e2e::gen::generate_with(numbers[0], &config));
}
