//! Every game's prompt fuzz body. An input is a game id, a NUL byte, and the bytes for that
//! game's body (`tsg-auto-chess\0...`); see `shinpan::stepfuzz::run`, and for what is checked
//! `shinpan::stepfuzz::targets` and each game's `impl Fuzzed` (`PROMPTS`, in its `fuzz.rs`).
#![no_main]

use shinpan::stepfuzz::{run, Target};

libfuzzer_sys::fuzz_target!(|data: &[u8]| run(Target::Prompt, data, shinpan::games::fuzz_targets));
