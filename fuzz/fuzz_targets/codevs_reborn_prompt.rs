//! CODE VS Reborn: see `shinpan::games::codevs_reborn::fuzz::prompt` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shinpan::games::codevs_reborn::fuzz::prompt(data));
