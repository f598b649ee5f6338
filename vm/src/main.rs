//! `vmrun`: run and inspect programs of the C-subset language. See `vmrun --help`.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
