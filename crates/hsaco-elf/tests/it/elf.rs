//! ELF reader and writer tests. Expected values come from llvm-readelf-22 output
//! committed beside the objects (`tests/data/elf/*.readelf`, made by `regen.sh`), which
//! these tests parse; and from round trips through the writer.

use std::path::PathBuf;

use hsaco_elf::elf::consts::*;
use hsaco_elf::elf::write::{Builder, Link, RelocSpec, SectionSpec, SymbolSection, SymbolSpec};
use hsaco_elf::elf::Elf;
use hsaco_elf::note::{self, AmdNote, NoteRecord};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/elf")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The objects that have a committed llvm-readelf output.
const OBJECTS: &[&str] = &[
    "gfx906_cov5_vadd.co",
    "gfx906_cov5_calls.o",
    "gfx1100_cov6_wave.o",
    "gfx1100_cov6_wave.co",
    "gfx900_lds.o",
    "r600_redwood.o",
    "v2_gfx803.o",
    "v3_gfx900.co",
];

// ---- generated objects ---------------------------------------------------------

/// A code object V2 relocatable object for gfx803 with every "AMD" note the
/// finalizer and LLVM wrote, and a kernel symbol of type STT_AMDGPU_HSA_KERNEL.
fn build_v2() -> Vec<u8> {
    let mut b = Builder::new(ET_REL, ELFOSABI_AMDGPU_HSA, ELFABIVERSION_AMDGPU_HSA_V2, 0);
    let yaml = read("v2_metadata.yaml");
    let notes = [
        NoteRecord::new(
            b"AMD",
            NT_AMD_HSA_CODE_OBJECT_VERSION,
            note::CodeObjectVersion { major: 2, minor: 1 }.to_desc(),
        ),
        NoteRecord::new(
            b"AMD",
            NT_AMD_HSA_HSAIL,
            note::Hsail {
                major: 1,
                minor: 0,
                profile: 1,
                machine_model: 1,
                default_float_round: 0,
            }
            .to_desc(),
        ),
        NoteRecord::new(
            b"AMD",
            NT_AMD_HSA_ISA_VERSION,
            note::IsaVersion {
                vendor: b"AMD",
                architecture: b"AMDGPU",
                major: 8,
                minor: 0,
                stepping: 3,
            }
            .to_desc(),
        ),
        NoteRecord::new(
            b"AMD",
            NT_AMD_HSA_PRODUCER,
            note::Producer {
                name: b"hsaco",
                major: 1,
                minor: 2,
            }
            .to_desc(),
        ),
        NoteRecord::new(
            b"AMD",
            NT_AMD_HSA_PRODUCER_OPTIONS,
            note::producer_options_desc(b"-O3 -mcpu=gfx803"),
        ),
        NoteRecord::new(b"AMD", NT_AMD_HSA_ISA_NAME, b"AMD:AMDGPU:8:0:3".to_vec()),
        NoteRecord::new(b"AMD", NT_AMD_HSA_METADATA, {
            let mut text = yaml;
            text.push(0);
            text
        }),
    ];
    b.add_section(SectionSpec::notes(".note", SHF_ALLOC, &notes));
    // amd_kernel_code_t (256 bytes, code version 1.2) then s_endpgm
    let mut code = vec![0u8; 256];
    code[0..4].copy_from_slice(&1u32.to_le_bytes());
    code[4..8].copy_from_slice(&2u32.to_le_bytes());
    code.extend_from_slice(&0xbf81_0000u32.to_le_bytes());
    let text = b.add_section(SectionSpec::progbits(
        ".text",
        SHF_ALLOC | SHF_EXECINSTR,
        256,
        code,
    ));
    let data = b.add_section(SectionSpec::progbits(
        ".data",
        SHF_ALLOC | SHF_WRITE,
        8,
        vec![0; 8],
    ));
    b.add_symbol(SymbolSpec {
        name: "vadd".into(),
        value: 0,
        size: 260,
        st_type: STT_AMDGPU_HSA_KERNEL,
        bind: STB_GLOBAL,
        other: STV_DEFAULT,
        section: SymbolSection::Section(text),
    });
    let local = b.add_symbol(SymbolSpec {
        name: "table".into(),
        value: 0,
        size: 8,
        st_type: STT_OBJECT,
        bind: STB_LOCAL,
        other: STV_DEFAULT,
        section: SymbolSection::Section(data),
    });
    b.add_relocation(
        text,
        RelocSpec {
            offset: 0x10,
            r_type: R_AMDGPU_ABS64,
            symbol: Some(local),
            addend: 4,
        },
    );
    b.write().unwrap()
}

/// A code object V3 shared object for gfx900 (e_flags MACH gfx900 = 0x2c) with an
/// NT_AMDGPU_METADATA note (a corpus blob with amdhsa.version changed to [1, 0]),
/// a kernel and its descriptor, and a relocation of every R_AMDGPU_* type.
fn build_v3() -> Vec<u8> {
    let mut b = Builder::new(
        ET_DYN,
        ELFOSABI_AMDGPU_HSA,
        ELFABIVERSION_AMDGPU_HSA_V3,
        0x2c,
    );
    let metadata = read("v3_metadata.msgpack");
    b.add_section(SectionSpec::notes(
        ".note",
        SHF_ALLOC,
        &[NoteRecord::new(b"AMDGPU", NT_AMDGPU_METADATA, metadata)],
    ));
    let rodata = b.add_section(SectionSpec::progbits(".rodata", SHF_ALLOC, 64, vec![0; 64]));
    let text = b.add_section(SectionSpec::progbits(
        ".text",
        SHF_ALLOC | SHF_EXECINSTR,
        256,
        0xbf81_0000u32.to_le_bytes().repeat(16),
    ));
    b.add_section(SectionSpec::nobits(".bss", SHF_ALLOC | SHF_WRITE, 16, 0x40));
    b.add_section(SectionSpec::progbits(
        ".comment",
        SHF_MERGE | SHF_STRINGS,
        1,
        b"hsaco\0".to_vec(),
    ));
    let kernel = b.add_symbol(SymbolSpec {
        name: "k".into(),
        value: 0,
        size: 64,
        st_type: STT_FUNC,
        bind: STB_GLOBAL,
        other: STV_PROTECTED,
        section: SymbolSection::Section(text),
    });
    b.add_symbol(SymbolSpec {
        name: "k.kd".into(),
        value: 0,
        size: 64,
        st_type: STT_OBJECT,
        bind: STB_GLOBAL,
        other: STV_PROTECTED,
        section: SymbolSection::Section(rodata),
    });
    b.add_symbol(SymbolSpec {
        name: "lds".into(),
        value: 16,
        size: 4,
        st_type: STT_OBJECT,
        bind: STB_GLOBAL,
        other: STV_DEFAULT,
        section: SymbolSection::Raw(SHN_AMDGPU_LDS),
    });
    // symbol values are addresses in a shared object
    let layout = b.layout().unwrap();
    let text_addr = layout.addrs[text.0];
    b.symbol_mut(kernel).unwrap().value = text_addr;
    b.symbol_mut(hsaco_elf::elf::write::SymbolId(1))
        .unwrap()
        .value = layout.addrs[rodata.0];
    for r_type in 0..=14 {
        b.add_relocation(
            text,
            RelocSpec {
                offset: 4 * u64::from(r_type),
                r_type,
                symbol: Some(kernel),
                addend: i64::from(r_type) - 2,
            },
        );
    }
    let _ = Link::None;
    b.write().unwrap()
}

#[test]
fn generated_objects_match_committed() {
    for (name, bytes) in [("v2_gfx803.o", build_v2()), ("v3_gfx900.co", build_v3())] {
        let path = data_dir().join(name);
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        assert!(
            read(name) == bytes,
            "{name} differs from what the writer makes now; BLESS=1 and review"
        );
    }
}

// ---- llvm-readelf output -------------------------------------------------------

#[derive(Debug, Default)]
struct Readelf {
    header: Vec<(String, String)>,
    sections: Vec<Vec<String>>,
    segments: Vec<Vec<String>>,
    /// (table name, tokens of each line)
    symbols: Vec<(String, Vec<Vec<String>>)>,
    relocs: Vec<(String, Vec<Vec<String>>)>,
    /// (owner, size, description)
    notes: Vec<(String, u64, String)>,
    note_details: Vec<String>,
}

fn parse_readelf(text: &str) -> Readelf {
    let mut r = Readelf::default();
    #[derive(PartialEq)]
    enum State {
        None,
        Header,
        Sections,
        Segments,
        Symbols,
        Relocs,
        Notes,
    }
    let mut state = State::None;
    for line in text.lines() {
        if line.starts_with("ELF Header:") {
            state = State::Header;
            continue;
        }
        if line.starts_with("Section Headers:") {
            state = State::Sections;
            continue;
        }
        if line.starts_with("Program Headers:") {
            state = State::Segments;
            continue;
        }
        if let Some(rest) = line.strip_prefix("Symbol table '") {
            r.symbols
                .push((rest.split('\'').next().unwrap().to_string(), Vec::new()));
            state = State::Symbols;
            continue;
        }
        if let Some(rest) = line.strip_prefix("Relocation section '") {
            r.relocs
                .push((rest.split('\'').next().unwrap().to_string(), Vec::new()));
            state = State::Relocs;
            continue;
        }
        if line.starts_with("Displaying notes") {
            state = State::Notes;
            continue;
        }
        let tokens: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        match state {
            State::Header => {
                if let Some((key, value)) = line.split_once(':') {
                    r.header
                        .push((key.trim().to_string(), value.trim().to_string()));
                }
            }
            State::Sections if line.trim_start().starts_with('[') && !line.contains("[Nr]") => {
                let after = line.split_once(']').unwrap().1;
                let mut t: Vec<String> = after.split_whitespace().map(str::to_string).collect();
                if t.len() == 8 {
                    t.insert(0, String::new()); // unnamed section 0
                }
                if t.len() == 9 {
                    t.insert(6, String::new()); // no flags
                }
                r.sections.push(t);
            }
            State::Segments if !tokens.is_empty() && tokens[0] != "Type" => {
                if line.trim().is_empty() || line.starts_with(" Section to Segment") {
                    state = State::None;
                } else {
                    r.segments.push(tokens);
                }
            }
            State::Segments if tokens.first().is_some_and(|t| t == "Type") => {}
            State::Segments => state = State::None,
            State::Symbols
                if tokens
                    .first()
                    .is_some_and(|t| t.ends_with(':') && t != "Num:") =>
            {
                r.symbols.last_mut().unwrap().1.push(tokens);
            }
            State::Relocs
                if tokens
                    .first()
                    .is_some_and(|t| u64::from_str_radix(t, 16).is_ok()) =>
            {
                r.relocs.last_mut().unwrap().1.push(tokens);
            }
            State::Notes => {
                if line.starts_with("  ")
                    && !line.starts_with("   ")
                    && tokens.len() >= 3
                    && tokens[1].starts_with("0x")
                {
                    let description = line.split_once('\t').unwrap().1.trim().to_string();
                    let size = u64::from_str_radix(&tokens[1][2..], 16).unwrap();
                    r.notes.push((tokens[0].clone(), size, description));
                } else if line.starts_with("    ") {
                    r.note_details.push(line.trim().to_string());
                }
            }
            _ => {}
        }
    }
    r
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap_or_else(|_| panic!("not hex: {s}"))
}

fn header_value<'a>(r: &'a Readelf, key: &str) -> &'a str {
    &r.header
        .iter()
        .find(|(k, _)| k == key)
        .unwrap_or_else(|| panic!("no {key}"))
        .1
}

fn symbol_type_name(t: u8) -> String {
    match SymbolType(t).name() {
        Some(name) if t <= STT_AMDGPU_HSA_KERNEL => name.trim_start_matches("STT_").to_string(),
        _ => format!("<unknown>: {t:x}"),
    }
}

fn check_against_readelf(name: &str) {
    let bytes = read(name);
    let text = String::from_utf8(read(&format!("{name}.readelf"))).unwrap();
    let r = parse_readelf(&text);
    let elf = Elf::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));

    // header
    assert_eq!(
        elf.abi_version().to_string(),
        header_value(&r, "ABI Version"),
        "{name}"
    );
    let flags = header_value(&r, "Flags");
    assert_eq!(
        u64::from(elf.e_flags()),
        hex(flags.split(',').next().unwrap()),
        "{name}"
    );
    assert_eq!(
        elf.section_count().to_string(),
        header_value(&r, "Number of section headers")
    );
    assert_eq!(
        elf.segment_count().to_string(),
        header_value(&r, "Number of program headers")
    );
    assert_eq!(
        elf.shstrndx().to_string(),
        header_value(&r, "Section header string table index")
    );
    assert_eq!(elf.e_machine().to_string(), header_value(&r, "Machine"));
    let class = header_value(&r, "Class");
    assert_eq!(elf.is_64(), class == "ELF64");
    let ty = header_value(&r, "Type");
    assert_eq!(
        elf.e_type().to_string().trim_start_matches("ET_"),
        ty.split(' ').next().unwrap()
    );

    // sections
    assert_eq!(r.sections.len(), elf.section_count(), "{name}");
    for (expected, section) in r.sections.iter().zip(elf.sections()) {
        let s = section.unwrap();
        assert_eq!(s.name_str(), expected[0], "{name}");
        assert_eq!(
            s.sh_type.to_string().trim_start_matches("SHT_"),
            expected[1],
            "{name} {}",
            expected[0]
        );
        assert_eq!(s.addr, hex(&expected[2]));
        assert_eq!(s.offset, hex(&expected[3]));
        assert_eq!(s.size, hex(&expected[4]));
        assert_eq!(s.entsize, hex(&expected[5]));
        assert_eq!(s.flags & SHF_ALLOC != 0, expected[6].contains('A'));
        assert_eq!(s.flags & SHF_EXECINSTR != 0, expected[6].contains('X'));
        assert_eq!(s.flags & SHF_WRITE != 0, expected[6].contains('W'));
        assert_eq!(s.flags & SHF_INFO_LINK != 0, expected[6].contains('I'));
        assert_eq!(s.link.to_string(), expected[7]);
        assert_eq!(s.info.to_string(), expected[8]);
        assert_eq!(s.addralign.to_string(), expected[9]);
        // the data of every section is inside the file
        assert_eq!(
            s.data().unwrap().len() as u64,
            if s.sh_type.0 == SHT_NOBITS || s.index == 0 {
                0
            } else {
                s.size
            }
        );
    }

    // segments
    assert_eq!(r.segments.len(), elf.segment_count(), "{name}");
    for (expected, seg) in r.segments.iter().zip(elf.segments()) {
        assert_eq!(
            seg.p_type.to_string().trim_start_matches("PT_"),
            expected[0],
            "{name}"
        );
        assert_eq!(seg.offset, hex(&expected[1]));
        assert_eq!(seg.vaddr, hex(&expected[2]));
        assert_eq!(seg.paddr, hex(&expected[3]));
        assert_eq!(seg.filesz, hex(&expected[4]));
        assert_eq!(seg.memsz, hex(&expected[5]));
        assert_eq!(seg.align, hex(expected.last().unwrap()));
        let flags = expected[6..expected.len() - 1].concat();
        assert_eq!(seg.flags & PF_R != 0, flags.contains('R'));
        assert_eq!(seg.flags & PF_W != 0, flags.contains('W'));
        assert_eq!(seg.flags & PF_X != 0, flags.contains('E'));
    }

    // symbols
    for (table_name, lines) in &r.symbols {
        let section = elf.section_by_name(table_name).unwrap();
        let table = elf.symbol_table(&section).unwrap();
        assert_eq!(table.len(), lines.len(), "{name} {table_name}");
        for (expected, symbol) in lines.iter().zip(table.iter()) {
            let s = symbol.unwrap();
            assert_eq!(format!("{}:", s.index), expected[0]);
            assert_eq!(s.value, hex(&expected[1]), "{name} {}", s.name_str());
            assert_eq!(s.size.to_string(), expected[2]);
            // "<unknown>: a" is two tokens
            let (ty, rest) = if expected[3] == "<unknown>:" {
                (format!("{} {}", expected[3], expected[4]), &expected[5..])
            } else {
                (expected[3].clone(), &expected[4..])
            };
            assert_eq!(
                symbol_type_name(s.st_type().0),
                ty,
                "{name} {}",
                s.name_str()
            );
            assert_eq!(s.bind().to_string().trim_start_matches("STB_"), rest[0]);
            assert_eq!(
                s.visibility().to_string().trim_start_matches("STV_"),
                rest[1]
            );
            let ndx = match s.shndx {
                SHN_UNDEF => "UND".to_string(),
                SHN_ABS => "ABS".to_string(),
                SHN_COMMON => "COM".to_string(),
                SHN_AMDGPU_LDS => "PRC[0xff00]".to_string(),
                n => n.to_string(),
            };
            assert_eq!(ndx, rest[2]);
            assert_eq!(s.name_str(), rest.get(3).map_or("", |s| s.as_str()));
        }
        for line in lines.iter().skip(1) {
            if let Some(sym_name) = line.last().filter(|_| line.len() >= 8) {
                assert!(table.by_name(sym_name).is_some(), "{sym_name}");
            }
        }
    }

    // relocations
    let tables: Vec<_> = elf.relocation_tables().map(|t| t.unwrap()).collect();
    assert_eq!(tables.len(), r.relocs.len(), "{name}");
    for (table, (table_name, lines)) in tables.iter().zip(&r.relocs) {
        assert_eq!(table.section().name_str(), *table_name);
        assert_eq!(table.len(), lines.len());
        let symtab = elf
            .symbol_table(&elf.section(table.symbol_table_index()).unwrap())
            .unwrap();
        for (expected, reloc) in lines.iter().zip(table.iter()) {
            assert_eq!(reloc.offset, hex(&expected[0]));
            let info = hex(&expected[1]);
            if elf.is_64() {
                assert_eq!(
                    u64::from(reloc.symbol) << 32 | u64::from(reloc.r_type.0),
                    info
                );
            } else {
                assert_eq!(
                    u64::from(reloc.symbol) << 8 | u64::from(reloc.r_type.0),
                    info
                );
            }
            let type_name = reloc.r_type.name().unwrap_or("Unknown");
            assert_eq!(type_name, expected[2], "{name}");
            if reloc.symbol != 0 {
                let symbol = symtab.get(reloc.symbol as usize).unwrap();
                assert_eq!(symbol.value, hex(&expected[3]));
                assert_eq!(symbol.name_str(), expected[4]);
            }
            if table.is_rela() {
                let sign = &expected[expected.len() - 2];
                let magnitude = hex(expected.last().unwrap()) as i64;
                assert_eq!(
                    reloc.addend,
                    if sign == "-" { -magnitude } else { magnitude },
                    "{name}"
                );
            }
        }
    }

    // notes
    let notes: Vec<_> = elf.notes().map(|n| n.unwrap()).collect();
    assert_eq!(notes.len(), r.notes.len(), "{name}");
    for (note, (owner, size, description)) in notes.iter().zip(&r.notes) {
        assert_eq!(String::from_utf8_lossy(note.owner), *owner);
        assert_eq!(note.desc.len() as u64, *size);
        assert_eq!(note.kind().to_string(), *description);
        note.decode().unwrap();
    }
}

#[test]
fn reader_agrees_with_llvm_readelf() {
    for name in OBJECTS {
        check_against_readelf(name);
    }
}

#[test]
fn code_object_versions() {
    let expected = [
        ("gfx906_cov5_vadd.co", Some(5)),
        ("gfx1100_cov6_wave.o", Some(6)),
        ("r600_redwood.o", None),
        ("v2_gfx803.o", Some(2)),
        ("v3_gfx900.co", Some(3)),
    ];
    for (name, version) in expected {
        assert_eq!(
            Elf::parse(&read(name)).unwrap().code_object_version(),
            version,
            "{name}"
        );
    }
}

#[test]
fn v2_notes_decode_to_what_llvm_readelf_prints() {
    let bytes = read("v2_gfx803.o");
    let elf = Elf::parse(&bytes).unwrap();
    let text = String::from_utf8(read("v2_gfx803.o.readelf")).unwrap();
    let details = parse_readelf(&text).note_details;
    let mut seen = 0;
    for note in elf.notes() {
        let note = note.unwrap();
        let decoded = note.decode().unwrap();
        if note.kind().description().is_some() && note.n_type != NT_AMD_HSA_METADATA {
            assert!(
                details.contains(&decoded.to_string()),
                "{decoded} not in {details:?}"
            );
        }
        match decoded {
            AmdNote::CodeObjectVersion(v) => {
                assert!(
                    details.contains(&format!("[Major: {}, Minor: {}]", v.major, v.minor)),
                    "{details:?}"
                );
                seen += 1;
            }
            AmdNote::IsaVersion(isa) => {
                let line = format!(
                    "[Vendor: {}, Architecture: {}, Major: {}, Minor: {}, Stepping: {}]",
                    String::from_utf8_lossy(isa.vendor),
                    String::from_utf8_lossy(isa.architecture),
                    isa.major,
                    isa.minor,
                    isa.stepping
                );
                assert!(details.contains(&line), "{line} not in {details:?}");
                seen += 1;
            }
            AmdNote::IsaName(isa) => {
                assert!(details.contains(&String::from_utf8_lossy(isa).into_owned()));
                seen += 1;
            }
            AmdNote::HsaMetadata(yaml) => {
                // llvm-readelf prints the text; its first line is the document start
                assert!(yaml.starts_with(b"---\nVersion:"));
                assert_eq!(yaml, read("v2_metadata.yaml"));
                seen += 1;
            }
            AmdNote::Producer(p) => {
                assert_eq!((p.name, p.major, p.minor), (&b"hsaco"[..], 1, 2));
                seen += 1;
            }
            AmdNote::ProducerOptions(options) => {
                assert_eq!(options, b"-O3 -mcpu=gfx803");
                seen += 1;
            }
            AmdNote::Hsail(h) => {
                let line = format!(
                    "[HSAIL Major: {}, HSAIL Minor: {}, Profile: {}, Machine Model: {}, Default Float Round: {}]",
                    h.major, h.minor, h.profile, h.machine_model, h.default_float_round
                );
                assert!(details.contains(&line), "{line} not in {details:?}");
                seen += 1;
            }
            other => panic!("unexpected note {other:?}"),
        }
    }
    assert_eq!(seen, 7);
}

/// Field-by-field view of a file, independent of offsets and section indices.
fn summary(bytes: &[u8]) -> Vec<String> {
    let elf = Elf::parse(bytes).unwrap();
    let mut out = vec![format!(
        "{} {} {} {:#x} {}",
        elf.e_type(),
        elf.os_abi(),
        elf.abi_version(),
        elf.e_flags(),
        elf.e_machine()
    )];
    let name_of = |index: usize| {
        elf.section(index)
            .map(|s| s.name_str().into_owned())
            .unwrap_or_default()
    };
    for s in elf.sections() {
        let s = s.unwrap();
        if matches!(
            s.sh_type.0,
            SHT_SYMTAB | SHT_STRTAB | SHT_RELA | SHT_REL | SHT_NULL
        ) && !s.is_alloc()
        {
            continue; // rebuilt by the writer
        }
        out.push(format!(
            "section {} {} {:#x} addr={:#x} size={:#x} align={} entsize={} link={} data={:?}",
            s.name_str(),
            s.sh_type,
            s.flags,
            s.addr,
            s.size,
            s.addralign,
            s.entsize,
            if s.link == 0 {
                String::new()
            } else {
                name_of(s.link as usize)
            },
            s.data().unwrap()
        ));
    }
    if let Some(symtab) = elf.symtab().unwrap() {
        for s in symtab.iter().skip(1) {
            let s = s.unwrap();
            let section = s
                .section_index()
                .map(&name_of)
                .unwrap_or_else(|| format!("{:#x}", s.shndx));
            out.push(format!(
                "symbol {} {:#x} {} {} {} {} {}",
                s.name_str(),
                s.value,
                s.size,
                s.st_type(),
                s.bind(),
                s.visibility(),
                section
            ));
        }
        for table in elf.relocation_tables() {
            let table = table.unwrap();
            for r in table.iter() {
                let sym = symtab.get(r.symbol as usize).unwrap();
                out.push(format!(
                    "reloc {} {:#x} {} {} {}",
                    name_of(table.target_section_index()),
                    r.offset,
                    r.r_type,
                    sym.name_str(),
                    r.addend
                ));
            }
        }
    }
    for n in elf.notes() {
        let n = n.unwrap();
        out.push(format!("note {:?} {} {:?}", n.owner, n.n_type, n.desc));
    }
    out
}

#[test]
fn corpus_objects_survive_read_rewrite_read() {
    for name in [
        "gfx906_cov5_vadd.co",
        "gfx906_cov5_calls.o",
        "gfx1100_cov6_wave.o",
        "gfx1100_cov6_wave.co",
        "gfx900_lds.o",
        "v2_gfx803.o",
        "v3_gfx900.co",
    ] {
        let bytes = read(name);
        let elf = Elf::parse(&bytes).unwrap();
        let rewritten = Builder::from_elf(&elf).unwrap().write().unwrap();
        let a = summary(&bytes);
        let b = summary(&rewritten);
        assert!(a.len() > 3);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x, y, "{name}");
        }
        assert_eq!(a.len(), b.len(), "{name}");
    }
}

#[test]
fn written_fields_read_back() {
    let bytes = build_v3();
    let elf = Elf::parse(&bytes).unwrap();
    assert_eq!(elf.e_type().0, ET_DYN);
    assert_eq!(elf.e_flags(), 0x2c);
    let text = elf.section_by_name(".text").unwrap();
    assert_eq!(
        (text.flags, text.addralign, text.size),
        (SHF_ALLOC | SHF_EXECINSTR, 256, 64)
    );
    // loadable: file offset and address agree modulo the page size
    for s in elf.sections().map(Result::unwrap).filter(|s| s.is_alloc()) {
        assert_eq!(s.addr % 0x1000, s.offset % 0x1000, "{}", s.name_str());
        assert_eq!(s.addr % s.addralign.max(1), 0);
    }
    let bss = elf.section_by_name(".bss").unwrap();
    assert_eq!((bss.sh_type.0, bss.size), (SHT_NOBITS, 0x40));
    let symtab = elf.symtab().unwrap().unwrap();
    assert_eq!(symtab.by_name("k").unwrap().value, text.addr);
    assert_eq!(symtab.by_name("lds").unwrap().shndx, SHN_AMDGPU_LDS);
    assert_eq!(symtab.section().info, 1, "no locals: first global is 1");
    let rela = elf.relocation_tables().next().unwrap().unwrap();
    assert_eq!(
        elf.section(rela.target_section_index()).unwrap().name,
        b".text"
    );
    let types: Vec<u32> = rela.iter().map(|r| r.r_type.0).collect();
    assert_eq!(types, (0..=14).collect::<Vec<_>>());
    assert_eq!(rela.get(0).unwrap().addend, -2);
    let note = elf.notes().next().unwrap().unwrap();
    assert_eq!(
        note.decode().unwrap(),
        AmdNote::AmdgpuMetadata(&read("v3_metadata.msgpack")[..])
    );

    let v2 = build_v2();
    let elf = Elf::parse(&v2).unwrap();
    let symtab = elf.symtab().unwrap().unwrap();
    assert_eq!(symtab.section().info, 2, "one local then globals");
    assert_eq!(symtab.get(1).unwrap().name, b"table");
    assert_eq!(
        symtab.by_name("vadd").unwrap().st_type().0,
        STT_AMDGPU_HSA_KERNEL
    );
}

#[test]
fn malformed_headers_are_errors_with_offsets() {
    let good = read("gfx906_cov5_calls.o");
    // section header table past the end
    let mut bad = good.clone();
    bad[0x28..0x30].copy_from_slice(&u64::MAX.to_le_bytes());
    let err = Elf::parse(&bad).unwrap_err();
    assert_eq!(err.offset, 0x28, "{err}");
    // shstrndx out of range
    let mut bad = good.clone();
    bad[0x3e..0x40].copy_from_slice(&500u16.to_le_bytes());
    assert_eq!(Elf::parse(&bad).unwrap_err().offset, 0x3e);
    // not ELF
    assert_eq!(
        Elf::parse(b"\x7fELG0000000000000000").unwrap_err().offset,
        0
    );
    // truncated
    assert!(Elf::parse(&good[..40]).is_err());
    // a section whose data is out of range: error names its header
    let elf = Elf::parse(&good).unwrap();
    let text = elf.section_by_name(".text").unwrap();
    let mut bad = good.clone();
    let at = text.header_offset as usize + 24;
    bad[at..at + 8].copy_from_slice(&0xffff_ff00u64.to_le_bytes());
    let elf = Elf::parse(&bad).unwrap();
    let err = elf.section(text.index).unwrap().data().unwrap_err();
    assert_eq!(err.offset, text.header_offset);
    // a huge section count is refused without allocating
    let mut bad = good;
    bad[0x3c..0x3e].copy_from_slice(&0xfffeu16.to_le_bytes());
    assert_eq!(Elf::parse(&bad).unwrap_err().offset, 0x28);
}

#[test]
fn fuzz_smoke_elf() {
    let seeds: Vec<Vec<u8>> = OBJECTS.iter().map(|n| read(n)).collect();
    let seeds: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
    let n = hsaco_elf::fuzzing::mutation_smoke(hsaco_elf::fuzzing::elf, &seeds, 100_000, 0xe1f);
    assert_eq!(n, 100_000);
}

#[test]
fn fuzz_smoke_note() {
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for name in OBJECTS {
        let bytes = read(name);
        let elf = Elf::parse(&bytes).unwrap();
        for s in elf.sections() {
            let s = s.unwrap();
            if s.sh_type.0 == SHT_NOTE {
                seeds.push(s.data().unwrap().to_vec());
            }
        }
    }
    assert!(seeds.len() >= 4);
    let seeds: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
    let n = hsaco_elf::fuzzing::mutation_smoke(hsaco_elf::fuzzing::note, &seeds, 100_000, 0x401e);
    assert_eq!(n, 100_000);
}

/// `write_fixed`: sections at the caller's offsets and addresses, the caller's program
/// headers, section names from the caller's table; read back field by field.
#[test]
fn write_fixed_puts_everything_where_asked() {
    use hsaco_elf::elf::write::{FixedLayout, Link, SectionId, SegmentSpec};
    let mut b = Builder::new(
        ET_DYN,
        ELFOSABI_AMDGPU_HSA,
        ELFABIVERSION_AMDGPU_HSA_V5,
        0x53f,
    );
    let mut text = SectionSpec::progbits(".text", SHF_ALLOC | SHF_EXECINSTR, 256, vec![1, 2, 3, 4]);
    text.addr = Some(0x1100);
    b.add_section(text);
    let names = b"\0.text\0.shstrtab\0".to_vec();
    let mut shstrtab = SectionSpec::progbits(".shstrtab", 0, 1, names);
    shstrtab.sh_type = SHT_STRTAB;
    shstrtab.link = Link::Section(SectionId(0));
    b.add_section(shstrtab);
    let segment = SegmentSpec {
        p_type: PT_LOAD,
        flags: PF_R | PF_X,
        offset: 0x100,
        vaddr: 0x1100,
        filesz: 4,
        memsz: 4,
        align: 0x1000,
    };
    let fixed = FixedLayout {
        offsets: vec![0x100, 0x104],
        name_offsets: vec![1, 7],
        shstrndx: Some(SectionId(1)),
        segments: vec![segment],
        shoff: 0x118,
    };
    let bytes = b.write_fixed(&fixed).unwrap();
    assert_eq!(bytes.len(), 0x118 + 3 * 64);
    let elf = Elf::parse(&bytes).unwrap();
    assert_eq!((elf.header().phoff, elf.header().shoff), (64, 0x118));
    let t = elf.section_by_name(".text").unwrap();
    assert_eq!(
        (t.addr, t.offset, t.size, t.addralign),
        (0x1100, 0x100, 4, 256)
    );
    assert_eq!(t.data().unwrap(), &[1, 2, 3, 4]);
    let s = elf.section_by_name(".shstrtab").unwrap();
    assert_eq!((s.offset, s.link), (0x104, 1));
    let p = elf.segment(0).unwrap();
    assert_eq!(
        (p.offset, p.vaddr, p.paddr, p.filesz, p.flags),
        (0x100, 0x1100, 0x1100, 4, PF_R | PF_X)
    );

    // refused: contents over the headers, a symbol (write_fixed has no .symtab)
    let over = FixedLayout {
        offsets: vec![0x20, 0x104],
        ..fixed.clone()
    };
    assert!(b
        .write_fixed(&over)
        .unwrap_err()
        .message
        .contains("overlaps the headers"));
    b.add_symbol(SymbolSpec {
        name: "k".into(),
        value: 0,
        size: 0,
        st_type: STT_FUNC,
        bind: STB_GLOBAL,
        other: 0,
        section: SymbolSection::Section(SectionId(0)),
    });
    assert!(b.write_fixed(&fixed).is_err());
}

/// `iter_where` gives what `iter` gives, filtered by type and section, and still the
/// error of every symbol whose name cannot be read, chosen or not.
#[test]
fn symbols_where_are_symbols_filtered_with_every_name_error() {
    let good = read("gfx906_cov5_calls.o");
    let elf = Elf::parse(&good).unwrap();
    let symtab = elf.symtab().unwrap().unwrap();
    let all: Vec<_> = symtab.iter().map(Result::unwrap).collect();
    assert!(all.len() > 3, "{}", all.len());
    let every: Vec<_> = symtab.iter_where(|_, _| true).map(Result::unwrap).collect();
    assert_eq!(every, all);
    let funcs: Vec<_> = symtab
        .iter_where(|info, _| info & 0xf == STT_FUNC)
        .map(Result::unwrap)
        .collect();
    let expected: Vec<_> = all
        .iter()
        .copied()
        .filter(|s| s.info & 0xf == STT_FUNC)
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(funcs, expected);
    assert_eq!(symtab.iter_where(|_, _| false).count(), 0);

    // symbol 1's name offset past the end of the string table: an error chosen or not
    let at = symtab.section().offset as usize + 24;
    let mut bad = good.clone();
    bad[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let elf = Elf::parse(&bad).unwrap();
    let symtab = elf.symtab().unwrap().unwrap();
    let expected = symtab.get(1).unwrap_err();
    let errors: Vec<_> = symtab.iter_where(|_, _| false).collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].as_ref().unwrap_err().offset, expected.offset);
    // the last byte of the string table is its last NUL: a name starting there is empty,
    // one past it cannot be read
    let strtab_len = symtab.strtab().len() as u32;
    for (off, readable) in [(strtab_len - 1, true), (strtab_len, false)] {
        let mut bad = good.clone();
        bad[at..at + 4].copy_from_slice(&off.to_le_bytes());
        let elf = Elf::parse(&bad).unwrap();
        let symtab = elf.symtab().unwrap().unwrap();
        assert_eq!(symtab.get(1).is_ok(), readable);
        assert_eq!(
            symtab.iter_where(|_, _| false).count(),
            usize::from(!readable)
        );
    }
}
