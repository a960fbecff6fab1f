//! Integration tests of hsaco-elf: one binary, one module per area.
mod bundle;
mod elf;
mod kd;
mod metadata;
mod v1;
