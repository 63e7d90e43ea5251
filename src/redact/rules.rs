//! skillgate's own redaction rules: the doctor's original list (kept first,
//! so its `[REDACTED:<kind>]` names stay stable), then shapes and command-line
//! forms that gitleaks' default rules miss (issue #19, point 11), then the
//! entropy rules that run after gitleaks.

/// One redaction rule: a stable kind name and the pattern it replaces.
pub struct Rule {
    pub kind: &'static str,
    pub description: &'static str,
    pub pattern: &'static str,
    /// When set, only this capture group is replaced (the value of a pair),
    /// keeping the key visible (`password=[REDACTED:password-pair]`).
    pub group: Option<usize>,
    /// A further test of the replaced text (placeholders, entropy).
    pub check: Check,
}

/// A further test a rule's secret must pass to be replaced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Check {
    /// Every match is a secret.
    None,
    /// Not a shell variable reference (`$DB_PASS`, `"${TOKEN}"`): the secret
    /// itself is not in the text.
    NotPlaceholder,
    /// A random-looking value: at least `min_len` characters, upper and lower
    /// case letters and digits, Shannon entropy above `min_entropy` bits per
    /// character, no whitespace, not a path or URL, not a placeholder.
    Random { min_len: usize, min_entropy: f64 },
}

/// The doctor's original redaction list (`docs/doctor.md`), applied first and
/// in this order. Shapes with a
/// distinctive prefix match even when glued to preceding text (`xghp_…`);
/// `sk-`, Stripe keys and pairs need a word boundary, so prose such as
/// `task-management-…` is left alone.
pub const CORE_RULES: &[Rule] = &[
    Rule {
        kind: "pem-block",
        description: "PEM blocks (`-----BEGIN … -----` to `-----END … -----`, or to the end of the text when the END line is missing): private keys, certificates",
        pattern: r"-----BEGIN [A-Z0-9 ]{0,40}-----(?s:.*?)(?:-----END [A-Z0-9 ]{0,40}-----|\z)",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "jwt",
        description: "JSON Web Tokens (`eyJ….eyJ….<signature>`)",
        pattern: r"eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "bearer-token",
        description: "`Bearer <token>` values (16+ token characters) and `Authorization: Basic <credentials>` headers",
        pattern: r#"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{16,}|\bauthorization["']?\s*[:=]\s*["']?basic\s+[A-Za-z0-9+/=]{8,}"#,
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "url-credentials",
        description: "passwords in URLs (`scheme://user:password@host`)",
        pattern: r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@",
        group: Some(1),
        check: Check::None,
    },
    Rule {
        kind: "openai-anthropic-key",
        description: "OpenAI / Anthropic style API keys (`sk-…`, `sk-proj-…`, `sk-ant-…`)",
        pattern: r"\bsk-[A-Za-z0-9_-]{16,}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "stripe-key",
        description: "Stripe keys (`sk_live_…`, `rk_test_…`, `pk_live_…`)",
        pattern: r"\b[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "github-token",
        description: "GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)",
        pattern: r"(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "gitlab-token",
        description: "GitLab personal access tokens (`glpat-…`)",
        pattern: r"glpat-[A-Za-z0-9_-]{20,}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "slack-token",
        description: "Slack tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xapp-`) and webhook URLs",
        pattern: r"(?:xox[abprs]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+)",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "aws-access-key-id",
        description: "AWS access key ids (`AKIA…`, `ASIA…` and the other 4-letter prefixes + 16 characters)",
        pattern: r"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "aws-secret-access-key",
        description: "AWS secret keys given as a pair (`aws_secret_access_key = …`, `AWS_SECRET_ACCESS_KEY: …`, `\"SecretAccessKey\": \"…\"`)",
        pattern: r#"(?i)\b(?:aws_?secret_?access_?key|secretaccesskey)["']?\s*[:=]\s*("[^"\n]*"|'[^'\n]*'|[^\s"',;&}]+)"#,
        group: Some(1),
        check: Check::None,
    },
    Rule {
        kind: "google-api-key",
        description: "Google API keys (`AIza` + 35 characters)",
        pattern: r"AIza[0-9A-Za-z_-]{35}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "huggingface-token",
        description: "Hugging Face tokens (`hf_…`)",
        pattern: r"hf_[A-Za-z0-9]{30,}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "npm-token",
        description: "npm tokens (`npm_…`)",
        pattern: r"npm_[A-Za-z0-9]{36}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "secret-pair",
        description: "`key=value` / `key: value` / `\"key\": \"value\"` pairs whose key ends in password, passwd, pwd, secret, token, api_key / apikey, access_key, private_key, client_secret, credentials or accountkey (case-insensitive): the value is replaced",
        pattern: r#"(?i)\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|accountkey)["']?\s*[:=]\s*("[^"\n]*"|'[^'\n]*'|[^\s"',;&}]+)"#,
        group: Some(1),
        check: Check::None,
    },
];

/// Shapes and command-line forms gitleaks' default rules miss or only catch
/// in their exact production length; applied after [`CORE_RULES`], before
/// the vendored gitleaks rules.
pub const EXTRA_RULES: &[Rule] = &[
    Rule {
        kind: "cli-password",
        description: "the value after a password / token flag (`--password X`, `--password=X`, `--passwd`, `--pass`, `--token`, `--api-key`, `--secret`, `--client-secret`, `--auth-token`, `--access-token`)",
        pattern: r#"(?i)(?:^|[\s;&|(])--(?:password|passwd|pass|pwd|token|api[-_]?key|secret|client[-_]secret|auth[-_]token|access[-_]token)(?:=|\s+)("[^"\n]*"|'[^'\n]*'|[^\s"'|;&)]+)"#,
        group: Some(1),
        check: Check::NotPlaceholder,
    },
    Rule {
        kind: "mysql-password",
        description: "a password glued to `-p` in `mysql` / `mysqldump` / `mysqladmin` / `mariadb` (`mysql -uroot -pSECRET`)",
        pattern: r#"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p("[^"\n]*"|'[^'\n]*'|[^\s"'|;&)]+)"#,
        group: Some(1),
        check: Check::NotPlaceholder,
    },
    Rule {
        kind: "sshpass-password",
        description: "the password of `sshpass -p PASSWORD`",
        pattern: r#"\bsshpass\b[^\n|;&]*?\s-p\s*("[^"\n]*"|'[^'\n]*'|[^\s"'|;&)]+)"#,
        group: Some(1),
        check: Check::NotPlaceholder,
    },
    Rule {
        kind: "cli-user-password",
        description: "the password of `user:password` given to `curl -u` / `--user`, `wget --http-password`-style `-u`, `--proxy-user`",
        pattern: r#"\b(?:curl|wget|http|httpie)\b[^\n|;&]*?\s(?:-u|--user|--proxy-user|-U)(?:\s+|=)?["']?[^\s:"']*:([^\s"'|;&)]+)"#,
        group: Some(1),
        check: Check::NotPlaceholder,
    },
    Rule {
        kind: "docker-pat",
        description: "Docker Hub personal access tokens (`dckr_pat_…`)",
        pattern: r"dckr_pat_[A-Za-z0-9_-]{16,}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "pypi-token",
        description: "PyPI API tokens (`pypi-…`)",
        pattern: r"\bpypi-[A-Za-z0-9_-]{32,}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "vault-token",
        description: "HashiCorp Vault tokens (`hvs.…`, `hvb.…`, `hvr.…`)",
        pattern: r"\bhv[sbr]\.[A-Za-z0-9_-]{20,}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "sendgrid-key",
        description: "SendGrid API keys (`SG.<id>.<secret>`)",
        pattern: r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "google-oauth-client-secret",
        description: "Google OAuth client secrets (`GOCSPX-…`)",
        pattern: r"GOCSPX-[A-Za-z0-9_-]{20,}",
        group: None,
        check: Check::None,
    },
    Rule {
        kind: "shopify-token",
        description: "Shopify tokens (`shpat_`, `shpca_`, `shppa_`, `shpss_`)",
        pattern: r"shp(?:at|ca|pa|ss)_[A-Za-z0-9]{20,}",
        group: None,
        check: Check::None,
    },
];

/// Entropy rules, applied after the gitleaks rules: what no known shape
/// caught but still looks random.
pub const ENTROPY_RULES: &[Rule] = &[
    Rule {
        kind: "high-entropy-assignment",
        description: "the value of any `NAME=value` / `NAME: value` assignment that looks random (20+ characters, mixed case and digits, entropy above 3.8 bits per character, not a path, URL or `$VAR`)",
        pattern: r#"(?:^|[\s;&|(])(?:export\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*[:=]\s*("[^"\n]{20,}"|'[^'\n]{20,}'|[^\s"'|;&)]{20,})"#,
        group: Some(1),
        check: Check::Random {
            min_len: 20,
            min_entropy: 3.8,
        },
    },
    Rule {
        kind: "high-entropy-secret",
        description: "a bare 40-character base64-alphabet word with mixed case and digits and entropy above 4.2 bits per character (the shape of an AWS secret access key)",
        pattern: r"(?:^|[^A-Za-z0-9/+=_-])([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=_-]|$)",
        group: Some(1),
        check: Check::Random {
            min_len: 40,
            min_entropy: 4.2,
        },
    },
];
