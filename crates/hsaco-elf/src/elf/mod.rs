//! ELF: constants in the spec's spelling ([`consts`]), the zero-copy reader
//! ([`Elf`]) and the writer ([`write::Builder`]).
//!
//! ```
//! use hsaco_elf::elf::{consts::*, write::{Builder, SectionSpec, SymbolSpec, SymbolSection}, Elf};
//! let mut b = Builder::new(ET_REL, ELFOSABI_AMDGPU_HSA, ELFABIVERSION_AMDGPU_HSA_V6, 0x41);
//! let text = b.add_section(SectionSpec::progbits(".text", SHF_ALLOC | SHF_EXECINSTR, 256, vec![0; 8]));
//! b.add_symbol(SymbolSpec { name: "k".into(), value: 0, size: 8, st_type: STT_FUNC,
//!     bind: STB_GLOBAL, other: STV_PROTECTED, section: SymbolSection::Section(text) });
//! let bytes = b.write().unwrap();
//! let elf = Elf::parse(&bytes).unwrap();
//! assert_eq!(elf.code_object_version(), Some(6));
//! let k = elf.symtab().unwrap().unwrap().by_name("k").unwrap();
//! assert_eq!((k.size, k.st_type().to_string()), (8, "STT_FUNC".to_string()));
//! ```

pub mod consts;
mod read;
pub mod write;

pub use consts::{
    Class, ElfType, Machine, OsAbi, RelocType, SectionType, SegmentType, SymbolBind, SymbolType,
    SymbolVisibility,
};
pub use read::{
    AllNotes, Elf, Header, Relocation, RelocationTable, Section, Sections, Segment, Symbol,
    SymbolTable,
};

/// Parses `data` and walks everything the reader offers; ignores the results. Never
/// panics (the fuzz target).
#[doc(hidden)]
pub fn fuzz_entry(data: &[u8]) {
    let Ok(elf) = Elf::parse(data) else { return };
    let _ = elf.code_object_version();
    let _ = elf.header().e_type.to_string();
    for section in elf.sections() {
        let Ok(section) = section else { continue };
        let _ = section.data();
        let _ = section.sh_type.to_string();
        if let Ok(notes) = section.notes() {
            for note in notes.take(64).flatten() {
                let _ = note.decode();
            }
        }
        if matches!(section.sh_type.0, consts::SHT_SYMTAB | consts::SHT_DYNSYM) {
            if let Ok(table) = elf.symbol_table(&section) {
                for symbol in table.iter().take(4096).flatten() {
                    let _ = (symbol.st_type(), symbol.bind(), symbol.section_index());
                }
                let _ = table.by_name("k.kd");
            }
        }
    }
    for segment in elf.segments().take(256) {
        let _ = segment.data();
        let _ = segment.notes().map(|n| n.count());
    }
    for table in elf.relocation_tables().take(256).flatten() {
        for r in table.iter().take(4096) {
            let _ = r.r_type.to_string();
        }
    }
    for note in elf.notes().take(256).flatten() {
        let _ = note.decode();
        let _ = note.kind().to_string();
    }
    let _ = elf.symtab();
    let _ = elf.dynsym();
    let _ = elf.section_by_name(".text");
    // .AMDGPU.config of an r600 and an amdgcn processor
    let co = crate::CodeObject { elf };
    for cpu in ["cypress", "gfx1100"] {
        if let Some(p) = hsaco_target::Processor::by_name(cpu) {
            let _ = crate::config::read(&co, p);
        }
    }
    if let Ok(entries) = crate::config::parse(&data[..data.len() & !7], 0) {
        if let Some(p) = hsaco_target::Processor::by_name("r600") {
            for e in entries.iter().take(64) {
                let _ = crate::config::register_fields(p, e.register, e.value);
            }
            let _ = crate::config::programs(p, &entries);
        }
    }
    // the writer must take whatever the reader accepts
    if data.len() < 0x4000 {
        if let Ok(builder) = write::Builder::from_elf(&elf) {
            if let Ok(bytes) = builder.write() {
                let _ = Elf::parse(&bytes).map(|e| e.section_count());
            }
        }
    }
}
