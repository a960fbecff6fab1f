//! The typed model of code object metadata, shared by v2 (YAML) and v3 onwards
//! (MessagePack). Every key the model does not know, and every known key whose value
//! has an unexpected shape, is kept in an `extra` list, so nothing is lost.
//!
//! Names and spellings follow v3+ (`.value_kind: global_buffer`); v2 documents are
//! mapped onto them (`ValueKind: GlobalBuffer`, `CodeProps`, `Attrs`, see
//! [`CodeObjectMetadata::from_v2_value`]).

use crate::msgpack::Value;

/// Unknown or unexpected map entries, in stored order.
pub type Extra = Vec<(Value<'static>, Value<'static>)>;

/// Which encoding a [`CodeObjectMetadata`] came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MetadataFormat {
    /// Code object v2: YAML text in an `NT_AMD_HSA_METADATA` note.
    V2Yaml,
    /// Code object v3 onwards: MessagePack in an `NT_AMDGPU_METADATA` note.
    #[default]
    MsgPack,
}

/// The whole metadata document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CodeObjectMetadata {
    /// Where it came from (decides the encoding [`Self::to_value`] produces).
    pub format: MetadataFormat,
    /// `amdhsa.version` / `Version`: major, minor.
    pub version: Option<Vec<u64>>,
    /// `amdhsa.target` (v4+).
    pub target: Option<String>,
    /// `amdhsa.printf` / `Printf`.
    pub printf: Option<Vec<String>>,
    /// `amdhsa.kernels` / `Kernels`.
    pub kernels: Option<Vec<KernelMetadata>>,
    /// Everything else at the top level.
    pub extra: Extra,
}

/// One kernel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelMetadata {
    /// `.name` / `Name`.
    pub name: Option<String>,
    /// `.symbol` / `SymbolName`.
    pub symbol: Option<String>,
    /// `.language` / `Language`.
    pub language: Option<String>,
    /// `.language_version` / `LanguageVersion`.
    pub language_version: Option<Vec<u64>>,
    /// `.args` / `Args`.
    pub args: Option<Vec<KernelArg>>,
    /// `.reqd_workgroup_size` / `Attrs.ReqdWorkGroupSize`.
    pub reqd_workgroup_size: Option<Vec<u64>>,
    /// `.workgroup_size_hint` / `Attrs.WorkGroupSizeHint`.
    pub workgroup_size_hint: Option<Vec<u64>>,
    /// `.vec_type_hint` / `Attrs.VecTypeHint`.
    pub vec_type_hint: Option<String>,
    /// `.device_enqueue_symbol` / `Attrs.RuntimeHandle`.
    pub device_enqueue_symbol: Option<String>,
    /// `.kernarg_segment_size` / `CodeProps.KernargSegmentSize`.
    pub kernarg_segment_size: Option<u64>,
    /// `.group_segment_fixed_size` / `CodeProps.GroupSegmentFixedSize`.
    pub group_segment_fixed_size: Option<u64>,
    /// `.private_segment_fixed_size` / `CodeProps.PrivateSegmentFixedSize`.
    pub private_segment_fixed_size: Option<u64>,
    /// `.kernarg_segment_align` / `CodeProps.KernargSegmentAlign`.
    pub kernarg_segment_align: Option<u64>,
    /// `.wavefront_size` / `CodeProps.WavefrontSize`.
    pub wavefront_size: Option<u64>,
    /// `.sgpr_count` / `CodeProps.NumSGPRs`.
    pub sgpr_count: Option<u64>,
    /// `.vgpr_count` / `CodeProps.NumVGPRs`.
    pub vgpr_count: Option<u64>,
    /// `.agpr_count`.
    pub agpr_count: Option<u64>,
    /// `.max_flat_workgroup_size` / `CodeProps.MaxFlatWorkGroupSize`.
    pub max_flat_workgroup_size: Option<u64>,
    /// `.sgpr_spill_count` / `CodeProps.NumSpilledSGPRs`.
    pub sgpr_spill_count: Option<u64>,
    /// `.vgpr_spill_count` / `CodeProps.NumSpilledVGPRs`.
    pub vgpr_spill_count: Option<u64>,
    /// `.kind`: `normal`, `init` or `fini`.
    pub kind: Option<String>,
    /// `.max_num_work_groups_x`.
    pub max_num_work_groups_x: Option<u64>,
    /// `.max_num_work_groups_y`.
    pub max_num_work_groups_y: Option<u64>,
    /// `.max_num_work_groups_z`.
    pub max_num_work_groups_z: Option<u64>,
    /// `.uses_dynamic_stack` (v5+).
    pub uses_dynamic_stack: Option<bool>,
    /// `.workgroup_processor_mode` (v5+; stored as an integer by LLVM).
    pub workgroup_processor_mode: Option<u64>,
    /// `.uniform_work_group_size` (v5+).
    pub uniform_work_group_size: Option<u64>,
    /// `.cluster_dims` (v6).
    pub cluster_dims: Option<Vec<u64>>,
    /// Everything else (for v2: unknown `CodeProps`/`Attrs` entries appear here with
    /// keys `CodeProps.<key>` / `Attrs.<key>`).
    pub extra: Extra,
}

/// One kernel argument.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelArg {
    /// `.name` / `Name`.
    pub name: Option<String>,
    /// `.type_name` / `TypeName`.
    pub type_name: Option<String>,
    /// `.offset` (v3+; v2 has none).
    pub offset: Option<u64>,
    /// `.size` / `Size`.
    pub size: Option<u64>,
    /// `Align` (v2 only).
    pub align: Option<u64>,
    /// `.value_kind` / `ValueKind`, in v3 spelling (`global_buffer`,
    /// `hidden_global_offset_x`, ...).
    pub value_kind: Option<String>,
    /// `.value_type` / `ValueType` (deprecated), in v3 spelling.
    pub value_type: Option<String>,
    /// `.pointee_align` / `PointeeAlign`.
    pub pointee_align: Option<u64>,
    /// `.address_space` / `AddrSpaceQual`, in v3 spelling (`global`, ...).
    pub address_space: Option<String>,
    /// `.access` / `AccQual`, in v3 spelling (`read_only`, ...).
    pub access: Option<String>,
    /// `.actual_access` / `ActualAccQual`.
    pub actual_access: Option<String>,
    /// `.is_const` / `IsConst`.
    pub is_const: Option<bool>,
    /// `.is_restrict` / `IsRestrict`.
    pub is_restrict: Option<bool>,
    /// `.is_volatile` / `IsVolatile`.
    pub is_volatile: Option<bool>,
    /// `.is_pipe` / `IsPipe`.
    pub is_pipe: Option<bool>,
    /// Everything else.
    pub extra: Extra,
}

/// A field type of the model: read from and written to a [`Value`].
trait FieldValue: Sized {
    fn read(v: &Value<'_>) -> Option<Self>;
    fn write(&self) -> Value<'static>;
}

impl FieldValue for u64 {
    fn read(v: &Value<'_>) -> Option<Self> {
        match *v {
            Value::UInt(u) => Some(u),
            _ => None,
        }
    }
    fn write(&self) -> Value<'static> {
        Value::UInt(*self)
    }
}

impl FieldValue for bool {
    fn read(v: &Value<'_>) -> Option<Self> {
        v.as_bool()
    }
    fn write(&self) -> Value<'static> {
        Value::Bool(*self)
    }
}

impl FieldValue for String {
    fn read(v: &Value<'_>) -> Option<Self> {
        v.as_str().map(str::to_string)
    }
    fn write(&self) -> Value<'static> {
        Value::string(self.clone())
    }
}

impl FieldValue for Vec<u64> {
    fn read(v: &Value<'_>) -> Option<Self> {
        v.as_array()?.iter().map(u64::read).collect()
    }
    fn write(&self) -> Value<'static> {
        Value::Array(self.iter().map(|u| Value::UInt(*u)).collect())
    }
}

impl FieldValue for Vec<String> {
    fn read(v: &Value<'_>) -> Option<Self> {
        v.as_array()?.iter().map(String::read).collect()
    }
    fn write(&self) -> Value<'static> {
        Value::Array(self.iter().map(|s| Value::string(s.clone())).collect())
    }
}

impl FieldValue for Vec<KernelArg> {
    fn read(v: &Value<'_>) -> Option<Self> {
        v.as_array()?.iter().map(KernelArg::from_value).collect()
    }
    fn write(&self) -> Value<'static> {
        Value::Array(self.iter().map(KernelArg::to_value).collect())
    }
}

impl FieldValue for Vec<KernelMetadata> {
    fn read(v: &Value<'_>) -> Option<Self> {
        v.as_array()?
            .iter()
            .map(KernelMetadata::from_value)
            .collect()
    }
    fn write(&self) -> Value<'static> {
        Value::Array(self.iter().map(KernelMetadata::to_value).collect())
    }
}

/// `from_value` / `to_value` for a struct from a list of (field, key) pairs.
macro_rules! v3_map {
    ($ty:ident { $($field:ident : $key:literal),* $(,)? }) => {
        impl $ty {
            /// Decode from a v3+ map (keys as in the specification). `None` if `v`
            /// is not a map; entries that do not fit the model go to `extra`.
            pub fn from_value(v: &Value<'_>) -> Option<Self> {
                let mut out = $ty::default();
                for (k, val) in v.as_map()? {
                    let known = match k.as_str() {
                        $(Some($key) if out.$field.is_none() => {
                            out.$field = FieldValue::read(val);
                            out.$field.is_some()
                        })*
                        _ => false,
                    };
                    if !known {
                        out.extra.push((k.clone().into_owned(), val.clone().into_owned()));
                    }
                }
                Some(out)
            }

            /// Encode as a v3+ map, keys sorted the way LLVM writes them.
            pub fn to_value(&self) -> Value<'static> {
                let mut pairs: Extra = Vec::new();
                $(if let Some(x) = &self.$field {
                    pairs.push((Value::string($key), x.write()));
                })*
                pairs.extend(self.extra.iter().cloned());
                sort_pairs(&mut pairs);
                Value::Map(pairs)
            }
        }
    };
}

v3_map!(KernelArg {
    name: ".name",
    type_name: ".type_name",
    offset: ".offset",
    size: ".size",
    align: ".align",
    value_kind: ".value_kind",
    value_type: ".value_type",
    pointee_align: ".pointee_align",
    address_space: ".address_space",
    access: ".access",
    actual_access: ".actual_access",
    is_const: ".is_const",
    is_restrict: ".is_restrict",
    is_volatile: ".is_volatile",
    is_pipe: ".is_pipe",
});

v3_map!(KernelMetadata {
    name: ".name",
    symbol: ".symbol",
    language: ".language",
    language_version: ".language_version",
    args: ".args",
    reqd_workgroup_size: ".reqd_workgroup_size",
    workgroup_size_hint: ".workgroup_size_hint",
    vec_type_hint: ".vec_type_hint",
    device_enqueue_symbol: ".device_enqueue_symbol",
    kernarg_segment_size: ".kernarg_segment_size",
    group_segment_fixed_size: ".group_segment_fixed_size",
    private_segment_fixed_size: ".private_segment_fixed_size",
    kernarg_segment_align: ".kernarg_segment_align",
    wavefront_size: ".wavefront_size",
    sgpr_count: ".sgpr_count",
    vgpr_count: ".vgpr_count",
    agpr_count: ".agpr_count",
    max_flat_workgroup_size: ".max_flat_workgroup_size",
    sgpr_spill_count: ".sgpr_spill_count",
    vgpr_spill_count: ".vgpr_spill_count",
    kind: ".kind",
    max_num_work_groups_x: ".max_num_work_groups_x",
    max_num_work_groups_y: ".max_num_work_groups_y",
    max_num_work_groups_z: ".max_num_work_groups_z",
    uses_dynamic_stack: ".uses_dynamic_stack",
    workgroup_processor_mode: ".workgroup_processor_mode",
    uniform_work_group_size: ".uniform_work_group_size",
    cluster_dims: ".cluster_dims",
});

v3_map!(CodeObjectMetadata {
    version: "amdhsa.version",
    target: "amdhsa.target",
    printf: "amdhsa.printf",
    kernels: "amdhsa.kernels",
});

/// Sort map entries the way LLVM's MessagePack document does (string keys
/// byte-wise; other keys first, in their stored order).
fn sort_pairs(pairs: &mut Extra) {
    pairs.sort_by(|a, b| match (a.0.as_str_bytes(), b.0.as_str_bytes()) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Greater,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (None, None) => std::cmp::Ordering::Equal,
    });
}

// ----- code object v2 -----------------------------------------------------------

/// v2 `ValueKind` spellings and their v3 equivalents.
const V2_VALUE_KINDS: &[(&str, &str)] = &[
    ("ByValue", "by_value"),
    ("GlobalBuffer", "global_buffer"),
    ("DynamicSharedPointer", "dynamic_shared_pointer"),
    ("Sampler", "sampler"),
    ("Image", "image"),
    ("Pipe", "pipe"),
    ("Queue", "queue"),
    ("HiddenGlobalOffsetX", "hidden_global_offset_x"),
    ("HiddenGlobalOffsetY", "hidden_global_offset_y"),
    ("HiddenGlobalOffsetZ", "hidden_global_offset_z"),
    ("HiddenNone", "hidden_none"),
    ("HiddenPrintfBuffer", "hidden_printf_buffer"),
    ("HiddenHostcallBuffer", "hidden_hostcall_buffer"),
    ("HiddenDefaultQueue", "hidden_default_queue"),
    ("HiddenCompletionAction", "hidden_completion_action"),
    ("HiddenMultiGridSyncArg", "hidden_multigrid_sync_arg"),
];
const V2_VALUE_TYPES: &[(&str, &str)] = &[
    ("Struct", "struct"),
    ("I8", "i8"),
    ("U8", "u8"),
    ("I16", "i16"),
    ("U16", "u16"),
    ("F16", "f16"),
    ("I32", "i32"),
    ("U32", "u32"),
    ("F32", "f32"),
    ("I64", "i64"),
    ("U64", "u64"),
    ("F64", "f64"),
];
const V2_ADDRESS_SPACES: &[(&str, &str)] = &[
    ("Private", "private"),
    ("Global", "global"),
    ("Constant", "constant"),
    ("Local", "local"),
    ("Generic", "generic"),
    ("Region", "region"),
];
const V2_ACCESSES: &[(&str, &str)] = &[
    ("Default", "default"),
    ("ReadOnly", "read_only"),
    ("WriteOnly", "write_only"),
    ("ReadWrite", "read_write"),
];

/// v2 key -> v3 key, and the table that translates its string value (if any).
type KeyMap = (
    &'static str,
    &'static str,
    Option<&'static [(&'static str, &'static str)]>,
);

const V2_ROOT_KEYS: &[KeyMap] = &[
    ("Version", "amdhsa.version", None),
    ("Printf", "amdhsa.printf", None),
    ("Kernels", "amdhsa.kernels", None),
];
const V2_KERNEL_KEYS: &[KeyMap] = &[
    ("Name", ".name", None),
    ("SymbolName", ".symbol", None),
    ("Language", ".language", None),
    ("LanguageVersion", ".language_version", None),
    ("Args", ".args", None),
];
const V2_ATTRS_KEYS: &[KeyMap] = &[
    ("ReqdWorkGroupSize", ".reqd_workgroup_size", None),
    ("WorkGroupSizeHint", ".workgroup_size_hint", None),
    ("VecTypeHint", ".vec_type_hint", None),
    ("RuntimeHandle", ".device_enqueue_symbol", None),
];
const V2_CODE_PROPS_KEYS: &[KeyMap] = &[
    ("KernargSegmentSize", ".kernarg_segment_size", None),
    ("GroupSegmentFixedSize", ".group_segment_fixed_size", None),
    (
        "PrivateSegmentFixedSize",
        ".private_segment_fixed_size",
        None,
    ),
    ("KernargSegmentAlign", ".kernarg_segment_align", None),
    ("WavefrontSize", ".wavefront_size", None),
    ("NumSGPRs", ".sgpr_count", None),
    ("NumVGPRs", ".vgpr_count", None),
    ("MaxFlatWorkGroupSize", ".max_flat_workgroup_size", None),
    ("NumSpilledSGPRs", ".sgpr_spill_count", None),
    ("NumSpilledVGPRs", ".vgpr_spill_count", None),
];
const V2_ARG_KEYS: &[KeyMap] = &[
    ("Name", ".name", None),
    ("TypeName", ".type_name", None),
    ("Size", ".size", None),
    ("Align", ".align", None),
    ("ValueKind", ".value_kind", Some(V2_VALUE_KINDS)),
    ("ValueType", ".value_type", Some(V2_VALUE_TYPES)),
    ("PointeeAlign", ".pointee_align", None),
    ("AddrSpaceQual", ".address_space", Some(V2_ADDRESS_SPACES)),
    ("AccQual", ".access", Some(V2_ACCESSES)),
    ("ActualAccQual", ".actual_access", Some(V2_ACCESSES)),
    ("IsConst", ".is_const", None),
    ("IsRestrict", ".is_restrict", None),
    ("IsVolatile", ".is_volatile", None),
    ("IsPipe", ".is_pipe", None),
];

fn translate(v: &Value<'_>, table: Option<&[(&str, &str)]>, to_v3: bool) -> Value<'static> {
    if let (Some(table), Some(s)) = (table, v.as_str()) {
        for &(v2, v3) in table {
            let (from, to) = if to_v3 { (v2, v3) } else { (v3, v2) };
            if s == from {
                return Value::string(to);
            }
        }
    }
    v.clone().into_owned()
}

/// Rename the entries of map `v` by `keys` (v2 -> v3 if `to_v3`), recursing with
/// `nested` for the values of some keys. Unknown entries are kept as they are.
fn rename(
    pairs: &[(Value<'_>, Value<'_>)],
    keys: &[KeyMap],
    to_v3: bool,
    nested: &dyn Fn(&str, &Value<'_>) -> Option<Value<'static>>,
    out: &mut Extra,
) {
    for (k, v) in pairs {
        let name = k.as_str().unwrap_or("");
        let hit = keys
            .iter()
            .find(|(v2, v3, _)| if to_v3 { *v2 == name } else { *v3 == name });
        match hit {
            Some(&(v2, v3, table)) => {
                let new_key = if to_v3 { v3 } else { v2 };
                let value = nested(new_key, v).unwrap_or_else(|| translate(v, table, to_v3));
                out.push((Value::string(new_key), value));
            }
            None => out.push((k.clone().into_owned(), v.clone().into_owned())),
        }
    }
}

fn v2_to_v3(root: &Value<'_>) -> Value<'static> {
    let Some(pairs) = root.as_map() else {
        return root.clone().into_owned();
    };
    let mut out = Vec::new();
    rename(
        pairs,
        V2_ROOT_KEYS,
        true,
        &|key, v| {
            (key == "amdhsa.kernels").then(|| match v.as_array() {
                Some(ks) => Value::Array(ks.iter().map(v2_kernel_to_v3).collect()),
                None => v.clone().into_owned(),
            })
        },
        &mut out,
    );
    Value::Map(out)
}

fn v2_kernel_to_v3(kernel: &Value<'_>) -> Value<'static> {
    let Some(pairs) = kernel.as_map() else {
        return kernel.clone().into_owned();
    };
    let mut out = Vec::new();
    for (k, v) in pairs {
        let group = match k.as_str() {
            Some("Attrs") => Some(("Attrs", V2_ATTRS_KEYS)),
            Some("CodeProps") => Some(("CodeProps", V2_CODE_PROPS_KEYS)),
            _ => None,
        };
        match (group, v.as_map()) {
            (Some((prefix, keys)), Some(sub)) => {
                for (sk, sv) in sub {
                    let name = sk.as_str().unwrap_or("");
                    match keys.iter().find(|(v2, _, _)| *v2 == name) {
                        Some(&(_, v3, _)) => out.push((Value::string(v3), sv.clone().into_owned())),
                        None if sk.as_str().is_some() => out.push((
                            Value::string(format!("{prefix}.{name}")),
                            sv.clone().into_owned(),
                        )),
                        None => out.push((sk.clone().into_owned(), sv.clone().into_owned())),
                    }
                }
            }
            _ => rename(
                std::slice::from_ref(&(k.clone(), v.clone())),
                V2_KERNEL_KEYS,
                true,
                &|key, v| {
                    (key == ".args").then(|| match v.as_array() {
                        Some(args) => Value::Array(
                            args.iter()
                                .map(|a| match a.as_map() {
                                    Some(p) => {
                                        let mut o = Vec::new();
                                        rename(p, V2_ARG_KEYS, true, &|_, _| None, &mut o);
                                        Value::Map(o)
                                    }
                                    None => a.clone().into_owned(),
                                })
                                .collect(),
                        ),
                        None => v.clone().into_owned(),
                    })
                },
                &mut out,
            ),
        }
    }
    Value::Map(out)
}

impl CodeObjectMetadata {
    /// Decode the MessagePack descriptor of an `NT_AMDGPU_METADATA` note.
    pub fn from_msgpack(desc: &[u8]) -> crate::Result<Self> {
        let root = crate::msgpack::decode(desc)?;
        Self::from_value(&root).ok_or_else(|| crate::Error::new(0, "metadata root is not a map"))
    }

    /// Decode the YAML text of an `NT_AMD_HSA_METADATA` (code object v2) note.
    pub fn from_v2_yaml(desc: &[u8]) -> crate::Result<Self> {
        let root = crate::yaml::parse_bytes(desc)?;
        Self::from_v2_value(&root).ok_or_else(|| crate::Error::new(0, "metadata root is not a map"))
    }

    /// Decode a v2 document tree (keys `Version`, `Kernels`, ...), mapping its keys
    /// and values onto the v3 model: `CodeProps` and `Attrs` entries become kernel
    /// fields, `ValueKind: GlobalBuffer` becomes `global_buffer`, `AddrSpaceQual:
    /// Global` becomes `global`, `AccQual: ReadOnly` becomes `read_only` (and
    /// `Default` becomes `default`).
    pub fn from_v2_value(root: &Value<'_>) -> Option<Self> {
        let mut md = Self::from_value(&v2_to_v3(root))?;
        md.format = MetadataFormat::V2Yaml;
        Some(md)
    }

    /// The document tree in the encoding of [`Self::format`].
    pub fn to_format_value(&self) -> Value<'static> {
        match self.format {
            MetadataFormat::MsgPack => self.to_value(),
            MetadataFormat::V2Yaml => self.to_v2_value(),
        }
    }

    /// Encode as MessagePack (v3+ keys, sorted as LLVM writes them).
    pub fn to_msgpack(&self) -> Vec<u8> {
        crate::msgpack::encode(&self.to_value())
    }

    /// The v2 document tree (keys `Version`, `Kernels`, `CodeProps`, ...).
    pub fn to_v2_value(&self) -> Value<'static> {
        let v3 = self.to_value();
        let Some(pairs) = v3.as_map() else {
            return v3;
        };
        let mut out = Vec::new();
        rename(
            pairs,
            V2_ROOT_KEYS,
            false,
            &|key, v| {
                (key == "Kernels").then(|| match v.as_array() {
                    Some(ks) => Value::Array(ks.iter().map(v3_kernel_to_v2).collect()),
                    None => v.clone().into_owned(),
                })
            },
            &mut out,
        );
        Value::Map(out)
    }

    /// Encode as v2 YAML text (a `---` ... `...` document, NUL-terminated as stored
    /// in the note).
    pub fn to_v2_yaml(&self) -> Vec<u8> {
        let mut text = super::readelf::document_yaml(&self.to_v2_value()).into_bytes();
        text.push(0);
        text
    }
}

fn v3_kernel_to_v2(kernel: &Value<'_>) -> Value<'static> {
    let Some(pairs) = kernel.as_map() else {
        return kernel.clone().into_owned();
    };
    let mut out: Extra = Vec::new();
    let mut attrs: Extra = Vec::new();
    let mut props: Extra = Vec::new();
    for (k, v) in pairs {
        let name = k.as_str().unwrap_or("");
        if let Some(&(v2, _, _)) = V2_ATTRS_KEYS.iter().find(|(_, v3, _)| *v3 == name) {
            attrs.push((Value::string(v2), v.clone().into_owned()));
        } else if let Some(&(v2, _, _)) = V2_CODE_PROPS_KEYS.iter().find(|(_, v3, _)| *v3 == name) {
            props.push((Value::string(v2), v.clone().into_owned()));
        } else if let Some(sub) = name.strip_prefix("Attrs.") {
            attrs.push((Value::string(sub), v.clone().into_owned()));
        } else if let Some(sub) = name.strip_prefix("CodeProps.") {
            props.push((Value::string(sub), v.clone().into_owned()));
        } else {
            rename(
                std::slice::from_ref(&(k.clone(), v.clone())),
                V2_KERNEL_KEYS,
                false,
                &|key, v| {
                    (key == "Args").then(|| match v.as_array() {
                        Some(args) => Value::Array(
                            args.iter()
                                .map(|a| match a.as_map() {
                                    Some(p) => {
                                        let mut o = Vec::new();
                                        rename(p, V2_ARG_KEYS, false, &|_, _| None, &mut o);
                                        Value::Map(o)
                                    }
                                    None => a.clone().into_owned(),
                                })
                                .collect(),
                        ),
                        None => v.clone().into_owned(),
                    })
                },
                &mut out,
            );
        }
    }
    if !attrs.is_empty() {
        out.push((Value::string("Attrs"), Value::Map(attrs)));
    }
    if !props.is_empty() {
        out.push((Value::string("CodeProps"), Value::Map(props)));
    }
    Value::Map(out)
}
