//! `hsaco read --debug-info / --debug-line / --debug`: the DWARF sections of each
//! code object, printed as llvm-dwarfdump-22 prints them (hsaco-dwarf holds the
//! format logic).

use super::{found_in, Opts};
use crate::{input, output};
use anyhow::Result;
use hsaco_dwarf::names::RegisterNames;
use hsaco_dwarf::{DumpOptions, DwarfObject, Section};
use std::fmt::Write as _;
use std::process::ExitCode;

/// The sections the options ask for, in llvm-dwarfdump's order.
fn sections(opts: &Opts) -> Vec<Section> {
    Section::ALL
        .into_iter()
        .filter(|s| {
            opts.debug
                || match s {
                    Section::Info => opts.debug_info,
                    Section::Loclists => opts.debug_loclists,
                    Section::Frame => opts.debug_frame,
                    Section::Aranges => opts.debug_aranges,
                    Section::Line => opts.debug_line,
                }
        })
        .collect()
}

pub fn run(opts: &Opts) -> Result<ExitCode> {
    let dump_opts = DumpOptions {
        regs: if opts.spec_register_names {
            RegisterNames::Spec
        } else {
            RegisterNames::Llvm
        },
    };
    let wanted = sections(opts);
    let mut status = 0u8;
    let mut text = String::new();
    for f in &opts.files {
        let name = f.display().to_string();
        let data = input::read_input(f);
        let found = match found_in(&name, &data) {
            Ok(found) => found,
            Err(e) => {
                eprintln!("error: {e}");
                status = 2;
                continue;
            }
        };
        for obj in found {
            let dwarf = match DwarfObject::from_elf(&obj.embedded.bytes) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("error: {}: {e}", obj.label);
                    status = 2;
                    continue;
                }
            };
            let _ = write!(text, "{}:\tfile format elf64-amdgpu\n\n", obj.label);
            let mut errors = dwarf.errors.clone();
            for (i, s) in wanted.iter().enumerate() {
                if i > 0 {
                    text.push('\n');
                }
                errors.extend(hsaco_dwarf::dump::dump(&dwarf, *s, dump_opts, &mut text));
            }
            for e in &errors {
                eprintln!("error: {}: {e}", obj.label);
                status = status.max(1);
            }
        }
    }
    output::print(&text)?;
    Ok(ExitCode::from(status))
}
