//! Links relocatable AMDGPU objects into a loadable code object, as `ld.lld -shared`
//! does: the same program headers, sections, dynamic tables, symbol tables and
//! layout, byte for byte where the inputs are what clang and llvm-mc write.
//!
//! ```
//! use hsaco_elf::elf::{consts::*, write::*, Elf};
//! // a relocatable object with one kernel (what an assembler writes)
//! let mut b = Builder::new(ET_REL, ELFOSABI_AMDGPU_HSA, ELFABIVERSION_AMDGPU_HSA_V5, 0x53f);
//! let text = b.add_section(SectionSpec::progbits(
//!     ".text", SHF_ALLOC | SHF_EXECINSTR, 256, 0xbf81_0000u32.to_le_bytes().to_vec()));
//! b.add_symbol(SymbolSpec { name: "k".into(), value: 0, size: 4, st_type: STT_FUNC,
//!     bind: STB_GLOBAL, other: STV_PROTECTED, section: SymbolSection::Section(text) });
//! let object = b.write().unwrap();
//!
//! let inputs = [hsaco_link::Input::new("k.o", &object)];
//! let code_object = hsaco_link::link(&inputs, &hsaco_link::Options::default()).unwrap();
//!
//! let elf = Elf::parse(&code_object).unwrap();
//! assert_eq!(elf.header().e_type.0, ET_DYN);
//! let k = elf.dynsym().unwrap().unwrap().by_name("k").unwrap();
//! // .text one page above the read-only part, at the same page offset, as ld.lld-22
//! // puts it for this kernel
//! assert_eq!(k.value, 0x1300);
//! ```
//!
//! What is done, in order: the inputs are read and checked (ELF64 `ET_REL`,
//! `EM_AMDGPU`, one target for all); their sections are gathered into output
//! sections by name (`.text.*` into `.text`, `.rodata.*` into `.rodata`, ...; mergeable
//! strings deduplicated); global symbols are resolved (duplicates and undefined
//! symbols are errors naming file, section and offset); hidden symbols become local,
//! the others are exported in `.dynsym`; the sections are laid out as ld.lld lays them
//! out (read-only, executable and RELRO segments on their own pages, the file offset
//! congruent to the address); relocations are applied, and those the loader must
//! finish go to `.rela.dyn`.

mod error;
pub mod fuzzing;
mod hash;
mod input;
mod link;

pub use error::{LinkError, Place, UndefinedSymbol};

/// One input: a name for messages and the bytes of a relocatable object.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// Shown in messages (usually the path).
    pub name: &'a str,
    /// The file's bytes.
    pub data: &'a [u8],
}

impl<'a> Input<'a> {
    /// An input named `name` holding `data`.
    pub fn new(name: &'a str, data: &'a [u8]) -> Self {
        Input { name, data }
    }
}

/// Link options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The string the linker adds to `.comment` (ld.lld adds `Linker: LLD <version>`),
    /// or `None` for none.
    pub comment: Option<String>,
}

/// Links `inputs` into a code object (`ET_DYN`), returned as bytes.
pub fn link(inputs: &[Input<'_>], options: &Options) -> Result<Vec<u8>, LinkError> {
    let mut files = inputs
        .iter()
        .map(|i| input::read(i.name, i.data))
        .collect::<Result<Vec<_>, _>>()?;
    input::drop_duplicate_comdats(&mut files);
    link::link(&files, options)
}
