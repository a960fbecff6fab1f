//! Output helpers: error reports, stdout that tolerates a closed pipe, and files that
//! are written whole or not at all.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// Print an error and its causes to stderr.
pub fn report_error(e: &anyhow::Error) {
    let mut msg = format!("error: {e}");
    let mut causes = e.chain().skip(1).peekable();
    if causes.peek().is_some() {
        msg.push_str("\n\nCaused by:");
        for c in causes {
            msg.push_str(&format!("\n    {c}"));
        }
    }
    eprintln!("{msg}");
}

/// Write `text` to stdout; a closed pipe (`hsaco read x | head`) is not an error.
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("writing to stdout"),
    }
}

/// Write `data` to `path` atomically: a temporary file beside it, then a rename, so
/// an error never leaves a half-written output. `-` writes to stdout.
pub fn write_file(path: &Path, data: &[u8]) -> Result<()> {
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(data)
            .and_then(|_| out.flush())
            .context("writing to stdout");
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().context("output path has no file name")?;
    let tmp = dir.join(format!(
        ".{}.hsaco-tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = std::fs::write(&tmp, data).and_then(|_| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("writing {}", path.display()))
}
