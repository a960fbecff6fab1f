//! Fuzz entry point for target IDs and `e_flags`, for a cargo-fuzz target or
//! `hsaco_elf::fuzzing::mutation_smoke`. It must never panic.

use crate::eflags::CodeObjectVersion;
use crate::processor::Processor;
use crate::target_id::TargetId;

/// Parse `data` as a target ID string (lossy UTF-8) in every way, and its
/// first four bytes as `e_flags` of every code object version; whatever
/// parses must print and re-parse to the same value.
pub fn target_id(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(t) = TargetId::parse(&text) {
        assert_eq!(TargetId::parse(&t.to_string()), Ok(t));
    }
    let _ = TargetId::parse_v2_v3(&text);
    if data.len() < 64 {
        let _ = Processor::by_product(&text);
    }
    if let Some(bytes) = data.first_chunk::<4>() {
        let e_flags = u32::from_le_bytes(*bytes);
        for version in CodeObjectVersion::ALL {
            if let Ok(t) = TargetId::from_e_flags(e_flags, version) {
                assert_eq!(t.to_e_flags(version), Ok(e_flags));
            }
        }
    }
}
