//! The referee's 2-D vector arithmetic in `f64`, operation for operation (D-spring-3): every
//! method does exactly the floating-point operations, in exactly the order, that the official
//! referee's vector class does, so that results agree to the last bit. Integer truncation is
//! Java's `(int)` cast, which Rust's `as i32` matches (toward zero, saturating, NaN to 0);
//! sine and cosine are the JVM's, as HotSpot computes them ([`super::trig`], D-spring-14).

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::trig::{cos, sin};

/// A point or a displacement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Vector {
    #[serde(with = "shinpan_core::seam::finite")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub x: f64,
    #[serde(with = "shinpan_core::seam::finite")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub y: f64,
}

impl Vector {
    pub const ZERO: Vector = Vector::new(0.0, 0.0);

    pub const fn new(x: f64, y: f64) -> Vector {
        Vector { x, y }
    }

    pub fn from_ints(x: i32, y: i32) -> Vector {
        Vector::new(f64::from(x), f64::from(y))
    }

    /// The displacement from `a` to `b`.
    pub fn between(a: Vector, b: Vector) -> Vector {
        Vector::new(b.x - a.x, b.y - a.y)
    }

    /// The unit vector at `angle` radians: `(cos, sin)`.
    pub fn from_angle(angle: f64) -> Vector {
        Vector::new(cos(angle), sin(angle))
    }

    pub fn plus(self, v: Vector) -> Vector {
        Vector::new(self.x + v.x, self.y + v.y)
    }

    pub fn minus(self, v: Vector) -> Vector {
        Vector::new(self.x - v.x, self.y - v.y)
    }

    pub fn mult(self, factor: f64) -> Vector {
        Vector::new(self.x * factor, self.y * factor)
    }

    pub fn length_squared(self) -> f64 {
        self.x * self.x + self.y * self.y
    }

    pub fn length(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }

    /// The unit vector along `self`; the zero vector stays zero.
    pub fn normalize(self) -> Vector {
        let length = self.length();
        if length == 0.0 {
            return Vector::ZERO;
        }
        Vector::new(self.x / length, self.y / length)
    }

    /// Turned by `angle` radians.
    pub fn rotate(self, angle: f64) -> Vector {
        let nx = (self.x * cos(angle)) - (self.y * sin(angle));
        let ny = (self.x * sin(angle)) + (self.y * cos(angle));
        Vector::new(nx, ny)
    }

    /// Whether `v` is within `range` of `self`: squared distances, the range included.
    pub fn in_range(self, v: Vector, range: f64) -> bool {
        (v.x - self.x) * (v.x - self.x) + (v.y - self.y) * (v.y - self.y) <= range * range
    }

    /// Each component truncated toward zero (Java's `(int)` cast).
    pub fn truncate(self) -> Vector {
        Vector::new(java_int(self.x), java_int(self.y))
    }

    /// Java's `Math.round` on each component (ties toward positive infinity), then `(int)`.
    pub fn round(self) -> Vector {
        Vector::new(java_round(self.x), java_round(self.y))
    }

    /// Truncated toward `origin` rather than toward zero: D-spring-3's rounding of positions.
    pub fn symmetric_truncate(self, origin: Vector) -> Vector {
        self.minus(origin).truncate().plus(origin)
    }

    /// The mirror image through `center`.
    pub fn symmetric(self, center: Vector) -> Vector {
        Vector::new(center.x * 2.0 - self.x, center.y * 2.0 - self.y)
    }

    pub fn within_bounds(self, min_x: f64, min_y: f64, max_x: f64, max_y: f64) -> bool {
        self.x >= min_x && self.x <= max_x && self.y >= min_y && self.y <= max_y
    }

    pub fn is_zero(self) -> bool {
        self.x == 0.0 && self.y == 0.0
    }

    /// What the prompt prints: each component cast to an integer.
    pub fn int_x(self) -> i32 {
        self.x as i32
    }

    pub fn int_y(self) -> i32 {
        self.y as i32
    }
}

/// Java's `(int) x` as a double: toward zero, saturating at the `int` range, NaN to 0.
pub fn java_int(x: f64) -> f64 {
    f64::from(x as i32)
}

/// Java's `(int) Math.round(x)`: the nearest integer, ties toward positive infinity.
pub fn java_round(x: f64) -> f64 {
    let r = x.round();
    let rounded = if r - x == -0.5 { r + 1.0 } else { r };
    java_int(rounded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_rounding_sends_ties_up() {
        assert_eq!(java_round(2.5), 3.0);
        assert_eq!(java_round(-2.5), -2.0);
        assert_eq!(java_round(-2.6), -3.0);
        assert_eq!(java_round(1131.37), 1131.0);
    }

    #[test]
    fn java_int_truncates_and_saturates() {
        assert_eq!(java_int(-0.9), 0.0);
        assert_eq!(java_int(3e10), f64::from(i32::MAX));
        assert_eq!(java_int(f64::NAN), 0.0);
    }
}
