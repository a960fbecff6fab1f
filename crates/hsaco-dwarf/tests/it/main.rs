//! hsaco-dwarf against llvm-dwarfdump-22's text (committed goldens, tests/data/gen.sh),
//! fixtures written with gimli::write, and the seeded fuzz smoke run.

mod golden;
mod lines;
mod llvm_ext;
mod llvm_locations;
mod locate;
mod smoke;
mod vars;
