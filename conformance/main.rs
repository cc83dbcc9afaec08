//! `cargo test --test conformance`: the case library on the reference engines, one libtest
//! trial per case named `<game>/<file>/<case-id>`, so `cargo test -- three-chain` runs just the
//! cases whose name contains `three-chain`. A failing step case prints a unified diff of what it
//! expected against the matching part of the result. This is the same [`shinpan::Suite`] an
//! engine author runs on their own engine.

fn main() -> std::process::ExitCode {
    shinpan::Suite::reference().run()
}
