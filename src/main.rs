// Parsing allocates a small string per node; mimalloc frees and reuses them faster than the
// system allocator (BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(toolcheck::cli::main());
}
