//! Integration tests of hsaco-check.
