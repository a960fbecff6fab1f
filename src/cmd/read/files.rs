//! Reading many files quickly, for the `--metadata` fast path ([`super::fast`]).
//!
//! Reading a few thousand small code objects is mostly system calls: the kernel's copy
//! of every byte, the path walk of each `open`, and the `stat` that sizes a buffer. So:
//! - a file is opened relative to its directory, whose descriptor is kept while the
//!   next file lies in the same directory (`openat` walks one name, not the whole
//!   path);
//! - its first [`FIRST_READ`] bytes are read into a reused buffer, with no `stat`:
//!   most code objects are smaller, and a short read of a regular file is the whole
//!   file. Only a file that fills them is sized and read on. (A pipe's `read` can
//!   stop short before the end: a file the fast path refuses is asked whether it is
//!   regular, and if not, read to its end and handed over, so that no byte is lost.)
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
    /// Calls `f` with the whole contents of `path` and returns what it returns. `Err`
    /// when the file cannot be read here or `f` returns `None`: the caller then reads
    /// the file by the ordinary path, which reports it. A file that cannot be read
    /// twice (a pipe, a terminal) comes back in `Err(Some(bytes))` with everything it
    /// held, so that nothing read from it is lost.
    pub fn with_file<T>(
        &mut self,
        path: &Path,
        f: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Result<T, Option<Vec<u8>>> {
        #[cfg(unix)]
        {
            self.with_file_unix(path, f)
        }
        #[cfg(not(unix))]
        {
            // (std::fs::read reads a regular file the same way each time)
            let data = std::fs::read(path).map_err(|_| None)?;
            f(&data).ok_or(None)
        }
    }

    #[cfg(unix)]
    fn with_file_unix<T>(
        &mut self,
        path: &Path,
        f: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Result<T, Option<Vec<u8>>> {
        use rustix::fs::{fstat, openat, FileType, Mode, OFlags, CWD};
        use rustix::io::{read, Errno};

        let name = path.file_name().ok_or(None)?;
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
            .map_err(|_| None)?;
            self.dir = Some((parent.to_path_buf(), fd));
        }
        let (_, dir) = self.dir.as_ref().ok_or(None)?;
        let fd =
            openat(dir, name, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty()).map_err(|_| None)?;
        if self.buf.len() < FIRST_READ {
            self.buf.resize(FIRST_READ, 0);
        }
        let filled = loop {
            match read(&fd, &mut self.buf[..FIRST_READ]) {
                Err(Errno::INTR) => {}
                r => break r.map_err(|_| None)?,
            }
        };
        let regular = |fd: &OwnedFd| {
            fstat(fd).is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::RegularFile)
        };
        if filled < FIRST_READ {
            // A regular file's `read` returns fewer bytes than asked only at its end,
            // so the buffer holds the whole file; no `stat` is needed to know it. Only
            // when the file is refused is it asked whether it could be read again.
            if let Some(t) = f(&self.buf[..filled]) {
                return Ok(t);
            }
            if regular(&fd) {
                return Err(None);
            }
            return Err(Some(self.read_rest(&fd, filled)));
        }
        // a larger file: sized, and read on into a buffer of its size and one byte
        // more, so that the `read` returning 0 at the end needs no second pass
        let size = usize::try_from(fstat(&fd).map_err(|_| None)?.st_size).unwrap_or(0);
        if self.buf.len() <= size {
            self.buf.resize(size + 1, 0);
        }
        // (the file may have grown since, or be a stream)
        let filled = self.read_on(&fd, filled);
        let data = &self.buf[..filled];
        match f(data) {
            Some(t) => Ok(t),
            None if regular(&fd) => Err(None),
            None => Err(Some(data.to_vec())),
        }
    }

    /// The first `filled` bytes of the buffer and the rest of the stream `fd`.
    #[cfg(unix)]
    fn read_rest(&mut self, fd: &OwnedFd, filled: usize) -> Vec<u8> {
        let filled = self.read_on(fd, filled);
        self.buf[..filled].to_vec()
    }

    /// Reads `fd` to its end (or its first error: what was read is kept, as the
    /// ordinary path would have it up to the error) into the buffer after its first
    /// `filled` bytes, growing it as needed; returns the bytes now held.
    #[cfg(unix)]
    fn read_on(&mut self, fd: &OwnedFd, mut filled: usize) -> usize {
        use rustix::io::{read, Errno};
        loop {
            if filled == self.buf.len() {
                self.buf.resize(filled * 2, 0);
            }
            match read(fd, &mut self.buf[filled..]) {
                Ok(0) => return filled,
                Ok(k) => filled += k,
                Err(Errno::INTR) => {}
                Err(_) => return filled,
            }
        }
    }
}
