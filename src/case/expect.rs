//! Subset matching of `then` against an actual result, and the diff shown when it fails.
//!
//! Every key of the expected mapping must match; a list matches element by element over the
//! expected elements (write `{}` to skip one). Where a value cannot be known exactly (a count
//! over random matches), a bound stands in for it: `{$lt: 15}`, `{$lte: 14}`, `{$gt: 0}` or
//! `{$gte: 1}`. The diff compares the expectation with the *matching part* of the actual value,
//! so it shows only what the case asked about.

use serde_json::Value;
use similar::TextDiff;

/// What stands in the projected actual value where the expectation names a key that is absent.
const ABSENT: &str = "<absent>";

/// A result that does not contain what a case expects ([`check_subset`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{diff}")]
pub struct Mismatch {
    /// The unified diff of the expectation against the part of the result it talks about.
    pub diff: String,
}

/// `Ok` when `actual` contains `expected`; else the diff, expected against actual.
pub fn check_subset(expected: &Value, actual: &Value) -> Result<(), Mismatch> {
    let projected = project(expected, actual);
    if &projected == expected {
        return Ok(());
    }
    Err(Mismatch {
        diff: unified_diff(&to_yaml(expected), &to_yaml(&projected)),
    })
}

/// The part of `actual` that `expected` talks about, shaped like `expected`.
pub fn project(expected: &Value, actual: &Value) -> Value {
    if let Some(holds) = bound_holds(expected, actual) {
        // A bound that holds projects to itself; one that fails shows the actual value.
        return if holds {
            expected.clone()
        } else {
            actual.clone()
        };
    }
    match (expected, actual) {
        // Numbers compare by value: `3` in a case matches `3.0` in a result.
        (Value::Number(want), Value::Number(have)) if same_number(want, have) => expected.clone(),
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

/// Whether two JSON numbers are the same value: integers exactly (past 2^53 too), anything else
/// as f64.
pub fn same_number(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    let integer = |n: &serde_json::Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

/// Whether two values are the same, numbers by value ([`same_number`]: `3` is `3.0`) and
/// everything else exactly: how `check` compares and how `diff` compares the two engines.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => same_number(x, y),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_value(v, w))
        }
        _ => a == b,
    }
}

/// `Some(whether it holds)` when `expected` is a bound (`{$lt: n}` and the like), else `None`.
pub fn bound_holds(expected: &Value, actual: &Value) -> Option<bool> {
    let Value::Object(map) = expected else {
        return None;
    };
    let (op, limit) = map.iter().next().filter(|_| map.len() == 1)?;
    let limit = limit.as_f64()?;
    let compare: fn(f64, f64) -> bool = match op.as_str() {
        "$lt" => |a, b| a < b,
        "$lte" => |a, b| a <= b,
        "$gt" => |a, b| a > b,
        "$gte" => |a, b| a >= b,
        _ => return None,
    };
    Some(actual.as_f64().is_some_and(|a| compare(a, limit)))
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
        let diff = check_subset(&json!({"players": [{"score": 5}]}), &actual)
            .unwrap_err()
            .diff;
        assert!(
            diff.contains("-  score: 5") || diff.contains("-- score: 5"),
            "{diff}"
        );
        assert!(!diff.contains("turn"), "{diff}");
    }

    #[test]
    fn bounds_compare_numbers() {
        let actual = json!({"holes": 9, "land": 118});
        assert!(check_subset(
            &json!({"holes": {"$lt": 15}, "land": {"$gte": 118}}),
            &actual
        )
        .is_ok());
        let diff = check_subset(&json!({"holes": {"$lt": 9}}), &actual)
            .unwrap_err()
            .diff;
        assert!(diff.contains("holes: 9"), "{diff}");
        assert!(check_subset(&json!({"holes": {"$gt": 9}}), &json!({"holes": "nine"})).is_err());
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(check_subset(&json!({"x": 3}), &json!({"x": 3.0})).is_ok());
        assert!(check_subset(&json!({"x": -0.5}), &json!({"x": -0.5})).is_ok());
        assert!(check_subset(&json!({"x": 3}), &json!({"x": 3.5})).is_err());
        let big = json!({"x": u64::MAX});
        assert!(check_subset(&big, &json!({"x": u64::MAX - 1})).is_err());
        assert!(check_subset(&json!({"x": -1}), &json!({"x": u64::MAX})).is_err());
    }

    #[test]
    fn values_compare_numbers_by_value() {
        assert!(same_value(
            &json!({"a": [3, 1.5]}),
            &json!({"a": [3.0, 1.5]})
        ));
        assert!(!same_value(&json!({"a": 3}), &json!({"a": 3, "b": 0})));
        assert!(!same_value(&json!([3]), &json!(["3"])));
    }

    #[test]
    fn absent_key_fails() {
        let diff = check_subset(&json!({"scoer": 1}), &json!({"score": 1}))
            .unwrap_err()
            .diff;
        assert!(diff.contains(ABSENT), "{diff}");
    }
}
