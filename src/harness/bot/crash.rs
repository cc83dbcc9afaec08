//! Telling an unhandled error from a handled one by what a program left on stderr: the stack
//! trace each language's runtime prints when an error reaches the top. One table, one line a
//! marker; a language is added by adding its line.

/// How a marker matches one line of stderr.
#[derive(Debug, Clone, Copy)]
enum Seen {
    /// The line starts with this (after no indentation).
    StartsWith(&'static str),
    /// The line holds this.
    Contains(&'static str),
    /// The line holds all of these.
    ContainsAll(&'static [&'static str]),
}

/// (runtime, what in one line of stderr shows its unhandled error).
const MARKERS: &[(&str, Seen)] = &[
    (
        "Python",
        Seen::StartsWith("Traceback (most recent call last)"),
    ),
    ("Python", Seen::ContainsAll(&["File \"", "\", line "])),
    ("Rust", Seen::ContainsAll(&["thread '", "panicked at"])),
    (
        "Java/Kotlin/Scala",
        Seen::StartsWith("Exception in thread \""),
    ),
    (
        "Java/Kotlin/Scala",
        Seen::ContainsAll(&["\tat ", "(", ".java:"]),
    ),
    (
        "Java/Kotlin/Scala",
        Seen::ContainsAll(&["\tat ", "(", ".kt:"]),
    ),
    (
        "Java/Kotlin/Scala",
        Seen::ContainsAll(&["\tat ", "(", ".scala:"]),
    ),
    ("C#", Seen::StartsWith("Unhandled exception.")),
    ("C#", Seen::StartsWith("Unhandled Exception:")),
    ("Node", Seen::ContainsAll(&["    at ", ".js:"])),
    ("Node", Seen::ContainsAll(&["    at ", ".mjs:"])),
    ("Ruby", Seen::ContainsAll(&[".rb:", ":in ", "Error)"])),
    ("Go", Seen::StartsWith("panic: ")),
    ("Go", Seen::ContainsAll(&["goroutine ", " [running]:"])),
    ("C/C++", Seen::Contains("terminate called after throwing")),
];

/// A stack trace found in a stderr tail: the runtime that printed it and its last lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackTrace {
    pub runtime: &'static str,
    /// The last non-empty lines of the tail (where the error itself is), joined by ` | `.
    pub excerpt: String,
}

/// The stack trace in `stderr`, if an unhandled error left one.
pub fn stack_trace(stderr: &str) -> Option<StackTrace> {
    let runtime = stderr.lines().find_map(|line| {
        MARKERS
            .iter()
            .find(|(_, seen)| seen_in(*seen, line))
            .map(|(runtime, _)| *runtime)
    })?;
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let excerpt: String = lines[lines.len().saturating_sub(3)..]
        .join(" | ")
        .chars()
        .take(300)
        .collect();
    Some(StackTrace { runtime, excerpt })
}

fn seen_in(seen: Seen, line: &str) -> bool {
    match seen {
        Seen::StartsWith(start) => line.starts_with(start),
        Seen::Contains(part) => line.contains(part),
        Seen::ContainsAll(parts) => parts.iter().all(|p| line.contains(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One real-looking trace per runtime, and what a handled error prints instead.
    #[test]
    fn every_runtime_is_recognised_and_a_one_line_report_is_not() {
        let traces = [
            ("Python", "Traceback (most recent call last):\n  File \"bot.py\", line 9, in <module>\n    int(x)\nValueError: invalid literal for int() with base 10: 'x'\n"),
            ("Python", "  File \"bot.py\", line 9, in read\nValueError: bad\n"),
            ("Rust", "thread 'main' panicked at src/main.rs:4:5:\nnot a number\n"),
            ("Java/Kotlin/Scala", "Exception in thread \"main\" java.lang.NumberFormatException: For input string: \"x\"\n\tat java.base/java.lang.Integer.parseInt(Integer.java:652)\n"),
            ("C#", "Unhandled exception. System.FormatException: Input string was not in a correct format.\n"),
            ("Node", "/bot/main.js:12\n    throw new Error('x');\nError: x\n    at Object.<anonymous> (/bot/main.js:12:11)\n"),
            ("Ruby", "bot.rb:3:in 'Integer': invalid value for Integer(): \"x\" (ArgumentError)\n"),
            ("Go", "panic: strconv.Atoi: parsing \"x\": invalid syntax\n\ngoroutine 1 [running]:\nmain.main()\n"),
            ("C/C++", "terminate called after throwing an instance of 'std::invalid_argument'\n"),
        ];
        for (runtime, stderr) in traces {
            let found = stack_trace(stderr).unwrap_or_else(|| panic!("{runtime}: {stderr}"));
            assert_eq!(found.runtime, runtime, "{stderr}");
            assert!(!found.excerpt.is_empty());
        }
        for handled in [
            "",
            "bad input\n",
            "unreadable prompt: 'x' is not a number\n",
            "error: line 3: expected a number\n",
        ] {
            assert_eq!(stack_trace(handled), None, "{handled}");
        }
    }

    #[test]
    fn the_excerpt_is_the_end_of_the_trace() {
        let found = stack_trace(
            "Traceback (most recent call last):\n  File \"b.py\", line 2, in <module>\nValueError: x\n",
        )
        .unwrap();
        assert!(
            found.excerpt.ends_with("ValueError: x"),
            "{}",
            found.excerpt
        );
    }
}
