//! Schema of code object metadata per version, from AMDGPUUsage ("Code Object V2..V6
//! Metadata"), and a checker that reports every departure from it.
//!
//! Deliberate readings of the specification, chosen so that what LLVM emits passes:
//! * `.workgroup_processor_mode` is described as a boolean but LLVM writes 0 or 1:
//!   both forms are accepted.
//! * `.agpr_count` is marked required, "for GFX90A, GFX908": it is required when
//!   `amdhsa.target` names a processor with accumulation registers (gfx908, gfx90a,
//!   gfx94x, gfx950) and optional otherwise.
//! * Unknown keys are allowed (the specification lets vendors add keys).
//!
//! Every [`Finding`] says what kind of departure it is ([`FindingKind`]): the
//! schema only describes the document; how much a departure matters depends on
//! what loaders do with the key, which `hsaco-check` decides.

use crate::msgpack::Value;

/// One departure from the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Where: `amdhsa.kernels[0].args[2].value_kind` (v3+ keys without their leading
    /// dot), or `Kernels[0].Args[2].ValueKind` for v2.
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// What kind of departure, for tools that weigh findings (a checker decides
    /// from it and the key how much a departure matters to a loader).
    pub kind: FindingKind,
}

/// The kind of a [`Finding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// A key the document's code object version does not define yet: AMDGPUUsage
    /// adds it in version `since`.
    KeyFromLaterVersion {
        /// The key as the schema spells it (`.uses_dynamic_stack`).
        key: &'static str,
        /// The first code object version that has it.
        since: u32,
    },
    /// An argument `.value_kind` that code object v5 added, in v3/v4 metadata.
    ValueKindFromLaterVersion,
    /// A key the schema requires for this version is absent.
    MissingKey {
        /// The key as the schema spells it (`.agpr_count`).
        key: &'static str,
    },
    /// A value of the wrong type or outside the allowed values (`key` names the
    /// key, when the finding is about one key's value).
    BadValue {
        /// The key, or `""` when the finding is about a map as a whole.
        key: &'static str,
    },
    /// A map with a key twice, or a key that is not a string.
    BadMap,
    /// `amdhsa.version` (`Version` for v2) is not the one the code object
    /// version implies.
    MetadataVersion,
    /// A code object version the schema does not describe.
    UnknownVersion,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

#[derive(Clone, Copy)]
enum Ty {
    Int,
    /// An integer that must be a power of two.
    Pow2,
    /// An integer that must be at least 1.
    Positive,
    Str,
    Bool,
    /// An integer 0/1 or a boolean.
    Flag,
    /// An array of exactly n integers.
    Ints(usize),
    Strs,
    /// One of the listed strings.
    OneOf(&'static [&'static str]),
    /// An array of maps checked by the given schema.
    Maps(&'static [Key]),
    /// A map checked by the given schema (v2 `Attrs`, `CodeProps`).
    Map(&'static [Key]),
    /// The kernel argument kind, checked against the version.
    ValueKind,
}

/// One key of a map schema: name, type, required, first and last code object version
/// that has it.
struct Key {
    name: &'static str,
    ty: Ty,
    required: bool,
    since: u32,
}

const fn key(name: &'static str, ty: Ty, required: bool, since: u32) -> Key {
    Key {
        name,
        ty,
        required,
        since,
    }
}

const LANGUAGES: &[&str] = &[
    "OpenCL C",
    "OpenCL C++",
    "HCC",
    "HIP",
    "OpenMP",
    "Assembler",
];
const ADDRESS_SPACES: &[&str] = &[
    "private", "global", "constant", "local", "generic", "region",
];
const ACCESSES: &[&str] = &["read_only", "write_only", "read_write"];
const KINDS: &[&str] = &["normal", "init", "fini"];
const VALUE_TYPES: &[&str] = &[
    "struct", "i8", "u8", "i16", "u16", "f16", "i32", "u32", "f32", "i64", "u64", "f64",
];

/// Every `.value_kind` of code object v3 onwards: the v3/v4 kinds, then the ones
/// code object v5 added (LLVM's verifier accepts all of them whatever the version).
pub const VALUE_KINDS: &[&str] = &[
    "by_value",
    "global_buffer",
    "dynamic_shared_pointer",
    "sampler",
    "image",
    "pipe",
    "queue",
    "hidden_global_offset_x",
    "hidden_global_offset_y",
    "hidden_global_offset_z",
    "hidden_none",
    "hidden_printf_buffer",
    "hidden_hostcall_buffer",
    "hidden_default_queue",
    "hidden_completion_action",
    "hidden_multigrid_sync_arg",
    "hidden_block_count_x",
    "hidden_block_count_y",
    "hidden_block_count_z",
    "hidden_group_size_x",
    "hidden_group_size_y",
    "hidden_group_size_z",
    "hidden_remainder_x",
    "hidden_remainder_y",
    "hidden_remainder_z",
    "hidden_grid_dims",
    "hidden_heap_v1",
    "hidden_dynamic_lds_size",
    "hidden_private_base",
    "hidden_shared_base",
    "hidden_queue_ptr",
];

/// How many of [`VALUE_KINDS`] code object v3 and v4 have.
const VALUE_KINDS_V3_COUNT: usize = 16;

/// `.value_kind` values of code object v3 and v4.
pub const VALUE_KINDS_V3: &[&str] = VALUE_KINDS.split_at(VALUE_KINDS_V3_COUNT).0;

/// `.value_kind` values added by code object v5 (also valid in v6).
pub const VALUE_KINDS_V5: &[&str] = VALUE_KINDS.split_at(VALUE_KINDS_V3_COUNT).1;

const ARG_KEYS: &[Key] = &[
    key(".name", Ty::Str, false, 3),
    key(".type_name", Ty::Str, false, 3),
    key(".size", Ty::Int, true, 3),
    key(".offset", Ty::Int, true, 3),
    key(".value_kind", Ty::ValueKind, true, 3),
    key(".value_type", Ty::OneOf(VALUE_TYPES), false, 3),
    key(".pointee_align", Ty::Pow2, false, 3),
    key(".address_space", Ty::OneOf(ADDRESS_SPACES), false, 3),
    key(".access", Ty::OneOf(ACCESSES), false, 3),
    key(".actual_access", Ty::OneOf(ACCESSES), false, 3),
    key(".is_const", Ty::Bool, false, 3),
    key(".is_restrict", Ty::Bool, false, 3),
    key(".is_volatile", Ty::Bool, false, 3),
    key(".is_pipe", Ty::Bool, false, 3),
];

const KERNEL_KEYS: &[Key] = &[
    key(".name", Ty::Str, true, 3),
    key(".symbol", Ty::Str, true, 3),
    key(".language", Ty::OneOf(LANGUAGES), false, 3),
    key(".language_version", Ty::Ints(2), false, 3),
    key(".args", Ty::Maps(ARG_KEYS), false, 3),
    key(".reqd_workgroup_size", Ty::Ints(3), false, 3),
    key(".workgroup_size_hint", Ty::Ints(3), false, 3),
    key(".vec_type_hint", Ty::Str, false, 3),
    key(".device_enqueue_symbol", Ty::Str, false, 3),
    key(".kernarg_segment_size", Ty::Int, true, 3),
    key(".group_segment_fixed_size", Ty::Int, true, 3),
    key(".private_segment_fixed_size", Ty::Int, true, 3),
    key(".kernarg_segment_align", Ty::Pow2, true, 3),
    key(".wavefront_size", Ty::Pow2, true, 3),
    key(".sgpr_count", Ty::Int, true, 3),
    key(".vgpr_count", Ty::Int, true, 3),
    key(".agpr_count", Ty::Int, false, 3),
    key(".max_flat_workgroup_size", Ty::Positive, true, 3),
    key(".sgpr_spill_count", Ty::Int, false, 3),
    key(".vgpr_spill_count", Ty::Int, false, 3),
    key(".kind", Ty::OneOf(KINDS), false, 3),
    key(".max_num_work_groups_x", Ty::Positive, false, 3),
    key(".max_num_work_groups_y", Ty::Positive, false, 3),
    key(".max_num_work_groups_z", Ty::Positive, false, 3),
    key(".uses_dynamic_stack", Ty::Bool, false, 5),
    key(".workgroup_processor_mode", Ty::Flag, false, 5),
    key(".uniform_work_group_size", Ty::Flag, false, 5),
    key(".cluster_dims", Ty::Ints(3), false, 6),
];

const ROOT_KEYS: &[Key] = &[
    key("amdhsa.version", Ty::Ints(2), true, 3),
    key("amdhsa.printf", Ty::Strs, false, 3),
    key("amdhsa.kernels", Ty::Maps(KERNEL_KEYS), true, 3),
    key("amdhsa.target", Ty::Str, true, 4),
];

// ----- v2 -----

const V2_VALUE_KINDS: &[&str] = &[
    "ByValue",
    "GlobalBuffer",
    "DynamicSharedPointer",
    "Sampler",
    "Image",
    "Pipe",
    "Queue",
    "HiddenGlobalOffsetX",
    "HiddenGlobalOffsetY",
    "HiddenGlobalOffsetZ",
    "HiddenNone",
    "HiddenPrintfBuffer",
    "HiddenHostcallBuffer",
    "HiddenDefaultQueue",
    "HiddenCompletionAction",
    "HiddenMultiGridSyncArg",
];
const V2_VALUE_TYPES: &[&str] = &[
    "Struct", "I8", "U8", "I16", "U16", "F16", "I32", "U32", "F32", "I64", "U64", "F64",
];
const V2_ADDRESS_SPACES: &[&str] = &[
    "Private", "Global", "Constant", "Local", "Generic", "Region",
];
const V2_ACCESSES: &[&str] = &["Default", "ReadOnly", "WriteOnly", "ReadWrite"];

const V2_ARG_KEYS: &[Key] = &[
    key("Name", Ty::Str, false, 2),
    key("TypeName", Ty::Str, false, 2),
    key("Size", Ty::Int, true, 2),
    key("Align", Ty::Pow2, true, 2),
    key("ValueKind", Ty::OneOf(V2_VALUE_KINDS), true, 2),
    key("ValueType", Ty::OneOf(V2_VALUE_TYPES), false, 2),
    key("PointeeAlign", Ty::Pow2, false, 2),
    key("AddrSpaceQual", Ty::OneOf(V2_ADDRESS_SPACES), false, 2),
    key("AccQual", Ty::OneOf(V2_ACCESSES), false, 2),
    key("ActualAccQual", Ty::OneOf(V2_ACCESSES), false, 2),
    key("IsConst", Ty::Bool, false, 2),
    key("IsRestrict", Ty::Bool, false, 2),
    key("IsVolatile", Ty::Bool, false, 2),
    key("IsPipe", Ty::Bool, false, 2),
];
const V2_ATTRS_KEYS: &[Key] = &[
    key("ReqdWorkGroupSize", Ty::Ints(3), false, 2),
    key("WorkGroupSizeHint", Ty::Ints(3), false, 2),
    key("VecTypeHint", Ty::Str, false, 2),
    key("RuntimeHandle", Ty::Str, false, 2),
];
const V2_CODE_PROPS_KEYS: &[Key] = &[
    key("KernargSegmentSize", Ty::Int, true, 2),
    key("GroupSegmentFixedSize", Ty::Int, true, 2),
    key("PrivateSegmentFixedSize", Ty::Int, true, 2),
    key("KernargSegmentAlign", Ty::Pow2, true, 2),
    key("WavefrontSize", Ty::Pow2, true, 2),
    key("NumSGPRs", Ty::Int, true, 2),
    key("NumVGPRs", Ty::Int, true, 2),
    key("MaxFlatWorkGroupSize", Ty::Positive, true, 2),
    key("NumSpilledSGPRs", Ty::Int, false, 2),
    key("NumSpilledVGPRs", Ty::Int, false, 2),
];
const V2_KERNEL_KEYS: &[Key] = &[
    key("Name", Ty::Str, true, 2),
    key("SymbolName", Ty::Str, true, 2),
    key("Language", Ty::OneOf(LANGUAGES), false, 2),
    key("LanguageVersion", Ty::Ints(2), false, 2),
    key("Attrs", Ty::Map(V2_ATTRS_KEYS), false, 2),
    key("Args", Ty::Maps(V2_ARG_KEYS), false, 2),
    key("CodeProps", Ty::Map(V2_CODE_PROPS_KEYS), false, 2),
];
const V2_ROOT_KEYS: &[Key] = &[
    key("Version", Ty::Ints(2), true, 2),
    key("Printf", Ty::Strs, false, 2),
    key("Kernels", Ty::Maps(V2_KERNEL_KEYS), true, 2),
];

/// The `amdhsa.version` (v3+) or `Version` (v2) a code object version carries.
pub fn expected_metadata_version(code_object_version: u32) -> Option<[u64; 2]> {
    match code_object_version {
        2 => Some([1, 0]),
        3 => Some([1, 0]),
        4 => Some([1, 1]),
        5 | 6 => Some([1, 2]),
        _ => None,
    }
}

/// Check a metadata document (a MessagePack tree for v3+, a YAML tree for v2) against
/// the schema of `code_object_version` (2 to 6): required keys, value types, allowed
/// values, keys and argument kinds that the version does not have yet, and the
/// `amdhsa.version` the version implies. No findings means valid.
pub fn validate(root: &Value<'_>, code_object_version: u32) -> Vec<Finding> {
    let mut cx = Checker {
        version: code_object_version,
        findings: Vec::new(),
        agprs: false,
    };
    if !(2..=6).contains(&code_object_version) {
        cx.add(
            String::new(),
            format!("unknown code object version {code_object_version}"),
            FindingKind::UnknownVersion,
        );
        return cx.findings;
    }
    let (keys, version_key) = if code_object_version == 2 {
        (V2_ROOT_KEYS, "Version")
    } else {
        (ROOT_KEYS, "amdhsa.version")
    };
    if let Some(target) = root.get("amdhsa.target").and_then(Value::as_str) {
        let processor = target.rsplit("--").next().unwrap_or("");
        cx.agprs = ["gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"]
            .iter()
            .any(|p| processor.starts_with(p));
    }
    cx.map(root, keys, "");
    if let (Some(found), Some(expected)) = (
        root.get(version_key).and_then(|v| {
            let a = v.as_array()?;
            Some([a.first()?.as_u64()?, a.get(1)?.as_u64()?])
        }),
        expected_metadata_version(code_object_version),
    ) {
        if found != expected {
            cx.add(
                version_key.to_string(),
                format!(
                    "[{}, {}] is not the metadata version of code object v{code_object_version} ([{}, {}])",
                    found[0], found[1], expected[0], expected[1]
                ),
                FindingKind::MetadataVersion,
            );
        }
    }
    cx.findings
}

struct Checker {
    version: u32,
    findings: Vec<Finding>,
    agprs: bool,
}

fn join(path: &str, key: &str) -> String {
    let key = key.strip_prefix('.').unwrap_or(key);
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl Checker {
    fn add(&mut self, path: String, message: String, kind: FindingKind) {
        self.findings.push(Finding {
            path,
            message,
            kind,
        });
    }

    fn map(&mut self, v: &Value<'_>, keys: &[Key], path: &str) {
        let Some(pairs) = v.as_map() else {
            let at = if path.is_empty() { "<root>" } else { path };
            self.add(
                at.to_string(),
                format!("expected a map, found {}", v.kind_name()),
                FindingKind::BadMap,
            );
            return;
        };
        for (i, (k, _)) in pairs.iter().enumerate() {
            if pairs[..i].iter().any(|(prev, _)| prev == k) {
                let name = k.as_str().unwrap_or("?");
                self.add(
                    join(path, name),
                    "duplicate key".to_string(),
                    FindingKind::BadMap,
                );
            }
            if !matches!(k, Value::Str(_)) {
                let at = if path.is_empty() { "<root>" } else { path };
                self.add(
                    at.to_string(),
                    format!("map key is a {}, not a string", k.kind_name()),
                    FindingKind::BadMap,
                );
            }
        }
        for spec in keys {
            let value = v.get(spec.name);
            let p = join(path, spec.name);
            match value {
                None => {
                    let required = spec.required && self.version >= spec.since
                        || (spec.name == ".agpr_count" && self.agprs);
                    if required {
                        self.add(
                            p,
                            "required key is missing".to_string(),
                            FindingKind::MissingKey { key: spec.name },
                        );
                    }
                }
                Some(value) => {
                    if self.version < spec.since {
                        self.add(
                            p.clone(),
                            format!(
                                "key is not part of code object v{} metadata (since v{})",
                                self.version, spec.since
                            ),
                            FindingKind::KeyFromLaterVersion {
                                key: spec.name,
                                since: spec.since,
                            },
                        );
                    }
                    self.value(value, spec.ty, &p, spec.name);
                }
            }
        }
    }

    fn value(&mut self, v: &Value<'_>, ty: Ty, path: &str, key: &'static str) {
        let bad = FindingKind::BadValue { key };
        let expected = |what: &str| format!("expected {what}, found {}", v.kind_name());
        match ty {
            Ty::Int | Ty::Pow2 | Ty::Positive => match v.as_u64() {
                None => self.add(path.to_string(), expected("a non-negative integer"), bad),
                Some(n) if matches!(ty, Ty::Pow2) && !n.is_power_of_two() => {
                    self.add(path.to_string(), format!("{n} is not a power of two"), bad)
                }
                Some(0) if matches!(ty, Ty::Positive) => {
                    self.add(path.to_string(), "must be at least 1".to_string(), bad)
                }
                Some(_) => {}
            },
            Ty::Str => {
                if !matches!(v, Value::Str(_)) {
                    self.add(path.to_string(), expected("a string"), bad);
                }
            }
            Ty::Bool => {
                if v.as_bool().is_none() {
                    self.add(path.to_string(), expected("a boolean"), bad);
                }
            }
            Ty::Flag => {
                if v.as_bool().is_none() && !matches!(v.as_u64(), Some(0 | 1)) {
                    self.add(
                        path.to_string(),
                        "expected a boolean or 0/1".to_string(),
                        bad,
                    );
                }
            }
            Ty::Ints(n) => match v.as_array() {
                Some(a) if a.len() == n && a.iter().all(|x| x.as_u64().is_some()) => {}
                _ => self.add(
                    path.to_string(),
                    format!("expected a sequence of {n} non-negative integers"),
                    bad,
                ),
            },
            Ty::Strs => match v.as_array() {
                Some(a) => {
                    for (i, s) in a.iter().enumerate() {
                        if !matches!(s, Value::Str(_)) {
                            self.add(
                                format!("{path}[{i}]"),
                                format!("expected a string, found {}", s.kind_name()),
                                bad,
                            );
                        }
                    }
                }
                None => self.add(path.to_string(), expected("a sequence of strings"), bad),
            },
            Ty::OneOf(allowed) => match v.as_str() {
                Some(s) if allowed.contains(&s) => {}
                Some(s) => self.add(
                    path.to_string(),
                    format!("{s:?} is not one of: {}", allowed.join(", ")),
                    bad,
                ),
                None => self.add(path.to_string(), expected("a string"), bad),
            },
            Ty::ValueKind => match v.as_str() {
                Some(s) if VALUE_KINDS_V3.contains(&s) => {}
                Some(s) if VALUE_KINDS_V5.contains(&s) => {
                    if self.version < 5 {
                        self.add(
                            path.to_string(),
                            format!(
                                "{s:?} is a code object v5 argument kind (this is v{})",
                                self.version
                            ),
                            FindingKind::ValueKindFromLaterVersion,
                        );
                    }
                }
                Some(s) => self.add(
                    path.to_string(),
                    format!("unknown argument kind {s:?}"),
                    bad,
                ),
                None => self.add(path.to_string(), expected("a string"), bad),
            },
            Ty::Map(keys) => self.map(v, keys, path),
            Ty::Maps(keys) => match v.as_array() {
                Some(items) => {
                    for (i, item) in items.iter().enumerate() {
                        self.map(item, keys, &format!("{path}[{i}]"));
                    }
                }
                None => self.add(path.to_string(), expected("a sequence of maps"), bad),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The split of [`VALUE_KINDS`]: AMDGPUUsage's v3 table ends with
    /// `hidden_multigrid_sync_arg`; the v5 additions start with `hidden_block_count_x`.
    #[test]
    fn value_kinds_split_at_the_v5_additions() {
        assert_eq!(VALUE_KINDS_V3.first(), Some(&"by_value"));
        assert_eq!(VALUE_KINDS_V3.last(), Some(&"hidden_multigrid_sync_arg"));
        assert_eq!(VALUE_KINDS_V5.first(), Some(&"hidden_block_count_x"));
        assert!(VALUE_KINDS_V5.iter().all(|k| k.starts_with("hidden_")));
        assert_eq!(
            VALUE_KINDS_V3.len() + VALUE_KINDS_V5.len(),
            VALUE_KINDS.len()
        );
    }
}
