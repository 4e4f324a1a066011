//! The one error type of the engine's public surface. Every fallible entry point validates
//! its input first and returns one of these *before* changing anything.

use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    /// A number that must be finite was NaN or infinite.
    NotFinite { what: &'static str },
    /// A number was outside its allowed range.
    OutOfRange { what: &'static str, value: f64, range: &'static str },
    /// An index did not name an existing item.
    BadIndex { what: &'static str, index: i64, len: usize },
    /// A request that makes no sense for the current state (e.g. linking a point to itself).
    Invalid(String),
    /// A setting given a value it does not take (`key` is its JS name).
    Setting { key: String, reason: String },
    /// A scene file that failed to parse or validate, with the JSON path of the fault.
    Scene { path: String, reason: String },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::NotFinite { what } => write!(f, "{what} must be a finite number"),
            SimError::OutOfRange { what, value, range } => {
                write!(f, "{what} = {} is out of range (expected {range})", crate::num::Num(*value))
            }
            SimError::BadIndex { what, index, len } => {
                write!(f, "{what} {index} is out of range (there are {len})")
            }
            SimError::Invalid(msg) => f.write_str(msg),
            SimError::Setting { key, reason } => write!(f, "{key}: {reason}"),
            SimError::Scene { path, reason } => write!(f, "scene error at `{path}`: {reason}"),
        }
    }
}

impl std::error::Error for SimError {}

pub type Result<T, E = SimError> = std::result::Result<T, E>;

/// `s` in double quotes for a message, escaped as a JSON string (`"bad\"name"`). Not
/// `format!("{s:?}")`: `str`'s `Debug` links std's Unicode printable tables (about 10 KB
/// of wasm) to escape what JSON escaping passes through.
pub fn quoted(s: &str) -> String {
    crate::json::quote(s)
}

/// `x` must be finite.
pub fn finite(what: &'static str, x: f32) -> Result<f32> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(SimError::NotFinite { what })
    }
}

/// `x` must be finite and within `[lo, hi]`.
pub fn in_range(what: &'static str, x: f32, lo: f32, hi: f32, range: &'static str) -> Result<f32> {
    finite(what, x)?;
    if x < lo || x > hi {
        return Err(SimError::OutOfRange { what, value: x as f64, range });
    }
    Ok(x)
}

/// A count from JS (a double): a whole number within `[lo, hi]`. `-5` or `2.5` are errors,
/// not 4294967291 or 2.
pub fn count(what: &'static str, x: f64, lo: u32, hi: u32, range: &'static str) -> Result<u32> {
    if !x.is_finite() {
        return Err(SimError::NotFinite { what });
    }
    if x.fract() != 0.0 || x < lo as f64 || x > hi as f64 {
        return Err(SimError::OutOfRange { what, value: x, range });
    }
    Ok(x as u32)
}

/// `i` must index a collection of length `len`.
pub fn index(what: &'static str, i: i64, len: usize) -> Result<usize> {
    if i < 0 || i as u64 >= len as u64 {
        Err(SimError::BadIndex { what, index: i, len })
    } else {
        Ok(i as usize)
    }
}

/// Shortest time step (s): velocities are displacements over the (sub)step, and over a
/// subnormal one (`step(1e-45)`) they overflowed to infinity.
pub const MIN_DT: f32 = 1e-6;

/// A time step must be finite, at least [`MIN_DT`] and at most 1 s (longer spans are
/// `advance`'s job, in fixed steps).
pub fn time_step(dt: f32) -> Result<f32> {
    finite("dt", dt)?;
    if !(MIN_DT..=1.0).contains(&dt) {
        return Err(SimError::OutOfRange { what: "dt", value: dt as f64, range: "1e-6 s ≤ dt ≤ 1 s" });
    }
    Ok(dt)
}
