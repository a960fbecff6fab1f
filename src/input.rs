//! Reading input files (`-` is stdin).
//!
//! A file's bytes go into an [`AlignedBuf`]: the kernel copies them out of its page
//! cache up to twice as fast as into a large block straight from the allocator (see
//! [`crate::aligned`]). `hsaco dis` maps code objects of 64 KiB or more instead
//! ([`map_code`]): no copy and no fresh pages for the bytes it reads (`dis` of a
//! 1.7 MB library object: 96 fewer page faults, 3.69 -> 3.43 ms best of 40 runs
//! interleaved with llvm-objdump-22), and reads smaller ones in parts
//! ([`read_code_parts`]).

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

/// The fields of a 64-bit little-endian AMDGPU ELF header that the partial readers
/// (`read_code_parts` here, `read --metadata`'s `Reader::try_read_parts`) lay their
/// reads out by; `None` for any other file, or a section table they do not handle
/// (entries other than 64 bytes, no sections, extended section numbering).
pub(crate) struct HeaderLayout {
    pub e_flags: u32,
    pub phnum: u16,
    pub shoff: usize,
    pub shnum: usize,
    pub shstrndx: usize,
}

impl HeaderLayout {
    pub(crate) fn parse(h: &[u8]) -> Option<HeaderLayout> {
        let h = h.get(..64)?;
        if h[..4] != *b"\x7fELF"
            || h[4] != 2
            || h[5] != 1
            || u16_at(h, 18) != hsaco_elf::elf::consts::EM_AMDGPU
        {
            return None;
        }
        let (shentsize, shnum, shstrndx) = (
            u16_at(h, 58),
            usize::from(u16_at(h, 60)),
            usize::from(u16_at(h, 62)),
        );
        if shentsize != 64 || shnum == 0 || shstrndx >= shnum.min(0xff00) {
            return None;
        }
        Some(HeaderLayout {
            e_flags: u32_at(h, 48),
            phnum: u16_at(h, 56),
            shoff: usize::try_from(u64_at(h, 40)).ok()?,
            shnum,
            shstrndx,
        })
    }

    /// Where the section header table ends (`None` on overflow).
    pub(crate) fn table_end(&self) -> Option<usize> {
        self.shoff.checked_add(self.shnum * 64)
    }
}

/// The fields of one 64-byte section header entry the partial readers use.
pub(crate) struct SectionEntry {
    pub sh_type: u32,
    pub flags: u64,
    pub offset: u64,
    pub size: u64,
    pub link: usize,
}

impl SectionEntry {
    /// Entry `i` of a section header table.
    pub(crate) fn at(headers: &[u8], i: usize) -> Option<SectionEntry> {
        let s = headers.get(i.checked_mul(64)?..)?.get(..64)?;
        Some(SectionEntry {
            sh_type: u32_at(s, 4),
            flags: u64_at(s, 8),
            offset: u64_at(s, 24),
            size: u64_at(s, 32),
            link: u32_at(s, 40) as usize,
        })
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// For `hsaco dis`: of a regular file that is a 64-bit little-endian AMDGPU ELF file
/// whose `e_flags` pass `flags_ok`, only what the listing reads, at its offsets in a
/// zeroed buffer of the file's size: the ELF header, the section header table, the
/// section name table, the symbol table and the pages of its string table that hold
/// the names listed (the dynamic symbols and their whole string table only when there
/// are no static symbols), and the executable sections. A library object is mostly metadata notes, constant data and relocations,
/// which a listing does not read (a 1.7 MB one: 0.9 MB of them), and the pages of the
/// buffer nothing is read into are never touched. `None` (then the file is read
/// whole) for anything else: another kind of file, sections past the end, extended
/// section numbering, any error.
pub fn read_code_parts(path: &Path, flags_ok: impl Fn(u32) -> bool) -> Option<AlignedBuf> {
    code_parts(path, flags_ok, None).map(|(data, _)| data)
}

/// [`read_code_parts`], and how many bytes it read; tests fill the buffer with
/// `poison` first, so that output that depends on a byte not read shows.
pub(crate) fn code_parts(
    path: &Path,
    flags_ok: impl Fn(u32) -> bool,
    poison: Option<u8>,
) -> Option<(AlignedBuf, usize)> {
    use hsaco_elf::elf::consts::{
        SHF_EXECINSTR, SHT_DYNSYM, SHT_NOBITS, SHT_NULL, SHT_SYMTAB, SHT_SYMTAB_SHNDX,
    };
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let size = usize::try_from(meta.len()).ok()?;
    let mut h = [0u8; 64];
    file.read_exact_at(&mut h, 0).ok()?;
    let layout = HeaderLayout::parse(&h)?;
    if !flags_ok(layout.e_flags) {
        return None;
    }
    let (shoff, shnum, shstrndx) = (layout.shoff, layout.shnum, layout.shstrndx);
    let table_end = layout.table_end().filter(|&e| e <= size)?;
    let mut data = AlignedBuf::default();
    data.resize(size);
    if let Some(b) = poison {
        data.fill(b);
    }
    data[..64].copy_from_slice(&h);
    file.read_exact_at(&mut data[shoff..table_end], shoff as u64)
        .ok()?;
    let headers = &data[shoff..table_end];
    let need = |i: usize, ranges: &mut Vec<(usize, usize)>| -> Option<()> {
        let s = SectionEntry::at(headers, i)?;
        if matches!(s.sh_type, SHT_NULL | SHT_NOBITS) {
            return Some(());
        }
        let off = usize::try_from(s.offset).ok()?;
        let end = off.checked_add(usize::try_from(s.size).ok()?)?;
        (end <= size).then(|| ranges.push((off, end)))
    };
    let mut wanted = Vec::new();
    need(shstrndx, &mut wanted)?;
    // (the dynamic symbols are listed only when the first static symbol table holds
    // none, `listing::write_elf`: a library object's are 80 KB of the 700 read)
    let first_symtab =
        (0..shnum).find(|&i| SectionEntry::at(headers, i).is_some_and(|s| s.sh_type == SHT_SYMTAB));
    let static_symbols = first_symtab
        .and_then(|i| SectionEntry::at(headers, i))
        .is_some_and(|s| s.size >= 24);
    // the string table of the listed symbols, of which only their names are read
    let mut names_in = None;
    for i in 0..shnum {
        let s = SectionEntry::at(headers, i)?;
        match s.sh_type {
            SHT_DYNSYM if static_symbols => {}
            SHT_SYMTAB if static_symbols && Some(i) == first_symtab && s.link != 0 => {
                need(i, &mut wanted)?;
                let mut names = Vec::new();
                need(s.link, &mut names)?;
                names_in = names.first().copied();
            }
            SHT_SYMTAB | SHT_DYNSYM | SHT_SYMTAB_SHNDX => {
                need(i, &mut wanted)?;
                if s.link != 0 {
                    need(s.link, &mut wanted)?;
                }
            }
            _ if s.flags & SHF_EXECINSTR != 0 => need(i, &mut wanted)?,
            _ => {}
        }
    }
    // (the program header table is only checked to lie inside the file)
    let mut read = 64 + (table_end - shoff);
    read_ranges(&file, &mut data, wanted, &mut read)?;
    if let (Some(strtab), Some(symtab)) = (names_in, first_symtab) {
        read_symbol_names(
            &file,
            &mut data,
            (shoff, table_end),
            symtab,
            strtab,
            &mut read,
        )?;
    }
    // the file must not have grown meanwhile
    let mut probe = [0u8; 1];
    (file.read_at(&mut probe, size as u64).ok()? == 0).then_some((data, read))
}

/// Reads the file's byte ranges `ranges` into `data` at their offsets (ranges closer
/// than a page apart as one); adds the bytes read to `read`.
fn read_ranges(
    file: &std::fs::File,
    data: &mut [u8],
    mut ranges: Vec<(usize, usize)>,
    read: &mut usize,
) -> Option<()> {
    use std::os::unix::fs::FileExt;
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (s, e) in ranges {
        match merged.last_mut() {
            Some(last) if s <= last.1 + 4096 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    for (s, e) in merged {
        if s < e {
            file.read_exact_at(data.get_mut(s..e)?, s as u64).ok()?;
            *read += e - s;
        }
    }
    Some(())
}

/// Of the string table at file range `strtab`, reads into `data` the pages that a
/// listing reads: those of the names of the symbols it shows (of symbol table
/// `symtab`, section `symtab` of the section header table at `table`: symbols of
/// executable sections, not section or file symbols), from the page of a name's
/// start to that of the NUL that ends it, and the table's last page
/// (`SymbolTable::iter_where` looks for its last NUL; a name after that NUL is
/// read there). A library object's string table is mostly the names of other
/// symbols (constant data, kernel descriptors): of the 1.7 MB object's 85 pages, 18
/// hold names the listing shows. The whole table when its last page has no NUL.
fn read_symbol_names(
    file: &std::fs::File,
    data: &mut [u8],
    table: (usize, usize),
    symtab: usize,
    strtab: (usize, usize),
    read: &mut usize,
) -> Option<()> {
    use hsaco_elf::elf::consts::{SHF_EXECINSTR, SHT_NOBITS, STT_FILE, STT_SECTION};
    const PAGE: usize = 4096;
    let (so, se) = strtab;
    if so >= se {
        return Some(());
    }
    let headers = data.get(table.0..table.1)?;
    let shnum = headers.len() / 64;
    let listed: Vec<bool> = (0..shnum)
        .map(|i| {
            SectionEntry::at(headers, i)
                .is_some_and(|s| s.flags & SHF_EXECINSTR != 0 && s.sh_type != SHT_NOBITS)
        })
        .collect();
    let sym = SectionEntry::at(headers, symtab)?;
    let sym_off = usize::try_from(sym.offset).ok()?;
    let symbols = data.get(sym_off..sym_off.checked_add(usize::try_from(sym.size).ok()?)?)?;
    // (the names' offsets in the file)
    let starts: Vec<usize> = symbols
        .chunks_exact(24)
        .filter_map(|d| {
            let name = u32_at(d, 0) as usize;
            let kind = d[4] & 0xf;
            let shndx = usize::from(u16_at(d, 6));
            let shown = kind != STT_SECTION
                && kind != STT_FILE
                && listed.get(shndx).copied().unwrap_or(false);
            (shown && name < se - so).then_some(so + name)
        })
        .collect();
    let first_page = so / PAGE;
    let mut have = vec![false; (se - 1) / PAGE - first_page + 1];
    let page_range = |p: usize| (p * PAGE).max(so)..((p + 1) * PAGE).min(se);
    let mut want: Vec<usize> = starts.iter().map(|a| a / PAGE).collect();
    want.push((se - 1) / PAGE);
    loop {
        want.sort_unstable();
        want.dedup();
        want.retain(|p| !have[p - first_page]);
        if want.is_empty() {
            break;
        }
        let ranges = want
            .iter()
            .map(|&p| {
                have[p - first_page] = true;
                let r = page_range(p);
                (r.start, r.end)
            })
            .collect();
        read_ranges(file, data, ranges, read)?;
        // a name whose NUL is not in the pages read yet needs the next page
        want = Vec::new();
        for &a in &starts {
            let mut p = a / PAGE;
            while have[p - first_page] {
                let r = page_range(p);
                if data[r.start.max(a)..r.end].contains(&0) || r.end == se {
                    break;
                }
                p += 1;
            }
            if !have[p - first_page] {
                want.push(p);
            }
        }
    }
    // (the last NUL must be in the last page, or the search for it would read
    // pages not read)
    let last = page_range((se - 1) / PAGE);
    if !data[last].contains(&0) {
        read_ranges(file, data, vec![strtab], read)?;
    }
    Some(())
}

/// Files at least this large are mapped by [`map_code`].
const MAP_FROM: u64 = 64 << 10;

/// For `hsaco dis`: a regular file of at least [`MAP_FROM`] bytes that is a 64-bit
/// little-endian AMDGPU ELF file whose `e_flags` pass `flags_ok`, mapped into memory
/// (read-only), as LLVM's tools map their inputs. Only the pages the listing
/// touches are read from the page cache, with no copy and no zeroed buffer; `None`
/// for anything else or on any error (the caller then reads the file).
#[allow(unsafe_code)]
pub fn map_code(path: &Path, flags_ok: impl Fn(u32) -> bool) -> Option<memmap2::Mmap> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() < MAP_FROM {
        return None;
    }
    let mut h = [0u8; 64];
    file.read_exact_at(&mut h, 0).ok()?;
    if !flags_ok(HeaderLayout::parse(&h)?.e_flags) {
        return None;
    }
    // SAFETY: the mapping is read-only, and only read through the slice
    // `Mmap` derefs to. Another process that writes the file while it is listed
    // changes the bytes read (as with a `read` racing the writer); one that truncates
    // it makes the pages past the new end unreadable (SIGBUS), the same caveat as
    // llvm-objdump's mapped inputs. hsaco never writes to the files it lists.
    let map = unsafe { memmap2::MmapOptions::new().map(&file) }.ok()?;
    (map.len() as u64 == meta.len()).then_some(map)
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
