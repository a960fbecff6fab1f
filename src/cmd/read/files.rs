//! Reading many files quickly, for the `--metadata` fast path ([`super::fast`]).
//!
//! Two costs dominate reading a few thousand small code objects: the kernel's copy of
//! every byte into the reader's buffer, and the path walk of each `open`. So:
//! - a file is opened relative to its directory, whose descriptor is kept while the
//!   next file lies in the same directory (`openat` walks one name, not the whole
//!   path);
//! - its first [`FIRST_READ`] bytes are read into a reused buffer; a file that fills
//!   them is mapped instead of read on (a code object's metadata and symbols are a
//!   small part of a large file, and the mapping copies nothing: only the pages looked
//!   at are touched).
//!
//! Everything here returns `None` on any error; the caller then reads the file by the
//! ordinary path, which reports the error.

use std::path::Path;

#[cfg(unix)]
use rustix::fd::OwnedFd;

/// Bytes asked of a file's first `read`; a file that fills them is mapped.
const FIRST_READ: usize = 1 << 14;

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
        let size = usize::try_from(fstat(&fd).ok()?.st_size).ok()?;
        let map = Mapping::new(&fd, size)?;
        Some(f(map.bytes()))
    }
}

/// A whole file mapped read-only.
#[cfg(unix)]
struct Mapping {
    ptr: *mut std::ffi::c_void,
    len: usize,
}

#[cfg(unix)]
impl Mapping {
    #[allow(unsafe_code)]
    fn new(fd: &OwnedFd, len: usize) -> Option<Self> {
        use rustix::mm::{mmap, MapFlags, ProtFlags};
        if len == 0 {
            return None;
        }
        // SAFETY: a fresh private read-only mapping of `len` bytes of an open file, at
        // an address the kernel picks, aliases no Rust object. The bytes are read
        // through `bytes` only while `self` lives, and `Drop` unmaps them. (As with
        // every reader that maps files, LLVM's included, a file truncated by another
        // process while mapped would fault; the files read here are inputs named on
        // the command line, read once.)
        let ptr = unsafe {
            mmap(
                std::ptr::null_mut(),
                len,
                ProtFlags::READ,
                MapFlags::PRIVATE,
                fd,
                0,
            )
        }
        .ok()?;
        Some(Mapping { ptr, len })
    }

    #[allow(unsafe_code)]
    fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` is a live mapping of `len` readable bytes (see `new`), not
        // written by this process, and the slice cannot outlive `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<u8>(), self.len) }
    }
}

#[cfg(unix)]
impl Drop for Mapping {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `new`; no slice of it outlives
        // `self`.
        let _ = unsafe { rustix::mm::munmap(self.ptr, self.len) };
    }
}
