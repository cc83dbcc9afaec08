//! CEDEC 2013: see `shinpan::games::cedec2013::fuzz::prompt` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shinpan::games::cedec2013::fuzz::prompt(data));
