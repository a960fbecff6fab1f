//! Links relocatable AMDGPU objects into a loadable code object, as `ld.lld -shared`
//! does: the same program headers, sections, dynamic tables, symbol tables and
//! layout, byte for byte where the inputs are what clang and llvm-mc write.
//!
//! ```no_run
//! let a = std::fs::read("kernel.o").unwrap();
//! let options = hsaco_link::Options::default();
//! let code_object = hsaco_link::link(&[hsaco_link::Input::new("kernel.o", &a)], &options).unwrap();
//! std::fs::write("kernel.co", code_object).unwrap();
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
