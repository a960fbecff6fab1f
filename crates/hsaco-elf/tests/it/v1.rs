//! Code object v1 (the HSA runtime finalizer's format, still shipped as ROCr's
//! image-extension blit kernels): the fixtures, written by our own ELF writer, and
//! what the reader makes of them.
//!
//! The layout follows AMDGPUUsage ("Code Object V2 Note Records": the `AMD` note
//! types and their descriptions; `amd_kernel_code_t`) and the shape of the
//! finalizer's objects: `ET_REL`, `ELFOSABI_AMDGPU_HSA` with ABI version 0 (the
//! bytes v2 has too), `e_flags` 0 (the processor is in the ISA note),
//! `.hsadata_readonly_agent` and `.hsatext` with the `SHF_AMDGPU_HSA_*` flags and a
//! `PT_AMDGPU_HSA_LOAD_*` program header each, kernels as `STT_AMDGPU_HSA_KERNEL`
//! symbols named `&__name` at their `amd_kernel_code_t`, data symbols named
//! `&hsa_ext_image::&__...`, relocations in `.rela.hsatext`, and a `.note` with
//! `sh_addralign` 8 holding five `AMD` records padded to 4 bytes.
//!
//! The bytes of `.hsatext` (two `amd_kernel_code_t` and their code), their
//! relocations and kernel bounds come from llvm-mc-22 (`tests/data/v1/gen.sh`,
//! `kernels.s`). `BLESS=1 cargo test -p hsaco-elf --test it v1` rewrites the
//! `*.co` files; the test fails when they differ from what this generator writes.

use std::path::PathBuf;

use hsaco_elf::elf::consts::*;
use hsaco_elf::elf::write::{Builder, RelocSpec, SectionSpec, SymbolSection, SymbolSpec};
use hsaco_elf::note::{self, AmdNote, NoteRecord};
use hsaco_elf::{CodeObject, DescriptorBytes};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/v1")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The processors of the fixtures and their ISA versions (AMDGPUUsage, "AMDGPU Code
/// Object V2 Supported Processors and Fixed Target Feature Settings").
pub const PROCESSORS: &[(&str, [u32; 3])] = &[
    ("gfx700", [7, 0, 0]),
    ("gfx803", [8, 0, 3]),
    ("gfx900", [9, 0, 0]),
];

/// The kernels of `kernels.s`: label there, symbol name in the object.
const KERNELS: &[(&str, &str)] = &[
    ("copy", "&__copy_image_1d_kernel"),
    ("clear", "&__clear_image_1d_kernel"),
];

/// The data tables: name and number of f32 entries.
const TABLES: &[(&str, usize)] = &[
    ("&hsa_ext_image::&__ocmltbl_M32_EXP_EP", 16),
    ("&hsa_ext_image::&__ocmltbl_M32_LOGE", 32),
];

/// "value name" lines of `<cpu>.symbols`.
fn labels(cpu: &str) -> Vec<(u64, String)> {
    String::from_utf8(read(&format!("{cpu}.symbols")))
        .unwrap()
        .lines()
        .map(|l| {
            let (v, n) = l.split_once(' ').unwrap();
            (u64::from_str_radix(v, 16).unwrap(), n.to_string())
        })
        .collect()
}

/// "offset type" lines of `<cpu>.relocs`.
fn relocs(cpu: &str) -> Vec<(u64, u32)> {
    String::from_utf8(read(&format!("{cpu}.relocs")))
        .unwrap()
        .lines()
        .map(|l| {
            let (o, t) = l.split_once(' ').unwrap();
            (u64::from_str_radix(o, 16).unwrap(), t.parse().unwrap())
        })
        .collect()
}

/// The five notes of a finalizer object, as AMDGPUUsage lays out their
/// descriptions, with the finalizer's sizes: the ISA description is 26 bytes (the
/// architecture name's NUL, counted in its name size, falls in the padding), the
/// producer's name size excludes the NUL and four bytes follow the name, and the
/// options description has one stray byte after the options' NUL.
pub fn v1_notes(isa: [u32; 3]) -> Vec<NoteRecord> {
    let mut producer = Vec::new();
    let name = b"AMD HSA Runtime Finalizer";
    producer.extend_from_slice(&(name.len() as u16).to_le_bytes());
    producer.extend_from_slice(&0u16.to_le_bytes());
    producer.extend_from_slice(&1u32.to_le_bytes());
    producer.extend_from_slice(&0u32.to_le_bytes());
    producer.extend_from_slice(name);
    producer.extend_from_slice(&[0; 4]);
    let mut isa_desc = note::IsaVersion {
        vendor: b"AMD",
        architecture: b"AMDGPU",
        major: isa[0],
        minor: isa[1],
        stepping: isa[2],
    }
    .to_desc();
    isa_desc.pop();
    let mut options = note::producer_options_desc(b"-hsa_call_convention=0");
    options.push(b'%');
    vec![
        NoteRecord::new(
            b"AMD",
            NT_AMD_HSA_CODE_OBJECT_VERSION,
            note::CodeObjectVersion { major: 1, minor: 0 }.to_desc(),
        ),
        NoteRecord::new(
            b"AMD",
            NT_AMD_HSA_HSAIL,
            note::Hsail {
                major: 1,
                minor: 0,
                profile: 1,
                machine_model: 1,
                default_float_round: 2,
            }
            .to_desc(),
        ),
        NoteRecord::new(b"AMD", NT_AMD_HSA_ISA_VERSION, isa_desc),
        NoteRecord::new(b"AMD", NT_AMD_HSA_PRODUCER, producer),
        NoteRecord::new(b"AMD", NT_AMD_HSA_PRODUCER_OPTIONS, options),
    ]
}

/// A code object v1 for `cpu`. With `bad_note`, a second note section comes first
/// whose only record claims a description past its end (one unreadable part).
pub fn build_v1(cpu: &str, isa: [u32; 3], bad_note: bool) -> Vec<u8> {
    let mut b = Builder::new(ET_REL, ELFOSABI_AMDGPU_HSA, ELFABIVERSION_AMDGPU_HSA_V2, 0);
    if bad_note {
        let mut bytes = Vec::new();
        NoteRecord::new(b"AMD", NT_AMD_HSA_PRODUCER_OPTIONS, b"-O3\0".to_vec()).encode(&mut bytes);
        bytes[4..8].copy_from_slice(&0x100u32.to_le_bytes());
        b.add_section(SectionSpec {
            sh_type: SHT_NOTE,
            ..SectionSpec::progbits(".note.damaged", 0, 4, bytes)
        });
    }
    let mut notes = SectionSpec::notes(".note", 0, &v1_notes(isa));
    notes.align = 8;
    b.add_section(notes);

    let mut data = Vec::new();
    let mut table_at = Vec::new();
    for (i, &(_, n)) in TABLES.iter().enumerate() {
        table_at.push(data.len() as u64);
        for k in 0..n {
            data.extend_from_slice(&(1.0f32 + (i * 100 + k) as f32 / 64.0).to_le_bytes());
        }
    }
    let data_size = data.len() as u64;
    let mut data_section = SectionSpec::progbits(
        ".hsadata_readonly_agent",
        SHF_WRITE | SHF_ALLOC | SHF_AMDGPU_HSA_READONLY | SHF_AMDGPU_HSA_AGENT,
        8,
        data,
    );
    data_section.addr = Some(0);
    let data_id = b.add_section(data_section);

    let text = read(&format!("{cpu}.hsatext.bin"));
    let mut text_section = SectionSpec::progbits(
        ".hsatext",
        SHF_WRITE | SHF_ALLOC | SHF_EXECINSTR | SHF_AMDGPU_HSA_CODE | SHF_AMDGPU_HSA_AGENT,
        256,
        text,
    );
    // the finalizer gives the code segment the address after the data's
    text_section.addr = Some(data_size.div_ceil(256) * 256);
    let text_id = b.add_section(text_section);
    b.section_segments = vec![
        (PT_AMDGPU_HSA_LOAD_READONLY_AGENT, data_id),
        (PT_AMDGPU_HSA_LOAD_CODE_AGENT, text_id),
    ];

    let mut table_ids = Vec::new();
    for (i, &(name, n)) in TABLES.iter().enumerate() {
        table_ids.push(b.add_symbol(SymbolSpec {
            name: name.into(),
            value: table_at[i],
            size: 4 * n as u64,
            st_type: STT_OBJECT,
            bind: STB_LOCAL,
            other: 0,
            section: SymbolSection::Section(data_id),
        }));
    }
    let labels = labels(cpu);
    let at = |label: &str| labels.iter().find(|(_, n)| n == label).unwrap().0;
    for &(label, name) in KERNELS {
        let start = at(label);
        b.add_symbol(SymbolSpec {
            name: name.into(),
            value: start,
            size: at(&format!("{label}_end")) - start,
            st_type: STT_AMDGPU_HSA_KERNEL,
            bind: STB_GLOBAL,
            other: 0,
            section: SymbolSection::Section(text_id),
        });
    }
    for (name, id) in [
        ("__hsa_section.hsadata_readonly_agent", data_id),
        ("__hsa_section.hsatext", text_id),
    ] {
        b.add_symbol(SymbolSpec {
            name: name.into(),
            value: 0,
            size: 0,
            st_type: STT_SECTION,
            bind: STB_LOCAL,
            other: 0,
            section: SymbolSection::Section(id),
        });
    }
    for (offset, r_type) in relocs(cpu) {
        b.add_relocation(
            text_id,
            RelocSpec {
                offset,
                r_type,
                symbol: Some(table_ids[1]),
                addend: 0,
            },
        );
    }
    b.write().unwrap()
}

/// The committed fixtures: (file name, processor, ISA version, damaged note).
fn fixtures() -> Vec<(String, &'static str, [u32; 3], bool)> {
    let mut v: Vec<_> = PROCESSORS
        .iter()
        .map(|&(cpu, isa)| (format!("v1_{cpu}.co"), cpu, isa, false))
        .collect();
    v.push((
        "v1_gfx803_damaged_note.co".into(),
        "gfx803",
        [8, 0, 3],
        true,
    ));
    v
}

#[test]
fn v1_fixtures_are_what_the_generator_writes() {
    let bless = std::env::var_os("BLESS").is_some();
    for (file, cpu, isa, bad) in fixtures() {
        let bytes = build_v1(cpu, isa, bad);
        let path = data_dir().join(&file);
        if bless {
            std::fs::write(&path, &bytes).unwrap();
        } else {
            assert!(
                std::fs::read(&path).is_ok_and(|b| b == bytes),
                "{file} differs from what the generator writes (BLESS=1 to rewrite)"
            );
        }
    }
}

/// Two v1 objects embedded in other bytes, as ROCr's library holds its blit
/// kernels (byte arrays in its data): for the raw scan of `hsaco extract`.
fn embedded() -> Vec<u8> {
    let mut out = b"host data before the first object\n".to_vec();
    out.resize(64, b'.');
    out.extend_from_slice(&build_v1("gfx700", [7, 0, 0], false));
    out.extend_from_slice(b"\0\0\x7fELF but not an object");
    out.extend_from_slice(&build_v1("gfx900", [9, 0, 0], false));
    out.extend_from_slice(b"trailing host data\n");
    out
}

/// The gfx803 object with the name of its first data symbol pointing past the
/// string table: one unreadable symbol among readable ones.
fn damaged_symbol() -> Vec<u8> {
    let mut bytes = build_v1("gfx803", [8, 0, 3], false);
    let elf = hsaco_elf::elf::Elf::parse(&bytes).unwrap();
    let symtab = elf.section_by_name(".symtab").unwrap();
    let at = symtab.offset as usize + 24;
    bytes[at..at + 4].copy_from_slice(&0xffffu32.to_le_bytes());
    bytes
}

#[test]
fn v1_damaged_symbol_fixture_is_what_the_generator_writes() {
    let bytes = damaged_symbol();
    let path = data_dir().join("v1_gfx803_damaged_symbol.co");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &bytes).unwrap();
    } else {
        assert!(
            std::fs::read(&path).is_ok_and(|b| b == bytes),
            "v1_gfx803_damaged_symbol.co differs from what the generator writes (BLESS=1)"
        );
    }
    // the kernels are still found, the bad symbol reported
    let co = CodeObject::parse(&bytes).unwrap();
    let (kernels, errors) = co.kernels_partial();
    assert_eq!(kernels.len(), 2);
    assert_eq!(errors.len(), 1);
    assert!(co.kernels().is_err());
}

/// An object with the v1 notes but `ELFOSABI_NONE`: still v1, target from the note.
#[test]
fn v1_with_os_abi_none_is_v1() {
    let mut bytes = build_v1("gfx900", [9, 0, 0], false);
    bytes[7] = ELFOSABI_NONE;
    let co = CodeObject::parse(&bytes).unwrap();
    assert_eq!(co.version(), Some(1));
    assert_eq!(co.target_id().unwrap().processor.name, "gfx900");
}

/// What llvm-readelf-22 printed for the gfx803 object's notes (`gen.sh`): the
/// overflow warning and two decoded notes of five, where hsaco reads all five.
#[test]
fn llvm_readelf_misreads_the_notes_hsaco_reads() {
    let llvm = String::from_utf8(read("v1_gfx803.llvm-readelf-notes")).unwrap();
    assert!(llvm.contains("ELF note overflows container"));
    assert_eq!(llvm.matches("NT_AMD_HSA_").count(), 2);
    assert!(llvm.contains("Unknown note type: (0x00444d41)"));
    let bytes = read("v1_gfx803.co");
    let co = CodeObject::parse(&bytes).unwrap();
    assert_eq!(co.elf.notes().filter(|n| n.is_ok()).count(), 5);
}

#[test]
fn v1_embedded_fixture_is_what_the_generator_writes() {
    let bytes = embedded();
    let path = data_dir().join("v1_embedded.bin");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &bytes).unwrap();
    } else {
        assert!(
            std::fs::read(&path).is_ok_and(|b| b == bytes),
            "v1_embedded.bin differs from what the generator writes (BLESS=1 to rewrite)"
        );
    }
    let found = hsaco_elf::bundle::code_objects(&bytes).unwrap();
    let offsets: Vec<u64> = found.iter().map(|o| o.offset).collect();
    let first = build_v1("gfx700", [7, 0, 0], false).len() as u64;
    assert_eq!(offsets, [64, 64 + first + 24]);
}

#[test]
fn v1_reads_as_v1_with_the_target_of_its_isa_note() {
    for (file, cpu, isa, bad) in fixtures() {
        let bytes = read(&file);
        let co = CodeObject::parse(&bytes).unwrap();
        assert_eq!(co.version(), Some(1), "{file}");
        assert_eq!(co.target_id().unwrap().processor.name, cpu, "{file}");
        // every record of .note reads, as AMDGPUUsage lays them out
        let notes: Vec<_> = co.elf.notes().collect();
        let ok: Vec<_> = notes.iter().filter_map(|n| n.as_ref().ok()).collect();
        assert_eq!(ok.len(), 5, "{file}");
        assert_eq!(notes.len(), if bad { 6 } else { 5 }, "{file}");
        if bad {
            let e = notes[0].as_ref().unwrap_err();
            assert!(e.message.contains("description size 0x100"), "{e}");
        }
        let d: Vec<String> = ok.iter().map(|n| n.decode().unwrap().to_string()).collect();
        assert_eq!(d[0], "[Major: 1, Minor: 0]");
        assert_eq!(
            d[2],
            format!(
                "[Vendor: AMD, Architecture: AMDGPU, Major: {}, Minor: {}, Stepping: {}]",
                isa[0], isa[1], isa[2]
            )
        );
        assert_eq!(
            d[3],
            "[Producer: AMD HSA Runtime Finalizer, Major: 1, Minor: 0]"
        );
        assert_eq!(d[4], "-hsa_call_convention=0");
        assert!(matches!(ok[1].decode().unwrap(), AmdNote::Hsail(h) if h.default_float_round == 2));
        // the .note section is 8-aligned and its records 4-padded: a remark, once
        let repadded = co.elf.repadded_note_sections();
        assert_eq!(repadded.len(), 1, "{file}");
        assert_eq!(repadded[0].name_str(), ".note");
    }
}

#[test]
fn v1_kernels_are_the_amd_kernel_code_t_llvm_mc_wrote() {
    for (cpu, _) in PROCESSORS {
        let bytes = read(&format!("v1_{cpu}.co"));
        let co = CodeObject::parse(&bytes).unwrap();
        let text = read(&format!("{cpu}.hsatext.bin"));
        let kernels = co.kernels().unwrap();
        let names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(
            names,
            ["&__copy_image_1d_kernel", "&__clear_image_1d_kernel"]
        );
        let labels = labels(cpu);
        for (k, (label, _)) in kernels.iter().zip(KERNELS) {
            let start = labels.iter().find(|(_, n)| n == label).unwrap().0 as usize;
            let Ok(DescriptorBytes::AmdKernelCodeT { bytes, address, .. }) = &k.descriptor else {
                panic!("{}: {:?}", k.name, k.descriptor);
            };
            assert_eq!(*address, start as u64);
            assert_eq!(*bytes, &text[start..start + 256]);
            let code = hsaco_elf::kd::AmdKernelCode::parse(bytes).unwrap();
            assert_eq!(code.kernel_code_entry_byte_offset(), 256);
        }
        // sections by their flag names, relocations in .rela.hsatext
        let flags = |name: &str| section_flags_names(co.elf.section_by_name(name).unwrap().flags);
        assert_eq!(
            flags(".hsatext"),
            "SHF_WRITE|SHF_ALLOC|SHF_EXECINSTR|SHF_AMDGPU_HSA_CODE|SHF_AMDGPU_HSA_AGENT"
        );
        assert_eq!(
            flags(".hsadata_readonly_agent"),
            "SHF_WRITE|SHF_ALLOC|SHF_AMDGPU_HSA_READONLY|SHF_AMDGPU_HSA_AGENT"
        );
        let tables: Vec<_> = co.elf.relocation_tables().map(|t| t.unwrap()).collect();
        assert_eq!(tables.len(), 1);
        assert_eq!(tables[0].section().name_str(), ".rela.hsatext");
        assert_eq!(
            tables[0]
                .iter()
                .map(|r| (r.offset, r.r_type.0))
                .collect::<Vec<_>>(),
            relocs(cpu)
        );
        let segments: Vec<_> = co.elf.segments().map(|s| s.p_type.0).collect();
        assert_eq!(
            segments,
            [
                PT_AMDGPU_HSA_LOAD_READONLY_AGENT,
                PT_AMDGPU_HSA_LOAD_CODE_AGENT
            ]
        );
    }
}
