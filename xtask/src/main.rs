//! Project tasks: `cargo xtask <task>`.
fn main() -> anyhow::Result<()> {
    let task = std::env::args().nth(1).unwrap_or_default();
    anyhow::bail!("unknown task {task:?}")
}
