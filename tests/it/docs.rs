//! The README and the book (`docs/`, an mdBook) checked without mdBook or
//! a network: every relative link names a file that exists, and every
//! anchor a heading of its page (the slugs mdBook and GitHub give
//! headings); `docs/SUMMARY.md` lists every page of the book and nothing
//! else; the README stays short, starts with the two commands that work on
//! a fresh clone, names nothing outside the repository (`../shared`), and
//! shows the book's SQLite recipe word for word.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The root of the repository.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The text of a Markdown page outside its fenced code blocks (their lines
/// left empty, so that line numbers stay the page's) and outside its code
/// spans (blanked, however many lines they span).
fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        match &fence {
            Some(open) => {
                if trimmed.starts_with(open.as_str()) && trimmed.trim_end() == open.as_str() {
                    fence = None;
                }
                out.push('\n');
                continue;
            }
            None => {
                if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                    let c = trimmed.chars().next().unwrap();
                    let n = trimmed.chars().take_while(|&x| x == c).count();
                    fence = Some(c.to_string().repeat(n));
                    out.push('\n');
                    continue;
                }
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    // Code spans: a run of n backticks up to the next run of exactly n.
    let chars: Vec<char> = out.chars().collect();
    let mut clean = String::with_capacity(out.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '`' {
            let n = chars[i..].iter().take_while(|&&c| c == '`').count();
            let mut j = i + n;
            let mut close = None;
            while j < chars.len() {
                if chars[j] == '`' {
                    let m = chars[j..].iter().take_while(|&&c| c == '`').count();
                    if m == n {
                        close = Some(j);
                        break;
                    }
                    j += m;
                } else {
                    j += 1;
                }
            }
            if let Some(j) = close {
                for &c in &chars[i..j + n] {
                    clean.push(if c == '\n' { '\n' } else { ' ' });
                }
                i = j + n;
                continue;
            }
            // A lone run of backticks is text.
            for _ in 0..n {
                clean.push('`');
            }
            i += n;
            continue;
        }
        clean.push(chars[i]);
        i += 1;
    }
    clean
}

/// The targets of the inline links and images of a page's prose
/// (`[text](target)`, `![alt](target "title")`), with the line of each.
fn links(text: &str) -> Vec<(usize, String)> {
    let prose = prose(text);
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = prose[from..].find("](") {
        let start = from + at + 2;
        let Some(len) = prose[start..].find(')') else {
            break;
        };
        let target = prose[start..start + len].trim();
        let target = target.split_whitespace().next().unwrap_or("").to_string();
        let line = prose[..start].matches('\n').count() + 1;
        found.push((line, target));
        from = start + len;
    }
    found
}

/// The anchor a heading gets, as mdBook and GitHub make it: the text as
/// shown (code spans, emphasis and links reduced to their text) in lower
/// case, letters, digits, `-` and `_` kept, a blank made `-`, the rest
/// dropped.
fn slug(heading: &str) -> String {
    let mut shown = String::new();
    let mut rest = heading;
    // A link shows its text only.
    while let Some(open) = rest.find('[') {
        shown.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find("](") {
            Some(close) if after[close + 2..].contains(')') => {
                shown.push_str(&after[..close]);
                let tail = &after[close + 2..];
                rest = &tail[tail.find(')').unwrap() + 1..];
            }
            _ => {
                shown.push('[');
                rest = after;
            }
        }
    }
    shown.push_str(rest);
    shown
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().collect::<String>())
            } else if c.is_whitespace() {
                Some("-".to_string())
            } else {
                None
            }
        })
        .collect()
}

/// The anchors of a page: one per ATX heading outside code blocks, a
/// heading met again getting `-1`, `-2`, ... as mdBook and GitHub number
/// them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut all = BTreeSet::new();
    let mut fence: Option<char> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            let c = t.chars().next().unwrap();
            fence = match fence {
                Some(open) if open == c => None,
                Some(open) => Some(open),
                None => Some(c),
            };
            continue;
        }
        if fence.is_some() || !line.starts_with('#') {
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim());
        let n = seen.entry(base.clone()).or_insert(0);
        all.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    all
}

/// `path` made normal without touching the disk (`a/../b` is `b`).
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// What is wrong with the links of the Markdown files `pages` (paths
/// relative to `base`): a target that does not exist, an anchor that is
/// not a heading of its page, an anchor on a file that is not a page. Each
/// as `page:line: target: why`.
fn broken_links(base: &Path, pages: &[PathBuf]) -> Vec<String> {
    let mut wrong = Vec::new();
    for page in pages {
        let text = fs::read_to_string(base.join(page))
            .unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        for (line, target) in links(&text) {
            let place = format!("{}:{line}: {target}", page.display());
            if target.is_empty() {
                wrong.push(format!("{place}: an empty link"));
                continue;
            }
            // An absolute address (https:, mailto:) is not checked here.
            let scheme = target.split(['/', '#']).next().unwrap_or("");
            if scheme.ends_with(':') || target.starts_with("//") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if file.is_empty() {
                page.clone()
            } else {
                normal(&page.parent().unwrap_or(Path::new("")).join(file))
            };
            let full = base.join(&dest);
            if !full.exists() {
                wrong.push(format!("{place}: {} does not exist", dest.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if dest.extension().and_then(|e| e.to_str()) != Some("md") {
                wrong.push(format!("{place}: an anchor on a file that is not a page"));
                continue;
            }
            let heads = anchors(&fs::read_to_string(&full).unwrap());
            if !heads.contains(anchor) {
                wrong.push(format!(
                    "{place}: {} has no heading `#{anchor}` (its anchors: {})",
                    dest.display(),
                    heads.into_iter().collect::<Vec<_>>().join(" ")
                ));
            }
        }
    }
    wrong
}

/// The Markdown files under `dir` (relative to `base`), sorted.
fn pages_under(base: &Path, dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(base.join(dir)).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let entry = entry.unwrap();
        let path = dir.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            found.extend(pages_under(base, &path));
        } else if path.extension().and_then(|e| e.to_str()) == Some("md") {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The pages `SUMMARY.md` lists, relative to its folder.
fn summary_pages(summary: &str) -> Vec<String> {
    links(summary)
        .into_iter()
        .map(|(_, target)| target.split('#').next().unwrap().to_string())
        .collect()
}

#[test]
fn every_link_of_the_readme_and_the_book_resolves() {
    let base = root();
    let mut pages = vec![PathBuf::from("README.md")];
    pages.extend(pages_under(&base, Path::new("docs")));
    assert!(pages.len() > 10, "the book's pages: {pages:?}");
    let wrong = broken_links(&base, &pages);
    assert!(wrong.is_empty(), "broken links:\n{}", wrong.join("\n"));
}

#[test]
fn the_summary_lists_every_page_of_the_book_once() {
    let base = root();
    let docs = base.join("docs");
    let summary = fs::read_to_string(docs.join("SUMMARY.md")).expect("docs/SUMMARY.md");
    let listed = summary_pages(&summary);
    let mut once = BTreeSet::new();
    for page in &listed {
        assert!(once.insert(page.clone()), "SUMMARY.md lists {page} twice");
        assert!(
            docs.join(page).is_file(),
            "SUMMARY.md lists {page}, which is not a file of docs/"
        );
    }
    for page in pages_under(&docs, Path::new("")) {
        let name = page.to_string_lossy().into_owned();
        assert!(
            name == "SUMMARY.md" || once.contains(&name),
            "docs/{name} is not in docs/SUMMARY.md: mdBook would not build it"
        );
    }
}

#[test]
fn the_readme_is_short_and_starts_with_the_commands_of_a_fresh_clone() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 400,
        "README.md has {lines} lines: it teaches in at most 400; reference goes to docs/"
    );
    assert!(
        !readme.contains("../shared"),
        "README.md names ../shared, which is not in the repository: say it in docs/, in prose"
    );
    let open = readme.find("```").expect("a code block in README.md");
    let block = &readme[open..];
    let body = &block[block.find('\n').unwrap() + 1..];
    let body = &body[..body.find("```").expect("the code block's end")];
    let commands: Vec<&str> = body.lines().collect();
    assert_eq!(
        commands.get(..2),
        Some(
            &[
                "cargo run --release -- convert --from draughts-num --to draughts-diag corpus/ --out-dir out/",
                "cargo test",
            ][..]
        ),
        "README.md's first code block must be the two commands that work on a fresh clone"
    );
    // What they promise: the corpus holds numbered-square draughts files.
    assert!(root().join("corpus/draughts/english.pdn").is_file());
}

/// The lines of the recipe titled `# SQLite` in a page's code blocks: from
/// the title to the block's end or the next title.
fn sqlite_recipe(page: &str) -> Vec<String> {
    let text = fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("# SQLite"))
        .unwrap_or_else(|| panic!("{page} has no SQLite recipe"));
    lines[at..]
        .iter()
        .take_while(|l| !l.starts_with("```"))
        .enumerate()
        .take_while(|(i, l)| *i == 0 || !(l.starts_with("# ") || l.is_empty()))
        .map(|(_, l)| l.to_string())
        .collect()
}

/// tests/conformance/csv.rs runs docs/csv.md's recipes against SQLite and
/// PostgreSQL; the README's is the same, word for word.
#[test]
fn the_readme_shows_the_books_sqlite_recipe() {
    let readme = sqlite_recipe("README.md");
    assert!(readme.len() >= 4, "{readme:?}");
    assert_eq!(readme, sqlite_recipe("docs/csv.md"));
}

/// The README's notebook example is `python/examples/openings.py` as it
/// is (less its docstring), which `python/tests/test_examples.py` runs: the
/// code a reader copies is the code that is tested.
#[test]
fn the_readmes_opening_example_is_the_tested_script() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("### Results by opening, in pandas and DuckDB")
        .nth(1)
        .expect("the README's section of the example");
    let block = section
        .split("```python\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("its python block");
    let script = fs::read_to_string(root().join("python/examples/openings.py")).unwrap();
    let code = script
        .splitn(3, "\"\"\"")
        .nth(2)
        .expect("the script's docstring")
        .trim_start_matches('\n');
    assert_eq!(
        block, code,
        "README example and python/examples/openings.py differ"
    );
}

#[test]
fn slugs_are_those_of_mdbook_and_github() {
    for (heading, anchor) in [
        ("Safety and damaged input", "safety-and-damaged-input"),
        ("`--to html`", "--to-html"),
        ("`kifu.read`", "kifuread"),
        (
            "Conformance: kifu against the peers' test suites",
            "conformance-kifu-against-the-peers-test-suites",
        ),
        ("lidraughts' exports", "lidraughts-exports"),
        (
            "Compressed inputs and outputs, zip archives",
            "compressed-inputs-and-outputs-zip-archives",
        ),
        ("The pipeline (library API)", "the-pipeline-library-api"),
        (
            "A link [to here](x.md) in a heading",
            "a-link-to-here-in-a-heading",
        ),
        ("`R` alone", "r-alone"),
        ("games.csv", "gamescsv"),
    ] {
        assert_eq!(slug(heading), anchor, "{heading}");
    }
}

/// The checker itself, on a book made up for it: every kind of broken
/// link it must find, beside links it must accept.
#[test]
fn the_link_checker_finds_every_kind_of_broken_link() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path();
    fs::create_dir_all(base.join("docs/sub")).unwrap();
    fs::write(base.join("picture.png"), b"png").unwrap();
    fs::write(
        base.join("docs/a.md"),
        "# A page\n\n## Twice\n\n## Twice\n\n## `--to svg`, the board\n\n\
         ```\n# not a heading\n[in code](missing.md)\n```\n",
    )
    .unwrap();
    let good = [
        "[a](a.md)",
        "[top](a.md#a-page)",
        "[second](a.md#twice-1)",
        "[code](a.md#--to-svg-the-board)",
        "[self](#here)",
        "![img](../picture.png \"a title\")",
        "[web](https://example.org/x#y)",
        "`[in a span](missing.md)`",
        "[across\nlines](a.md#twice)",
    ];
    let bad = [
        ("[gone](gone.md)", "does not exist"),
        ("[anchor](a.md#nowhere)", "has no heading"),
        ("[code heading](a.md#not-a-heading)", "has no heading"),
        ("[third](a.md#twice-2)", "has no heading"),
        ("[up](../../outside.md)", "does not exist"),
        ("[img anchor](../picture.png#x)", "not a page"),
        ("[empty]()", "an empty link"),
        ("[self](#elsewhere)", "has no heading"),
    ];
    let page = |body: &str| format!("# Here\n\n{body}\n");
    for link in good {
        fs::write(base.join("docs/b.md"), page(link)).unwrap();
        let wrong = broken_links(base, &[PathBuf::from("docs/b.md")]);
        assert!(wrong.is_empty(), "{link}: {wrong:?}");
    }
    for (link, why) in bad {
        fs::write(base.join("docs/b.md"), page(link)).unwrap();
        let wrong = broken_links(base, &[PathBuf::from("docs/b.md")]);
        assert!(
            wrong.len() == 1 && wrong[0].contains(why),
            "{link}: {wrong:?}"
        );
    }
    // A page in a sub-folder links up and across.
    fs::write(
        base.join("docs/sub/c.md"),
        "[a](../a.md#twice) [me](c.md)\n",
    )
    .unwrap();
    assert!(broken_links(base, &[PathBuf::from("docs/sub/c.md")]).is_empty());
    // The summary's pages.
    assert_eq!(
        summary_pages("# Summary\n\n[Intro](a.md)\n\n- [B](b.md)\n  - [C](sub/c.md#x)\n"),
        ["a.md", "b.md", "sub/c.md"]
    );
}
