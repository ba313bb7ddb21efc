fn main() {
    std::process::exit(toolcheck::cli::main());
}
