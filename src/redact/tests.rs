use super::*;

/// A random-looking string of `n` characters from `alphabet`, deterministic
/// (built at run time so no secret-shaped literal sits in the source).
fn rnd(n: usize, alphabet: &str) -> String {
    let a: Vec<char> = alphabet.chars().collect();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15 ^ n as u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            a[(x % a.len() as u64) as usize]
        })
        .collect()
}
const B62: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+";
const HEX: &str = "0123456789abcdef";

/// The misses of issue #19 point 11: (what, text, the secret that must go).
fn misses() -> Vec<(&'static str, String, String)> {
    let aws = rnd(40, B64);
    let pw = format!("Pw{}", rnd(12, B62));
    let dckr = format!("dckr_pat_{}", rnd(27, B62));
    let pypi = format!("pypi-AgEIcHlwaS5vcmc{}", rnd(60, B62));
    let hvs = format!("hvs.{}", rnd(24, B62));
    let sg = format!("SG.{}.{}", rnd(22, B62), rnd(43, B62));
    let gocspx = format!("GOCSPX-{}", rnd(28, B62));
    let shpat = format!("shpat_{}", rnd(32, HEX));
    vec![
        (
            "bare AWS secret key",
            format!("echo {aws} | aws configure"),
            aws.clone(),
        ),
        ("mysql -p", format!("mysql -u root -p{pw} app"), pw.clone()),
        (
            "curl -u",
            format!("curl -u admin:{pw} https://api.example.com/x"),
            pw.clone(),
        ),
        (
            "--password X",
            format!("psql --password {pw} -h db"),
            pw.clone(),
        ),
        (
            "sshpass -p",
            format!("sshpass -p {pw} ssh deploy@host uptime"),
            pw.clone(),
        ),
        (
            "dckr_pat_",
            format!("docker login -u me --password-stdin <<< {dckr}"),
            dckr,
        ),
        (
            "pypi-",
            format!("twine upload -u __token__ -p {pypi} dist/*"),
            pypi,
        ),
        (
            "hvs.",
            format!("export VAULT_ADDR=x; vault login {hvs}"),
            hvs,
        ),
        ("SG.", format!("send --key {sg}"), sg),
        ("GOCSPX-", format!("oauth-setup {gocspx}"), gocspx),
        ("shpat_", format!("shopify login {shpat}"), shpat),
        (
            "password split by a zero-width space",
            format!("DB_PASS\u{200B}WORD={pw} ./run"),
            pw.clone(),
        ),
    ]
}

#[test]
fn issue_19_misses_are_redacted() {
    for (what, text, secret) in misses() {
        let r = redact_counted(&text);
        assert!(r.count() >= 1, "{what}: nothing redacted in {text:?}");
        assert!(
            !r.text.contains(&secret),
            "{what}: secret survived: {}",
            r.text
        );
        assert!(r.text.contains(MARKER), "{what}: {}", r.text);
    }
}

#[test]
fn zero_width_split_secret_shapes_are_found() {
    let tok = format!("ghp_{}", rnd(36, B62));
    let split = format!("{}\u{200B}{}", &tok[..10], &tok[10..]);
    let out = redact(&format!("git clone https://x:{split}@github.com/a/b"));
    assert!(!out.contains(&tok[10..]), "{out}");
    // invisible characters are kept when nothing is redacted
    let innocent = "ls\u{200B} -la";
    assert_eq!(redact(innocent), innocent);
    assert_eq!(normalize_invisible("a\u{200B}b\u{00A0}c\u{FEFF}"), "ab c");
}

#[test]
fn gitleaks_rules_fire_with_their_id() {
    // A shape only the vendored set knows.
    let key = format!(
        "AGE-SECRET-KEY-1{}",
        rnd(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")
    );
    let t = format!("age -d -i <(echo {key})");
    let r = redact_counted(&t);
    assert_eq!(r.hits, ["age-secret-key"], "{}", r.text);
    // the generic rule (keyword + entropy) on an assignment
    let v = rnd(24, B62);
    let t = format!("config set auth_value: {v}");
    let r = redact_counted(&t);
    assert!(!r.text.contains(&v), "{}", r.text);
}

#[test]
fn pairs_keep_keys_and_placeholders_stay() {
    let pw = rnd(16, B62);
    assert_eq!(
        redact(&format!("mysql --password {pw} db")),
        "mysql --password [REDACTED:cli-password] db"
    );
    // A variable reference carries no secret.
    for t in [
        "mysql --password \"$DB_PASS\" db",
        "sshpass -p $SSHPASS ssh host",
        "curl -u user:${TOKEN} https://x",
    ] {
        assert_eq!(redact(t), t);
    }
}

#[test]
fn ordinary_commands_are_untouched() {
    for t in [
        "git push --force-with-lease origin main",
        "cargo test --all -- --nocapture",
        "git commit -m 'fix the token refresh path'",
        "git log --format=%H 3f2a9c0d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c",
        "grep -rn password_reset src/",
        "npm install --save-dev typescript@5.4.2",
        "python -m pytest tests/test_auth.py::test_login -x",
        "ls ~/.claude/projects/-home-user-src-skillgate/",
        "docker run -p 8080:80 nginx",
        "curl -sSL https://example.com/install.sh | sh",
        "export PATH=/usr/local/bin:/usr/bin:/bin",
        "sha256sum target/release/skillgate > SHA256SUMS",
        "/home/user/src/app/node_modules/.bin/tsc --noEmit",
        "kubectl get secret my-secret -o yaml",
        "max_tokens: 100 and the tokenizer ran; see src/secret_sauce.rs",
    ] {
        let r = redact_counted(t);
        assert_eq!(r.text, t, "false positive by {:?}", r.hits);
    }
}

#[test]
fn entropy_rules_catch_unknown_random_assignments_only() {
    let v = rnd(32, B62);
    let out = redact(&format!("export WIDGET_CFG={v}"));
    assert!(!out.contains(&v), "{out}");
    // a 64-character hex digest is not random enough in mixed case to count
    let h = rnd(64, HEX);
    let t = format!("CHECKSUM={h}");
    assert_eq!(redact(&t), t);
    // a git sha in an argument stays
    let sha = rnd(40, HEX);
    let t = format!("git show {sha}");
    assert_eq!(redact(&t), t);
}

#[test]
fn markers_are_never_redacted_again() {
    let tok = format!("ghp_{}", rnd(36, B62));
    let once = redact(&format!("token={tok}"));
    assert_eq!(redact(&once), once);
    assert_eq!(once.matches(MARKER).count(), 1, "{once}");
}

#[test]
fn every_rule_compiles_and_kinds_are_unique() {
    let own = own();
    assert_eq!(
        own.rules.len(),
        CORE_RULES.len() + EXTRA_RULES.len() + ENTROPY_RULES.len()
    );
    let mut kinds: Vec<&str> = own.rules.iter().map(|(r, _)| r.kind).collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds.len(), own.rules.len(), "duplicate kind");
}

/// Figures, not an assertion: `cargo test --lib redact::tests::throughput -- --ignored --nocapture`.
#[test]
#[ignore]
fn throughput() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realdata/transcripts");
    let mut texts = Vec::new();
    for f in crate::decode::discover::discover(&root).unwrap_or_default() {
        if let Ok(t) = crate::decode::decode_path(&f, None, &Default::default()) {
            for e in &t.events {
                if let crate::decode::Action::Shell(sh) = &e.action {
                    texts.extend(sh.commands.iter().map(|c| c.text.clone()));
                }
            }
        }
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let t = std::time::Instant::now();
    let mut hits = 0;
    for s in &texts {
        hits += redact_counted(s).count();
    }
    eprintln!(
        "first pass (loads the rule set, compiles the regexes it needs): {:?}",
        t.elapsed()
    );
    let t = std::time::Instant::now();
    for _ in 0..1000 {
        let _ = own().set.matches("git status --short");
    }
    eprintln!(
        "own rule set on `git status --short`: {:?} per call",
        t.elapsed() / 1000
    );
    let gl = gitleaks::rules();
    let t = std::time::Instant::now();
    for _ in 0..1000 {
        let _ = gl.candidates("git status --short");
    }
    eprintln!("gitleaks keyword scan: {:?} per call", t.elapsed() / 1000);
    let mut per: std::collections::BTreeMap<&str, usize> = Default::default();
    for s in &texts {
        for i in gl.candidates(s) {
            *per.entry(gl.rules[i].id).or_default() += 1;
        }
    }
    let mut top: Vec<_> = per.into_iter().collect();
    top.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    eprintln!("rules run most often: {:?}", &top[..top.len().min(8)]);
    let t = std::time::Instant::now();
    for _ in 0..10 {
        for s in &texts {
            hits += redact_counted(s).count();
        }
    }
    let el = t.elapsed();
    eprintln!(
        "{} commands ({} bytes) x10 in {:?}: {:.1} µs/command, {} hits",
        texts.len(),
        bytes,
        el,
        el.as_secs_f64() * 1e6 / (texts.len() * 10) as f64,
        hits
    );
}
