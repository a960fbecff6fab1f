//! Code object metadata: the MessagePack document of `NT_AMDGPU_METADATA` notes
//! (code object v3 onwards) and the YAML document of `NT_AMD_HSA_METADATA` notes
//! (code object v2).
//!
//! * [`CodeObjectMetadata`] is a typed model that keeps unknown keys
//!   ([`CodeObjectMetadata::from_msgpack`], [`CodeObjectMetadata::from_v2_yaml`],
//!   [`CodeObjectMetadata::to_msgpack`], [`CodeObjectMetadata::to_v2_yaml`]).
//! * [`readelf_yaml`] prints a descriptor exactly as `llvm-readelf --notes` does;
//!   [`metadata_block_from_readelf`] and [`compare_with_readelf`] compare the two.
//! * [`validate`] checks a document against the schema of a code object version.
//! * [`to_json`] gives the JSON form below.
//!
//! ```
//! use hsaco_elf::{metadata, msgpack::{self, Value}};
//! let doc = Value::Map(vec![
//!     (Value::str_ref("amdhsa.kernels"), Value::Array(vec![])),
//!     (Value::str_ref("amdhsa.target"), Value::str_ref("amdgcn-amd-amdhsa--gfx906")),
//!     (Value::str_ref("amdhsa.version"), Value::Array(vec![Value::UInt(1), Value::UInt(2)])),
//! ]);
//! let desc = msgpack::encode(&doc);
//! assert_eq!(
//!     metadata::readelf_yaml(&desc),
//!     "    AMDGPU Metadata:\n        ---\namdhsa.kernels:  []\n\
//!      amdhsa.target:   amdgcn-amd-amdhsa--gfx906\namdhsa.version:\n  - 1\n  - 2\n...\n\n"
//! );
//! assert!(metadata::validate(&doc, 5).is_empty());
//! let md = metadata::CodeObjectMetadata::from_msgpack(&desc).unwrap();
//! assert_eq!(md.target.as_deref(), Some("amdgcn-amd-amdhsa--gfx906"));
//! assert_eq!(md.to_msgpack(), desc);
//! ```
//!
//! # JSON form
//!
//! [`to_json`] maps the document tree (MessagePack or YAML) one to one, so that a
//! consumer sees exactly what is stored:
//!
//! | stored                 | JSON                                                  |
//! |------------------------|-------------------------------------------------------|
//! | map                    | object, entries in stored order (duplicates repeated) |
//! | map key, string        | the string                                            |
//! | map key, other scalar  | its JSON text as a string (`1` -> `"1"`)              |
//! | map key, array or map  | its text on one line as a string: compact JSON, in which keys that are not strings are not quoted again (`{1: "x"}` -> `"{1: \"x\"}"`) |
//! | array                  | array                                                 |
//! | integer (either sign)  | number, exact (64-bit)                                |
//! | float (32 or 64 bits)  | number (shortest text that reads back exactly); `"inf"`, `"-inf"`, `"nan"` as strings |
//! | string                 | string (invalid UTF-8 sequences become U+FFFD)        |
//! | binary                 | string of lowercase hex digits                        |
//! | nil                    | `null`                                                |
//! | boolean                | `true` / `false`                                      |
//! | extension              | `{"ext": <type>, "data": "<hex>"}`                    |
//!
//! Output is indented by two spaces per level and ends with a newline; the same
//! document always gives the same text.

mod json;
mod model;
pub mod pal;
mod pal_registers;
mod readelf;
mod validate;

pub use json::to_json;
pub use model::{CodeObjectMetadata, Extra, KernelArg, KernelMetadata, MetadataFormat};
pub use readelf::{
    compare_with_readelf, document_yaml, format_e, llvm_verifier_accepts,
    metadata_block_from_readelf, readelf_block, readelf_note_text, readelf_v2_text, readelf_yaml,
    write_amdgpu_metadata_block, write_readelf_block, yaml_string, NT_AMDGPU_METADATA,
    NT_AMD_HSA_METADATA,
};
pub use validate::{
    expected_metadata_version, validate, Finding, FindingKind, VALUE_KINDS, VALUE_KINDS_V3,
    VALUE_KINDS_V5,
};

/// Fuzz entry: MessagePack decode, print (readelf form and JSON), validate, typed
/// model, re-encode. Panics only if an internal invariant breaks (a bug).
#[doc(hidden)]
pub fn fuzz_msgpack(data: &[u8]) {
    let tree = readelf::check_fast_against_tree(data);
    // again: the fast printer's memo of argument maps may answer now
    assert_eq!(readelf_yaml(data), tree, "the fast printer's second print");
    let Ok((value, _)) = crate::msgpack::decode_prefix(data) else {
        return;
    };
    let bytes = crate::msgpack::encode(&value);
    let again = crate::msgpack::decode(&bytes).expect("re-encoded MessagePack must decode");
    assert_eq!(
        crate::msgpack::encode(&again),
        bytes,
        "encoding must be stable"
    );
    let _ = to_json(&value);
    let _ = document_yaml(&value);
    // the PAL view of any document, with every register's fields
    if let Some(pal) = pal::PalMetadata::from_document(&value) {
        let gfx12 = hsaco_target::Processor::by_name("gfx1201");
        for r in pal.pipelines.iter().flat_map(|p| &p.registers) {
            let _ = r.fields(gfx12);
        }
    }
    let _ = pal::readelf_legacy_block(data);
    let _ = validate(&value, 5);
    if let Some(md) = CodeObjectMetadata::from_value(&value) {
        let encoded = md.to_msgpack();
        let md2 = CodeObjectMetadata::from_msgpack(&encoded).expect("model encoding must decode");
        assert_eq!(md2.to_msgpack(), encoded, "model encoding must be stable");
    }
}

/// Fuzz entry: YAML parse, v2 typed model, re-encode, validate, print.
#[doc(hidden)]
pub fn fuzz_yaml(data: &[u8]) {
    let _ = readelf_v2_text(data);
    let Ok(value) = crate::yaml::parse_bytes(data) else {
        return;
    };
    let _ = to_json(&value);
    let _ = validate(&value, 2);
    let _ = crate::msgpack::encode(&value);
    if let Some(md) = CodeObjectMetadata::from_v2_value(&value) {
        let _ = md.to_v2_yaml();
        let _ = md.to_msgpack();
    }
}
