//! CODE VS 4.0: see `shinpan::games::codevs4::fuzz::reply` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shinpan::games::codevs4::fuzz::reply(data));
