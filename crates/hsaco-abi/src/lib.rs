//! The AMDGPU HSA ABI: explicit and hidden kernel arguments per code object version.
//!
//! A kernel's kernarg segment holds its explicit arguments followed by hidden
//! (implicit) arguments that the runtime fills. Up to code object v4 the hidden
//! arguments are listed one by one in the metadata (`hidden_global_offset_x`, ...,
//! `hidden_none` for unused slots). From v5 on they live in a 256-byte implicit
//! block at fixed offsets, of which the metadata lists only the ones the kernel uses.
//! [`KernargLayout::new`] turns the metadata's argument list into a layout that
//! names every byte range and, for v5+, shows the whole implicit block.
//!
//! ```
//! use hsaco_abi::{ArgDesc, KernargLayout, HiddenArg};
//! let args = [
//!     ArgDesc { name: Some("out"), type_name: Some("float*"), value_kind: "global_buffer", offset: 0, size: 8 },
//!     ArgDesc { name: None, type_name: None, value_kind: "hidden_block_count_x", offset: 8, size: 4 },
//! ];
//! let layout = KernargLayout::new(&args, 5, 264);
//! assert_eq!(layout.implicit_base, Some(8));
//! let slot = layout.slots.iter().find(|s| s.hidden == Some(HiddenArg::BlockCountX)).unwrap();
//! assert_eq!((slot.offset, slot.size), (8, 4));
//! ```

use std::fmt;

/// Size of the code object v5+ implicit argument block.
pub const IMPLICIT_BLOCK_SIZE: u64 = 256;

/// A hidden (implicit) kernel argument, by its metadata `.value_kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HiddenArg {
    BlockCountX,
    BlockCountY,
    BlockCountZ,
    GroupSizeX,
    GroupSizeY,
    GroupSizeZ,
    RemainderX,
    RemainderY,
    RemainderZ,
    GlobalOffsetX,
    GlobalOffsetY,
    GlobalOffsetZ,
    GridDims,
    PrintfBuffer,
    HostcallBuffer,
    MultigridSyncArg,
    HeapV1,
    DefaultQueue,
    CompletionAction,
    DynamicLdsSize,
    PrivateBase,
    SharedBase,
    QueuePtr,
    /// `hidden_none`: space the kernel does not use (code object v4 and older).
    None,
}

/// Every hidden argument kind: `.value_kind` spelling, size in bytes, offset in the
/// v5 implicit block, first code object version that has the kind, meaning. Offsets are those clang-22 emits (checked against the corpus metadata
/// in this crate's tests) and the ones AMDGPUUsage and the gfx803 write-up give for
/// the pre-gfx9 fields.
/// One row of the hidden-argument table.
struct HiddenRow {
    kind: HiddenArg,
    value_kind: &'static str,
    size: u64,
    v5_offset: Option<u64>,
    since: u32,
    meaning: &'static str,
}

const fn row(
    kind: HiddenArg,
    value_kind: &'static str,
    size: u64,
    v5_offset: Option<u64>,
    since: u32,
    meaning: &'static str,
) -> HiddenRow {
    HiddenRow {
        kind,
        value_kind,
        size,
        v5_offset,
        since,
        meaning,
    }
}

const HIDDEN: &[HiddenRow] = {
    use HiddenArg::*;
    &[
        row(
            BlockCountX,
            "hidden_block_count_x",
            4,
            Some(0),
            5,
            "work-groups in X (non-partial)",
        ),
        row(
            BlockCountY,
            "hidden_block_count_y",
            4,
            Some(4),
            5,
            "work-groups in Y (non-partial)",
        ),
        row(
            BlockCountZ,
            "hidden_block_count_z",
            4,
            Some(8),
            5,
            "work-groups in Z (non-partial)",
        ),
        row(
            GroupSizeX,
            "hidden_group_size_x",
            2,
            Some(12),
            5,
            "work-group size in X",
        ),
        row(
            GroupSizeY,
            "hidden_group_size_y",
            2,
            Some(14),
            5,
            "work-group size in Y",
        ),
        row(
            GroupSizeZ,
            "hidden_group_size_z",
            2,
            Some(16),
            5,
            "work-group size in Z",
        ),
        row(
            RemainderX,
            "hidden_remainder_x",
            2,
            Some(18),
            5,
            "partial work-group size in X",
        ),
        row(
            RemainderY,
            "hidden_remainder_y",
            2,
            Some(20),
            5,
            "partial work-group size in Y",
        ),
        row(
            RemainderZ,
            "hidden_remainder_z",
            2,
            Some(22),
            5,
            "partial work-group size in Z",
        ),
        row(
            GlobalOffsetX,
            "hidden_global_offset_x",
            8,
            Some(40),
            2,
            "OpenCL global offset X",
        ),
        row(
            GlobalOffsetY,
            "hidden_global_offset_y",
            8,
            Some(48),
            2,
            "OpenCL global offset Y",
        ),
        row(
            GlobalOffsetZ,
            "hidden_global_offset_z",
            8,
            Some(56),
            2,
            "OpenCL global offset Z",
        ),
        row(
            GridDims,
            "hidden_grid_dims",
            2,
            Some(64),
            5,
            "grid dimensionality (1-3)",
        ),
        row(
            PrintfBuffer,
            "hidden_printf_buffer",
            8,
            Some(72),
            2,
            "printf buffer pointer",
        ),
        row(
            HostcallBuffer,
            "hidden_hostcall_buffer",
            8,
            Some(80),
            3,
            "hostcall buffer pointer",
        ),
        row(
            MultigridSyncArg,
            "hidden_multigrid_sync_arg",
            8,
            Some(88),
            3,
            "multi-grid sync pointer",
        ),
        row(
            HeapV1,
            "hidden_heap_v1",
            8,
            Some(96),
            5,
            "device malloc heap pointer",
        ),
        row(
            DefaultQueue,
            "hidden_default_queue",
            8,
            Some(104),
            2,
            "OpenCL default device queue",
        ),
        row(
            CompletionAction,
            "hidden_completion_action",
            8,
            Some(112),
            2,
            "OpenCL enqueue completion action",
        ),
        row(
            DynamicLdsSize,
            "hidden_dynamic_lds_size",
            4,
            Some(120),
            5,
            "dynamic LDS size in bytes",
        ),
        row(
            PrivateBase,
            "hidden_private_base",
            4,
            Some(192),
            5,
            "private aperture base, high 32 bits (pre-gfx9)",
        ),
        row(
            SharedBase,
            "hidden_shared_base",
            4,
            Some(196),
            5,
            "shared aperture base, high 32 bits (pre-gfx9)",
        ),
        row(
            QueuePtr,
            "hidden_queue_ptr",
            8,
            Some(200),
            5,
            "amd_queue_t pointer (pre-gfx9 trap handler)",
        ),
        row(None, "hidden_none", 8, Option::None, 2, "unused"),
    ]
};

impl HiddenArg {
    fn row(self) -> &'static HiddenRow {
        // every variant has exactly one row; the table test checks it
        HIDDEN
            .iter()
            .find(|r| r.kind == self)
            .unwrap_or(&HIDDEN[HIDDEN.len() - 1])
    }

    /// Every hidden argument kind, in implicit-block order.
    pub fn all() -> impl Iterator<Item = HiddenArg> {
        HIDDEN.iter().map(|r| r.kind)
    }

    /// The kind named by a metadata `.value_kind` (`hidden_queue_ptr`, ...).
    pub fn from_value_kind(kind: &str) -> Option<HiddenArg> {
        HIDDEN.iter().find(|r| r.value_kind == kind).map(|r| r.kind)
    }

    /// The metadata `.value_kind` spelling.
    pub fn value_kind(self) -> &'static str {
        self.row().value_kind
    }

    /// Size in bytes.
    pub fn size(self) -> u64 {
        self.row().size
    }

    /// Offset inside the code object v5+ implicit argument block.
    pub fn v5_offset(self) -> Option<u64> {
        self.row().v5_offset
    }

    /// First code object version whose metadata knows this kind.
    pub fn since_version(self) -> u32 {
        self.row().since
    }

    /// What the runtime puts there.
    pub fn meaning(self) -> &'static str {
        self.row().meaning
    }

    /// Only meaningful on gfx6-gfx8 (aperture bases and the queue pointer that
    /// gfx9+ reads from hardware registers instead).
    pub fn is_pre_gfx9_only(self) -> bool {
        matches!(
            self,
            HiddenArg::PrivateBase | HiddenArg::SharedBase | HiddenArg::QueuePtr
        )
    }
}

impl fmt::Display for HiddenArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.value_kind())
    }
}

/// One kernel argument as the metadata describes it (any code object version).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgDesc<'a> {
    pub name: Option<&'a str>,
    pub type_name: Option<&'a str>,
    /// `.value_kind` (v3+) or `ValueKind` (v2, converted to the v3 spelling by the
    /// caller: `HiddenGlobalOffsetX` -> `hidden_global_offset_x`).
    pub value_kind: &'a str,
    pub offset: u64,
    pub size: u64,
}

/// One byte range of the kernarg segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgSlot {
    pub offset: u64,
    pub size: u64,
    /// Argument name, or for hidden arguments their `.value_kind`.
    pub name: String,
    /// The metadata's `.value_kind`, or `""` for a range the metadata does not list.
    pub value_kind: String,
    pub type_name: Option<String>,
    /// Set for hidden arguments.
    pub hidden: Option<HiddenArg>,
    /// Listed in the metadata (false: an implicit-block field the kernel does not use,
    /// shown for completeness).
    pub in_metadata: bool,
    /// What the slot holds.
    pub meaning: String,
}

/// A problem with the metadata's argument list found while laying it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutProblem {
    pub offset: u64,
    pub message: String,
    /// The problem is only that a hidden argument kind belongs to a later code
    /// object version (runtimes that know the kind fill it whatever the version).
    pub later_version: bool,
}

impl fmt::Display for LayoutProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kernarg offset {}: {}", self.offset, self.message)
    }
}

/// The kernarg segment of one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernargLayout {
    pub code_object_version: u32,
    /// Every slot, sorted by offset: explicit arguments, hidden arguments and (v5+)
    /// the implicit-block fields the metadata does not list.
    pub slots: Vec<ArgSlot>,
    /// Start of the v5+ implicit block, if the kernel has one.
    pub implicit_base: Option<u64>,
    /// `.kernarg_segment_size` from the metadata.
    pub segment_size: u64,
    /// Inconsistencies: overlaps, hidden kinds at the wrong offset for the version,
    /// arguments past the segment size.
    pub problems: Vec<LayoutProblem>,
}

impl KernargLayout {
    /// Lay out the arguments of one kernel of a code object of the given version.
    pub fn new(args: &[ArgDesc<'_>], code_object_version: u32, segment_size: u64) -> Self {
        let mut slots = Vec::with_capacity(args.len());
        let mut problems = Vec::new();
        let mut implicit_base = None;
        for a in args {
            let hidden = HiddenArg::from_value_kind(a.value_kind);
            if code_object_version >= 5 {
                if let Some(h) = hidden {
                    if let Some(rel) = h.v5_offset() {
                        let base = a.offset.checked_sub(rel);
                        match (implicit_base, base) {
                            (None, Some(b)) => implicit_base = Some(b),
                            (Some(b0), Some(b)) if b0 == b => {}
                            _ => problems.push(LayoutProblem {
                                offset: a.offset,
                                message: format!(
                                    "{} is not at implicit-block offset {rel} relative to the other hidden arguments",
                                    h.value_kind()
                                ),
                                later_version: false,
                            }),
                        }
                    }
                }
            }
            if let Some(h) = hidden {
                if h.since_version() > code_object_version.max(2) {
                    problems.push(LayoutProblem {
                        offset: a.offset,
                        message: format!(
                            "{} exists only from code object v{} (this is v{code_object_version})",
                            h.value_kind(),
                            h.since_version()
                        ),
                        later_version: true,
                    });
                }
                if a.size != h.size() && h != HiddenArg::None {
                    problems.push(LayoutProblem {
                        offset: a.offset,
                        message: format!(
                            "{} has size {} (expected {})",
                            h.value_kind(),
                            a.size,
                            h.size()
                        ),
                        later_version: false,
                    });
                }
            } else if a.value_kind.starts_with("hidden_") {
                problems.push(LayoutProblem {
                    offset: a.offset,
                    message: format!("unknown hidden argument kind {}", a.value_kind),
                    later_version: false,
                });
            }
            let meaning = match hidden {
                Some(h) => h.meaning().to_string(),
                None => explicit_meaning(a.value_kind).to_string(),
            };
            slots.push(ArgSlot {
                offset: a.offset,
                size: a.size,
                name: a
                    .name
                    .map(str::to_string)
                    .unwrap_or_else(|| a.value_kind.to_string()),
                value_kind: a.value_kind.to_string(),
                type_name: a.type_name.map(str::to_string),
                hidden,
                in_metadata: true,
                meaning,
            });
        }
        if let Some(base) = implicit_base {
            for h in HiddenArg::all() {
                let Some(rel) = h.v5_offset() else { continue };
                if h.since_version() > code_object_version {
                    continue;
                }
                if slots.iter().any(|s| s.hidden == Some(h)) {
                    continue;
                }
                slots.push(ArgSlot {
                    offset: base + rel,
                    size: h.size(),
                    name: h.value_kind().to_string(),
                    value_kind: h.value_kind().to_string(),
                    type_name: None,
                    hidden: Some(h),
                    in_metadata: false,
                    meaning: h.meaning().to_string(),
                });
            }
        }
        slots.sort_by_key(|s| (s.offset, !s.in_metadata));
        for pair in slots.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a.in_metadata && b.in_metadata && a.offset.saturating_add(a.size) > b.offset {
                problems.push(LayoutProblem {
                    offset: b.offset,
                    message: format!("{} overlaps {}", b.name, a.name),
                    later_version: false,
                });
            }
        }
        for s in slots.iter().filter(|s| s.in_metadata) {
            if s.offset.saturating_add(s.size) > segment_size {
                problems.push(LayoutProblem {
                    offset: s.offset,
                    message: format!(
                        "{} ends at {} past the kernarg segment size {segment_size}",
                        s.name,
                        s.offset.saturating_add(s.size)
                    ),
                    later_version: false,
                });
            }
        }
        KernargLayout {
            code_object_version,
            slots,
            implicit_base,
            segment_size,
            problems,
        }
    }

    /// The slot of a hidden argument, listed in the metadata or not.
    pub fn hidden(&self, h: HiddenArg) -> Option<&ArgSlot> {
        self.slots.iter().find(|s| s.hidden == Some(h))
    }
}

fn explicit_meaning(value_kind: &str) -> &'static str {
    match value_kind {
        "by_value" => "value copied into the kernarg segment",
        "global_buffer" => "global memory pointer",
        "dynamic_shared_pointer" => "LDS pointer to dynamically allocated group memory",
        "sampler" => "pointer to a sampler descriptor (S#)",
        "image" => "pointer to an image descriptor (T#)",
        "pipe" => "pointer to an OpenCL pipe",
        "queue" => "pointer to an OpenCL device queue",
        _ => "",
    }
}

/// Convert a code object v2 `ValueKind` (`HiddenGlobalOffsetX`, `GlobalBuffer`) to
/// the v3+ spelling (`hidden_global_offset_x`, `global_buffer`).
pub fn v2_value_kind_to_v3(kind: &str) -> String {
    let mut out = String::with_capacity(kind.len() + 4);
    for (i, c) in kind.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_row() {
        let kinds = [
            HiddenArg::BlockCountX,
            HiddenArg::GridDims,
            HiddenArg::QueuePtr,
            HiddenArg::None,
        ];
        for k in kinds {
            assert_eq!(HIDDEN.iter().filter(|r| r.kind == k).count(), 1);
            assert_eq!(HiddenArg::from_value_kind(k.value_kind()), Some(k));
        }
        assert_eq!(HiddenArg::all().count(), HIDDEN.len());
    }

    #[test]
    fn implicit_block_fields_do_not_overlap_and_fit() {
        let mut fields: Vec<_> = HiddenArg::all()
            .filter_map(|h| h.v5_offset().map(|o| (o, h.size())))
            .collect();
        fields.sort();
        for w in fields.windows(2) {
            assert!(w[0].0 + w[0].1 <= w[1].0, "{w:?}");
        }
        let last = fields.last().unwrap();
        assert!(last.0 + last.1 <= IMPLICIT_BLOCK_SIZE);
    }

    #[test]
    fn pre_gfx9_fields_at_192_196_200() {
        // AMDGPUUsage / the gfx803 write-up: private base, shared base and queue
        // pointer at 192, 196 and 200 of the implicit block.
        assert_eq!(HiddenArg::PrivateBase.v5_offset(), Some(192));
        assert_eq!(HiddenArg::SharedBase.v5_offset(), Some(196));
        assert_eq!(HiddenArg::QueuePtr.v5_offset(), Some(200));
    }

    #[test]
    fn v2_kinds_convert() {
        assert_eq!(
            v2_value_kind_to_v3("HiddenGlobalOffsetX"),
            "hidden_global_offset_x"
        );
        assert_eq!(v2_value_kind_to_v3("GlobalBuffer"), "global_buffer");
        assert_eq!(v2_value_kind_to_v3("ByValue"), "by_value");
    }

    /// A code object v5 kind in v4 metadata is marked as such (runtimes that know
    /// the kind fill it); a misplaced argument is not.
    #[test]
    fn later_version_kinds_are_marked() {
        let arg = |value_kind, offset, size| ArgDesc {
            name: None,
            type_name: None,
            value_kind,
            offset,
            size,
        };
        let l = KernargLayout::new(&[arg("hidden_block_count_x", 8, 4)], 4, 16);
        assert_eq!(l.problems.len(), 1, "{:?}", l.problems);
        assert!(l.problems[0].later_version);
        let l = KernargLayout::new(&[arg("by_value", 0, 8), arg("by_value", 4, 8)], 4, 16);
        assert_eq!(l.problems.len(), 1, "{:?}", l.problems);
        assert!(!l.problems[0].later_version);
    }

    #[test]
    fn misplaced_hidden_argument_is_a_problem() {
        let args = [
            ArgDesc {
                name: None,
                type_name: None,
                value_kind: "hidden_block_count_x",
                offset: 16,
                size: 4,
            },
            ArgDesc {
                name: None,
                type_name: None,
                value_kind: "hidden_grid_dims",
                offset: 16 + 60,
                size: 2,
            },
        ];
        let l = KernargLayout::new(&args, 5, 272);
        assert_eq!(l.problems.len(), 1, "{:?}", l.problems);
        assert!(l.problems[0].message.contains("hidden_grid_dims"));
    }

    #[test]
    fn v5_kind_in_v4_is_a_problem() {
        let args = [ArgDesc {
            name: None,
            type_name: None,
            value_kind: "hidden_block_count_x",
            offset: 0,
            size: 4,
        }];
        let l = KernargLayout::new(&args, 4, 56);
        assert!(l
            .problems
            .iter()
            .any(|p| p.message.contains("only from code object v5")));
    }

    /// The argument list clang-22 emits for a gfx803 code object v5 printf kernel
    /// (`llvm-readelf-22 --notes` of the corpus' 17_printf.co): every hidden argument
    /// must sit at its implicit-block offset, with no problem reported.
    #[test]
    fn clang22_gfx803_v5_printf_kernel_lays_out_cleanly() {
        let listed: &[(&str, u64, u64)] = &[
            ("global_buffer", 0, 8),
            ("global_buffer", 8, 8),
            ("hidden_block_count_x", 16, 4),
            ("hidden_block_count_y", 20, 4),
            ("hidden_block_count_z", 24, 4),
            ("hidden_group_size_x", 28, 2),
            ("hidden_group_size_y", 30, 2),
            ("hidden_group_size_z", 32, 2),
            ("hidden_remainder_x", 34, 2),
            ("hidden_remainder_y", 36, 2),
            ("hidden_remainder_z", 38, 2),
            ("hidden_global_offset_x", 56, 8),
            ("hidden_global_offset_y", 64, 8),
            ("hidden_global_offset_z", 72, 8),
            ("hidden_grid_dims", 80, 2),
            ("hidden_printf_buffer", 88, 8),
            ("hidden_private_base", 208, 4),
            ("hidden_shared_base", 212, 4),
        ];
        let args: Vec<ArgDesc> = listed
            .iter()
            .map(|&(k, o, s)| ArgDesc {
                name: None,
                type_name: None,
                value_kind: k,
                offset: o,
                size: s,
            })
            .collect();
        let l = KernargLayout::new(&args, 5, 272);
        assert!(l.problems.is_empty(), "{:?}", l.problems);
        assert_eq!(l.implicit_base, Some(16));
        assert_eq!(
            l.hidden(HiddenArg::QueuePtr)
                .map(|s| (s.offset, s.in_metadata)),
            Some((216, false))
        );
        assert_eq!(
            l.hidden(HiddenArg::DynamicLdsSize).map(|s| s.offset),
            Some(136)
        );
    }
}
