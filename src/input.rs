//! Reading input files (`-` is stdin).
//!
//! A file's bytes go into an [`AlignedBuf`]: the kernel copies them out of its page
//! cache up to twice as fast as into a large block straight from the allocator (see
//! [`crate::aligned`]).

use crate::aligned::AlignedBuf;
use anyhow::{Context, Result};
use std::io::Read;
use std::path::Path;

/// The whole content of `path`, or of stdin for `-`.
pub fn read_input(path: &Path) -> Result<AlignedBuf> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("reading stdin")?;
        return Ok(AlignedBuf::from(&buf[..]));
    }
    if let Some(data) = read_regular(path) {
        return Ok(data);
    }
    // (anything else, and every error, the plain way)
    let data = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(AlignedBuf::from(&data[..]))
}

/// Files at least this large are read in two halves at once.
const HALVES_FROM: u64 = 1 << 20;

/// A regular file read at its size, a large one in two halves by two threads (the
/// kernel's copy and the page faults of the new buffer then take half the time when a
/// second core is free); `None` if the file is not regular or anything goes wrong
/// (the caller then reads it the plain way and reports the error).
fn read_regular(path: &Path) -> Option<AlignedBuf> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let len = usize::try_from(meta.len()).ok()?;
    // (zeroed memory comes from the allocator as fresh pages: no fill pass)
    let mut data = AlignedBuf::default();
    data.resize(len);
    let ok = if meta.len() < HALVES_FROM {
        file.read_exact_at(&mut data, 0).is_ok()
    } else {
        let (first, second) = data.split_at_mut(len / 2);
        std::thread::scope(|scope| {
            let other = scope.spawn(|| file.read_exact_at(second, (len / 2) as u64).is_ok());
            let mine = file.read_exact_at(first, 0).is_ok();
            mine && other.join().unwrap_or(false)
        })
    };
    // the file must not have grown meanwhile
    let mut probe = [0u8; 1];
    (ok && file.read_at(&mut probe, len as u64).ok()? == 0).then_some(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_read_the_whole_file() {
        let path = std::env::temp_dir().join(format!("hsaco-input-{}.bin", std::process::id()));
        // an odd length, so the halves differ in size
        let data: Vec<u8> = (0..(HALVES_FROM as usize * 3 / 2 + 7))
            .map(|i| (i * 7 + i / 251) as u8)
            .collect();
        std::fs::write(&path, &data).unwrap();
        let halves = read_regular(&path);
        let whole = read_input(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(halves.as_deref() == Some(&data[..]), "read_regular differs");
        assert!(whole[..] == data[..]);
    }
}
