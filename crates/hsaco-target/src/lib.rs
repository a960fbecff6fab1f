//! AMD GPU targets: processors, target features, target IDs and the ELF `e_flags`
//! encoding of each code object version.
//!
//! ```
//! use hsaco_target::{can_run, CodeObjectVersion, FeatureSetting, Processor, TargetFeature, TargetId};
//!
//! // Processors by name, alias, EF_AMDGPU_MACH value or product name.
//! let p = Processor::by_name("gfx906").unwrap();
//! assert_eq!(p.generation, hsaco_target::Generation::Gfx9);
//! assert_eq!(Processor::by_name("fiji").unwrap().name, "gfx803");
//! assert_eq!(Processor::by_mach(0x03f).unwrap().name, "gfx90a");
//! assert_eq!(Processor::by_product("mi50").unwrap().name, "gfx906");
//!
//! // Target IDs in every historical spelling; printed canonically.
//! let t: TargetId = "amdgcn-amd-amdhsa--gfx90a:xnack+:sramecc-".parse().unwrap();
//! assert_eq!(t.to_string(), "gfx90a:sramecc-:xnack+");
//! assert_eq!(t.xnack(), Some(FeatureSetting::On));
//! let old = TargetId::parse("gfx902+xnack").unwrap(); // code object V2/V3 style
//! assert_eq!(old.setting(TargetFeature::Xnack), Some(FeatureSetting::On));
//!
//! // e_flags per code object version (values as clang-22 writes them).
//! assert_eq!(t.to_e_flags(CodeObjectVersion::V5).unwrap(), 0xb3f);
//! let g = TargetId::from_e_flags(0x0100_0351, CodeObjectVersion::V6).unwrap();
//! assert_eq!(g.to_string(), "gfx9-generic:xnack+");
//!
//! // May code built for one target run on a device?
//! let device: TargetId = "gfx906:sramecc+:xnack+".parse().unwrap();
//! assert!(can_run(&g, &device).is_compatible());
//! ```
//!
//! Sources: AMDGPUUsage (processor tables, target features, target IDs, ELF
//! header), older AMDGPUUsage versions for retired forms, and LLVM 22 behaviour
//! for what the spec copy predates; the tests check the table and the `e_flags`
//! against golden files generated from LLVM 22 (`tests/data/gen-eflags.sh`).

mod compat;
mod eflags;
mod features;
pub mod fuzzing;
pub mod golden;
mod processor;
mod table;
mod target_id;

pub use compat::{can_run, Compatibility, Rule, Verdict};
pub use eflags::*;
pub use features::{FeatureSetting, FeatureSupport, TargetFeature};
pub use processor::{
    Arch, FlatScratch, Generation, GenericMember, GenericTarget, Processor, ProductMatch, WaveSizes,
};
pub use table::*;
pub use target_id::{FullTargetId, TargetId, TargetIdError, TargetIdForm};
