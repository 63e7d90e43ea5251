//! A small line-based markdown segmenter for extraction: headings,
//! paragraphs, list items (with their lead-in), table rows (with their
//! header), fenced blocks, block quotes and example tags, each with its
//! 1-based lines. It is deliberately forgiving: any input gives blocks, never
//! an error (an unclosed fence runs to the end of the file).

/// Text spread over source lines: the lines' texts joined by single spaces,
/// with the offset where each line starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lined {
    pub text: String,
    /// (byte offset in `text`, source line), ascending.
    pub starts: Vec<(usize, u32)>,
}

impl Lined {
    pub fn push_line(&mut self, line: u32, s: &str) {
        let s = s.trim();
        if s.is_empty() {
            return;
        }
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        self.starts.push((self.text.len(), line));
        self.text.push_str(s);
    }

    /// The source line of a byte offset.
    pub fn line_at(&self, off: usize) -> u32 {
        let i = self.starts.partition_point(|(o, _)| *o <= off);
        self.starts.get(i.saturating_sub(1)).map_or(0, |(_, l)| *l)
    }

    pub fn first_line(&self) -> u32 {
        self.starts.first().map_or(0, |(_, l)| *l)
    }

    pub fn last_line(&self) -> u32 {
        self.starts.last().map_or(0, |(_, l)| *l)
    }
}

/// One block of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Heading {
        line: u32,
        level: usize,
        text: String,
    },
    Para(Lined),
    Item {
        body: Lined,
        indent: usize,
        ordered: bool,
        checkbox: bool,
    },
    Row {
        line: u32,
        cells: Vec<String>,
        /// Shared by every row of one table (no copy per row).
        header: std::rc::Rc<Vec<String>>,
    },
    Fence {
        start: u32,
        end: u32,
        lang: String,
        lines: Vec<(u32, String)>,
    },
    Quote(Lined),
    /// An HTML-like tag alone on its line (`<Good>`, `</Bad>`).
    Tag {
        line: u32,
        name: String,
        closing: bool,
    },
    Blank,
}

fn heading(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 {
        return None;
    }
    let level = t.bytes().take_while(|b| *b == b'#').count();
    if (1..=6).contains(&level) {
        let rest = &t[level..];
        if rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t') {
            return Some((level, rest.trim().trim_end_matches('#').trim()));
        }
    }
    None
}

/// `(indent, ordered, rest)` of a list item line.
fn list_item(line: &str) -> Option<(usize, bool, &str)> {
    let t = line.trim_start();
    let indent = line.len() - t.len();
    let b = t.as_bytes();
    if b.len() >= 2 && matches!(b[0], b'-' | b'*' | b'+') && (b[1] == b' ' || b[1] == b'\t') {
        return Some((indent, false, t[2..].trim_start()));
    }
    if (b.len() == 1) && matches!(b[0], b'-' | b'*' | b'+') {
        return Some((indent, false, ""));
    }
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if (1..=3).contains(&digits)
        && b.len() > digits + 1
        && matches!(b[digits], b'.' | b')')
        && (b[digits + 1] == b' ' || b[digits + 1] == b'\t')
    {
        return Some((indent, true, t[digits + 2..].trim_start()));
    }
    None
}

/// A line led by a mark ("❌ Pushing without …", "✅ Tests pass", "• one"):
/// the mark, with a space after it. A run of such lines is a list written
/// without list markers; the check and cross marks stay in the item (they
/// say "do" and "don't"), a bullet goes.
fn mark_led(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let c = t.chars().next()?;
    if !matches!(
        c,
        '❌' | '✅' | '✓' | '✔' | '✗' | '✘' | '🚫' | '⛔' | '⚠' | '•'
    ) {
        return None;
    }
    let rest = t[c.len_utf8()..].trim_start_matches('\u{FE0F}');
    if !rest.starts_with([' ', '\t']) || rest.trim().is_empty() {
        return None;
    }
    Some(if c == '•' { rest.trim_start() } else { t })
}

/// A line of three or more `=`, `-`, `*` or `_` alone (spaces between
/// allowed, at most three spaces before): a setext underline or a
/// thematic break. `=` needs a paragraph above it to mean anything.
fn rule_line(line: &str) -> Option<char> {
    let indent = line.len() - line.trim_start().len();
    let t: String = line.trim().chars().filter(|c| *c != ' ').collect();
    let c = t.chars().next()?;
    (indent <= 3
        && matches!(c, '=' | '-' | '*' | '_')
        && t.len() >= 3
        && t.chars().all(|x| x == c)
        && (c != '=' || !line.trim().contains(' ')))
    .then_some(c)
}

fn fence_open(line: &str) -> Option<(char, usize, &str)> {
    let t = line.trim_start();
    let c = t.chars().next()?;
    if c != '`' && c != '~' && c != '"' {
        return None;
    }
    let n = t.chars().take_while(|x| *x == c).count();
    if n < 3 {
        return None;
    }
    let info = t[n..].trim();
    if c == '`' && info.contains('`') || c == '"' && !info.is_empty() {
        return None;
    }
    Some((c, n, info))
}

fn tag(line: &str) -> Option<(String, bool)> {
    let t = line.trim();
    let inner = t.strip_prefix('<')?.strip_suffix('>')?;
    let (closing, name) = match inner.strip_prefix('/') {
        Some(n) => (true, n),
        None => (false, inner),
    };
    let ok = !name.is_empty()
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    ok.then(|| (name.to_string(), closing))
}

/// Split a table row into trimmed cells (`| a | b |` → [a, b]); `\|` stays in its cell.
pub fn cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_code = false;
    let mut prev = '\0';
    for c in t.chars() {
        if c == '`' {
            in_code = !in_code;
        }
        if c == '|' && !in_code && prev != '\\' {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
        prev = c;
    }
    out.push(cur.trim().to_string());
    out
}

fn is_separator_row(line: &str) -> bool {
    let t = line.trim();
    t.contains('-') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
}

/// A box-drawing character (U+2500–U+257F): the frame of a drawn banner.
fn is_box_drawing(c: char) -> bool {
    ('\u{2500}'..='\u{257F}').contains(&c)
}

/// A fenced block: the indexes of its opening and closing lines (`None`:
/// it runs to the end of the file) and its language.
struct Span {
    open: usize,
    close: Option<usize>,
    lang: String,
}

/// Pair the fence lines. A `"""` line opens only when a later one closes
/// it. Fences opened inside a fence of the same marker ("```markdown"
/// holding "```python" … "```"): CommonMark reads the inner bare "```" as
/// the end of the outer fence, but authors nest them (a document template
/// with its code blocks), and the rest of the template is not instructions.
/// An inner opener (same marker and length, with an info string) is counted,
/// and each bare closer closes the innermost one first. The line `skip`
/// opens nothing.
fn pair_fences(lines: &[(u32, &str)], quote_lines: &[usize], skip: Option<usize>) -> Vec<Span> {
    let mut spans = Vec::new();
    // (marker, length, opening line, language, nested openers)
    let mut open: Option<(char, usize, usize, String, usize)> = None;
    for (i, &(_, raw)) in lines.iter().enumerate() {
        if let Some((c, len, at, lang, nested)) = open.as_mut() {
            let t = raw.trim();
            let closer =
                t.chars().take_while(|x| x == c).count() >= *len && t.chars().all(|x| x == *c);
            if closer && *nested > 0 {
                *nested -= 1;
            } else if closer {
                spans.push(Span {
                    open: *at,
                    close: Some(i),
                    lang: std::mem::take(lang),
                });
                open = None;
            } else if let Some((ic, ilen, info)) = fence_open(raw) {
                if ic == *c && ilen == *len && !info.is_empty() {
                    *nested += 1;
                }
            }
            continue;
        }
        if skip == Some(i) {
            continue;
        }
        if let Some((c, len, info)) =
            fence_open(raw).filter(|(c, _, _)| *c != '"' || quote_lines.iter().any(|&q| q > i))
        {
            let lang = info.split_whitespace().next().unwrap_or("").to_string();
            open = Some((c, len, i, lang, 0));
        }
    }
    if let Some((_, _, at, lang, _)) = open {
        spans.push(Span {
            open: at,
            close: None,
            lang,
        });
    }
    spans
}

/// Section headings (`##` and deeper) inside fences without a language
/// (text a reader sees as code, where a document's structure rarely is).
fn headings_in_code(lines: &[(u32, &str)], spans: &[Span]) -> usize {
    spans
        .iter()
        .filter(|s| s.lang.is_empty())
        .map(|s| {
            let end = s.close.unwrap_or(lines.len());
            lines[s.open + 1..end]
                .iter()
                .filter(|(_, l)| heading(l).is_some_and(|(level, _)| level >= 2))
                .count()
        })
        .sum()
}

/// The fences of a document, and a stray fence line if there is one. A
/// fence that holds nothing but a heading is more likely one "```" too many
/// than code: every fence after it pairs the wrong way round, turning the
/// sections after it into code and the code into text. When reading that
/// line as no fence puts fewer section headings inside code, that reading
/// is taken.
fn fence_spans(lines: &[(u32, &str)], quote_lines: &[usize]) -> (Vec<Span>, Option<usize>) {
    let spans = pair_fences(lines, quote_lines, None);
    let score = headings_in_code(lines, &spans);
    if score == 0 {
        return (spans, None);
    }
    let only_headings = |s: &Span| {
        let end = s.close.unwrap_or(lines.len());
        let body = &lines[s.open + 1..end];
        s.lang.is_empty()
            && body.iter().any(|(_, l)| heading(l).is_some())
            && body
                .iter()
                .all(|(_, l)| l.trim().is_empty() || heading(l).is_some())
    };
    let best = spans
        .iter()
        .filter(|s| only_headings(s))
        .map(|s| {
            let alt = pair_fences(lines, quote_lines, Some(s.open));
            (headings_in_code(lines, &alt), s.open, alt)
        })
        .min_by_key(|(score, at, _)| (*score, *at));
    match best {
        Some((alt_score, at, alt)) if alt_score < score => (alt, Some(at)),
        _ => (spans, None),
    }
}

/// Segment body lines into blocks.
pub fn blocks<'a>(lines: impl Iterator<Item = (u32, &'a str)>) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut header: Option<std::rc::Rc<Vec<String>>> = None;
    let mut last_line = 0;
    let lines: Vec<(u32, &str)> = lines.collect();
    // A `"""` line opens a quoted block (a reply template, an example
    // output) only when a later `"""` line closes it.
    let quote_lines: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, (_, l))| matches!(fence_open(l), Some(('"', _, _))))
        .map(|(i, _)| i)
        .collect();
    let (spans, stray) = fence_spans(&lines, &quote_lines);
    let mut spans = spans.into_iter().peekable();
    // The fence being read: (first line, language, content lines, closer).
    type Reading = (u32, String, Vec<(u32, String)>, Option<usize>);
    let mut fence: Option<Reading> = None;
    for (i, &(n, raw)) in lines.iter().enumerate() {
        last_line = n;
        if let Some((start, lang, body, close)) = fence.as_mut() {
            if *close == Some(i) {
                out.push(Block::Fence {
                    start: *start,
                    end: n,
                    lang: std::mem::take(lang),
                    lines: std::mem::take(body),
                });
                fence = None;
            } else {
                body.push((n, raw.to_string()));
            }
            continue;
        }
        // A banner drawn with box characters ("╔═══╗" / "║ You MUST … ║"):
        // the frame is no text, the words inside it are.
        let unframed;
        let raw = if raw.chars().any(is_box_drawing) {
            unframed = raw.replace(is_box_drawing, " ");
            unframed.as_str()
        } else {
            raw
        };
        if raw.trim().is_empty() {
            header = None;
            if !matches!(out.last(), Some(Block::Blank)) {
                out.push(Block::Blank);
            }
            continue;
        }
        if stray == Some(i) {
            if !matches!(out.last(), Some(Block::Blank)) {
                out.push(Block::Blank);
            }
            continue;
        }
        if let Some(span) = spans.next_if(|s| s.open == i) {
            fence = Some((n, span.lang, Vec::new(), span.close));
            header = None;
            continue;
        }
        if let Some((level, text)) = heading(raw) {
            header = None;
            out.push(Block::Heading {
                line: n,
                level,
                text: text.to_string(),
            });
            continue;
        }
        // A line of `=` or `-` under a paragraph underlines it as a heading
        // (CommonMark's setext heading: "Title" / "====="; a frontmatter
        // whose opening `---` is missing ends in one); elsewhere `---`,
        // `***` or `___` is a thematic break, which ends the block before.
        if let Some(c) = rule_line(raw) {
            if let (Some(Block::Para(l)), '=' | '-') = (out.last(), c) {
                let (line, text) = (l.first_line(), l.text.clone());
                out.pop();
                out.push(Block::Heading {
                    line,
                    level: if c == '=' { 1 } else { 2 },
                    text,
                });
            } else if c != '=' && !matches!(out.last(), Some(Block::Blank)) {
                out.push(Block::Blank);
            }
            header = None;
            continue;
        }
        let t = raw.trim_start();
        if t.starts_with('|') {
            if is_separator_row(t) {
                continue;
            }
            match &header {
                None => {
                    header = Some(std::rc::Rc::new(cells(t)));
                }
                Some(h) => out.push(Block::Row {
                    line: n,
                    cells: cells(t),
                    header: h.clone(),
                }),
            }
            continue;
        }
        header = None;
        if let Some((name, closing)) = tag(raw) {
            out.push(Block::Tag {
                line: n,
                name,
                closing,
            });
            continue;
        }
        if let Some(q) = t.strip_prefix('>') {
            if let Some(Block::Quote(l)) = out.last_mut() {
                l.push_line(n, q);
            } else {
                let mut l = Lined::default();
                l.push_line(n, q);
                out.push(Block::Quote(l));
            }
            continue;
        }
        let run = |j: Option<usize>| {
            j.and_then(|j| lines.get(j))
                .is_some_and(|(_, l)| mark_led(l).is_some())
        };
        if let Some(body_text) = mark_led(raw).filter(|_| run(i.checked_sub(1)) || run(Some(i + 1)))
        {
            let mut body = Lined::default();
            body.push_line(n, body_text);
            out.push(Block::Item {
                body,
                indent: raw.len() - raw.trim_start().len(),
                ordered: false,
                checkbox: false,
            });
            continue;
        }
        if let Some((indent, ordered, rest)) = list_item(raw) {
            let (checkbox, rest) = match rest
                .strip_prefix("[ ]")
                .or_else(|| rest.strip_prefix("[x]"))
                .or_else(|| rest.strip_prefix("[X]"))
            {
                Some(r) => (true, r.trim_start()),
                None => (false, rest),
            };
            let mut body = Lined::default();
            body.push_line(n, rest);
            out.push(Block::Item {
                body,
                indent,
                ordered,
                checkbox,
            });
            continue;
        }
        // A continuation line: of the item or paragraph just before, else a new paragraph.
        match out.last_mut() {
            Some(Block::Item { body, .. }) | Some(Block::Para(body)) => body.push_line(n, raw),
            _ => {
                let mut l = Lined::default();
                l.push_line(n, raw);
                out.push(Block::Para(l));
            }
        }
    }
    if let Some((start, lang, body, _)) = fence {
        // Unclosed: the fence runs to the end of the file.
        out.push(Block::Fence {
            start,
            end: last_line,
            lang,
            lines: body,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(src: &str) -> Vec<Block> {
        blocks(src.lines().enumerate().map(|(i, l)| (i as u32 + 1, l)))
    }

    #[test]
    fn segments_the_common_shapes() {
        let b = seg(
            "# Title\n\nSome text\ncontinued.\n\n**Always:**\n- one\n  more\n- [ ] two\n\n| A | B |\n|---|---|\n| x | y |\n\n```\nRULE\n```\n<Good>\n> quoted\n",
        );
        assert!(matches!(&b[0], Block::Heading { level: 1, text, .. } if text == "Title"));
        assert!(
            matches!(&b[2], Block::Para(l) if l.text == "Some text continued." && l.last_line() == 4)
        );
        assert!(
            matches!(&b[5], Block::Item { body, checkbox: false, .. } if body.text == "one more")
        );
        assert!(matches!(&b[6], Block::Item { body, checkbox: true, .. } if body.text == "two"));
        assert!(
            matches!(&b[8], Block::Row { line: 13, cells, header } if cells == &["x", "y"] && **header == ["A", "B"])
        );
        assert!(
            matches!(&b[10], Block::Fence { start: 15, end: 17, lang, lines } if lang.is_empty() && lines.len() == 1)
        );
        assert!(matches!(&b[11], Block::Tag { name, closing: false, .. } if name == "Good"));
        assert!(matches!(&b[12], Block::Quote(_)));
    }

    #[test]
    fn setext_underlines_make_headings_and_rules_end_blocks() {
        let b = seg("Owner map\nand more\n===\n\n- one item\n***\nname: x\n---\n\n---\nText");
        assert!(
            matches!(&b[0], Block::Heading { line: 1, level: 1, text } if text == "Owner map and more")
        );
        // A thematic break ends the item before it; it is no text.
        assert!(matches!(&b[2], Block::Item { body, .. } if body.text == "one item"));
        assert!(matches!(&b[3], Block::Blank));
        assert!(matches!(&b[4], Block::Heading { line: 7, level: 2, text } if text == "name: x"));
        assert!(matches!(b.last(), Some(Block::Para(l)) if l.text == "Text"));
    }

    #[test]
    fn an_unclosed_fence_runs_to_the_end() {
        let b = seg("text\n```bash\nrm -rf /\nmore\n");
        assert!(matches!(
            b.last(),
            Some(Block::Fence {
                start: 2,
                end: 4,
                ..
            })
        ));
    }

    #[test]
    fn a_template_fence_holds_its_nested_code_blocks() {
        let b =
            seg("```markdown\n**Step 1**\n```python\nx = 1\n```\n**Step 2: Run it**\n```\nafter\n");
        let fences: Vec<(u32, u32)> = b
            .iter()
            .filter_map(|b| match b {
                Block::Fence { start, end, .. } => Some((*start, *end)),
                _ => None,
            })
            .collect();
        assert_eq!(fences, vec![(1, 7)]);
        assert!(matches!(b.last(), Some(Block::Para(_))));
        // A longer outer marker already holds the inner ones (CommonMark).
        let b = seg("````markdown\n```python\nx\n```\n````\nafter\n");
        assert!(matches!(
            b[0],
            Block::Fence {
                start: 1,
                end: 5,
                ..
            }
        ));
    }

    #[test]
    fn a_stray_fence_is_dropped_only_when_that_reads_better() {
        let fences = |src: &str| -> Vec<(u32, u32)> {
            seg(src)
                .iter()
                .filter_map(|b| match b {
                    Block::Fence { start, end, .. } => Some((*start, *end)),
                    _ => None,
                })
                .collect()
        };
        // Line 1 is one fence too many: the sections after it are text.
        assert_eq!(
            fences("```\n## A\n```\nsample\n```\n## B\n```\nsample\n```\n## Rules\n- x\n"),
            vec![(3, 5), (7, 9)]
        );
        // A template heading in a fence, with nothing better to read: kept.
        assert_eq!(
            fences("Reply:\n```\n## Summary\n```\n## Next\n"),
            vec![(2, 4)]
        );
        assert_eq!(
            fences("```\n## Summary\n- one\n```\n## Next\n- two\n"),
            vec![(1, 4)]
        );
    }

    #[test]
    fn a_run_of_marked_lines_is_a_list() {
        let b = seg("❌ Pushing blind\n✅ Tests pass\n• one\n\n❌ Bad: alone\nmore text\n");
        assert!(matches!(&b[0], Block::Item { body, .. } if body.text == "❌ Pushing blind"));
        assert!(matches!(&b[1], Block::Item { body, .. } if body.text == "✅ Tests pass"));
        assert!(matches!(&b[2], Block::Item { body, .. } if body.text == "one"));
        // One marked line is a paragraph like any other.
        assert!(matches!(&b[4], Block::Para(l) if l.text == "❌ Bad: alone more text"));
    }

    #[test]
    fn line_at_maps_offsets_to_lines() {
        let mut l = Lined::default();
        l.push_line(3, "abc");
        l.push_line(4, "def");
        assert_eq!(l.line_at(0), 3);
        assert_eq!(l.line_at(4), 4);
        assert_eq!(l.line_at(100), 4);
    }
}
