//! `skillgate assess`.

use skillgate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<Exit> {
    anyhow::bail!("`skillgate assess` is pending in this build")
}
