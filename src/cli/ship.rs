//! `skillgate ship`.

use skillgate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<Exit> {
    anyhow::bail!("`skillgate ship` is pending in this build")
}
