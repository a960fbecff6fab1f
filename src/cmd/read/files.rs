//! Reading many files quickly, for the `--metadata` fast path ([`super::fast`]).
//!
//! Reading a few thousand small code objects is mostly system calls: the kernel's copy
//! of every byte, the path walk of each `open`, and the `stat` that sizes a buffer. So:
//! - a file is opened relative to its directory, whose descriptor is kept while the
//!   next file lies in the same directory (`openat` walks one name, not the whole
//!   path);
//! - its first [`FIRST_READ`] bytes are read into a reused buffer, with no `stat`:
//!   most code objects are smaller, and a short read is the whole file. Only a file
//!   that fills them is sized and read on.
//!
//! (Mapping large files instead of reading them was tried: it saves the copy, but
//! unmapping in a process with several threads interrupts the other cores to flush
//! their TLBs, and the run was no faster.)
//!
//! Everything here returns `None` on any error; the caller then reads the file by the
//! ordinary path, which reports the error.

use std::path::Path;

#[cfg(unix)]
use rustix::fd::OwnedFd;

/// Bytes asked of a file's first `read`.
const FIRST_READ: usize = 1 << 16;

/// What a thread keeps from file to file.
#[derive(Default)]
pub struct Reader {
    /// The first bytes of the file (the allocation is reused).
    buf: Vec<u8>,
    /// The directory of the last file, and its descriptor.
    #[cfg(unix)]
    dir: Option<(std::path::PathBuf, OwnedFd)>,
}

impl Reader {
    /// Calls `f` with the whole contents of `path`; `None` if the file cannot be read
    /// here (then `f` is not called).
    pub fn with_file<R>(&mut self, path: &Path, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        #[cfg(unix)]
        {
            self.with_file_unix(path, f)
        }
        #[cfg(not(unix))]
        {
            self.buf = std::fs::read(path).ok()?;
            Some(f(&self.buf))
        }
    }

    #[cfg(unix)]
    fn with_file_unix<R>(&mut self, path: &Path, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        use rustix::fs::{fstat, openat, Mode, OFlags, CWD};
        use rustix::io::{read, Errno};

        let name = path.file_name()?;
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if self.dir.as_ref().is_none_or(|(d, _)| d != parent) {
            self.dir = None;
            let fd = openat(
                CWD,
                parent,
                OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .ok()?;
            self.dir = Some((parent.to_path_buf(), fd));
        }
        let (_, dir) = self.dir.as_ref()?;
        let fd = openat(dir, name, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty()).ok()?;
        if self.buf.len() < FIRST_READ {
            self.buf.resize(FIRST_READ, 0);
        }
        // A regular file's `read` returns fewer bytes than asked only at its end; a
        // file whose first read is short is whole in the buffer (and were it not, the
        // object would fail to parse and the ordinary path, which reads it all, would
        // report it).
        let n = loop {
            match read(&fd, &mut self.buf[..FIRST_READ]) {
                Err(Errno::INTR) => {}
                r => break r.ok()?,
            }
        };
        if n < FIRST_READ {
            return Some(f(&self.buf[..n]));
        }
        // the rest, into a buffer of the file's size and one byte more, so that the
        // `read` returning 0 at the end needs no second pass
        let size = usize::try_from(fstat(&fd).ok()?.st_size).ok()?;
        if self.buf.len() <= size {
            self.buf.resize(size + 1, 0);
        }
        let mut filled = n;
        loop {
            match read(&fd, &mut self.buf[filled..]) {
                Ok(0) => break,
                Ok(k) => filled += k,
                Err(Errno::INTR) => {}
                Err(_) => return None,
            }
            if filled == self.buf.len() {
                // the file grew: read on
                self.buf.resize(filled * 2, 0);
            }
        }
        Some(f(&self.buf[..filled]))
    }
}
