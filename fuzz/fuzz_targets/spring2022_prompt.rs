//! Spring Challenge 2022: see `shinpan::games::spring2022::fuzz::prompt` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shinpan::games::spring2022::fuzz::prompt(data));
