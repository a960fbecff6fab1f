//! AMD GPU targets: processors, target features, target IDs and the ELF `e_flags`
//! encoding of each code object version.
//!
//! ```
//! use hsaco_target::Processor;
//! let p = Processor::by_name("gfx906").unwrap();
//! assert_eq!(p.generation, hsaco_target::Generation::Gfx9);
//! ```

mod processor;

pub use processor::{Arch, Generation, Processor};
