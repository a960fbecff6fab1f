//! Reading input files (`-` is stdin).

use anyhow::{Context, Result};
use std::io::Read;
use std::path::Path;

/// The whole content of `path`, or of stdin for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("reading stdin")?;
        return Ok(buf);
    }
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}
