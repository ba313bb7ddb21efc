// Parsing allocates a small string per node; mimalloc frees and reuses them faster than the
// system allocator (BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc's `mi_option_t` (v2 and v3 alike).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // mimalloc 3 returns freed memory to the system only after a second (its default
    // `purge_delay`, 1000 ms), so what one rule frees still counts while the next allocates.
    // mimalloc 2's 10 ms: peak RSS of 100k tools 355 -> 304 MB, of a 20 MB folded text 277 ->
    // 175 MB, in the same time; 2 ms: 100k tools as YAML 242-246 -> 240-241 MiB, as JSON
    // 230-237 -> 227 MiB, still in the same time (0 ms costs a tenth more; RELIABILITY.md).
    // SAFETY: sets a plain option; mimalloc reads options atomically, at any time.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 2) };
    std::process::exit(toolcheck::cli::main());
}
