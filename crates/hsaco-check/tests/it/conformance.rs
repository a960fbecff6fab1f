//! Conformance rules: LLVM's own code objects pass; each rule fires on a copy
//! with the one field it checks broken (rules from AMDGPUUsage, see the
//! `conformance` module).

use crate::object;
use hsaco_check::{check, CheckOptions};

fn codes(data: &[u8]) -> Vec<&'static str> {
    let r = check(data, &CheckOptions::default()).unwrap();
    r.objects[0].problems.iter().map(|p| p.code).collect()
}

/// File offsets of every kernel descriptor, and of every `.kd` symbol record.
fn descriptors(data: &[u8]) -> (Vec<usize>, Vec<usize>) {
    let co = hsaco_elf::CodeObject::parse(data).unwrap();
    let kds = co
        .kernels()
        .unwrap()
        .iter()
        .map(|k| k.descriptor.as_ref().unwrap().offset() as usize)
        .collect();
    let syms = co
        .elf
        .symtab()
        .unwrap()
        .unwrap()
        .iter()
        .flatten()
        .filter(|s| s.name.ends_with(b".kd"))
        .map(|s| s.offset as usize)
        .collect();
    (kds, syms)
}

fn mutated(file: &str, f: impl Fn(&mut Vec<u8>, usize)) -> Vec<u8> {
    let mut data = object(file);
    let (kds, _) = descriptors(&data);
    f(&mut data, kds[0]);
    data
}

#[test]
fn llvm_objects_pass() {
    for f in [
        "gfx803-cov4.co",
        "gfx803-cov5.co",
        "gfx803-cov6.co",
        "gfx906-cov4.co",
        "gfx906-cov5.co",
        "gfx906-cov6.co",
        "gfx90a-xnack+-cov5.co",
        "gfx9-generic-cov6.co",
        "gfx1030-cov5.co",
        "gfx10-3-generic-cov6.co",
        "gfx803-cov5.o",
    ] {
        assert!(codes(&object(f)).is_empty(), "{f}: {:?}", codes(&object(f)));
    }
}

#[test]
fn descriptor_fields_against_metadata() {
    // kernarg_size: bytes 8..12
    let d = mutated("gfx906-cov5.co", |d, kd| d[kd + 8] ^= 0x10);
    assert!(codes(&d).contains(&"kd-kernarg-size"));
    // group_segment_fixed_size: bytes 0..4
    let d = mutated("gfx906-cov5.co", |d, kd| d[kd] = d[kd].wrapping_add(64));
    assert!(codes(&d).contains(&"kd-lds-size"));
    // private_segment_fixed_size: bytes 4..8
    let d = mutated("gfx906-cov5.co", |d, kd| {
        d[kd + 4] = d[kd + 4].wrapping_add(16)
    });
    assert!(codes(&d).contains(&"kd-private-size"));
    // ENABLE_WAVEFRONT_SIZE32: bit 458
    let d = mutated("gfx1030-cov5.co", |d, kd| d[kd + 57] &= !0x04);
    assert!(codes(&d).contains(&"kd-wave-size"));
    // kernel_code_entry_byte_offset: bytes 16..24
    let d = mutated("gfx906-cov5.co", |d, kd| {
        d[kd + 16] = d[kd + 16].wrapping_add(4)
    });
    assert!(codes(&d).contains(&"entry-alignment"));
    // USER_SGPR_COUNT (compute_pgm_rsrc2 bits 5:1, byte 52) set to 0
    let d = mutated("gfx906-cov5.co", |d, kd| d[kd + 52] &= !0x3e);
    assert!(codes(&d).contains(&"kd-user-sgpr-count"));
    // GRANULATED_WORKITEM_VGPR_COUNT (compute_pgm_rsrc1 bits 5:0, byte 48) set to 0:
    // 4 VGPRs, fewer than the metadata's count for these kernels
    let d = mutated("gfx906-cov5.co", |d, kd| d[kd + 48] &= !0x3f);
    let c = codes(&d);
    assert!(c.contains(&"kd-vgpr-count"), "{c:?}");
}

#[test]
fn symbols() {
    // .kd symbol value moved by 8: not 64-byte aligned
    let mut d = object("gfx906-cov5.co");
    let (_, syms) = descriptors(&d);
    // Elf64_Sym: st_value at +8
    d[syms[0] + 8] = d[syms[0] + 8].wrapping_add(8);
    assert!(codes(&d).contains(&"kd-alignment"));
    // st_size at +16
    let mut d = object("gfx906-cov5.co");
    d[syms[0] + 16] = 32;
    assert!(codes(&d).contains(&"kd-symbol-size"));
    // st_info type (low nibble at +4) made STT_FUNC
    let mut d = object("gfx906-cov5.co");
    d[syms[0] + 4] = (d[syms[0] + 4] & 0xf0) | 2;
    assert!(codes(&d).contains(&"kd-symbol-type"));
    // a .kd name renamed (in .strtab and .dynstr): the metadata's kernel has no
    // descriptor symbol
    let mut d = object("gfx906-cov5.co");
    let hits: Vec<usize> = d
        .windows(12)
        .enumerate()
        .filter(|(_, w)| *w == b"vadd_f32.kd\0")
        .map(|(i, _)| i)
        .collect();
    assert!(!hits.is_empty());
    for pos in hits {
        d[pos + 9] = b'x';
    }
    assert!(codes(&d).contains(&"kernel-symbol-missing"));
}

/// The findings of `check` on one object against one device, as (severity, code).
fn on_device(file: &str, device: &str) -> (bool, Vec<(hsaco_check::Severity, &'static str)>) {
    let r = crate::run(file, &[device], &[]);
    let p = r.objects[0]
        .problems
        .iter()
        .map(|p| (p.severity, p.code))
        .collect();
    (r.has_errors(), p)
}

/// Issue 13: objects older compilers write run on their own processor, so
/// `check` must not call them broken. clang-15 writes `.uses_dynamic_stack` (a
/// v5 key) in v4 metadata, once per kernel: a note. clang-14 leaves the
/// `.agpr_count` AMDGPUUsage requires for gfx90a out: a note, no runtime reads it.
#[test]
fn older_compilers_objects_pass_on_their_processor() {
    use hsaco_check::Severity::Note;
    let (errors, p) = on_device("clang15-gfx906-cov4.co", "gfx906");
    assert!(!errors);
    assert_eq!(p, [(Note, "metadata-key-version"); 3]);
    let (errors, p) = on_device("clang14-gfx90a-cov4.co", "gfx90a");
    assert!(!errors);
    assert_eq!(p, [(Note, "metadata-missing-key"); 3]);
}

/// ACCUM_OFFSET (compute_pgm_rsrc3 bits 5:0, byte 44) far past the VGPRs of a
/// kernel without AGPRs: a note (nothing reads the split); LLVM's own value
/// gives nothing.
#[test]
fn accum_offset_past_the_vgprs_is_a_note() {
    assert!(codes(&object("gfx90a-xnack+-cov5.co")).is_empty());
    let d = mutated("gfx90a-xnack+-cov5.co", |d, kd| d[kd + 44] |= 0x3f);
    let r = check(&d, &CheckOptions::default()).unwrap();
    let p: Vec<_> = r.objects[0]
        .problems
        .iter()
        .map(|p| (p.severity, p.code))
        .collect();
    assert_eq!(p, [(hsaco_check::Severity::Note, "kd-accum-offset")]);
}

/// clang-14 (like -13 to -19) fills GRANULATED_WAVEFRONT_SGPR_COUNT in gfx10 descriptors, a field
/// GFX10+ reserves and the hardware does not read: a note per kernel (LLVM 22's
/// gfx1030 object has none, see `llvm_objects_pass`).
#[test]
fn reserved_sgpr_count_on_gfx10_is_a_note() {
    use hsaco_check::Severity::Note;
    let (errors, p) = on_device("clang14-gfx1030-cov4.co", "gfx1030");
    assert!(!errors);
    assert_eq!(p, [(Note, "kd-reserved-sgpr-count"); 3]);
}

/// The note and metadata rules on LLVM's gfx906 v5 object with one byte of its
/// NT_AMDGPU_METADATA note changed (the unchanged object has no finding, see
/// `llvm_objects_pass`): all errors, CLR finds no kernel or wrong arguments.
#[test]
fn broken_notes_and_metadata() {
    use hsaco_check::Severity::Error;
    let base = object("gfx906-cov5.co");
    // the note's name "AMDGPU\0"; before it namesz, descsz and type (4 bytes each),
    // after it (padded to 8) the MessagePack document
    let at = base.windows(7).position(|w| w == b"AMDGPU\0").unwrap();
    let found = |d: &[u8], code: &str| {
        let r = check(d, &CheckOptions::default()).unwrap();
        r.objects[0]
            .problems
            .iter()
            .any(|p| p.code == code && p.severity == Error)
    };
    let mut d = base.clone();
    d[at - 4] = 33; // type 32 (NT_AMDGPU_METADATA) -> 33
    assert!(found(&d, "metadata-missing"));
    let mut d = base.clone();
    d[at - 8..at - 4].copy_from_slice(&0x7fff_fff0u32.to_le_bytes()); // descsz
    assert!(found(&d, "note-malformed"));
    let mut d = base.clone();
    d[at + 8] = 0xc1; // a byte MessagePack never uses
    assert!(found(&d, "metadata-unreadable"));
    // the second argument's `.offset` (a positive fixint after the key) set to 0:
    // it overlaps the first
    let offsets: Vec<usize> = base
        .windows(8)
        .enumerate()
        .filter(|(_, w)| *w == b"\xa7.offset")
        .map(|(i, _)| i)
        .collect();
    let mut d = base.clone();
    assert!(d[offsets[1] + 8] > 0 && d[offsets[1] + 8] < 0x80);
    d[offsets[1] + 8] = 0;
    assert!(found(&d, "kernarg-layout"));
}
