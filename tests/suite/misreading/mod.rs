//! Engines that misread a rule document (issue 38). The shared tally code comes from main.

pub mod cedec2013;
