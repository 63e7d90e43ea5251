//! `skillgate validate`.

use skillgate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<Exit> {
    anyhow::bail!("`skillgate validate` is pending in this build")
}
