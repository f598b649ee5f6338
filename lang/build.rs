//! Generates the parser from `src/grammar.lalrpop` into `OUT_DIR`.
fn main() {
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .emit_rerun_directives(true)
        .process()
        .expect("lalrpop failed to generate the parser from src/grammar.lalrpop");
}
