//! Offload bundles: every object LLVM 22 extracts from the committed inputs
//! (tests/data/bundle, made by gen.sh) must come out of our reader with the same
//! entry ID, container and bytes; the bundle writer must reproduce the bundler's
//! output; and the readers must survive mutated inputs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hsaco_elf::bundle::{
    code_objects, compress_bundle, decompress_bundle, embedded_objects, parse_bundle,
    parse_compressed_header, write_bundle, CompressionMethod, ContainerKind, EmbeddedObject,
};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bundle")
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One line of manifest.txt: what LLVM extracted from an input.
struct Expected {
    container: String,
    entry_id: String,
    sha256: String,
}

fn manifest(dir: &Path) -> BTreeMap<String, Vec<Expected>> {
    let text = String::from_utf8(read(&dir.join("manifest.txt"))).unwrap();
    let mut by_input: BTreeMap<String, Vec<Expected>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 4, "bad manifest line `{line}`");
        by_input
            .entry(f[0].to_string())
            .or_default()
            .push(Expected {
                container: f[1].to_string(),
                entry_id: if f[2] == "-" {
                    String::new()
                } else {
                    f[2].to_string()
                },
                sha256: f[3].to_string(),
            });
    }
    by_input
}

/// The manifest's name for a container kind.
fn tag(kind: ContainerKind) -> String {
    match kind {
        ContainerKind::Plain => "plain".into(),
        ContainerKind::RawElf => "raw".into(),
        ContainerKind::Bundle => "bundle".into(),
        ContainerKind::CompressedBundle { version, method } => format!("ccob-v{version}-{method}"),
        ContainerKind::OffloadBinary { .. } => "offload-binary".into(),
        ContainerKind::BundleSection => "bundle-section".into(),
    }
}

fn is_amdgpu_elf(b: &[u8]) -> bool {
    b.len() > 0x14 && b.starts_with(b"\x7fELF\x02\x01") && b[0x12] == 224 && b[0x13] == 0
}

/// Checks every input of a generated data directory against its manifest;
/// returns the number of objects compared.
fn check_dir(dir: &Path) -> usize {
    let mut failures = Vec::new();
    let mut compared = 0;
    for (input, expected) in manifest(dir) {
        let data = read(&dir.join("inputs").join(&input));
        let mut found: Vec<EmbeddedObject<'_>> = match embedded_objects(&data) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{input}: {e}"));
                continue;
            }
        };
        // for a host object with bundle sections LLVM's "host entry" is the object
        // itself, so the manifest leaves host entries out there
        if !expected.iter().any(|e| e.entry_id.starts_with("host-")) {
            found.retain(|o| !o.is_host_entry());
        }
        let mut used = vec![false; found.len()];
        let mut want_code_objects = 0;
        for e in &expected {
            let want = read(&dir.join("expected").join(&e.sha256));
            if is_amdgpu_elf(&want) {
                want_code_objects += 1;
            }
            let hit = found.iter().enumerate().position(|(i, o)| {
                !used[i]
                    && tag(o.container) == e.container
                    && o.entry_id == e.entry_id
                    && o.bytes[..] == want[..]
            });
            match hit {
                Some(i) => {
                    used[i] = true;
                    compared += 1;
                }
                None => failures.push(format!(
                    "{input}: no {} entry `{}` with LLVM's bytes ({} bytes, sha256 {}); we found: {}",
                    e.container,
                    e.entry_id,
                    want.len(),
                    e.sha256,
                    found.iter().map(|o| o.to_string()).collect::<Vec<_>>().join("; ")
                )),
            }
        }
        for (o, _) in found.iter().zip(&used).filter(|(_, u)| !**u) {
            failures.push(format!("{input}: extra object {o}"));
        }
        match code_objects(&data) {
            Ok(c) if c.len() == want_code_objects => {}
            Ok(c) => failures.push(format!(
                "{input}: code_objects found {} where LLVM extracted {want_code_objects} AMDGPU code objects",
                c.len()
            )),
            Err(e) => failures.push(format!("{input}: code_objects: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    compared
}

#[test]
fn every_entry_llvm_extracts_is_found_byte_identical() {
    let n = check_dir(&data_dir());
    assert!(n >= 40, "only {n} objects compared");
}

fn expected_bytes(input: &str, entry_id: &str) -> Vec<u8> {
    let m = manifest(&data_dir());
    let e = m[input]
        .iter()
        .find(|e| e.entry_id == entry_id)
        .unwrap_or_else(|| panic!("{input} has no {entry_id}"));
    read(&data_dir().join("expected").join(&e.sha256))
}

#[test]
fn written_bundle_is_byte_identical_to_the_bundlers() {
    // gen.sh bundles in this order, without alignment
    let ids = [
        "host-x86_64-unknown-linux-gnu-",
        "hipv4-amdgcn-amd-amdhsa--gfx906:xnack-",
        "hipv4-amdgcn-amd-amdhsa--gfx1030",
    ];
    let contents: Vec<Vec<u8>> = ids
        .iter()
        .map(|id| expected_bytes("plain.bundle", id))
        .collect();
    let entries: Vec<(&str, &[u8])> = ids
        .iter()
        .copied()
        .zip(contents.iter().map(|c| &c[..]))
        .collect();
    let ours = write_bundle(&entries, 1).unwrap();
    assert!(
        ours == read(&data_dir().join("inputs/plain.bundle")),
        "write_bundle differs from clang-offload-bundler"
    );
}

#[test]
fn written_hip_fatbin_is_byte_identical_to_clangs() {
    // clang places each entry of a HIP .hip_fatbin at a multiple of 4096
    let obj = read(&data_dir().join("inputs/hip.o"));
    let start = obj
        .windows(24)
        .position(|w| w == b"__CLANG_OFFLOAD_BUNDLE__")
        .unwrap();
    let section = &obj[start..];
    let order: Vec<&str> = parse_bundle(section)
        .unwrap()
        .entries
        .iter()
        .map(|e| e.id)
        .collect();
    let contents: Vec<Vec<u8>> = order.iter().map(|id| expected_bytes("hip.o", id)).collect();
    let entries: Vec<(&str, &[u8])> = order
        .iter()
        .copied()
        .zip(contents.iter().map(|c| &c[..]))
        .collect();
    let ours = write_bundle(&entries, 4096).unwrap();
    assert!(
        ours.len() > 8192 && section.starts_with(&ours),
        "write_bundle differs from clang's .hip_fatbin"
    );
}

#[test]
fn compressed_headers_match_the_bundlers() {
    let plain = read(&data_dir().join("inputs/plain.bundle"));
    for version in [2u16, 3] {
        let theirs = read(&data_dir().join(format!("inputs/ccob-v{version}-zstd.bundle")));
        let theirs_header = parse_compressed_header(&theirs).unwrap();
        let decompressed = decompress_bundle(&theirs).unwrap();
        assert_eq!(decompressed.bundle, plain);
        assert!(
            decompressed.hash_matches(),
            "our MD5 differs from the bundler's hash"
        );
        assert_eq!(decompressed.size, theirs.len() as u64);
        let ours = compress_bundle(&plain, version, CompressionMethod::Zstd, 6).unwrap();
        let ours_header = parse_compressed_header(&ours).unwrap();
        // same fields except the total size (a different zstd encoder)
        assert_eq!(ours_header.version, theirs_header.version);
        assert_eq!(ours_header.method, theirs_header.method);
        assert_eq!(
            ours_header.uncompressed_size,
            theirs_header.uncompressed_size
        );
        assert_eq!(ours_header.hash, theirs_header.hash);
        assert_eq!(ours_header.total_size, Some(ours.len() as u64));
        assert_eq!(&ours[..8], &theirs[..8], "magic, version and method bytes");
        assert_eq!(decompress_bundle(&ours).unwrap().bundle, plain);
    }
}

#[test]
fn every_committed_compressed_bundle_has_a_matching_hash() {
    for name in [
        "ccob-v1-zlib",
        "ccob-v1-zstd",
        "ccob-v2-zlib",
        "ccob-v2-zstd",
        "ccob-v3-zlib",
        "ccob-v3-zstd",
    ] {
        let data = read(&data_dir().join(format!("inputs/{name}.bundle")));
        let c = decompress_bundle(&data).unwrap();
        assert!(c.hash_matches(), "{name}");
        assert_eq!(c.size, data.len() as u64, "{name}");
        assert_eq!(parse_bundle(&c.bundle).unwrap().entries.len(), 3, "{name}");
    }
}

/// r600 code objects are ELFCLASS32 (AMDGPUUsage "ELF Header"): found as a plain
/// object, and by the raw scan inside other bytes, whole (the extent llvm-readelf-22
/// gives r600_redwood.o: section headers at 0x84, 5 of 40 bytes, end at 0x14c).
#[test]
fn r600_objects_are_code_objects() {
    let redwood =
        read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/elf/r600_redwood.o"));
    assert_eq!(redwood.len(), 0x84 + 5 * 40);
    let plain = code_objects(&redwood).unwrap();
    assert_eq!(plain.len(), 1);
    assert_eq!(plain[0].container, ContainerKind::Plain);
    assert!(plain[0].is_amdgpu_code_object());
    let mut blob = vec![0x5au8; 100];
    blob.extend_from_slice(&redwood);
    blob.extend_from_slice(&[0xa5; 33]);
    let raw = code_objects(&blob).unwrap();
    assert_eq!(raw.len(), 1);
    assert_eq!(raw[0].container, ContainerKind::RawElf);
    assert_eq!(raw[0].offset, 100);
    assert_eq!(&raw[0].bytes[..], &redwood[..]);
}

#[test]
fn target_ids_and_offsets_come_from_the_containers() {
    let data = read(&data_dir().join("inputs/plain.bundle"));
    let objects = code_objects(&data).unwrap();
    let gfx906 = objects
        .iter()
        .find(|o| o.entry_id.ends_with("gfx906:xnack-"))
        .unwrap();
    assert_eq!(gfx906.target_id.as_deref(), Some("gfx906:xnack-"));
    // the entry's bytes sit at its offset in the file
    let at = gfx906.offset as usize;
    assert_eq!(&data[at..at + gfx906.bytes.len()], &gfx906.bytes[..]);
    let exe = read(&data_dir().join("inputs/hip-compressed.exe"));
    let objects = code_objects(&exe).unwrap();
    assert_eq!(objects.len(), 4);
    assert!(objects
        .iter()
        .all(|o| o.section.as_deref() == Some(".hip_fatbin")));
    // two compressed bundles, each starting with its header at its offset
    for o in &objects {
        assert_eq!(&exe[o.offset as usize..o.offset as usize + 4], b"CCOB");
    }
    let offsets: std::collections::BTreeSet<u64> = objects.iter().map(|o| o.offset).collect();
    assert_eq!(offsets.len(), 2);
}

#[test]
fn output_names_follow_the_documented_scheme() {
    let data = read(&data_dir().join("inputs/plain.bundle"));
    let objects = embedded_objects(&data).unwrap();
    let names: Vec<String> = objects
        .iter()
        .enumerate()
        .map(|(i, o)| o.output_file_name("plain", i))
        .collect();
    assert_eq!(
        names,
        [
            "plain-0-host-x86_64-unknown-linux-gnu-.bin",
            "plain-1-hipv4-amdgcn-amd-amdhsa--gfx906_xnack-.co",
            "plain-2-hipv4-amdgcn-amd-amdhsa--gfx1030.co",
        ]
    );
    let raw = read(&data_dir().join("inputs/embedded.bin"));
    let objects = embedded_objects(&raw).unwrap();
    assert_eq!(objects[0].output_file_name("embedded", 0), "embedded-0.co");
    let rdc = read(&data_dir().join("inputs/hip-rdc.o"));
    let objects = embedded_objects(&rdc).unwrap();
    assert!(objects[0].output_file_name("k", 0).ends_with(".bc"));
}

#[test]
fn damaged_inputs_are_errors() {
    let plain = read(&data_dir().join("inputs/plain.bundle"));
    assert!(embedded_objects(&plain[..plain.len() - 1]).is_err());
    let ccob = read(&data_dir().join("inputs/ccob-v3-zstd.bundle"));
    assert!(embedded_objects(&ccob[..ccob.len() - 1]).is_err());
    let mut bad = ccob.clone();
    bad[6] = 7; // unknown method
    let e = embedded_objects(&bad).unwrap_err();
    assert_eq!(e.offset, 6, "{e}");
}

fn seeds() -> Vec<Vec<u8>> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(data_dir().join("inputs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names.iter().map(|p| read(p)).collect()
}

#[test]
fn mutated_inputs_never_panic() {
    let seeds = seeds();
    let refs: Vec<&[u8]> = seeds.iter().map(|s| &s[..]).collect();
    let n =
        hsaco_elf::fuzzing::mutation_smoke(hsaco_elf::fuzzing::bundle, &refs, 100_000, 0x10ff_10ad);
    assert_eq!(n, 100_000);
}

/// Live comparison with LLVM 22 (not part of `cargo test`; run by `cargo xtask
/// llvm-diff` or `cargo test -p hsaco-elf --test it -- --ignored bundle::llvm_diff`):
/// gen.sh --full builds fresh bundles, compressed bundles, HIP objects, a shared
/// library, an executable and OffloadBinaries for every corpus processor into a
/// temporary directory, and every object LLVM extracts must match ours.
#[test]
#[ignore = "needs LLVM 22 and the corpus"]
fn llvm_diff() {
    let out = std::env::temp_dir().join(format!("hsaco-bundle-llvm-diff-{}", std::process::id()));
    let status = std::process::Command::new("bash")
        .arg(data_dir().join("gen.sh"))
        .arg(&out)
        .arg("--full")
        .status()
        .expect("run gen.sh");
    assert!(status.success(), "gen.sh failed");
    let n = check_dir(&out);
    bundler_reads_what_we_write(&out);
    let _ = std::fs::remove_dir_all(&out);
    assert!(n > 40, "only {n} objects compared");
}

/// clang-offload-bundler-22 must unbundle our plain bundles (aligned) and our
/// compressed bundles (every version and method) to the original entries.
fn bundler_reads_what_we_write(dir: &Path) {
    let plain = read(&dir.join("inputs/plain.bundle"));
    let entries: Vec<(&str, &[u8])> = parse_bundle(&plain)
        .unwrap()
        .entries
        .iter()
        .map(|e| (e.id, e.bytes))
        .collect();
    let mut files = vec![(
        "ours-aligned.bundle".to_string(),
        write_bundle(&entries, 4096).unwrap(),
    )];
    for version in 1..=3 {
        for method in [CompressionMethod::Zlib, CompressionMethod::Zstd] {
            let name = format!("ours-v{version}-{method}.bundle");
            files.push((name, compress_bundle(&plain, version, method, 6).unwrap()));
        }
    }
    for (name, bytes) in files {
        let path = dir.join(&name);
        std::fs::write(&path, bytes).unwrap();
        for (id, want) in &entries {
            let got = dir.join("unbundled.out");
            let status = std::process::Command::new("clang-offload-bundler-22")
                .args(["--unbundle", "--type=o", &format!("--targets={id}")])
                .arg(format!("--input={}", path.display()))
                .arg(format!("--output={}", got.display()))
                .status()
                .expect("run clang-offload-bundler-22");
            assert!(status.success(), "bundler failed on our {name}");
            assert!(
                read(&got) == *want,
                "bundler extracts a different {id} from our {name}"
            );
        }
    }
}
