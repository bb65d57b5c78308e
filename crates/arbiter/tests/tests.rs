//! Arbiter tests.
