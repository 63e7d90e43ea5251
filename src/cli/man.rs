//! `skillgate completions SHELL` (clap_complete) and `skillgate man`
//! (clap_mangen): generated from the same clap definition as `--help`, so
//! they never drift from the flags.

use clap::CommandFactory;
use skillgate::exit::Exit;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write skillgate.1 and one skillgate-<command>.1 per subcommand here
    /// instead of printing skillgate.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn completions(args: CompletionsArgs) -> anyhow::Result<Exit> {
    let mut cmd = super::Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut cmd, "skillgate", &mut out);
    out.flush()?;
    Ok(Exit::Ok)
}

fn render(cmd: clap::Command) -> anyhow::Result<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut buf)?;
    Ok(buf)
}

pub fn man(args: ManArgs) -> anyhow::Result<Exit> {
    let cmd = super::Cli::command();
    let Some(dir) = args.dir else {
        std::io::stdout().lock().write_all(&render(cmd)?)?;
        return Ok(Exit::Ok);
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("{}: cannot create the folder: {e}", dir.display()))?;
    let mut pages = vec![("skillgate.1".to_string(), render(cmd.clone())?)];
    for sub in cmd.get_subcommands() {
        let name = format!("skillgate-{}", sub.get_name());
        // clap names are 'static; this process ends right after writing.
        let leaked: &'static str = Box::leak(name.clone().into_boxed_str());
        let bin: &'static str = Box::leak(name.replacen('-', " ", 1).into_boxed_str());
        let page = sub.clone().name(leaked).bin_name(bin);
        pages.push((format!("{name}.1"), render(page)?));
    }
    for (file, bytes) in &pages {
        let path = dir.join(file);
        skillgate::fsutil::atomic_write(&path, bytes)
            .map_err(|e| anyhow::anyhow!("{}: cannot write the man page: {e}", path.display()))?;
    }
    eprintln!("wrote {} man pages into {}", pages.len(), dir.display());
    Ok(Exit::Ok)
}
