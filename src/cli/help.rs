//! The closing section of every subcommand's `--help`: what it reads, what
//! it writes, its exit codes, one example. One place, so the pages stay
//! consistent (tests/release_cli.rs checks that every subcommand has one).
//! `main` exits; every code below is SPEC §6's contract (0 ok, 1 a blocking
//! finding, 2 usage/config/input error, 3 nothing to measure).

pub const VALIDATE: &str = "\
Reads:  SKILL.md files, skill folders, or trees holding skills.
Writes: diagnostics on stdout (text, or JSON with --format json); nothing else.
Exit:   0 no error (warnings allowed); 1 an error-level diagnostic; 2 an input
        that cannot be read as a SKILL.md.

Example:
  skillgate validate skills/";

pub const EXTRACT: &str = "\
Reads:  one SKILL.md (and its SKILL.constraints.yaml lockfile when present).
Writes: the constraints on stdout; with --write, the lockfile beside the
        skill (atomically).
Exit:   0 done; 2 an unreadable skill or lockfile, or bad flags.

Example:
  skillgate extract skills/tidy-branches/SKILL.md --write";

pub const TRAJECTORY: &str = "\
Reads:  transcript files or folders (every supported harness format).
Writes: their normalized events on stdout — never message text or tool output.
Exit:   0 decoded; 2 an unreadable path or an undecodable file.

Example:
  skillgate trajectory .planning/patterns/session.jsonl --format json";

pub const GATE: &str = "\
Reads:  skills (SKILL.md, lockfiles), trajectories (--trajectories, else the
        configured roots, else .planning/patterns), .skillgate.yaml.
Writes: the verdict on stdout (md, json, sarif, github, junit); the Markdown
        report only with --report or --report-dir; patches with --proposals;
        audit rows with --record; the job summary with --format github.
Exit:   0 pass (non-blocking flags allowed); 1 fail-closed; 2 usage,
        configuration or input error; 3 nothing to measure (no valid trajectory).

Example:
  skillgate gate skills/tidy-branches --trajectories .planning/patterns --format json";

pub const CONFIG: &str = "\
Reads:  .skillgate.yaml found walking up from the working directory (or --config).
Writes: the effective configuration on stdout.
Exit:   0 printed; 2 an invalid configuration (file and line named).

Example:
  skillgate config";

pub const PROPOSE: &str = "\
Reads:  one skill, its lockfile and its trajectories (as `gate`).
Writes: the proposals on stdout (text or JSON); only with --apply ID, that one
        proposal into SKILL.md or its lockfile (atomically).
Exit:   0 listed (or applied); 2 an input error or an unknown proposal id.

Example:
  skillgate propose skills/tidy-branches --trajectories .planning/patterns";

pub const REVIEW: &str = "\
Reads:  skills, their lockfiles and trajectories; keys from the terminal.
Writes: each decision into the lockfile (and a waiver into .skillgate.yaml),
        atomically after every decision; --list writes nothing.
Keys:   a accept · e edit the predicates · m manual (with a reason) · w waive
        (with a reason) · r not a rule · s skip · q quit (decisions are kept).
Exit:   0 done (--list: nothing undecided would block); 1 (--list) an
        undecided rule would block; 2 an input error, or no terminal to
        prompt on (use --list, or edit the lockfile: docs/review.md).

Example:
  skillgate review skills/tidy-branches
  skillgate review --list skills/";

pub const MERGE: &str = "\
Reads:  shard results of `skillgate gate --shard K/N --format json`, the
        skills they name (hashes checked) and the configuration.
Writes: the verdict on stdout in --format (as `skillgate gate`); with
        --proposals, one .patch per proposal. No transcript is read.
Exit:   0 pass; 1 fail-closed; 2 shards that do not belong together (skill,
        lockfile, configuration or version differ; a K twice or missing) or
        bad input; 3 nothing to measure. docs/shards.md

Example:
  skillgate gate skills/ --shard 1/2 --format json > s1.json
  skillgate gate skills/ --shard 2/2 --format json > s2.json
  skillgate merge s1.json s2.json --format sarif > skillgate.sarif";

pub const GRADE: &str = "\
Reads:  a contract file (--contract) and the evidence it names (--evidence).
        Contract paths are relative to the contract file's folder.
Writes: the mode's JSON on stdout (schemas/grade-*.schema.json); missing
        evidence and criterion defects on stderr.
Exit:   0 graded (also INCONCLUSIVE); 2 an unreadable contract or bad flags.

A contract (full reference: docs/grade.md):
  boundary: {evidence: [out/, session.jsonl], missing: [\"the CI log\"]}
  criteria:
    - id: report-written
      text: \"A report is written to out/report.md\"
      source: {kind: user_explicit, location: \"task prompt\"}
      check: {file_contains: {path: out/report.md, pattern: \"^# Report\"}}
  claims: [{claim: \"tests pass\", type: completion, check: {exit_code: {trajectory: session.jsonl, command: \"cargo test*\"}}}]
  # audit: skills: [{name, path, criteria}], conversations: [{trajectory}]
  Checks: file_exists, file_contains, predicate, exit_code, manual.

Example:
  skillgate grade --mode execution --contract contract.yaml --evidence run/";

pub const ASSESS: &str = "\
Reads:  RUN_DIR/findings.jsonl (and RUN_DIR/stack.json when present).
Writes: RUN_DIR/assessment.json (atomically; not with --dry-run, which prints
        it) and a summary on stdout.
Exit:   0 assessed; 2 an unreadable run folder or bad flags.

Example:
  skillgate assess runs/2026-01-02 --dry-run";

pub const DOCTOR: &str = "\
Reads:  one agent session (a transcript file, or the newest under a folder).
Writes: a self-contained report.html in a report folder (atomically) and a
        one-line summary on stdout.
Exit:   0 written; 2 an unreadable or undecodable session; 3 nothing to
        score (no history, or a session too short; the report says so).

Example:
  skillgate doctor ~/.claude/projects/my-project/";

pub const CAPTURE: &str = "\
Reads:  agent sessions (the PATHs given, else the harnesses' session folders),
        the repository's skills; the hook's JSON with --hook-input.
Writes: redacted, actions-only copies into .planning/patterns/<skill>/ (atomic;
        nothing with --dry-run); with --commit, a commit of just those files;
        with --install-hook/--uninstall-hook, the agent's configuration.
Exit:   0 captured (or nothing to capture); 2 bad flags, an unreadable path,
        or a refused configuration change.

Example:
  skillgate capture --skill tidy-branches --last 3 --dry-run";

pub const INGEST: &str = "\
Reads:  transcript files or folders (default: the known harness folders).
Writes: the audit database (SQLite, one transaction per file); counts as JSON
        on stdout (schemas/audit-ingest.schema.json).
Exit:   0 ingested (files that fail to decode are counted); 2 a named path that
        cannot be read, or an unusable database.

Example:
  skillgate ingest .planning/patterns";

pub const STATS: &str = "\
Reads:  the audit database (--db, SKILLGATE_AUDIT_DB, the configuration, or
        .skillgate/audit.db); a missing database answers empty stats.
Writes: per-tool statistics on stdout (JSON, schemas/audit-stats.schema.json,
        or a table).
Exit:   0 answered; 2 an unreadable database or bad flags.

Example:
  skillgate stats --window-days 30 --format table";

pub const REFINE: &str = "\
Reads:  the audit database and the repository (to find the tool's definition).
Writes: a refinement proposal on stdout (schemas/audit-refine.schema.json);
        with --no-dry-run, the intent into the audit log. Never patches.
Exit:   0 answered; 2 an unreadable database or bad flags.

Example:
  skillgate refine --tool Bash";

pub const COMPOSE: &str = "\
Reads:  the audit database and the built-in tool catalog.
Writes: a proposed tool chain on stdout (schemas/audit-compose.schema.json).
        Nothing is executed.
Exit:   0 answered; 2 an unreadable database or bad flags.

Example:
  skillgate compose --goal \"fix the failing test and push\"";

pub const EXPLAIN: &str = "\
Reads:  the audit database and the built-in tool catalog.
Writes: a SKILL.md-style Markdown block for the tool on stdout.
Exit:   0 answered; 2 an unreadable database or bad flags.

Example:
  skillgate explain shell.exec";

pub const FEDERATE: &str = "\
Reads:  the audit database; the federation endpoint (flag or SKILLGATE_FEDERATION_URL).
Writes: the peer's answer as JSON on stdout (publish sends refinement events).
Exit:   0 answered (an unset or unreachable peer is `ok: false`, still 0);
        2 bad flags.

Example:
  skillgate federate --action fetch --url https://peer.example/federation";

pub const HOOK: &str = "\
Reads:  see each subcommand (`skillgate hook pre-push --help`, `hook pre-commit
        --help`, `hook install --help`).
Writes: a summary on stderr; `install` writes the pre-push hook script.
Exit:   0 the push (commit) goes ahead; 1 a touched skill fails closed; 2 the
        check could not run.

Example:
  skillgate hook install";

pub const SHIP: &str = "\
Reads:  one skill folder, its lockfile, its trajectories, .skillgate.yaml.
Writes: one JSON object on stdout, also on errors (schemas/ship.schema.json);
        a line on stderr; the Markdown report (unless --no-report).
Exit:   0 ship; 1 blocked (validation errors, or fail-closed); 2 input error;
        3 nothing to measure. Every nonzero code blocks the publish.

Example:
  skillgate ship skills/tidy-branches --trajectories .planning/patterns";

pub const GITHUB: &str = "\
Reads:  the gate's JSON (--verdicts FILE or -), GITHUB_TOKEN, GITHUB_REPOSITORY,
        GITHUB_EVENT_PATH, GITHUB_SHA.
Writes: a check run with annotations and one upserted PR comment (GitHub API),
        the Markdown summary to $GITHUB_STEP_SUMMARY; annotations on stdout
        when the token is missing or read-only.
Exit:   0 reported (a read-only token falls back, never changing the verdict);
        2 bad input or an API failure other than 403.

Example:
  skillgate gate skills --format json > v.json && skillgate github report --verdicts v.json";

pub const COMPLETIONS: &str = "\
Reads:  nothing.
Writes: the completion script for SHELL on stdout.
Exit:   0 written; 2 an unknown shell.

Example:
  skillgate completions bash > ~/.local/share/bash-completion/completions/skillgate";

pub const MAN: &str = "\
Reads:  nothing.
Writes: the man page skillgate(1) on stdout; with --dir DIR, skillgate.1 and
        one skillgate-<command>.1 per subcommand into DIR.
Exit:   0 written; 2 DIR cannot be written.

Example:
  skillgate man --dir ~/.local/share/man/man1";

/// The top-level page's closing section.
pub const TOP: &str = "\
Exit codes (every command): 0 ok / the gate passed; 1 a blocking finding
(fail-closed, validation errors); 2 usage, configuration or input error;
3 nothing to measure (no valid trajectory).

Examples:
  skillgate gate skills/tidy-branches          # judge one skill, table on stdout
  skillgate hook install                       # block pushes of failing skills
  skillgate completions zsh > ~/.zfunc/_skillgate";
