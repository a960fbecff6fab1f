//! One module per subcommand: an `Opts` struct (its doc comment is the `--help`) and
//! `run`.

pub mod asm;
pub mod check;
pub mod demo;
pub mod dis;
mod dis_lines;
pub mod extract;
pub mod ld;
pub mod read;
pub mod run;
