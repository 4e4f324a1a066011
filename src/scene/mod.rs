//! The versioned JSON scene format (serde), shared by the page, the native runner and the
//! tests. A scene is world settings plus particles and links, given one by one or by
//! builders (a rope from A to B with n points, a grid net).
//!
//! Loading is all-or-nothing: a scene is parsed and built into a fresh [`World`], and only
//! a complete success is returned. A failure names the JSON path of the fault
//! (`ropes[1].points: ...`): for parse errors found from where serde_json stopped
//! (`json_path`), for semantic ones by construction.
//!
//! - `schema.rs`: the serde types of the file format, parsing and printing;
//! - `validate.rs`: checks of values (settings through the one settings table);
//! - `build.rs`: scene → `World` (ropes, grids, leashes, pins, obstacles);
//! - `export.rs`: `World` → scene;
//! - `state.rs`: what the step carries (warm starts, the random walk), for an export that
//!   continues exactly.

pub mod bodies;
mod build;
mod export;
pub mod json_path;
mod schema;
pub mod shape_lite;
pub mod state;
mod validate;
pub mod winches;

pub use schema::*;

use crate::error::SimError;

/// Prefixes an error with the JSON path of the item being built (`ropes[2]` + `points`
/// → `ropes[2].points`).
pub(super) fn at(path: String) -> impl FnOnce(SimError) -> SimError {
    move |e| match e {
        SimError::Scene { path: inner, reason } => SimError::Scene { path: format!("{path}.{inner}"), reason },
        other => SimError::Scene { path, reason: other.to_string() },
    }
}

/// The lite build reads past a field it does not use (`measure`): any value, kept as `None`.
#[cfg(not(feature = "full"))]
pub(super) fn ignore<'de, D: serde::Deserializer<'de>, T>(d: D) -> std::result::Result<Option<T>, D::Error> {
    <serde::de::IgnoredAny as serde::Deserialize>::deserialize(d).map(|_| None)
}

pub(super) fn scene_err(path: impl Into<String>, reason: impl Into<String>) -> SimError {
    SimError::Scene { path: path.into(), reason: reason.into() }
}
