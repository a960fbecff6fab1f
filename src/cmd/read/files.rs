//! Reading many files quickly, for the `--metadata` fast path ([`super::fast`]).
//!
//! Reading a few thousand small code objects is mostly system calls: the kernel's copy
//! of every byte, the path walk of each `open`, and the `stat` that sizes a buffer. So:
//! - a file is opened relative to its directory, whose descriptor is kept while the
//!   next file lies in the same directory (`openat` walks one name, not the whole
//!   path);
//! - its first [`FIRST_READ`] bytes are read into a reused buffer, with no `stat`:
//!   most code objects are smaller, and a short read of a regular file is the whole
//!   file. Only a file that fills them is sized (`fstat`) and read on. (A pipe's
//!   `read` can stop short before the end: a file the fast path refuses is asked
//!   whether it is regular, and if not, read to its end and handed over, so that no
//!   byte is lost.)
//! - a larger regular file that is a code object is not read whole: its section
//!   headers (at the end of the files LLVM writes) are read with the 4 KiB before
//!   them, then whatever else the metadata output reads ([`Reader::read_parts`]);
//!   the other bytes (the code, mostly) are not copied. On the corpus that copies
//!   19.7 MB instead of 27.5 MB, for one or two `pread`s per file larger than
//!   [`FIRST_READ`] (208 of 2326 files). Of the symbols' string tables only the last
//!   byte is read (the names are not printed): a library object's mangled names
//!   are a quarter of its bytes.
//!
//! - the buffer starts on a 64-byte boundary ([`crate::aligned`]): in a buffer from
//!   the allocator, 16 bytes past a page boundary once it has grown large, the
//!   kernel's copy ran at half speed (`read --metadata` over the corpus: 17.4 ms
//!   before, 14.0 ms after, mean of 60 runs).
//!
//! (Mapping large files instead of reading them was tried: it saves the copy, but
//! unmapping in a process with several threads interrupts the other cores to flush
//! their TLBs, and the run was no faster.)
//!
//! Everything here returns `None` on any error; the caller then reads the file by the
//! ordinary path, which reports the error.

use crate::aligned::AlignedBuf;
use std::path::Path;

#[cfg(unix)]
use rustix::fd::OwnedFd;

/// Bytes asked of a file's first `read`.
const FIRST_READ: usize = 1 << 14;
/// Bytes asked of a file's first `read` by a reader that reads files whole
/// ([`Reader::whole`]): every object of the -g corpus (the largest is 50 KB) in one
/// `read`, where 302 of the 1296 took an `fstat` and two more `read`s with
/// [`FIRST_READ`].
const WHOLE_FIRST_READ: usize = 1 << 16;
/// The read of the section headers starts this many bytes before them, where the
/// symbol and string tables usually are.
const BEFORE_HEADERS: usize = 1 << 12;
/// Two ranges still to read this close are read with one `pread`.
const MERGE_GAP: usize = 1 << 12;

/// What a thread keeps from file to file.
#[derive(Default)]
pub struct Reader {
    /// The first bytes of the file (the allocation is reused).
    buf: AlignedBuf,
    /// The directory of the last file, and its descriptor.
    #[cfg(unix)]
    dir: Option<(Vec<u8>, OwnedFd)>,
    /// The byte ranges [`Reader::read_parts`] reads (the allocation is reused).
    #[cfg(unix)]
    ranges: Vec<(usize, usize)>,
    /// Tests: fill the buffer with this byte before each file, so that a byte the
    /// metadata output reads but [`Reader::read_parts`] did not would show.
    #[cfg(all(test, unix))]
    pub poison: Option<u8>,
    /// Tests: how many files [`Reader::read_parts`] read.
    #[cfg(all(test, unix))]
    pub parts_read: usize,
    /// Always read files whole (no [`Reader::read_parts`]): for outputs that read
    /// more than the metadata (`read --debug-*`).
    pub whole: bool,
}

impl Reader {
    /// A reader that reads every file whole ([`Reader::whole`]).
    pub fn whole() -> Reader {
        Reader {
            whole: true,
            ..Reader::default()
        }
    }

    /// Calls `f` with the whole contents of `path` and returns what it returns. `Err`
    /// when the file cannot be read here or `f` returns `None`: the caller then reads
    /// the file by the ordinary path, which reports it. A file that cannot be read
    /// twice (a pipe, a terminal) comes back in `Err(Some(bytes))` with everything it
    /// held, so that nothing read from it is lost.
    pub fn with_file<T>(
        &mut self,
        path: &Path,
        f: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Result<T, Option<AlignedBuf>> {
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
    ) -> Result<T, Option<AlignedBuf>> {
        use rustix::fs::{fstat, openat, FileType, Mode, OFlags, CWD};
        use rustix::io::{read, Errno};

        let (parent, name) = split_dir(path);
        if matches!(name, b"" | b"." | b"..") {
            return Err(None);
        }
        if self.dir.as_ref().is_none_or(|(d, _)| d[..] != *parent) {
            self.dir = None;
            let fd = openat(
                CWD,
                parent,
                OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|_| None)?;
            self.dir = Some((parent.to_vec(), fd));
        }
        let (_, dir) = self.dir.as_ref().ok_or(None)?;
        let fd =
            openat(dir, name, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty()).map_err(|_| None)?;
        let first = if self.whole {
            WHOLE_FIRST_READ
        } else {
            FIRST_READ
        };
        if self.buf.len() < first {
            self.buf.resize(first);
        }
        #[cfg(test)]
        if let Some(b) = self.poison {
            self.buf.fill(b);
        }
        let filled = loop {
            match read(&fd, &mut self.buf[..first]) {
                Err(Errno::INTR) => {}
                r => break r.map_err(|_| None)?,
            }
        };
        let regular = |fd: &OwnedFd| {
            fstat(fd).is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::RegularFile)
        };
        if filled < first {
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
        // a larger file: sized
        let st = fstat(&fd).map_err(|_| None)?;
        let size = usize::try_from(st.st_size).unwrap_or(0);
        // a larger code object: only the parts the output reads
        if !self.whole
            && FileType::from_raw_mode(st.st_mode) == FileType::RegularFile
            && self.read_parts(&fd, size)
        {
            #[cfg(test)]
            {
                self.parts_read += 1;
            }
            if let Some(t) = f(&self.buf[..size]) {
                return Ok(t);
            }
            // refused: the ordinary path reads it whole
            return Err(None);
        }
        // any other larger file: read on into a buffer of its size and one byte more,
        // so that the `read` returning 0 at the end needs no second pass
        if self.buf.len() <= size {
            self.buf.resize(size + 1);
        }
        // (the file may have grown since, or be a stream)
        let filled = self.read_on(&fd, filled);
        let data = &self.buf[..filled];
        match f(data) {
            Some(t) => Ok(t),
            None if regular(&fd) => Err(None),
            None => Err(Some(AlignedBuf::from(data))),
        }
    }

    /// For a regular file of `size` bytes whose first [`FIRST_READ`] bytes are in
    /// the buffer: when it is a 64-bit AMDGPU ELF file that ends with its section
    /// header table, reads into
    /// the buffer, at their offsets, every byte the `--metadata` output reads
    /// (`super::fast::blocks`): the ELF header, the section headers, the section name
    /// table, the note sections, the symbol tables and the last byte of their string
    /// tables (the whole table if that byte is not a NUL), and returns `true`. The other bytes of the buffer are left as they were: nothing
    /// reads them. `false` (the file is then read whole) for anything else: another
    /// layout, a file larger than its section headers say, a section past the end
    /// (the ordinary path reports it), no note section, extended section numbering,
    /// a file that changed meanwhile (a short `pread`).
    #[cfg(unix)]
    fn read_parts(&mut self, fd: &OwnedFd, size: usize) -> bool {
        self.try_read_parts(fd, size).is_some()
    }

    #[cfg(unix)]
    fn try_read_parts(&mut self, fd: &OwnedFd, size: usize) -> Option<()> {
        use crate::input::{HeaderLayout, SectionEntry};
        use hsaco_elf::elf::consts::{SHT_DYNSYM, SHT_NOBITS, SHT_NOTE, SHT_NULL, SHT_SYMTAB};
        let layout = HeaderLayout::parse(&self.buf)?;
        if layout.phnum == 0xffff || layout.table_end() != Some(size) {
            return None;
        }
        let (shoff, shnum, shstrndx) = (layout.shoff, layout.shnum, layout.shstrndx);
        let tail = FIRST_READ.max(shoff.saturating_sub(BEFORE_HEADERS));
        if size <= tail {
            return None;
        }
        // (only the first read's bytes are kept: the rest is read over)
        if self.buf.len() < size {
            self.buf.resize_keeping(size, FIRST_READ);
        }
        #[cfg(test)]
        if let Some(b) = self.poison {
            self.buf[FIRST_READ..size].fill(b);
        }
        if pread_all(fd, &mut self.buf[tail..size], tail)? != size - tail {
            return None;
        }
        let mut ranges = std::mem::take(&mut self.ranges);
        ranges.clear();
        let mut notes = false;
        let mut all_there = true;
        // the string tables of which only the last byte is read: (start, end)
        let mut tails = [(0usize, 0usize); 2];
        let mut n_tails = 0;
        let headers = &self.buf[shoff..size];
        let mut need = |i: usize, last_byte: bool| {
            let Some(s) = SectionEntry::at(headers, i) else {
                all_there = false;
                return;
            };
            if matches!(s.sh_type, SHT_NULL | SHT_NOBITS) {
                return;
            }
            let (off, len) = (s.offset, s.size);
            match off
                .checked_add(len)
                .and_then(|end| usize::try_from(end).ok())
            {
                Some(end) if end <= size && last_byte && len > 0 && n_tails < tails.len() => {
                    ranges.push((end - 1, end));
                    tails[n_tails] = (off as usize, end);
                    n_tails += 1;
                }
                Some(end) if end <= size => ranges.push((off as usize, end)),
                _ => all_there = false,
            }
        };
        need(shstrndx, false);
        for i in 0..shnum {
            let Some(s) = SectionEntry::at(headers, i) else {
                break;
            };
            match s.sh_type {
                SHT_NOTE => {
                    notes = true;
                    need(i, false);
                }
                SHT_SYMTAB | SHT_DYNSYM => {
                    need(i, false);
                    // (the names are not printed: whether each one ends inside the
                    // table is known from its offset and the table's last byte,
                    // `super::fast::names_end_in_table`)
                    if s.link != 0 && s.link < shnum && s.link != shstrndx {
                        need(s.link, true);
                    }
                }
                _ => {}
            }
        }
        // (without note sections the notes come from the program headers)
        let mut ok = notes && all_there;
        if ok {
            // what is not read yet, in few reads
            ranges.sort_unstable();
            let mut missing: Option<(usize, usize)> = None;
            for &(start, end) in &ranges {
                let start = start.max(FIRST_READ);
                let end = end.min(tail);
                if start >= end {
                    continue;
                }
                missing = match missing {
                    Some((s, e)) if start <= e.saturating_add(MERGE_GAP) => Some((s, e.max(end))),
                    Some((s, e)) => {
                        ok &= pread_all(fd, &mut self.buf[s..e], s) == Some(e - s);
                        Some((start, end))
                    }
                    None => Some((start, end)),
                };
            }
            if let Some((s, e)) = missing {
                ok &= pread_all(fd, &mut self.buf[s..e], s) == Some(e - s);
            }
            // a string table that does not end in a NUL: its names are read one by
            // one, so the whole of it is
            for &(start, end) in &tails[..n_tails] {
                let (s, e) = (start.max(FIRST_READ), end.min(tail));
                if ok && s < e && self.buf[end - 1] != 0 {
                    ok &= pread_all(fd, &mut self.buf[s..e], s) == Some(e - s);
                }
            }
        }
        self.ranges = ranges;
        ok.then_some(())
    }

    /// The first `filled` bytes of the buffer and the rest of the stream `fd`.
    #[cfg(unix)]
    fn read_rest(&mut self, fd: &OwnedFd, filled: usize) -> AlignedBuf {
        let filled = self.read_on(fd, filled);
        AlignedBuf::from(&self.buf[..filled])
    }

    /// Reads `fd` to its end (or its first error: what was read is kept, as the
    /// ordinary path would have it up to the error) into the buffer after its first
    /// `filled` bytes, growing it as needed; returns the bytes now held.
    #[cfg(unix)]
    fn read_on(&mut self, fd: &OwnedFd, mut filled: usize) -> usize {
        use rustix::io::{read, Errno};
        loop {
            if filled == self.buf.len() {
                self.buf.resize(filled * 2);
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

/// `path` split at its last `/`: its directory (`.` when there is none, `/` for the
/// root) and its name, as bytes (comparing these is much cheaper than comparing
/// [`Path::parent`]s, which are compared component by component).
pub fn split_dir(path: &Path) -> (&[u8], &[u8]) {
    let bytes = path.as_os_str().as_encoded_bytes();
    match bytes.iter().rposition(|&b| b == b'/') {
        Some(0) => (b"/", &bytes[1..]),
        Some(i) => (&bytes[..i], &bytes[i + 1..]),
        None => (b".", bytes),
    }
}

/// Reads `buf.len()` bytes of `fd` from `offset`, or up to its end; `None` on error.
#[cfg(unix)]
fn pread_all(fd: &OwnedFd, buf: &mut [u8], offset: usize) -> Option<usize> {
    use rustix::io::{pread, Errno};
    let mut done = 0;
    while done < buf.len() {
        match pread(fd, &mut buf[done..], (offset + done) as u64) {
            Ok(0) => break,
            Ok(k) => done += k,
            Err(Errno::INTR) => {}
            Err(_) => return None,
        }
    }
    Some(done)
}

#[cfg(test)]
mod tests {
    use super::split_dir;
    use std::path::Path;

    /// The directory and name split_dir gives open the same file as the path (the
    /// directory compared by the fast path's work units and the reader's kept
    /// directory descriptor).
    #[test]
    fn split_dir_gives_directory_and_name() {
        for (path, dir, name) in [
            ("a.co", ".", "a.co"),
            ("d/a.co", "d", "a.co"),
            ("/abs/d/a.co", "/abs/d", "a.co"),
            ("/a.co", "/", "a.co"),
            ("d//a.co", "d/", "a.co"),
            ("./a.co", ".", "a.co"),
            ("d/", "d", ""),
        ] {
            let (d, n) = split_dir(Path::new(path));
            assert_eq!((d, n), (dir.as_bytes(), name.as_bytes()), "{path}");
        }
    }
}
