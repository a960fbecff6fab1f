//! ELF constants in the spelling of the ELF gABI and of AMDGPUUsage, and newtypes
//! around the raw numbers that print their names.
//!
//! Processor (`EF_AMDGPU_MACH_*`) and feature bits of `e_flags` belong to
//! `hsaco-target`; this module only exposes `e_flags` raw.

use std::fmt;

// ---- e_ident -------------------------------------------------------------------

/// The four magic bytes at the start of every ELF file.
pub const ELFMAG: [u8; 4] = *b"\x7fELF";
/// Index of the file class byte in `e_ident`.
pub const EI_CLASS: usize = 4;
/// Index of the data encoding byte in `e_ident`.
pub const EI_DATA: usize = 5;
/// Index of the ELF version byte in `e_ident`.
pub const EI_VERSION: usize = 6;
/// Index of the OS ABI byte in `e_ident`.
pub const EI_OSABI: usize = 7;
/// Index of the ABI version byte in `e_ident`.
pub const EI_ABIVERSION: usize = 8;
/// Size of `e_ident`.
pub const EI_NIDENT: usize = 16;

/// 32-bit objects (r600).
pub const ELFCLASS32: u8 = 1;
/// 64-bit objects (amdgcn).
pub const ELFCLASS64: u8 = 2;
/// Little-endian two's complement (all AMDGPU targets).
pub const ELFDATA2LSB: u8 = 1;
/// Big-endian two's complement (not used by AMDGPU).
pub const ELFDATA2MSB: u8 = 2;
/// The current ELF version.
pub const EV_CURRENT: u8 = 1;

// The OS ABI and ABI version values select the code object version, which
// hsaco-target models; they are defined there once.
pub use hsaco_target::{
    ELFABIVERSION_AMDGPU_HSA_V2, ELFABIVERSION_AMDGPU_HSA_V3, ELFABIVERSION_AMDGPU_HSA_V4,
    ELFABIVERSION_AMDGPU_HSA_V5, ELFABIVERSION_AMDGPU_HSA_V6, ELFABIVERSION_AMDGPU_MESA3D,
    ELFABIVERSION_AMDGPU_PAL, ELFOSABI_AMDGPU_HSA, ELFOSABI_AMDGPU_MESA3D, ELFOSABI_AMDGPU_PAL,
    ELFOSABI_NONE,
};

// ---- header --------------------------------------------------------------------

/// No file type.
pub const ET_NONE: u16 = 0;
/// Relocatable file (what the compiler and assembler produce).
pub const ET_REL: u16 = 1;
/// Executable file.
pub const ET_EXEC: u16 = 2;
/// Shared object (what the linker produces and the loader loads).
pub const ET_DYN: u16 = 3;
/// Core file.
pub const ET_CORE: u16 = 4;

pub use hsaco_target::EM_AMDGPU;

/// Size of the ELF64 file header.
pub const ELF64_EHDR_SIZE: usize = 64;
/// Size of the ELF32 file header.
pub const ELF32_EHDR_SIZE: usize = 52;
/// Size of an ELF64 section header.
pub const ELF64_SHDR_SIZE: usize = 64;
/// Size of an ELF32 section header.
pub const ELF32_SHDR_SIZE: usize = 40;
/// Size of an ELF64 program header.
pub const ELF64_PHDR_SIZE: usize = 56;
/// Size of an ELF32 program header.
pub const ELF32_PHDR_SIZE: usize = 32;
/// Size of an ELF64 symbol.
pub const ELF64_SYM_SIZE: usize = 24;
/// Size of an ELF32 symbol.
pub const ELF32_SYM_SIZE: usize = 16;
/// Size of an ELF64 `Rel` record.
pub const ELF64_REL_SIZE: usize = 16;
/// Size of an ELF64 `Rela` record.
pub const ELF64_RELA_SIZE: usize = 24;
/// Size of an ELF32 `Rel` record.
pub const ELF32_REL_SIZE: usize = 8;
/// Size of an ELF32 `Rela` record.
pub const ELF32_RELA_SIZE: usize = 12;

// ---- sections ------------------------------------------------------------------

/// Undefined section index.
pub const SHN_UNDEF: u16 = 0;
/// Start of the reserved section indices.
pub const SHN_LORESERVE: u16 = 0xff00;
/// Start of processor-specific section indices.
pub const SHN_LOPROC: u16 = 0xff00;
/// Symbols in LDS (local/group memory); `st_value` holds the alignment.
pub const SHN_AMDGPU_LDS: u16 = 0xff00;
/// End of processor-specific section indices.
pub const SHN_HIPROC: u16 = 0xff1f;
/// Absolute symbol.
pub const SHN_ABS: u16 = 0xfff1;
/// Common symbol.
pub const SHN_COMMON: u16 = 0xfff2;
/// The real index is elsewhere (section 0 or `SHT_SYMTAB_SHNDX`).
pub const SHN_XINDEX: u16 = 0xffff;

/// Inactive section header.
pub const SHT_NULL: u32 = 0;
/// Program-defined contents.
pub const SHT_PROGBITS: u32 = 1;
/// Symbol table.
pub const SHT_SYMTAB: u32 = 2;
/// String table.
pub const SHT_STRTAB: u32 = 3;
/// Relocations with addends.
pub const SHT_RELA: u32 = 4;
/// Symbol hash table.
pub const SHT_HASH: u32 = 5;
/// Dynamic linking information.
pub const SHT_DYNAMIC: u32 = 6;
/// Notes.
pub const SHT_NOTE: u32 = 7;
/// Occupies no file space (`.bss`).
pub const SHT_NOBITS: u32 = 8;
/// Relocations without addends.
pub const SHT_REL: u32 = 9;
/// Reserved.
pub const SHT_SHLIB: u32 = 10;
/// Dynamic symbol table.
pub const SHT_DYNSYM: u32 = 11;
/// Array of constructors.
pub const SHT_INIT_ARRAY: u32 = 14;
/// Array of destructors.
pub const SHT_FINI_ARRAY: u32 = 15;
/// Array of pre-constructors.
pub const SHT_PREINIT_ARRAY: u32 = 16;
/// Section group.
pub const SHT_GROUP: u32 = 17;
/// Extended section indices of a symbol table.
pub const SHT_SYMTAB_SHNDX: u32 = 18;
/// LLVM address-significance table.
pub const SHT_LLVM_ADDRSIG: u32 = 0x6fff_4c03;
/// GNU-style hash table.
pub const SHT_GNU_HASH: u32 = 0x6fff_fff6;

/// Writable.
pub const SHF_WRITE: u64 = 0x1;
/// Occupies memory at run time.
pub const SHF_ALLOC: u64 = 0x2;
/// Executable machine code.
pub const SHF_EXECINSTR: u64 = 0x4;
/// May be merged.
pub const SHF_MERGE: u64 = 0x10;
/// Null-terminated strings.
pub const SHF_STRINGS: u64 = 0x20;
/// `sh_info` holds a section index.
pub const SHF_INFO_LINK: u64 = 0x40;
/// Preserve order after combining.
pub const SHF_LINK_ORDER: u64 = 0x80;
/// OS-specific processing required.
pub const SHF_OS_NONCONFORMING: u64 = 0x100;
/// Member of a section group.
pub const SHF_GROUP: u64 = 0x200;
/// Thread-local storage.
pub const SHF_TLS: u64 = 0x400;
/// Compressed contents.
pub const SHF_COMPRESSED: u64 = 0x800;
/// Excluded from linking (GNU).
pub const SHF_EXCLUDE: u64 = 0x8000_0000;
/// Code object v1 (HSA runtime finalizer): the section holds program-global data.
pub const SHF_AMDGPU_HSA_GLOBAL: u64 = 0x0010_0000;
/// Code object v1: the section is read-only for the agent.
pub const SHF_AMDGPU_HSA_READONLY: u64 = 0x0020_0000;
/// Code object v1: the section holds code (`.hsatext`).
pub const SHF_AMDGPU_HSA_CODE: u64 = 0x0040_0000;
/// Code object v1: the section is allocated per agent.
pub const SHF_AMDGPU_HSA_AGENT: u64 = 0x0080_0000;

// ---- segments ------------------------------------------------------------------

/// Unused entry.
pub const PT_NULL: u32 = 0;
/// Loadable segment.
pub const PT_LOAD: u32 = 1;
/// Dynamic linking information.
pub const PT_DYNAMIC: u32 = 2;
/// Interpreter path.
pub const PT_INTERP: u32 = 3;
/// Notes.
pub const PT_NOTE: u32 = 4;
/// Reserved.
pub const PT_SHLIB: u32 = 5;
/// The program header table itself.
pub const PT_PHDR: u32 = 6;
/// Thread-local storage template.
pub const PT_TLS: u32 = 7;
/// GNU exception handling frame.
pub const PT_GNU_EH_FRAME: u32 = 0x6474_e550;
/// GNU stack flags.
pub const PT_GNU_STACK: u32 = 0x6474_e551;
/// GNU read-only after relocation.
pub const PT_GNU_RELRO: u32 = 0x6474_e552;
/// Code object v1: program-global data (`PT_LOOS + 0`).
pub const PT_AMDGPU_HSA_LOAD_GLOBAL_PROGRAM: u32 = 0x6000_0000;
/// Code object v1: agent-global data (`PT_LOOS + 1`).
pub const PT_AMDGPU_HSA_LOAD_GLOBAL_AGENT: u32 = 0x6000_0001;
/// Code object v1: agent read-only data, `.hsadata_readonly_agent` (`PT_LOOS + 2`).
pub const PT_AMDGPU_HSA_LOAD_READONLY_AGENT: u32 = 0x6000_0002;
/// Code object v1: agent code, `.hsatext` (`PT_LOOS + 3`).
pub const PT_AMDGPU_HSA_LOAD_CODE_AGENT: u32 = 0x6000_0003;

/// Executable segment.
pub const PF_X: u32 = 0x1;
/// Writable segment.
pub const PF_W: u32 = 0x2;
/// Readable segment.
pub const PF_R: u32 = 0x4;

// ---- symbols -------------------------------------------------------------------

// Dynamic section tags (`d_tag`).
/// End of the dynamic array.
pub const DT_NULL: u64 = 0;
/// Address of the SysV symbol hash table.
pub const DT_HASH: u64 = 4;
/// Address of the dynamic string table.
pub const DT_STRTAB: u64 = 5;
/// Address of the dynamic symbol table.
pub const DT_SYMTAB: u64 = 6;
/// Address of the `Elf64_Rela` relocations.
pub const DT_RELA: u64 = 7;
/// Total size of the `DT_RELA` relocations.
pub const DT_RELASZ: u64 = 8;
/// Size of one `Elf64_Rela`.
pub const DT_RELAENT: u64 = 9;
/// Size of the dynamic string table.
pub const DT_STRSZ: u64 = 10;
/// Size of one symbol table entry.
pub const DT_SYMENT: u64 = 11;
/// Number of relative relocations at the start of `DT_RELA`.
pub const DT_RELACOUNT: u64 = 0x6fff_fff9;
/// Address of the GNU symbol hash table.
pub const DT_GNU_HASH: u64 = 0x6fff_fef5;
/// Local symbol.
pub const STB_LOCAL: u8 = 0;
/// Global symbol.
pub const STB_GLOBAL: u8 = 1;
/// Weak symbol.
pub const STB_WEAK: u8 = 2;
/// GNU unique symbol.
pub const STB_GNU_UNIQUE: u8 = 10;

/// No type.
pub const STT_NOTYPE: u8 = 0;
/// Data object (global variable, kernel descriptor).
pub const STT_OBJECT: u8 = 1;
/// Function (kernel entry point).
pub const STT_FUNC: u8 = 2;
/// Section.
pub const STT_SECTION: u8 = 3;
/// Source file.
pub const STT_FILE: u8 = 4;
/// Uninitialised common block.
pub const STT_COMMON: u8 = 5;
/// Thread-local storage.
pub const STT_TLS: u8 = 6;
/// Code object V2 kernel entry point (`STT_LOOS + 0`).
pub const STT_AMDGPU_HSA_KERNEL: u8 = 10;
/// Code object V1 indirect function (`STT_LOOS + 1`).
pub const STT_AMDGPU_HSA_INDIRECT_FUNCTION: u8 = 11;
/// Code object V1 metadata (`STT_LOOS + 2`).
pub const STT_AMDGPU_HSA_METADATA: u8 = 12;

/// Default visibility.
pub const STV_DEFAULT: u8 = 0;
/// Internal visibility.
pub const STV_INTERNAL: u8 = 1;
/// Hidden visibility.
pub const STV_HIDDEN: u8 = 2;
/// Protected visibility.
pub const STV_PROTECTED: u8 = 3;

// ---- relocations ---------------------------------------------------------------

/// No relocation.
pub const R_AMDGPU_NONE: u32 = 0;
/// `(S + A) & 0xFFFFFFFF`, word32.
pub const R_AMDGPU_ABS32_LO: u32 = 1;
/// `(S + A) >> 32`, word32.
pub const R_AMDGPU_ABS32_HI: u32 = 2;
/// `S + A`, word64.
pub const R_AMDGPU_ABS64: u32 = 3;
/// `S + A - P`, word32.
pub const R_AMDGPU_REL32: u32 = 4;
/// `S + A - P`, word64.
pub const R_AMDGPU_REL64: u32 = 5;
/// `S + A`, word32.
pub const R_AMDGPU_ABS32: u32 = 6;
/// `G + GOT + A - P`, word32.
pub const R_AMDGPU_GOTPCREL: u32 = 7;
/// `(G + GOT + A - P) & 0xFFFFFFFF`, word32.
pub const R_AMDGPU_GOTPCREL32_LO: u32 = 8;
/// `(G + GOT + A - P) >> 32`, word32.
pub const R_AMDGPU_GOTPCREL32_HI: u32 = 9;
/// `(S + A - P) & 0xFFFFFFFF`, word32.
pub const R_AMDGPU_REL32_LO: u32 = 10;
/// `(S + A - P) >> 32`, word32.
pub const R_AMDGPU_REL32_HI: u32 = 11;
/// `B + A`, word64 (dynamic).
pub const R_AMDGPU_RELATIVE64: u32 = 13;
/// `((S + A - P) - 4) / 4`, word16.
pub const R_AMDGPU_REL16: u32 = 14;

// ---- notes ---------------------------------------------------------------------

/// Owner of code object V2 notes (and of the PAL metadata note).
pub const NOTE_OWNER_AMD: &[u8] = b"AMD";
/// Owner of code object V3 and later notes.
pub const NOTE_OWNER_AMDGPU: &[u8] = b"AMDGPU";

/// "AMD": code object version (`major`, `minor` as u32).
pub const NT_AMD_HSA_CODE_OBJECT_VERSION: u32 = 1;
/// "AMD": HSAIL properties written by the HSAIL finalizer.
pub const NT_AMD_HSA_HSAIL: u32 = 2;
/// "AMD": target ISA version and vendor/architecture names.
pub const NT_AMD_HSA_ISA_VERSION: u32 = 3;
/// "AMD": producer name and version (finalizer-era, not in current AMDGPUUsage).
pub const NT_AMD_HSA_PRODUCER: u32 = 4;
/// "AMD": producer options string (finalizer-era, not in current AMDGPUUsage).
pub const NT_AMD_HSA_PRODUCER_OPTIONS: u32 = 5;
/// "AMD": extension (finalizer-era, not in current AMDGPUUsage).
pub const NT_AMD_HSA_EXTENSION: u32 = 6;
/// "AMD": code object V2 metadata, YAML text.
pub const NT_AMD_HSA_METADATA: u32 = 10;
/// "AMD": target ISA name (not NUL terminated).
pub const NT_AMD_HSA_ISA_NAME: u32 = 11;
/// "AMD": PAL metadata (register/value pairs).
pub const NT_AMD_PAL_METADATA: u32 = 12;
/// "AMDGPU": code object V3+ metadata, MessagePack.
pub const NT_AMDGPU_METADATA: u32 = 32;

// ---- newtypes ------------------------------------------------------------------

macro_rules! named_newtype {
    (
        $(#[$meta:meta])*
        $name:ident($repr:ty), unknown = $unknown:literal, { $($value:ident => $text:literal,)* }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub $repr);

        impl $name {
            /// The name of this value in the spec's spelling, if it has one.
            pub fn name(self) -> Option<&'static str> {
                match self.0 {
                    $($value => Some($text),)*
                    _ => None,
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.name() {
                    Some(name) => f.write_str(name),
                    None => write!(f, $unknown, self.0),
                }
            }
        }

        impl From<$repr> for $name {
            fn from(value: $repr) -> Self {
                $name(value)
            }
        }
    };
}

named_newtype! {
    /// An ELF file class (`e_ident[EI_CLASS]`).
    Class(u8), unknown = "ELFCLASS({})", {
        ELFCLASS32 => "ELFCLASS32",
        ELFCLASS64 => "ELFCLASS64",
    }
}

named_newtype! {
    /// An OS ABI (`e_ident[EI_OSABI]`).
    OsAbi(u8), unknown = "ELFOSABI({})", {
        ELFOSABI_NONE => "ELFOSABI_NONE",
        ELFOSABI_AMDGPU_HSA => "ELFOSABI_AMDGPU_HSA",
        ELFOSABI_AMDGPU_PAL => "ELFOSABI_AMDGPU_PAL",
        ELFOSABI_AMDGPU_MESA3D => "ELFOSABI_AMDGPU_MESA3D",
    }
}

named_newtype! {
    /// An ELF file type (`e_type`).
    ElfType(u16), unknown = "ET({:#x})", {
        ET_NONE => "ET_NONE",
        ET_REL => "ET_REL",
        ET_EXEC => "ET_EXEC",
        ET_DYN => "ET_DYN",
        ET_CORE => "ET_CORE",
    }
}

named_newtype! {
    /// A machine (`e_machine`).
    Machine(u16), unknown = "EM({})", {
        EM_AMDGPU => "EM_AMDGPU",
    }
}

named_newtype! {
    /// A section type (`sh_type`).
    SectionType(u32), unknown = "SHT({:#x})", {
        SHT_NULL => "SHT_NULL",
        SHT_PROGBITS => "SHT_PROGBITS",
        SHT_SYMTAB => "SHT_SYMTAB",
        SHT_STRTAB => "SHT_STRTAB",
        SHT_RELA => "SHT_RELA",
        SHT_HASH => "SHT_HASH",
        SHT_DYNAMIC => "SHT_DYNAMIC",
        SHT_NOTE => "SHT_NOTE",
        SHT_NOBITS => "SHT_NOBITS",
        SHT_REL => "SHT_REL",
        SHT_SHLIB => "SHT_SHLIB",
        SHT_DYNSYM => "SHT_DYNSYM",
        SHT_INIT_ARRAY => "SHT_INIT_ARRAY",
        SHT_FINI_ARRAY => "SHT_FINI_ARRAY",
        SHT_PREINIT_ARRAY => "SHT_PREINIT_ARRAY",
        SHT_GROUP => "SHT_GROUP",
        SHT_SYMTAB_SHNDX => "SHT_SYMTAB_SHNDX",
        SHT_LLVM_ADDRSIG => "SHT_LLVM_ADDRSIG",
        SHT_GNU_HASH => "SHT_GNU_HASH",
    }
}

named_newtype! {
    /// A segment type (`p_type`).
    SegmentType(u32), unknown = "PT({:#x})", {
        PT_NULL => "PT_NULL",
        PT_LOAD => "PT_LOAD",
        PT_DYNAMIC => "PT_DYNAMIC",
        PT_INTERP => "PT_INTERP",
        PT_NOTE => "PT_NOTE",
        PT_SHLIB => "PT_SHLIB",
        PT_PHDR => "PT_PHDR",
        PT_TLS => "PT_TLS",
        PT_GNU_EH_FRAME => "PT_GNU_EH_FRAME",
        PT_GNU_STACK => "PT_GNU_STACK",
        PT_AMDGPU_HSA_LOAD_GLOBAL_PROGRAM => "PT_AMDGPU_HSA_LOAD_GLOBAL_PROGRAM",
        PT_AMDGPU_HSA_LOAD_GLOBAL_AGENT => "PT_AMDGPU_HSA_LOAD_GLOBAL_AGENT",
        PT_AMDGPU_HSA_LOAD_READONLY_AGENT => "PT_AMDGPU_HSA_LOAD_READONLY_AGENT",
        PT_AMDGPU_HSA_LOAD_CODE_AGENT => "PT_AMDGPU_HSA_LOAD_CODE_AGENT",
        PT_GNU_RELRO => "PT_GNU_RELRO",
    }
}

named_newtype! {
    /// A symbol type (low four bits of `st_info`), with the AMDGPU OS-specific types.
    SymbolType(u8), unknown = "STT({})", {
        STT_NOTYPE => "STT_NOTYPE",
        STT_OBJECT => "STT_OBJECT",
        STT_FUNC => "STT_FUNC",
        STT_SECTION => "STT_SECTION",
        STT_FILE => "STT_FILE",
        STT_COMMON => "STT_COMMON",
        STT_TLS => "STT_TLS",
        STT_AMDGPU_HSA_KERNEL => "STT_AMDGPU_HSA_KERNEL",
        STT_AMDGPU_HSA_INDIRECT_FUNCTION => "STT_AMDGPU_HSA_INDIRECT_FUNCTION",
        STT_AMDGPU_HSA_METADATA => "STT_AMDGPU_HSA_METADATA",
    }
}

named_newtype! {
    /// A symbol binding (high four bits of `st_info`).
    SymbolBind(u8), unknown = "STB({})", {
        STB_LOCAL => "STB_LOCAL",
        STB_GLOBAL => "STB_GLOBAL",
        STB_WEAK => "STB_WEAK",
        STB_GNU_UNIQUE => "STB_GNU_UNIQUE",
    }
}

named_newtype! {
    /// A symbol visibility (low two bits of `st_other`).
    SymbolVisibility(u8), unknown = "STV({})", {
        STV_DEFAULT => "STV_DEFAULT",
        STV_INTERNAL => "STV_INTERNAL",
        STV_HIDDEN => "STV_HIDDEN",
        STV_PROTECTED => "STV_PROTECTED",
    }
}

named_newtype! {
    /// An AMDGPU relocation type (`ELF64_R_TYPE(r_info)`).
    RelocType(u32), unknown = "R_AMDGPU({})", {
        R_AMDGPU_NONE => "R_AMDGPU_NONE",
        R_AMDGPU_ABS32_LO => "R_AMDGPU_ABS32_LO",
        R_AMDGPU_ABS32_HI => "R_AMDGPU_ABS32_HI",
        R_AMDGPU_ABS64 => "R_AMDGPU_ABS64",
        R_AMDGPU_REL32 => "R_AMDGPU_REL32",
        R_AMDGPU_REL64 => "R_AMDGPU_REL64",
        R_AMDGPU_ABS32 => "R_AMDGPU_ABS32",
        R_AMDGPU_GOTPCREL => "R_AMDGPU_GOTPCREL",
        R_AMDGPU_GOTPCREL32_LO => "R_AMDGPU_GOTPCREL32_LO",
        R_AMDGPU_GOTPCREL32_HI => "R_AMDGPU_GOTPCREL32_HI",
        R_AMDGPU_REL32_LO => "R_AMDGPU_REL32_LO",
        R_AMDGPU_REL32_HI => "R_AMDGPU_REL32_HI",
        R_AMDGPU_RELATIVE64 => "R_AMDGPU_RELATIVE64",
        R_AMDGPU_REL16 => "R_AMDGPU_REL16",
    }
}

impl RelocType {
    /// The width in bytes of the field this relocation writes (0 for `R_AMDGPU_NONE`
    /// and unknown types).
    pub fn field_size(self) -> usize {
        match self.0 {
            R_AMDGPU_ABS64 | R_AMDGPU_REL64 | R_AMDGPU_RELATIVE64 => 8,
            R_AMDGPU_REL16 => 2,
            R_AMDGPU_NONE => 0,
            t if t <= R_AMDGPU_REL32_HI => 4,
            _ => 0,
        }
    }
}

impl SymbolType {
    /// The type field of a raw `st_info`.
    pub fn from_info(st_info: u8) -> Self {
        SymbolType(st_info & 0xf)
    }
}

impl SymbolBind {
    /// The binding field of a raw `st_info`.
    pub fn from_info(st_info: u8) -> Self {
        SymbolBind(st_info >> 4)
    }
}

impl SymbolVisibility {
    /// The visibility field of a raw `st_other`.
    pub fn from_other(st_other: u8) -> Self {
        SymbolVisibility(st_other & 3)
    }
}

/// Builds `st_info` from a binding and a type.
pub fn st_info(bind: u8, st_type: u8) -> u8 {
    (bind << 4) | (st_type & 0xf)
}

/// The names of the `SHF_*` bits set in `flags`, `|`-separated (`SHF_ALLOC|SHF_EXECINSTR`);
/// unknown bits are printed in hex.
pub fn section_flags_names(flags: u64) -> String {
    const NAMES: &[(u64, &str)] = &[
        (SHF_WRITE, "SHF_WRITE"),
        (SHF_ALLOC, "SHF_ALLOC"),
        (SHF_EXECINSTR, "SHF_EXECINSTR"),
        (SHF_MERGE, "SHF_MERGE"),
        (SHF_STRINGS, "SHF_STRINGS"),
        (SHF_INFO_LINK, "SHF_INFO_LINK"),
        (SHF_LINK_ORDER, "SHF_LINK_ORDER"),
        (SHF_OS_NONCONFORMING, "SHF_OS_NONCONFORMING"),
        (SHF_GROUP, "SHF_GROUP"),
        (SHF_TLS, "SHF_TLS"),
        (SHF_COMPRESSED, "SHF_COMPRESSED"),
        (SHF_EXCLUDE, "SHF_EXCLUDE"),
        (SHF_AMDGPU_HSA_GLOBAL, "SHF_AMDGPU_HSA_GLOBAL"),
        (SHF_AMDGPU_HSA_READONLY, "SHF_AMDGPU_HSA_READONLY"),
        (SHF_AMDGPU_HSA_CODE, "SHF_AMDGPU_HSA_CODE"),
        (SHF_AMDGPU_HSA_AGENT, "SHF_AMDGPU_HSA_AGENT"),
    ];
    let mut out = String::new();
    let mut rest = flags;
    for &(bit, name) in NAMES {
        if flags & bit != 0 {
            if !out.is_empty() {
                out.push('|');
            }
            out.push_str(name);
            rest &= !bit;
        }
    }
    if rest != 0 {
        if !out.is_empty() {
            out.push('|');
        }
        out.push_str(&format!("{rest:#x}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_print_in_spec_spelling() {
        assert_eq!(RelocType(10).to_string(), "R_AMDGPU_REL32_LO");
        assert_eq!(RelocType(12).to_string(), "R_AMDGPU(12)");
        assert_eq!(SymbolType(10).to_string(), "STT_AMDGPU_HSA_KERNEL");
        assert_eq!(OsAbi(64).to_string(), "ELFOSABI_AMDGPU_HSA");
        assert_eq!(SectionType(7).to_string(), "SHT_NOTE");
        assert_eq!(
            section_flags_names(SHF_ALLOC | SHF_EXECINSTR | 0x1000_0000),
            "SHF_ALLOC|SHF_EXECINSTR|0x10000000"
        );
    }
}
