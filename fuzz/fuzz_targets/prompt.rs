//! Every game's prompt fuzz body. An input is a game id, a NUL byte, and the bytes for that
//! game's body (`tsg-auto-chess\0...`); see `shinpan::stepfuzz::run` and each game's
//! `fuzz::prompt` for what is checked.
#![no_main]

use shinpan::stepfuzz::{run, Target};

libfuzzer_sys::fuzz_target!(|data: &[u8]| run(Target::Prompt, data, shinpan::games::fuzz_targets));
