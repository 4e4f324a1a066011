//! Contacts between rigid bodies (issue 11): the contact patch rows (`patch`); the broad
//! and narrow phase that feed them follow.

pub mod patch;
