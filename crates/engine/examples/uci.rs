//! The UCI engine on stdin/stdout without the rest of the `caissa` command
//! (quick to build while working on the engine).

fn main() {
    caissa_engine::run_uci(std::io::stdin().lock(), std::io::stdout());
}
