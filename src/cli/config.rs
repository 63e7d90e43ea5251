//! `skillgate config`: print the effective configuration (defaults, then the
//! file found walking up from the working directory or named by `--config`).

use skillgate::exit::Exit;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Configuration file (default: `.skillgate.yaml` found walking up from the working directory).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let config = skillgate::config::Config::load_or_discover(args.config.as_deref(), &cwd)?;
    print!("{}", config.to_yaml());
    Ok(Exit::Ok)
}
