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

/// A stack trace found in a stderr tail: the runtime that printed it and its lines that matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackTrace {
    pub runtime: &'static str,
    /// The line that says what went wrong (a Rust panic's message, a Java exception with its
    /// class, Python's last line), then the last non-empty lines of the tail, joined by ` | `.
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
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let headline = headline(&lines);
    let mut parts: Vec<&str> = Vec::new();
    if let Some(line) = &headline {
        parts.push(line);
    }
    let tail: Vec<&str> = lines[lines.len().saturating_sub(3)..]
        .iter()
        .map(|l| l.trim())
        .filter(|l| headline.as_deref().is_none_or(|h| !h.contains(l)))
        .collect();
    parts.extend(tail);
    let excerpt: String = parts.join(" | ").chars().take(300).collect();
    Some(StackTrace { runtime, excerpt })
}

/// The line of a trace that says what went wrong, which the end of the trace may not hold: a
/// Rust panic's location and message (backtrace frames follow it), a Java exception with its
/// class (`at` frames follow it), a C++ `terminate` with its `what()`, Go's `panic:`, C#'s
/// `Unhandled exception`, or else the last unindented line naming an error (Python, Node, Ruby).
fn headline(lines: &[&str]) -> Option<String> {
    let with_next = |i: usize, next_holds: &str| {
        let mut line = lines[i].trim().to_string();
        if let Some(next) = lines.get(i + 1).filter(|n| n.contains(next_holds)) {
            line = format!("{line} {}", next.trim());
        }
        line
    };
    if let Some(i) = lines.iter().position(|l| l.contains("panicked at")) {
        return Some(with_next(i, ""));
    }
    if let Some(i) = lines
        .iter()
        .position(|l| l.contains("terminate called after throwing"))
    {
        return Some(with_next(i, "what()"));
    }
    let first = |starts: &[&str]| {
        lines
            .iter()
            .find(|l| starts.iter().any(|s| l.trim_start().starts_with(s)))
            .map(|l| l.trim().to_string())
    };
    first(&[
        "Exception in thread",
        "panic: ",
        "Unhandled exception",
        "Unhandled Exception",
    ])
    .or_else(|| {
        lines
            .iter()
            .rev()
            .find(|l| {
                !l.starts_with(char::is_whitespace)
                    && (l.contains("Error") || l.contains("Exception"))
            })
            .map(|l| l.trim().to_string())
    })
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

    /// Issue 22: a Rust panic showed backtrace frames and not its message, and a Java trace
    /// left out the exception's class. The line that says what went wrong comes first.
    #[test]
    fn the_excerpt_starts_with_the_line_that_says_what_went_wrong() {
        let rust = "thread 'main' panicked at src/main.rs:4:5:\nnot a number: ParseIntError\n\
                    stack backtrace:\n   0: rust_begin_unwind\n   1: core::panicking::panic_fmt\n\
                    2: bot::main\n   3: core::ops::function::FnOnce::call_once\n";
        let found = stack_trace(rust).unwrap();
        assert!(
            found.excerpt.starts_with(
                "thread 'main' panicked at src/main.rs:4:5: not a number: ParseIntError"
            ),
            "{}",
            found.excerpt
        );
        let java = "Exception in thread \"main\" java.lang.NumberFormatException: For input \
                    string: \"x\"\n\tat java.base/java.lang.Integer.parseInt(Integer.java:652)\n\
                    \tat Main.read(Main.java:9)\n\tat Main.main(Main.java:3)\n";
        let found = stack_trace(java).unwrap();
        assert!(
            found
                .excerpt
                .starts_with("Exception in thread \"main\" java.lang.NumberFormatException"),
            "{}",
            found.excerpt
        );
        let cpp = "terminate called after throwing an instance of 'std::invalid_argument'\n  \
                   what():  stoi\n";
        let found = stack_trace(cpp).unwrap();
        assert!(found.excerpt.contains("what():  stoi"), "{}", found.excerpt);
        assert_eq!(
            found.excerpt.matches("stoi").count(),
            1,
            "{}",
            found.excerpt
        );
    }

    #[test]
    fn the_excerpt_holds_the_end_of_the_trace_after_its_error_line() {
        let found = stack_trace(
            "Traceback (most recent call last):\n  File \"b.py\", line 2, in <module>\nValueError: x\n",
        )
        .unwrap();
        assert_eq!(
            found.excerpt,
            "ValueError: x | Traceback (most recent call last): | File \"b.py\", line 2, in <module>"
        );
    }
}
