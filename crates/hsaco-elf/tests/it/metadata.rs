//! Code object metadata: goldens from llvm-readelf-22 (tests/data/metadata, made by
//! make_goldens.py), round trips, the schema checker, the fuzz smoke runs, and the
//! live comparison against llvm-readelf over a corpus (ignored by default).

use std::path::{Path, PathBuf};

use hsaco_elf::metadata::{
    self, compare_with_readelf, metadata_block_from_readelf, readelf_block, CodeObjectMetadata,
    MetadataFormat, NT_AMDGPU_METADATA, NT_AMD_HSA_METADATA,
};
use hsaco_elf::msgpack::{self, Value};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/metadata")
}

/// (stem, descriptor, note type, readelf output) of every golden.
fn goldens() -> Vec<(String, Vec<u8>, u32, String)> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let note_type = match ext {
            "msgpack" => NT_AMDGPU_METADATA,
            "yaml" => NT_AMD_HSA_METADATA,
            _ => continue,
        };
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let desc = std::fs::read(&path).unwrap();
        let expected = std::fs::read(data_dir().join(format!("{stem}.readelf.txt"))).unwrap();
        out.push((
            stem,
            desc,
            note_type,
            String::from_utf8_lossy(&expected).into_owned(),
        ));
    }
    assert!(out.len() >= 20, "goldens missing: {}", out.len());
    out
}

fn corpus_goldens() -> Vec<(String, Vec<u8>)> {
    goldens()
        .into_iter()
        .filter(|(stem, ..)| stem.starts_with("cov"))
        .map(|(stem, desc, ..)| (stem, desc))
        .collect()
}

fn cov_of(stem: &str) -> u32 {
    stem[3..4].parse().unwrap()
}

#[test]
fn readelf_text_matches_llvm() {
    let mut failures = Vec::new();
    for (stem, desc, note_type, expected) in goldens() {
        let blocks = metadata_block_from_readelf(&expected);
        assert_eq!(blocks.len(), 1, "{stem}: one metadata block expected");
        let ours = readelf_block(note_type, &desc).unwrap();
        if ours != blocks[0] {
            failures.push(format!("{stem}:\n--- ours\n{ours}--- llvm\n{}", blocks[0]));
        }
        if let Err(e) = compare_with_readelf(&[(note_type, &desc)], &expected) {
            failures.push(format!("{stem}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn block_cutting() {
    let out = "Displaying notes found in: .note\n  Owner                Data size \tDescription\n  AMDGPU               0x00000004\tNT_AMDGPU_METADATA (AMDGPU Metadata)\n    AMDGPU Metadata:\n        ---\na:               1\n...\n\n  AMDGPU               0x00000001\tNT_AMDGPU_METADATA (AMDGPU Metadata)\n   description data: 01\n  AMDGPU               0x00000008\tNT_AMDGPU_HSA_ISA_NAME (AMDGPU ISA name)\n    x\n";
    let blocks = metadata_block_from_readelf(out);
    assert_eq!(
        blocks,
        [
            "    AMDGPU Metadata:\n        ---\na:               1\n...\n",
            "   description data: 01\n"
        ]
    );
}

#[test]
fn msgpack_round_trip_is_byte_identical() {
    for (stem, desc) in corpus_goldens() {
        let value = msgpack::decode(&desc).unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(msgpack::encode(&value), desc, "{stem}");
        let owned = value.clone().into_owned();
        assert_eq!(owned, value);
    }
}

#[test]
fn typed_model_round_trip_is_byte_identical() {
    for (stem, desc) in corpus_goldens() {
        let md = CodeObjectMetadata::from_msgpack(&desc).unwrap();
        assert_eq!(md.format, MetadataFormat::MsgPack);
        assert!(md.extra.is_empty(), "{stem}: {:?}", md.extra);
        for k in md.kernels.as_ref().unwrap() {
            assert!(k.extra.is_empty(), "{stem}: {:?}", k.extra);
            for a in k.args.as_ref().unwrap() {
                assert!(a.extra.is_empty(), "{stem}: {:?}", a.extra);
            }
        }
        assert_eq!(md.to_msgpack(), desc, "{stem}");
    }
}

#[test]
fn typed_model_values() {
    // values as llvm-readelf prints them in cov5_gfx906_vadd.readelf.txt
    let desc = std::fs::read(data_dir().join("cov5_gfx906_vadd.msgpack")).unwrap();
    let md = CodeObjectMetadata::from_msgpack(&desc).unwrap();
    assert_eq!(md.version, Some(vec![1, 2]));
    assert_eq!(md.target.as_deref(), Some("amdgcn-amd-amdhsa--gfx906"));
    let kernels = md.kernels.unwrap();
    assert_eq!(kernels.len(), 3);
    let k = &kernels[0];
    assert_eq!(k.name.as_deref(), Some("vadd_f32"));
    assert_eq!(k.symbol.as_deref(), Some("vadd_f32.kd"));
    assert_eq!(k.language.as_deref(), Some("OpenCL C"));
    assert_eq!(k.language_version, Some(vec![2, 0]));
    assert_eq!(k.kernarg_segment_size, Some(288));
    assert_eq!(k.kernarg_segment_align, Some(8));
    assert_eq!(k.max_flat_workgroup_size, Some(256));
    assert_eq!(k.sgpr_count, Some(12));
    assert_eq!(k.vgpr_count, Some(8));
    assert_eq!(k.wavefront_size, Some(64));
    assert_eq!(k.uses_dynamic_stack, Some(false));
    let args = k.args.as_ref().unwrap();
    assert_eq!(args.len(), 17);
    assert_eq!(args[0].actual_access.as_deref(), Some("read_only"));
    assert_eq!(args[0].address_space.as_deref(), Some("global"));
    assert_eq!(args[0].is_const, Some(true));
    assert_eq!(args[0].is_restrict, Some(true));
    assert_eq!(args[0].type_name.as_deref(), Some("float*"));
    assert_eq!(args[3].value_kind.as_deref(), Some("by_value"));
    assert_eq!(args[16].value_kind.as_deref(), Some("hidden_grid_dims"));
    assert_eq!(args[16].offset, Some(96));
    assert_eq!(args[16].size, Some(2));
}

#[test]
fn unknown_and_mistyped_keys_are_kept() {
    let doc = Value::Map(vec![
        (
            Value::str_ref("amdhsa.kernels"),
            Value::Array(vec![Value::Map(vec![
                (Value::str_ref(".name"), Value::UInt(5)),
                (Value::str_ref(".vendor.x"), Value::Bool(true)),
            ])]),
        ),
        (Value::str_ref("zz"), Value::Nil),
    ]);
    let md = CodeObjectMetadata::from_value(&doc).unwrap();
    let k = &md.kernels.as_ref().unwrap()[0];
    assert_eq!(k.name, None);
    assert_eq!(k.extra.len(), 2);
    assert_eq!(md.extra.len(), 1);
    assert_eq!(md.to_value(), doc);
}

#[test]
fn v2_yaml_maps_onto_the_model_and_back() {
    let desc = std::fs::read(data_dir().join("v2_kernel.yaml")).unwrap();
    let md = CodeObjectMetadata::from_v2_yaml(&desc).unwrap();
    assert_eq!(md.format, MetadataFormat::V2Yaml);
    assert_eq!(md.version, Some(vec![1, 0]));
    assert_eq!(md.printf, Some(vec!["1:1:4:%d\\n".to_string()])); // single quotes: no escapes
    let k = &md.kernels.as_ref().unwrap()[0];
    assert_eq!(k.name.as_deref(), Some("test"));
    assert_eq!(k.symbol.as_deref(), Some("test@kd"));
    assert_eq!(k.reqd_workgroup_size, Some(vec![64, 1, 1]));
    assert_eq!(k.kernarg_segment_size, Some(16));
    assert_eq!(k.sgpr_count, Some(8));
    assert_eq!(k.max_flat_workgroup_size, Some(64));
    assert_eq!(k.extra.len(), 1, "{:?}", k.extra); // CodeProps.IsXNACKEnabled
    let a = &k.args.as_ref().unwrap()[0];
    assert_eq!(a.value_kind.as_deref(), Some("global_buffer"));
    assert_eq!(a.value_type.as_deref(), Some("f32"));
    assert_eq!(a.address_space.as_deref(), Some("global"));
    assert_eq!(a.access.as_deref(), Some("default"));
    assert_eq!(a.align, Some(8));
    assert_eq!(a.is_const, Some(true));
    let hidden = &k.args.as_ref().unwrap()[1];
    assert_eq!(hidden.value_kind.as_deref(), Some("hidden_global_offset_x"));

    // the v2 tree is valid for v2, and text -> model -> text -> model is stable
    let tree = hsaco_elf::yaml::parse_bytes(&desc).unwrap();
    assert_eq!(metadata::validate(&tree, 2), []);
    let text = md.to_v2_yaml();
    let again = CodeObjectMetadata::from_v2_yaml(&text).unwrap();
    assert_eq!(again, md);
    let tree2 = hsaco_elf::yaml::parse_bytes(&text).unwrap();
    assert_eq!(metadata::validate(&tree2, 2), []);
}

#[test]
fn corpus_goldens_validate_clean() {
    for (stem, desc) in corpus_goldens() {
        let value = msgpack::decode(&desc).unwrap();
        let findings = metadata::validate(&value, cov_of(&stem));
        assert!(findings.is_empty(), "{stem}: {findings:?}");
        assert!(metadata::llvm_verifier_accepts(&value), "{stem}");
    }
}

#[test]
fn validate_reports_spec_violations() {
    // cov4 document with v5-only argument kinds and keys -> findings (AMDGPUUsage
    // "Code Object V5 Metadata" lists them as additions)
    let desc = std::fs::read(data_dir().join("cov5_gfx906_vadd.msgpack")).unwrap();
    let value = msgpack::decode(&desc).unwrap();
    let findings = metadata::validate(&value, 4);
    let paths: Vec<&str> = findings.iter().map(|f| f.path.as_str()).collect();
    assert!(
        paths.contains(&"amdhsa.kernels[0].args[4].value_kind"),
        "{paths:?}"
    );
    assert!(
        paths.contains(&"amdhsa.kernels[0].uses_dynamic_stack"),
        "{paths:?}"
    );
    assert!(paths.contains(&"amdhsa.version"), "{paths:?}");

    let bad = Value::Map(vec![
        (
            Value::str_ref("amdhsa.kernels"),
            Value::Array(vec![Value::Map(vec![
                (Value::str_ref(".name"), Value::str_ref("k")),
                (Value::str_ref(".wavefront_size"), Value::UInt(48)),
                (
                    Value::str_ref(".args"),
                    Value::Array(vec![Value::Map(vec![
                        (Value::str_ref(".value_kind"), Value::str_ref("hidden_foo")),
                        (Value::str_ref(".address_space"), Value::str_ref("heap")),
                        (Value::str_ref(".size"), Value::Int(-1)),
                    ])]),
                ),
            ])]),
        ),
        (
            Value::str_ref("amdhsa.version"),
            Value::Array(vec![Value::UInt(1)]),
        ),
    ]);
    let findings = metadata::validate(&bad, 5);
    let text: Vec<String> = findings.iter().map(ToString::to_string).collect();
    for expected in [
        "amdhsa.target: required key is missing",
        "amdhsa.version: expected a sequence of 2 non-negative integers",
        "amdhsa.kernels[0].symbol: required key is missing",
        "amdhsa.kernels[0].kernarg_segment_size: required key is missing",
        "amdhsa.kernels[0].wavefront_size: 48 is not a power of two",
        "amdhsa.kernels[0].args[0].offset: required key is missing",
        "amdhsa.kernels[0].args[0].value_kind: unknown argument kind \"hidden_foo\"",
        "amdhsa.kernels[0].args[0].size: expected a non-negative integer, found integer",
    ] {
        assert!(
            text.iter().any(|t| t == expected),
            "missing {expected:?} in {text:#?}"
        );
    }
    assert!(text
        .iter()
        .any(|t| t.starts_with("amdhsa.kernels[0].args[0].address_space: \"heap\"")));
}

#[test]
fn json_form() {
    let desc = std::fs::read(data_dir().join("cov4_gfx803_printf.msgpack")).unwrap();
    let json = metadata::to_json(&msgpack::decode(&desc).unwrap());
    assert!(json.starts_with("{\n  \"amdhsa.kernels\": [\n    {\n      \".args\": [\n"));
    assert!(json.contains(
        "\"amdhsa.printf\": [\n    \"1:4:4:4:4:8:item %u value %f hex %x name %s\\\\n\"\n  ]"
    ));
    assert!(json.ends_with("  \"amdhsa.version\": [\n    1,\n    1\n  ]\n}\n"));
}

fn seeds() -> Vec<Vec<u8>> {
    goldens()
        .into_iter()
        .filter(|(_, _, t, _)| *t == NT_AMDGPU_METADATA)
        .map(|(_, d, ..)| d)
        .collect()
}

#[test]
fn fuzz_smoke_msgpack() {
    let seeds = seeds();
    let refs: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
    // each input is decoded, printed twice, validated, typed and re-encoded: the
    // workspace builds hsaco-elf with opt-level 1 in the test profile for this
    let n = hsaco_elf::fuzzing::mutation_smoke(hsaco_elf::fuzzing::msgpack, &refs, 100_000, 0x6d73);
    assert_eq!(n, 100_000);
}

#[test]
fn fuzz_smoke_yaml() {
    let mut seeds: Vec<Vec<u8>> = goldens()
        .into_iter()
        .filter(|(_, _, t, _)| *t == NT_AMD_HSA_METADATA)
        .map(|(_, d, ..)| d)
        .collect();
    // a YAML rendering of a v3 document as a further seed
    let desc = std::fs::read(data_dir().join("cov6_gfx803_image.msgpack")).unwrap();
    seeds.push(metadata::document_yaml(&msgpack::decode(&desc).unwrap()).into_bytes());
    let refs: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
    let n =
        hsaco_elf::fuzzing::mutation_smoke(hsaco_elf::fuzzing::yaml, &refs, 100_000, 0x79616d6c);
    assert_eq!(n, 100_000);
}

#[test]
fn yaml_reads_what_the_printer_writes() {
    // the printed form of every corpus golden parses back to the same tree
    for (stem, desc) in corpus_goldens() {
        let value = msgpack::decode(&desc).unwrap();
        let text = metadata::document_yaml(&value);
        let back = hsaco_elf::yaml::parse(&text).unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(back, value, "{stem}");
    }
}

// ----- live comparison with llvm-readelf ---------------------------------------------

/// The notes (type, descriptor) of the SHT_NOTE sections of a little-endian ELF64
/// file: a minimal walker for this test only.
fn elf_notes(data: &[u8]) -> Option<Vec<(u32, Vec<u8>)>> {
    let u16_at = |o: usize| Some(u16::from_le_bytes(data.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |o: usize| Some(u32::from_le_bytes(data.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |o: usize| Some(u64::from_le_bytes(data.get(o..o + 8)?.try_into().ok()?));
    let shoff = usize::try_from(u64_at(0x28)?).ok()?;
    let shentsize = usize::from(u16_at(0x3a)?);
    let shnum = usize::from(u16_at(0x3c)?);
    let mut out = Vec::new();
    for i in 0..shnum {
        let sh = shoff + i * shentsize;
        if u32_at(sh + 4)? != 7 {
            continue;
        }
        let off = usize::try_from(u64_at(sh + 0x18)?).ok()?;
        let size = usize::try_from(u64_at(sh + 0x20)?).ok()?;
        let mut p = off;
        while p + 12 <= off + size {
            let namesz = u32_at(p)? as usize;
            let descsz = u32_at(p + 4)? as usize;
            let ty = u32_at(p + 8)?;
            p += 12 + namesz.div_ceil(4) * 4;
            out.push((ty, data.get(p..p + descsz)?.to_vec()));
            p += descsz.div_ceil(4) * 4;
        }
    }
    Some(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("co" | "o")) {
            out.push(p);
        }
    }
}

/// `HSACO_CORPUS=/work/corpus/out cargo test -p hsaco-elf --test it
/// metadata::live_llvm_readelf -- --ignored --nocapture` (see
/// tests/data/metadata/llvm_diff.sh). Compares every metadata note of every .co/.o
/// under the corpus with llvm-readelf-22 (or $LLVM_READELF), validates each document
/// against its code object version and checks the byte-identical round trips.
#[test]
#[ignore = "needs LLVM and a corpus"]
fn live_llvm_readelf() {
    let root = PathBuf::from(std::env::var("HSACO_CORPUS").unwrap_or("/work/corpus/out".into()));
    let readelf = std::env::var("LLVM_READELF").unwrap_or("llvm-readelf-22".into());
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let (mut objects, mut blocks, mut mismatches, mut findings, mut round_trip) = (0, 0, 0, 0, 0);
    for file in &files {
        let data = std::fs::read(file).unwrap();
        let Some(notes) = elf_notes(&data) else {
            println!("{}: not an ELF64 file we can walk", file.display());
            continue;
        };
        let output = std::process::Command::new(&readelf)
            .arg("--notes")
            .arg(file)
            .output()
            .expect("run llvm-readelf");
        let text = String::from_utf8_lossy(&output.stdout);
        let refs: Vec<(u32, &[u8])> = notes.iter().map(|(t, d)| (*t, d.as_slice())).collect();
        objects += 1;
        match compare_with_readelf(&refs, &text) {
            Ok(n) => blocks += n,
            Err(e) => {
                mismatches += 1;
                println!("{}: {e}", file.display());
            }
        }
        let cov = match data.get(8) {
            Some(2) => 4,
            Some(3) => 5,
            Some(4) => 6,
            _ => 0,
        };
        for (t, desc) in &notes {
            if *t != NT_AMDGPU_METADATA {
                continue;
            }
            let Ok(value) = msgpack::decode(desc) else {
                println!("{}: MessagePack decode failed", file.display());
                mismatches += 1;
                continue;
            };
            if msgpack::encode(&value) != *desc
                || CodeObjectMetadata::from_msgpack(desc)
                    .map(|m| m.to_msgpack())
                    .ok()
                    .as_ref()
                    != Some(desc)
            {
                round_trip += 1;
                println!("{}: round trip differs", file.display());
            }
            for f in metadata::validate(&value, cov) {
                findings += 1;
                println!("{}: v{cov}: {f}", file.display());
            }
        }
    }
    println!(
        "metadata live comparison: {objects} objects, {blocks} metadata blocks, {mismatches} mismatches, {findings} schema findings, {round_trip} round-trip differences"
    );
    assert!(objects > 0, "no objects under {}", root.display());
    assert_eq!((mismatches, findings, round_trip), (0, 0, 0));
}
