//! Floating-point numbers in a canonical state. JSON has no NaN or infinity, and `serde_json`
//! would turn them into `null` without a word; a state field of type `f64` goes through these
//! functions instead, so that a non-finite number is an error on the way out and on the way in:
//!
//! ```ignore
//! #[serde(with = "crate::seam::finite")]
//! pub vx: f64,
//! ```

use serde::{Deserialize, Deserializer, Serializer};

/// Serializes a finite `f64`; a NaN or an infinity is an error naming the value.
pub fn serialize<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if !value.is_finite() {
        return Err(serde::ser::Error::custom(format!(
            "the state holds a non-finite number ({value}), which has no canonical form"
        )));
    }
    serializer.serialize_f64(*value)
}

/// Reads a number as `f64`, refusing a non-finite one.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    let value = f64::deserialize(deserializer)?;
    if !value.is_finite() {
        return Err(serde::de::Error::custom(format!(
            "{value} is not a finite number"
        )));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct Speed {
        #[serde(with = "super")]
        vx: f64,
    }

    #[test]
    fn non_finite_numbers_are_errors_not_nulls() {
        let err = serde_json::to_value(Speed { vx: f64::NAN }).unwrap_err();
        assert!(err.to_string().contains("non-finite"), "{err}");
        assert!(serde_json::to_value(Speed { vx: f64::INFINITY }).is_err());
        let ok = serde_json::to_value(Speed { vx: -0.5 }).unwrap();
        assert_eq!(serde_json::from_value::<Speed>(ok).unwrap().vx, -0.5);
    }
}
