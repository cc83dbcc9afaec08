//! Subset matching of `then` against an actual result, and the diff shown when it fails.
//!
//! Every key of the expected mapping must match; a list matches element by element over the
//! expected elements (write `{}` to skip one). The diff compares the expectation with the
//! *matching part* of the actual value, so it shows only what the case asked about.

use serde_json::Value;
use similar::TextDiff;

/// What stands in the projected actual value where the expectation names a key that is absent.
const ABSENT: &str = "<absent>";

/// `Ok` when `actual` contains `expected`; else the unified diff, expected against actual.
pub fn check_subset(expected: &Value, actual: &Value) -> Result<(), String> {
    let projected = project(expected, actual);
    if &projected == expected {
        return Ok(());
    }
    Err(unified_diff(&to_yaml(expected), &to_yaml(&projected)))
}

/// The part of `actual` that `expected` talks about, shaped like `expected`.
pub fn project(expected: &Value, actual: &Value) -> Value {
    match (expected, actual) {
        (Value::Object(want), Value::Object(have)) => Value::Object(
            want.iter()
                .map(|(k, w)| {
                    (
                        k.clone(),
                        have.get(k)
                            .map_or(Value::String(ABSENT.into()), |h| project(w, h)),
                    )
                })
                .collect(),
        ),
        (Value::Array(want), Value::Array(have)) => {
            Value::Array(want.iter().zip(have).map(|(w, h)| project(w, h)).collect())
        }
        _ => actual.clone(),
    }
}

pub fn to_yaml(value: &Value) -> String {
    serde_yaml::to_string(value).unwrap_or_else(|e| format!("<cannot render: {e}>"))
}

pub fn unified_diff(expected: &str, actual: &str) -> String {
    TextDiff::from_lines(expected, actual)
        .unified_diff()
        .context_radius(3)
        .header("expected", "actual")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subset_ignores_what_is_not_asked() {
        let actual = json!({"turn": 1, "players": [{"score": 4, "field": ""}, {"score": 0}]});
        assert!(check_subset(&json!({"players": [{"score": 4}]}), &actual).is_ok());
        assert!(check_subset(&json!({"players": [{}, {"score": 0}]}), &actual).is_ok());
    }

    #[test]
    fn mismatch_shows_a_diff_of_the_asked_part() {
        let actual = json!({"turn": 1, "players": [{"score": 4}]});
        let diff = check_subset(&json!({"players": [{"score": 5}]}), &actual).unwrap_err();
        assert!(
            diff.contains("-  score: 5") || diff.contains("-- score: 5"),
            "{diff}"
        );
        assert!(!diff.contains("turn"), "{diff}");
    }

    #[test]
    fn absent_key_fails() {
        let diff = check_subset(&json!({"scoer": 1}), &json!({"score": 1})).unwrap_err();
        assert!(diff.contains(ABSENT), "{diff}");
    }
}
