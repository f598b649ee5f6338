//! Prints the random program for a seed:
//! `cargo run -p e2e --example gen -- SEED [EXPR_DEPTH STMT_DEPTH FUNCTIONS]`
//! (the optional knobs override `e2e::gen::Config::varied(SEED)`), or
//! `cargo run -p e2e --example gen -- --units SEED` for the same program as two files (each
//! after a `/* ==> name <== */` line). `--pointers` (before the seed) turns on the pointer
//! features (`e2e::gen::Config::pointers`: structures, pointers, strings, the heap).

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut units = false;
    let mut pointers = false;
    while let Some(flag) = args.first().filter(|a| a.starts_with("--")) {
        match flag.as_str() {
            "--units" => units = true,
            "--pointers" => pointers = true,
            other => {
                eprintln!("unknown option {other}");
                std::process::exit(2);
            }
        }
        args.remove(0);
    }
    let numbers: Option<Vec<u64>> = args.iter().map(|a| a.parse().ok()).collect();
    let Some(numbers) = numbers.filter(|n| !n.is_empty() && (!units || n.len() == 1)) else {
        eprintln!("usage: gen [--pointers] SEED [EXPR_DEPTH STMT_DEPTH FUNCTIONS] | gen [--pointers] --units SEED");
        std::process::exit(2);
    };
    let mut config = e2e::gen::Config::varied(numbers[0]);
    config.pointers = pointers;
    if units {
        for (name, text) in e2e::gen::generate_units_with(numbers[0], &config) {
            println!("/* ==> {name} <== */");
            print!("{text}");
        }
        return;
    }
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
