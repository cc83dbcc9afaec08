//! The bodies of the subcommands that are more than glue: what they print, their progress on a
//! terminal, the files they read and write. Arguments are parsed in `main.rs`, and the result is
//! mapped to an exit code there; each handler takes its parsed arguments and returns an
//! `Outcome` or a `Usage` error. Library code does the work and prints nothing; this is where
//! printing happens.

pub mod check;
pub mod diff;
pub mod listing;
pub mod play;

use std::io::Write;

/// Writes to stdout; a closed pipe (`shinpan check | head`) is not an error.
pub fn print(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}
