//! TSG AUTO CHESS: see `shinpan::games::tsg_auto_chess::fuzz::step` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shinpan::games::tsg_auto_chess::fuzz::step(data));
