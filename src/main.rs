//! The `skillgate` binary: parses flags, runs one subcommand, maps its outcome
//! to the exit-code contract (SPEC §6). Only here does the process exit.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    cli::init_tracing(args.verbose);
    match cli::run(args) {
        Ok(exit) => exit.into(),
        Err(e) => {
            eprintln!("error: {e:#}");
            skillgate::exit::Exit::Error.into()
        }
    }
}
