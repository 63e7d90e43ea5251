//! The built-in catalog of common harness tools: the "registry" of seed 001
//! when nothing better is known. `explain` takes descriptions and parameters
//! from it; `compose` matches goals against its keywords.

/// One parameter of a catalog tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub ty: &'static str,
    pub required: bool,
    pub description: &'static str,
}

/// One catalog tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatalogTool {
    pub name: &'static str,
    pub description: &'static str,
    pub params: &'static [Param],
    /// Goal words that call for this tool (lowercase, singular stems).
    pub keywords: &'static [&'static str],
    /// Where the tool sits in a typical chain (lower first): plan, find, read,
    /// change, run, publish.
    pub phase: u8,
}

const fn p(
    name: &'static str,
    ty: &'static str,
    required: bool,
    description: &'static str,
) -> Param {
    Param {
        name,
        ty,
        required,
        description,
    }
}

pub const CATALOG: &[CatalogTool] = &[
    CatalogTool {
        name: "plan.todo",
        description: "Keep a visible task list (TodoWrite, update_plan, write_todos): add, update and complete steps.",
        params: &[p("todos", "array", true, "The whole list of steps with their status.")],
        keywords: &["plan", "todo", "task", "step", "track", "organize", "organise", "checklist"],
        phase: 0,
    },
    CatalogTool {
        name: "web.search",
        description: "Search the web and return result titles, snippets and URLs.",
        params: &[p("query", "string", true, "The search query.")],
        keywords: &["search", "research", "google", "lookup", "web", "online", "latest", "news"],
        phase: 1,
    },
    CatalogTool {
        name: "web.fetch",
        description: "Fetch a URL and return its content as text or markdown.",
        params: &[
            p("url", "string", true, "The URL to fetch."),
            p("prompt", "string", false, "What to extract from the page."),
        ],
        keywords: &["fetch", "download", "url", "http", "page", "website", "doc", "documentation", "api", "web"],
        phase: 1,
    },
    CatalogTool {
        name: "browser.navigate",
        description: "Navigate a browser to a URL.",
        params: &[p("url", "string", true, "The URL to navigate to.")],
        keywords: &["browse", "navigate", "browser", "website", "site", "open"],
        phase: 1,
    },
    CatalogTool {
        name: "browser.click",
        description: "Click an element of the page open in the browser.",
        params: &[p("element_id", "integer", true, "The element to click.")],
        keywords: &["click", "button", "link", "form"],
        phase: 2,
    },
    CatalogTool {
        name: "file.search",
        description: "Search file contents for a pattern (Grep, search_file_content, rg).",
        params: &[
            p("pattern", "string", true, "The regular expression to search for."),
            p("path", "string", false, "Folder or file to search in."),
            p("glob", "string", false, "Only search files matching this glob."),
        ],
        keywords: &["search", "find", "grep", "locate", "where", "usage", "reference", "failing", "bug", "error", "debug"],
        phase: 2,
    },
    CatalogTool {
        name: "file.glob",
        description: "List files whose paths match a glob pattern (Glob, glob, find_file).",
        params: &[
            p("pattern", "string", true, "The glob pattern, such as `src/**/*.rs`."),
            p("path", "string", false, "Folder to search in."),
        ],
        keywords: &["find", "list", "files", "locate", "glob", "where"],
        phase: 2,
    },
    CatalogTool {
        name: "file.list",
        description: "List the entries of a folder (LS, list_directory).",
        params: &[p("path", "string", true, "The folder to list.")],
        keywords: &["list", "folder", "directory", "explore", "structure"],
        phase: 2,
    },
    CatalogTool {
        name: "file.read",
        description: "Read a file, or a range of its lines (Read, read_file, open).",
        params: &[
            p("file_path", "string", true, "Absolute path of the file to read."),
            p("offset", "integer", false, "First line to read."),
            p("limit", "integer", false, "How many lines to read."),
        ],
        keywords: &[
            "read", "open", "view", "inspect", "look", "understand", "review", "check", "fix", "bug", "failing", "debug",
            "explain", "analyze", "analyse",
        ],
        phase: 3,
    },
    CatalogTool {
        name: "file.edit",
        description: "Change a file in place by replacing exact text (Edit, MultiEdit, replace, apply_patch).",
        params: &[
            p("file_path", "string", true, "Absolute path of the file to change."),
            p("old_string", "string", true, "The exact text to replace; it must occur in the file."),
            p("new_string", "string", true, "The replacement text."),
            p("replace_all", "boolean", false, "Replace every occurrence instead of exactly one."),
        ],
        keywords: &[
            "edit", "fix", "change", "modify", "update", "refactor", "patch", "replace", "rename", "repair", "correct",
            "bug", "failing", "implement",
        ],
        phase: 4,
    },
    CatalogTool {
        name: "file.write",
        description: "Create a file or overwrite it with new content (Write, write_file, create).",
        params: &[
            p("file_path", "string", true, "Absolute path of the file to write."),
            p("content", "string", true, "The whole new content."),
        ],
        keywords: &["write", "create", "new", "add", "generate", "scaffold", "save", "draft", "implement", "script"],
        phase: 4,
    },
    CatalogTool {
        name: "shell.exec",
        description: "Run a shell command and return its output and exit code (Bash, shell, run_shell_command).",
        params: &[
            p("command", "string", true, "The command line to run."),
            p("description", "string", false, "What the command does, in a few words."),
            p("timeout", "integer", false, "Time limit in milliseconds."),
            p("run_in_background", "boolean", false, "Start the command and return at once."),
        ],
        keywords: &[
            "run", "test", "build", "compile", "execute", "install", "command", "push", "commit", "git", "deploy",
            "lint", "format", "script", "make", "cargo", "npm", "pytest", "merge", "branch", "release", "ci",
            "failing", "verify",
        ],
        phase: 5,
    },
    CatalogTool {
        name: "shell.output",
        description: "Read the new output of a background shell (BashOutput).",
        params: &[p("bash_id", "string", true, "The background shell's id.")],
        keywords: &["background", "output", "log", "monitor", "watch", "poll"],
        phase: 6,
    },
    CatalogTool {
        name: "agent.spawn",
        description: "Start a subagent on a delegated task and return its final answer (Task, Agent).",
        params: &[
            p("description", "string", true, "A short title of the task."),
            p("prompt", "string", true, "The task for the subagent."),
            p("subagent_type", "string", false, "Which kind of agent to start."),
        ],
        keywords: &["delegate", "parallel", "subagent", "agent", "review", "investigate", "explore", "research"],
        phase: 2,
    },
    CatalogTool {
        name: "skill.load",
        description: "Load an agent skill (SKILL.md) into the conversation (Skill, activate_skill).",
        params: &[p("skill", "string", true, "The skill's name.")],
        keywords: &["skill", "workflow", "procedure", "playbook"],
        phase: 0,
    },
    CatalogTool {
        name: "user.ask",
        description: "Ask the user a question and wait for the answer (AskUserQuestion).",
        params: &[p("questions", "array", true, "The questions with their options.")],
        keywords: &["ask", "confirm", "clarify", "question", "approval", "approve"],
        phase: 0,
    },
];

/// The catalog entry of a dot name.
pub fn lookup(dot: &str) -> Option<&'static CatalogTool> {
    CATALOG.iter().find(|t| t.name == dot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_names_are_unique_dot_names_known_to_the_mapping() {
        let mut seen = std::collections::HashSet::new();
        for t in CATALOG {
            assert!(seen.insert(t.name), "duplicate {}", t.name);
            assert!(t.name.contains('.'));
            assert!(!t.description.is_empty());
            assert!(
                !super::super::names::raw_names_for(t.name).is_empty(),
                "{} has no raw name",
                t.name
            );
            for k in t.keywords {
                assert_eq!(*k, k.to_lowercase());
            }
        }
        assert_eq!(lookup("shell.exec").unwrap().params[0].name, "command");
        assert!(lookup("nope.tool").is_none());
    }
}
