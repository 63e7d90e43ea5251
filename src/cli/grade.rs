//! `skillgate grade`.

use skillgate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<Exit> {
    anyhow::bail!("`skillgate grade` is pending in this build")
}
