//! shinpan's integration tests, in one test binary: each `tests/*.rs` used to be a binary of its
//! own that linked the whole crate, and a cold `cargo test` spent most of its time linking them
//! (issue 26). A module here is what a file was; `cargo test --test suite MODULE::` runs one.
//!
//! Tests share this process, so none may change what the others see: no `std::env::set_var`
//! or `set_current_dir` (give the child `Command` its environment and directory instead), and a
//! test that drives programs through shinpan's harness in process runs alone in a process of
//! its own ([`common::in_own_process`]). The case library's own target, `conformance`, stays a
//! binary apart (mutation testing runs `--test=conformance`).
//!
//! Beside the sources: `snapshots/` (insta) and the proptest regressions of each module
//! (`<module>.proptest-regressions`, see [`common::proptest_config`]). Bots are in `tests/bots/`,
//! other inputs in `tests/fixtures/`. A game's own test data is in its folder,
//! `crates/shinpan-<game>/testdata/` (`suite.yaml`, `parser_errors.yaml`, `snapshots/`), so that a
//! game is added without a line here.

mod browser;
mod common;
mod procs;

mod adapter;
mod arena;
mod arena_files;
mod bot;
mod bot_bad_input;
mod cedec2013;
mod cli;
mod codevs4;
mod codevs_reborn_order;
mod codevs_reborn_properties;
mod codevs_reborn_snapshots;
mod departure_names;
mod diff_departures;
mod every_game;
mod forged_reports;
mod hooks;
mod hostile;
mod hostile_files;
mod html_arena;
mod html_bot;
mod html_browser;
mod html_replay;
mod html_report;
mod html_trace;
mod interrupt;
mod jobs;
mod misreading;
mod numbers_round_trip;
mod one_turn_api;
mod output_files;
mod partial_models;
mod partition;
mod planted;
mod process;
mod progress;
mod protocol_pages;
mod reachable_cases;
mod report;
mod spring2022;
mod spring2022_replay;
mod spring2022_trig;
mod suite_api;
mod tap;
mod trace;
mod trace_cases;
mod trace_main_rb;
mod tsg_auto_chess;
mod verdicts;
