//! The `skillgate` binary: parses flags, runs one subcommand, maps its outcome
//! to the exit-code contract (SPEC §6). Only here does the process exit.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    reset_standard_streams();
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

/// Behave like a Unix filter on closed output (docs/reliability.md):
///
/// - a reader that goes away (`skillgate gate … | head -c 10`) ends the
///   process quietly by SIGPIPE, the conventional status (141 in a shell),
///   instead of Rust's default of ignoring the signal and then panicking in
///   `println!` (exit 101);
/// - a standard stream that was closed outright (`>&-`) is reopened on
///   `/dev/null`, so output is discarded instead of panicking, and no file the
///   command opens later can take descriptor 1 and receive the output.
fn reset_standard_streams() {
    #[cfg(unix)]
    // SAFETY: plain libc calls at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        for fd in 0..=2 {
            if libc::fcntl(fd, libc::F_GETFD) == -1 {
                let flags = if fd == 0 {
                    libc::O_RDONLY
                } else {
                    libc::O_WRONLY
                };
                let null = libc::open(c"/dev/null".as_ptr(), flags);
                if null >= 0 && null != fd {
                    libc::dup2(null, fd);
                    libc::close(null);
                }
            }
        }
    }
}
