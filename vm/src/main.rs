//! `vmrun`: run and inspect programs of the C-subset language. See `vmrun --help`.

mod cli;

/// Counts the heap bytes in use, for `--max-memory` (`vm::alloc_meter`).
#[global_allocator]
static ALLOCATOR: vm::alloc_meter::MeteredAlloc = vm::alloc_meter::MeteredAlloc;

fn main() {
    std::process::exit(cli::main());
}
