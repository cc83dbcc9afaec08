//! CODE VS Reborn: see `shinpan::games::codevs_reborn::fuzz::step` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shinpan::games::codevs_reborn::fuzz::step(data));
